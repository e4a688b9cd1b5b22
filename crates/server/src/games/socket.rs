//! `GET /api/games/{id}/ws`: a WebSocket of numbered events, for players and spectators.
//!
//! Server → client (text frames, JSON):
//! - `{"type":"state","game":GameView}` first, unless the client sent `?since=N`;
//! - `{"type":"event","seq":n,"kind":…,…}` for every event after the state (or after `N`),
//!   in order, without gaps: a client that reconnects with `?since=N` receives what it missed;
//! - `{"type":"ack","id":…,"seq":n}` / `{"type":"error","id":…,"error":code,"message":…}`
//!   answering a client's action; `{"type":"pong"}`.
//!
//! Client → server: `{"type":"move","move":"e4","offer_draw"?,"ply"?,"lag_ms"?,"id"?}`,
//! `{"type":"draw","action":"offer"|"accept"|"decline"|"claim","move"?}`, `{"type":"resign"}`,
//! `{"type":"abort"}`, `{"type":"adjourn","move":…}`, `{"type":"resume"}`,
//! `{"type":"auth","token":…}`, `{"type":"ping"}`. The seat token comes from `?token=`, an
//! `Authorization: Bearer` header, or an `auth` message. Actions follow the same validation and
//! acknowledgement rules as over HTTP: an `ack` is sent only after the event is committed.

use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc};

use super::actor::Subscription;
use super::handlers::GameId;
use super::hub::Hub;
use super::players::Credentials;
use super::referee::Action;
use super::wire::{AdjournRequest, DrawAction, DrawRequest, MoveRequest, WsQuery};
use crate::auth::Identity;
use crate::error::{ApiResult, AppError};

/// Largest client frame accepted.
const MAX_FRAME: usize = 16 * 1024;

/// The upgrade handler.
pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    query: Result<Query<WsQuery>, axum::extract::rejection::QueryRejection>,
    who: Identity,
    ws: WebSocketUpgrade,
) -> ApiResult<Response> {
    let Query(q) = query?;
    if q.since.is_some_and(|n| n < 0) {
        return Err(AppError::bad_request("bad_query", "since must be ≥ 0"));
    }
    // Subscribe before upgrading so an unknown game is a plain 404.
    let sub = hub.subscribe(&id, q.since).await?;
    // The seat token from the query (browsers cannot set headers on a WebSocket) or the
    // Authorization header; the account from the session cookie or an API token.
    let who = Credentials {
        token: q.token.or(who.seat_token),
        account: who.account.map(|a| a.id),
    };
    // Small buffers: the default 128 KiB per socket is zeroed on every read and would cost
    // ~256 MiB for a thousand games.
    Ok(ws
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| session(socket, hub, id, who, sub)))
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMsg {
    Move {
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        offer_draw: bool,
        #[serde(default)]
        ply: Option<u32>,
        #[serde(default)]
        lag_ms: Option<u32>,
        #[serde(default)]
        id: Option<Value>,
    },
    Draw {
        action: DrawAction,
        #[serde(default, rename = "move")]
        mv: Option<String>,
        #[serde(default)]
        id: Option<Value>,
    },
    Resign {
        #[serde(default)]
        id: Option<Value>,
    },
    Abort {
        #[serde(default)]
        id: Option<Value>,
    },
    Adjourn {
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        id: Option<Value>,
    },
    Resume {
        #[serde(default)]
        id: Option<Value>,
    },
    Auth {
        token: String,
    },
    Ping,
}

fn error_msg(id: Option<Value>, e: &AppError) -> String {
    let b = e.body();
    json!({"type": "error", "id": id, "error": b.error, "message": b.message}).to_string()
}

