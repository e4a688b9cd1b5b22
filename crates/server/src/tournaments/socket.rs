//! `GET /api/tournaments/{id}/ws`: a tournament live. First the whole state, then every
//! event; a player's own socket also hears of the player's game at each round's start.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::broadcast;

use super::actor::{Action, Snapshot};
use super::service::Tournaments;
use super::wire::tournament_view;
use crate::auth::{Account, Identity};
use crate::error::AppError;

/// The upgrade handler.
pub async fn upgrade(
    State(t): State<Arc<Tournaments>>,
    Path(id): Path<String>,
    who: Identity,
    ws: WebSocketUpgrade,
) -> Response {
    // Unknown tournament: a 404 before upgrading.
    if let Err(e) = t.snapshot(&id).await {
        return e.into_response();
    }
    ws.read_buffer_size(4096)
        .write_buffer_size(0)
        .max_message_size(4096)
        .on_upgrade(move |socket| session(socket, t, id, who.account))
}

fn state_msg(s: &Snapshot) -> String {
    json!({"type": "tournament", "tournament": tournament_view(&s.state, s.timers)}).to_string()
}

/// The player's game being played in the current round, if any.
fn your_game(s: &Snapshot, account: Option<&str>) -> Option<String> {
    let st = &s.state;
    let p = st.player_of(account?)?;
    let r = st.current()?;
    let b = r.board_of(p.no)?;
    if b.result.is_some() {
        return None;
    }
    let game = b.paired.game.as_ref()?;
    let color = if b.paired.white == p.no {
        "white"
    } else {
        "black"
    };
    Some(json!({"type": "your_game", "round": r.round, "board": b.paired.board, "game": game, "color": color}).to_string())
}

/// Art. 6.7.1 online: a player whose tournament page (or game page, which keeps this socket)
/// is open when their game is paired has arrived at the board; the check-in is stored, so the
/// default time cannot forfeit a player who is there but waiting for the opponent's move.
async fn check_in(t: &Arc<Tournaments>, id: &str, who: Option<&Account>) {
    if let Some(who) = who {
        // Refusals (not paired, finished) change nothing and need no answer here.
        let _ = t.act(id, who, Action::Present).await;
    }
}

async fn session(socket: WebSocket, t: Arc<Tournaments>, id: String, who: Option<Account>) {
    let (mut sink, mut stream) = socket.split();
    let account = who.as_ref().map(|a| a.id.clone());
    let Ok((snap, mut rx)) = t.subscribe(&id).await else {
        return;
    };
    let mut closing = t.closing();
    let mut first = vec![state_msg(&snap)];
    let mine = your_game(&snap, account.as_deref());
    if mine.is_some() {
        check_in(&t, &id, who.as_ref()).await;
    }
    first.extend(mine);
    for m in first {
        if sink.send(Message::Text(m.into())).await.is_err() {
            return;
        }
    }
    loop {
        tokio::select! {
            msg = rx.recv() => match msg {
                Ok(b) => {
                    if b.to.is_some() && b.to.as_deref() != account.as_deref() {
                        continue;
                    }
                    if b.to.is_some() {
                        // Addressed to this player: their game of a new round.
                        check_in(&t, &id, who.as_ref()).await;
                    }
                    if sink.send(Message::Text(b.json.clone().into())).await.is_err() {
                        break;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Too slow: the whole state again.
                    let again: Result<Snapshot, AppError> = t.snapshot(&id).await;
                    let Ok(s) = again else { break };
                    if sink.send(Message::Text(state_msg(&s).into())).await.is_err() {
                        break;
                    }
                }
                Err(broadcast::error::RecvError::Closed) => break,
            },
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(t))) if t.as_str().contains("\"ping\"") => {
                    if sink.send(Message::Text("{\"type\":\"pong\"}".into())).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
            _ = closing.changed() => break,
        }
    }
    let _ = sink.send(Message::Close(None)).await;
}
