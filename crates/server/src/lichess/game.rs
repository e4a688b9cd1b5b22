//! The Board API and the Bot API: a game's stream (`gameFull`, then `gameState` at every
//! change and `chatLine`), and the players' actions — move, draw, takeback, abort, resign,
//! claims, chat — through the same referee as the native API.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::Uri;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use super::body::{flag, FormOrJson};
use super::chat::{plays_in, Room};
use super::error::{ok, LichessResult};
use super::ndjson::{self, Gone, Lines};
use super::service::{Lichess, PlayApi};
use super::wire::{game_full, game_state, seat_of};
use crate::auth::LoggedIn;
use crate::error::{ApiResult, AppError};
use crate::games::players::Credentials;
use crate::games::referee::Action;
use crate::games::wire::{DrawAction, DrawRequest, GameView, MoveRequest};
use crate::games::Status;

fn credentials(who: &LoggedIn) -> Credentials {
    Credentials {
        token: None,
        account: Some(who.account.id.clone()),
    }
}

async fn act(l: &Lichess, who: &LoggedIn, uri: &Uri, id: &str, action: Action) -> ApiResult<()> {
    PlayApi::of_path(uri.path()).check(who)?;
    l.hub.act_quiet(id, &credentials(who), action).await?;
    Ok(())
}

/// `GET /api/{board,bot}/game/stream/{id}`: `gameFull`, then the game's changes; the stream
/// ends after a finished game's last state.
pub async fn stream(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path(id): Path<String>,
) -> LichessResult<Response> {
    PlayApi::of_path(uri.path()).check(&who)?;
    let view = l.hub.view(&id).await?;
    let sub = l.hub.subscribe(&id, Some(view.last_seq)).await?;
    let player = plays_in(&view, &who.account);
    let chat = l.chat.subscribe();
    let closing = l.hub.closing();
    Ok(ndjson::stream(closing, move |lines| async move {
        let _ = follow(l, id, view, sub, chat, player, lines).await;
    }))
}