async fn session(
    socket: WebSocket,
    hub: Arc<Hub>,
    id: String,
    mut who: Credentials,
    sub: Subscription,
) {
    let (mut sink, mut stream) = socket.split();
    let (out_tx, mut out_rx) = mpsc::channel::<Utf8Bytes>(64);
    let mut closing = hub.closing();
    let Subscription {
        state,
        backlog,
        mut rx,
        mut last_seq,
    } = sub;

    // Writer: the first state/backlog, then live events and replies, in order, without gaps.
    let reader_hub = hub.clone();
    let game_id = id.clone();
    let mut writer = tokio::spawn(async move {
        if let Some(state) = state {
            let msg = json!({"type": "state", "game": state}).to_string();
            if sink.send(Message::Text(msg.into())).await.is_err() {
                return;
            }
        }
        for ev in backlog {
            if sink.send(Message::Text(ev.json.clone())).await.is_err() {
                return;
            }
        }
        loop {
            tokio::select! {
                ev = rx.recv() => match ev {
                    Ok(ev) => {
                        // Number 0: a notice (a rematch offer…), not a game event.
                        if ev.seq != 0 {
                            if ev.seq <= last_seq {
                                continue;
                            }
                            if ev.seq > last_seq + 1 {
                                // A gap (an event lost between cluster nodes): fill it from
                                // the game's log, which holds every committed event.
                                let Ok(missed) = hub.events_since(&game_id, last_seq).await else {
                                    return;
                                };
                                for m in missed {
                                    if m.seq != last_seq + 1 {
                                        continue;
                                    }
                                    last_seq = m.seq;
                                    if sink.send(Message::Text(m.json.clone())).await.is_err() {
                                        return;
                                    }
                                }
                                if ev.seq <= last_seq {
                                    continue;
                                }
                                if ev.seq > last_seq + 1 {
                                    // Still missing: close; the client reconnects with `since`.
                                    let _ = sink.send(Message::Close(None)).await;
                                    return;
                                }
                            }
                            last_seq = ev.seq;
                        }
                        if sink.send(Message::Text(ev.json.clone())).await.is_err() {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // A slow reader: fetch what it missed from the game itself.
                        let Ok(missed) = hub.events_since(&game_id, last_seq).await else { return };
                        for ev in missed {
                            last_seq = ev.seq;
                            if sink.send(Message::Text(ev.json.clone())).await.is_err() {
                                return;
                            }
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => {
                        // The game was unloaded (finished, idle) or the server is stopping.
                        let _ = sink.send(Message::Close(None)).await;
                        return;
                    }
                },
                out = out_rx.recv() => match out {
                    Some(text) => {
                        if sink.send(Message::Text(text)).await.is_err() {
                            return;
                        }
                    }
                    None => {
                        let _ = sink.send(Message::Close(None)).await;
                        return;
                    }
                },
            }
        }
    });

    // Reader: client actions, answered through the writer.
    loop {
        let msg = tokio::select! {
            m = stream.next() => m,
            _ = closing.changed() => None,
            _ = &mut writer => { return; }
        };
        let Some(Ok(msg)) = msg else { break };
        let text = match msg {
            Message::Text(t) => t,
            Message::Close(_) => break,
            Message::Binary(_) => {
                let e = AppError::bad_request("bad_frame", "send JSON text frames");
                if out_tx.send(error_msg(None, &e).into()).await.is_err() {
                    break;
                }
                continue;
            }
            _ => continue,
        };
        let parsed: Result<ClientMsg, _> = serde_json::from_str(text.as_str());
        let (action, req_id) = match parsed {
            Err(e) => {
                let e = AppError::bad_request("malformed_message", e.to_string());
                if out_tx.send(error_msg(None, &e).into()).await.is_err() {
                    break;
                }
                continue;
            }
            Ok(ClientMsg::Ping) => {
                if out_tx
                    .send(Utf8Bytes::from_static("{\"type\":\"pong\"}"))
                    .await
                    .is_err()
                {
                    break;
                }
                continue;
            }
            Ok(ClientMsg::Auth { token: t }) => {
                who.token = Some(t);
                continue;
            }
            Ok(ClientMsg::Move {
                mv,
                offer_draw,
                ply,
                lag_ms,
                id,
            }) => (
                Action::Move(MoveRequest {
                    mv,
                    offer_draw,
                    ply,
                    lag_ms,
                }),
                id,
            ),
            Ok(ClientMsg::Draw { action, mv, id }) => {
                (Action::Draw(DrawRequest { action, mv }), id)
            }
            Ok(ClientMsg::Resign { id }) => (Action::Resign, id),
            Ok(ClientMsg::Abort { id }) => (Action::Abort, id),
            Ok(ClientMsg::Adjourn { mv, id }) => (Action::Seal(AdjournRequest { mv }), id),
            Ok(ClientMsg::Resume { id }) => (Action::Resume, id),
        };
        let reply = if who.is_empty() {
            error_msg(
                req_id,
                &AppError::Unauthorized("send a seat token first, or log in".into()),
            )
        } else {
            match reader_hub.act_quiet(&id, &who, action).await {
                Ok(seq) => json!({"type": "ack", "id": req_id, "seq": seq}).to_string(),
                Err(e) => error_msg(req_id, &e),
            }
        };
        if out_tx.send(reply.into()).await.is_err() {
            break;
        }
    }
    drop(out_tx);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
}
