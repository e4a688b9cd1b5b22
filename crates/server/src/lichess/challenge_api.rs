//! The challenge routes: `POST /api/challenge/{username}`, `GET /api/challenge`,
//! `POST /api/challenge/{id}/accept|decline|cancel`.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use super::body::FormOrJson;
use super::challenge::ChallengeForm;
use super::error::{ok, LichessResult};
use super::ndjson;
use super::service::{origin, require_any_scope, Lichess};
use crate::auth::LoggedIn;

const WRITE: [&str; 3] = ["challenge:write", "bot:play", "board:play"];
const READ: [&str; 3] = ["challenge:read", "bot:play", "board:play"];

/// `POST /api/challenge/{username}`: the challenge's JSON (or, with `keepAliveStream`, a
/// stream that ends with `{"done": status}` once it is answered, and cancels it if the
/// client goes away first).
pub async fn create(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    headers: HeaderMap,
    Path(username): Path<String>,
    FormOrJson(form): FormOrJson<ChallengeForm>,
) -> LichessResult<Response> {
    require_any_scope(&who, &WRITE)?;
    let origin = origin(&headers);
    let mut changes = l.challenges.subscribe();
    let c = l.challenges.create(&who.account, &username, &form).await?;
    let json = l.challenges.json(&c, &who.account.id, &origin).await?;
    if !form.keep_alive_stream.unwrap_or(false) {
        return Ok(Json(json).into_response());
    }
    let account = who.account.clone();
    Ok(ndjson::stream(l.hub.closing(), move |lines| async move {
        struct CancelOnDrop {
            l: Arc<Lichess>,
            id: String,
            account: crate::auth::Account,
            answered: bool,
        }
        impl Drop for CancelOnDrop {
            fn drop(&mut self) {
                if !self.answered {
                    let (l, id, a) = (self.l.clone(), self.id.clone(), self.account.clone());
                    tokio::spawn(async move {
                        let _ = l.challenges.cancel(&id, &a).await;
                    });
                }
            }
        }
        let mut guard = CancelOnDrop {
            l: l.clone(),
            id: c.id.clone(),
            account,
            answered: false,
        };
        if lines.send(&json).await.is_err() {
            return;
        }
        loop {
            match changes.recv().await {
                Ok(ch) if ch.challenge.id == guard.id && ch.challenge.status != "created" => {
                    guard.answered = true;
                    let _ = lines.send(&json!({"done": ch.challenge.status})).await;
                    return;
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            }
        }
    }))
}

/// `GET /api/challenge`: `{"in": [...], "out": [...]}`.
pub async fn list(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    headers: HeaderMap,
) -> LichessResult<Json<Value>> {
    require_any_scope(&who, &READ)?;
    let origin = origin(&headers);
    let (incoming, outgoing) = l.challenges.pending(&who.account.id).await?;
    let mut ins = Vec::new();
    for c in &incoming {
        ins.push(l.challenges.json(c, &who.account.id, &origin).await?);
    }
    let mut outs = Vec::new();
    for c in &outgoing {
        outs.push(l.challenges.json(c, &who.account.id, &origin).await?);
    }
    Ok(Json(json!({"in": ins, "out": outs})))
}

/// `POST /api/challenge/{id}/accept`: the game (same id) starts.
pub async fn accept(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    Path(id): Path<String>,
) -> LichessResult<Json<Value>> {
    require_any_scope(&who, &WRITE)?;
    l.challenges.accept(&l.hub, &id, &who.account).await?;
    Ok(ok())
}

/// The body of a decline.
#[derive(Debug, Default, Deserialize)]
pub struct DeclineForm {
    /// lichess's reason key (`generic`, `later`, `tooFast`, …).
    #[serde(default)]
    pub reason: Option<String>,
}

/// `POST /api/challenge/{id}/decline`.
pub async fn decline(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    Path(id): Path<String>,
    FormOrJson(form): FormOrJson<DeclineForm>,
) -> LichessResult<Json<Value>> {
    require_any_scope(&who, &WRITE)?;
    l.challenges
        .decline(&id, &who.account, form.reason.as_deref())
        .await?;
    Ok(ok())
}

/// `POST /api/challenge/{id}/cancel`.
pub async fn cancel(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    Path(id): Path<String>,
) -> LichessResult<Json<Value>> {
    require_any_scope(&who, &WRITE)?;
    l.challenges.cancel(&id, &who.account).await?;
    Ok(ok())
}
