//! `GET /api/lobby/ws`: the lobby live. First `{"type":"lobby","seeks":[…],"pools":[…]}`, then
//! `seek_added`, `seek_removed`, `pools` for everyone and `game_started` for the two players
//! of a game that started from a seek or a pool. Logged in (cookie or API token), the socket
//! also keeps the player's seeks and pool place alive.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::broadcast;

use super::service::{Lobby, Subscription};
use crate::auth::{Account, Identity};
use crate::games::Hub;

/// The upgrade handler.
pub async fn upgrade(
    State(lobby): State<Arc<Lobby>>,
    State(hub): State<Arc<Hub>>,
    who: Identity,
    ws: WebSocketUpgrade,
) -> Response {
    ws.read_buffer_size(4096)
        .write_buffer_size(0)
        .max_message_size(4096)
        .on_upgrade(move |socket| session(socket, lobby, hub, who.account))
}

async fn session(socket: WebSocket, lobby: Arc<Lobby>, hub: Arc<Hub>, account: Option<Account>) {
    let (mut sink, mut stream) = socket.split();
    let Subscription {
        view,
        public: mut rx,
        mut private,
        id,
    } = lobby.subscribe(account.as_ref());
    let mut closing = hub.closing();
    let first = json!({"type": "lobby", "seeks": view.seeks, "pools": view.pools}).to_string();
    if sink.send(Message::Text(first.into())).await.is_ok() {
        loop {
            tokio::select! {
                Some(mine) = private.recv() => {
                    if sink.send(Message::Text(mine)).await.is_err() {
                        break;
                    }
                }
                msg = rx.recv() => match msg {
                    Ok(json) => {
                        if sink.send(Message::Text(json)).await.is_err() {
                            break;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Too slow: start again from the lobby as it is now.
                        let v = lobby.view();
                        let again = json!({"type": "lobby", "seeks": v.seeks, "pools": v.pools});
                        if sink.send(Message::Text(again.to_string().into())).await.is_err() {
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
    }
    let _ = sink.send(Message::Close(None)).await;
    lobby.unsubscribe(account.as_ref(), id);
}