async fn follow(
    l: Arc<Lichess>,
    id: String,
    mut view: GameView,
    mut sub: crate::games::Subscription,
    mut chat: tokio::sync::broadcast::Receiver<Arc<super::chat::ChatLine>>,
    player: bool,
    lines: Lines,
) -> Result<(), Gone> {
    lines.send(&game_full(&view, None)).await?;
    if is_over(&view) {
        return Ok(());
    }
    let mut last: Value = game_state(&view);
    // Events the subscription already holds (between the view and the subscription).
    let mut stale = false;
    for e in std::mem::take(&mut sub.backlog) {
        stale |= !apply(&mut view, e.json.as_str());
    }
    let mut changed = true;
    loop {
        if stale {
            // Out of step (a lagging subscription, an event this stream cannot read): the
            // game's state from its actor.
            stale = false;
            if let Ok(now) = l.hub.view(&id).await {
                view = now;
            }
            changed = true;
        }
        if changed {
            changed = false;
            let state = game_state(&view);
            if !same_state(&state, &last) {
                lines.send(&state).await?;
                last = state;
            }
            if is_over(&view) {
                return Ok(());
            }
        }
        tokio::select! {
            ev = sub.rx.recv() => match ev {
                Ok(e) => {
                    if e.seq == 0 {
                        // Notices: a withdrawal ends the game; rematch offers are not news.
                        if e.json.as_str().contains("\"withdrawn\"") {
                            stale = true;
                        }
                        continue;
                    }
                    if e.seq <= view.last_seq {
                        continue;
                    }
                    if apply(&mut view, e.json.as_str()) {
                        view.last_seq = e.seq;
                        changed = true;
                    } else {
                        stale = true;
                    }
                }
                Err(RecvError::Lagged(_)) => stale = true,
                Err(RecvError::Closed) => {
                    // The game's actor stopped (unloaded, or moved to another node): follow
                    // it again from the last event seen.
                    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                    match l.hub.subscribe(&id, Some(view.last_seq)).await {
                        Ok(s) => sub = s,
                        Err(_) => return Ok(()),
                    }
                    stale = true;
                }
            },
            line = chat.recv() => match line {
                Ok(line) if line.game == id && (player || line.room == Room::Spectator) => {
                    lines
                        .send(&json!({
                            "type": "chatLine",
                            "room": line.room,
                            "username": line.username,
                            "text": line.text,
                        }))
                        .await?;
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return Ok(()),
            },
        }
    }
}

fn is_over(view: &GameView) -> bool {
    matches!(view.status, Status::Finished | Status::Withdrawn)
}

/// The state after a game event, from the event's own fields (the move made, the clocks,
/// offers and status after it), so that a stream does not ask the game for its whole state
/// at every move. `false` when the event does not follow on from `view` (then the stream
/// asks the game).
fn apply(view: &mut GameView, json: &str) -> bool {
    let Ok(ev) = serde_json::from_str::<Value>(json) else {
        return false;
    };
    if ev["type"] != "event" {
        return false;
    }
    if let Some(m) = ev.get("move").filter(|m| !m.is_null()) {
        match serde_json::from_value::<crate::games::wire::MoveView>(m.clone()) {
            Ok(mv) => view.moves.push(mv),
            Err(_) => return false,
        }
    }
    if ev["ply"].as_u64() != Some(view.moves.len() as u64) {
        return false;
    }
    let (Ok(status), Ok(clocks), Ok(turn), Ok(draw_offer)) = (
        serde_json::from_value::<Status>(ev["status"].clone()),
        serde_json::from_value(ev["clocks"].clone()),
        serde_json::from_value(ev["turn"].clone()),
        serde_json::from_value(ev["draw_offer"].clone()),
    ) else {
        return false;
    };
    view.status = status;
    view.clocks = clocks;
    view.turn = turn;
    view.draw_offer = draw_offer;
    view.result = ev["result"].as_str().map(str::to_owned);
    view.termination = ev["termination"].as_str().map(str::to_owned);
    if let Some(fen) = ev["fen"].as_str() {
        view.fen = fen.to_owned();
    }
    true
}

/// Two states differ in something other than the clocks' running time (a start, a move, an
/// offer, the end); a clock read later is not news.
fn same_state(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| k == "wtime" || k == "btime" || y.get(k) == Some(v))
        }
        _ => a == b,
    }
}

/// `?offeringDraw=true` of a move.
#[derive(Debug, Deserialize)]
pub struct MoveQuery {
    /// Offer a draw with the move (Art. 9.1.2.1: the move first, then the offer).
    #[serde(default, rename = "offeringDraw", deserialize_with = "flag")]
    pub offering_draw: Option<bool>,
}

/// `POST /api/{board,bot}/game/{id}/move/{uci}`.
pub async fn post_move(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path((id, uci)): Path<(String, String)>,
    Query(q): Query<MoveQuery>,
) -> LichessResult<Json<Value>> {
    let mv = Action::Move(MoveRequest {
        mv: uci,
        offer_draw: q.offering_draw.unwrap_or(false),
        ply: None,
        lag_ms: None,
    });
    act(&l, &who, &uri, &id, mv).await?;
    Ok(ok())
}

fn yes_no(s: &str) -> ApiResult<bool> {
    match s {
        // berserk's Bot API client writes 1 and 0.
        "yes" | "true" | "1" | "accept" => Ok(true),
        "no" | "false" | "0" | "decline" => Ok(false),
        other => Err(AppError::bad_request(
            "bad_answer",
            format!("expected yes or no, found {other:?}"),
        )),
    }
}

/// `POST /api/{board,bot}/game/{id}/draw/{yes|no}`: `yes` accepts the opponent's offer or
/// makes one (Art. 9.1.2); `no` declines the opponent's offer.
pub async fn post_draw(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path((id, answer)): Path<(String, String)>,
) -> LichessResult<Json<Value>> {
    PlayApi::of_path(uri.path()).check(&who)?;
    let yes = yes_no(&answer)?;
    let view = l.hub.view(&id).await?;
    let seat = seat_of(&view, &who.account.username)
        .ok_or_else(|| AppError::forbidden("not_a_player", "you do not play in this game"))?;
    let offered_to_me = view.draw_offer == Some(seat.other());
    let action = match (yes, offered_to_me) {
        (true, true) => DrawAction::Accept,
        (true, false) => DrawAction::Offer,
        (false, true) => DrawAction::Decline,
        // Nothing to decline.
        (false, false) => return Ok(ok()),
    };
    act(
        &l,
        &who,
        &uri,
        &id,
        Action::Draw(DrawRequest { action, mv: None }),
    )
    .await?;
    Ok(ok())
}

