//! The web UI's chat endpoints (native JSON): `GET /api/games/{id}/chat` (both rooms, the
//! players' only for the players), `POST /api/games/{id}/chat` and the live lines,
//! `GET /api/games/{id}/chat/stream` (NDJSON `chatLine`).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use super::chat::{plays_in, Room};
use super::ndjson;
use super::service::Lichess;
use crate::auth::{Identity, LoggedIn};
use crate::error::ApiResult;
use crate::extract::JsonBody;

/// `POST /api/games/{id}/chat`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostLine {
    /// `player` or `spectator`.
    pub room: Room,
    /// The line, 1 to 140 characters.
    pub text: String,
}

/// `GET /api/games/{id}/chat`.
pub async fn get_chat(
    State(l): State<Arc<Lichess>>,
    who: Identity,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let view = l.hub.view(&id).await?;
    let player = who.account.as_ref().is_some_and(|a| plays_in(&view, a));
    let players_room = if player {
        Some(l.chat.lines(&id, Room::Player).await?)
    } else {
        None
    };
    let spectators = l.chat.lines(&id, Room::Spectator).await?;
    let closed = l.chat.players_room_closed(&view).await?;
    Ok(Json(json!({
        "player": players_room,
        "spectator": spectators,
        "player_closed": closed,
    })))
}

/// `POST /api/games/{id}/chat`.
pub async fn post_chat(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    Path(id): Path<String>,
    JsonBody(line): JsonBody<PostLine>,
) -> ApiResult<Json<Value>> {
    let view = l.hub.view(&id).await?;
    l.chat
        .post(&view, &who.account, line.room, &line.text)
        .await?;
    Ok(Json(json!({"ok": true})))
}

/// `GET /api/games/{id}/chat/stream`: the new lines of the rooms the client may read.
pub async fn stream_chat(
    State(l): State<Arc<Lichess>>,
    who: Identity,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let view = l.hub.view(&id).await?;
    let player = who.account.as_ref().is_some_and(|a| plays_in(&view, a));
    let mut rx = l.chat.subscribe();
    Ok(ndjson::stream(l.hub.closing(), move |lines| async move {
        loop {
            match rx.recv().await {
                Ok(line) if line.game == id && (player || line.room == Room::Spectator) => {
                    let v = json!({
                        "type": "chatLine",
                        "room": line.room,
                        "username": line.username,
                        "text": line.text,
                        "at": line.at,
                    });
                    if lines.send(&v).await.is_err() {
                        return;
                    }
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            }
        }
    }))
}
