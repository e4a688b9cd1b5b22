//! `GET /api/tournaments/{id}/ws`: a tournament live. First the whole state, then every
//! event; a player's own socket also hears of the player's game at each round's start.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::broadcast;

use super::actor::Snapshot;
use super::service::Tournaments;
use super::wire::tournament_view;
use crate::auth::Identity;
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
    let account = who.account.map(|a| a.id);
    ws.read_buffer_size(4096)
        .write_buffer_size(0)
        .max_message_size(4096)
        .on_upgrade(move |socket| session(socket, t, id, account))
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

async fn session(socket: WebSocket, t: Arc<Tournaments>, id: String, account: Option<String>) {
    let (mut sink, mut stream) = socket.split();
    let Ok((snap, mut rx)) = t.subscribe(&id).await else {
        return;
    };
    let mut closing = t.closing();
    let mut first = vec![state_msg(&snap)];
    first.extend(your_game(&snap, account.as_deref()));
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