/// `POST /api/{board,bot}/game/{id}/takeback/{yes|no}`: a completed move stands (Art. 4.7),
/// so a takeback is never agreed; `no` is accepted.
pub async fn post_takeback(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path((id, answer)): Path<(String, String)>,
) -> LichessResult<Json<Value>> {
    PlayApi::of_path(uri.path()).check(&who)?;
    l.hub.view(&id).await?;
    if yes_no(&answer)? {
        return Err(AppError::bad_request(
            "takeback_refused",
            "a completed move stands (FIDE Art. 4.7): takebacks are not played here",
        )
        .into());
    }
    Ok(ok())
}

/// `POST /api/{board,bot}/game/{id}/abort`.
pub async fn post_abort(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path(id): Path<String>,
) -> LichessResult<Json<Value>> {
    act(&l, &who, &uri, &id, Action::Abort).await?;
    Ok(ok())
}

/// `POST /api/{board,bot}/game/{id}/resign` (Art. 5.1.2).
pub async fn post_resign(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path(id): Path<String>,
) -> LichessResult<Json<Value>> {
    act(&l, &who, &uri, &id, Action::Resign).await?;
    Ok(ok())
}

/// `POST /api/{board,bot}/game/{id}/claim-draw`: a claim under Art. 9.2 or 9.3.
pub async fn post_claim_draw(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path(id): Path<String>,
) -> LichessResult<Json<Value>> {
    let claim = Action::Draw(DrawRequest {
        action: DrawAction::Claim,
        mv: None,
    });
    act(&l, &who, &uri, &id, claim).await?;
    Ok(ok())
}

/// `POST /api/{board,bot}/game/{id}/claim-victory`: refused. Under the Laws a player who
/// leaves is not beaten by a claim: the clock runs and the flag falls (Art. 6.9).
pub async fn post_claim_victory(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path(id): Path<String>,
) -> LichessResult<Json<Value>> {
    PlayApi::of_path(uri.path()).check(&who)?;
    l.hub.view(&id).await?;
    Err(AppError::bad_request(
        "no_claim_victory",
        "a game is not won by claim when the opponent leaves: their clock runs and the game \
         ends when their flag falls (FIDE Art. 6.9)",
    )
    .into())
}

/// The body of a chat line.
#[derive(Debug, Deserialize)]
pub struct ChatForm {
    /// `player` or `spectator`.
    pub room: String,
    /// The line.
    pub text: String,
}

/// `POST /api/{board,bot}/game/{id}/chat`.
pub async fn post_chat(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path(id): Path<String>,
    FormOrJson(form): FormOrJson<ChatForm>,
) -> LichessResult<Json<Value>> {
    PlayApi::of_path(uri.path()).check(&who)?;
    let room = Room::parse(&form.room)?;
    let view = l.hub.view(&id).await?;
    l.chat.post(&view, &who.account, room, &form.text).await?;
    Ok(ok())
}

/// `GET /api/{board,bot}/game/{id}/chat`: the players' room, as lichess answers it.
pub async fn get_chat(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    uri: Uri,
    Path(id): Path<String>,
) -> LichessResult<Json<Value>> {
    PlayApi::of_path(uri.path()).check(&who)?;
    let view = l.hub.view(&id).await?;
    if !plays_in(&view, &who.account) {
        return Err(AppError::forbidden("not_a_player", "you do not play in this game").into());
    }
    let lines = l.chat.lines(&id, Room::Player).await?;
    Ok(Json(Value::Array(
        lines
            .iter()
            .map(|c| json!({"text": c.text, "user": c.username}))
            .collect(),
    )))
}
