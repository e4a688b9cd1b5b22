//! The web UI's chat endpoints (native JSON): `GET /api/games/{id}/chat` (both rooms, the
//! players' only for the players), `POST /api/games/{id}/chat` and the live lines,
//! `GET /api/games/{id}/chat/stream` (NDJSON `chatLine`).

use std::sync::Arc;

use axum::extract::State;
use axum::response::Response;
use axum::Json;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;
use utoipa::{OpenApi, ToSchema};

use super::chat::{plays_in, ChatLine, Room};
use super::ndjson;
use super::service::Lichess;
use crate::auth::{Identity, LoggedIn};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::JsonBody;
use crate::games::handlers::GameId;

/// `POST /api/games/{id}/chat`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PostLine {
    /// `player` or `spectator`.
    pub room: Room,
    /// The line, 1 to 140 characters (trimmed).
    #[schema(example = "Good luck!")]
    pub text: String,
}

/// `GET /api/games/{id}/chat`: the rooms the client may read.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatRooms {
    /// The players' room, oldest line first; `null` unless the client plays in the game.
    #[schema(required = true)]
    pub player: Option<Vec<ChatLine>>,
    /// The spectators' room, oldest line first (the newest 200 lines).
    pub spectator: Vec<ChatLine>,
    /// Art. 11.3: the players' room is closed now (a tournament game being played).
    pub player_closed: bool,
}

/// The answer to `POST /api/games/{id}/chat`: the line was stored.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatPosted {
    /// Always `true`.
    pub ok: bool,
}

/// A line of `GET /api/games/{id}/chat/stream` (NDJSON; empty lines are keep-alives).
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatStreamLine {
    /// Always `chatLine`.
    #[serde(rename = "type")]
    #[schema(example = "chatLine")]
    pub kind: &'static str,
    /// The room.
    pub room: Room,
    /// Who wrote it.
    pub username: String,
    /// What.
    pub text: String,
    /// When, unix ms.
    pub at: i64,
}

/// The OpenAPI description of the web UI's chat routes.
#[derive(OpenApi)]
#[openapi(
    paths(get_chat, post_chat, stream_chat),
    components(schemas(
        ErrorBody,
        PostLine,
        ChatRooms,
        ChatPosted,
        ChatStreamLine,
        ChatLine,
        Room
    ))
)]
pub struct ChatApi;

#[utoipa::path(get, path = "/api/games/{id}/chat", tag = "chat", params(("id" = String, Path)),
    responses((status = 200, body = ChatRooms),
              (status = 401, body = ErrorBody, description = "A malformed Authorization header or an unknown API token"),
              (status = 404, body = ErrorBody, description = "Unknown game")))]
/// A game's chat: the spectators' room, and the players' room for its players.
pub async fn get_chat(
    State(l): State<Arc<Lichess>>,
    who: Identity,
    GameId(id): GameId,
) -> ApiResult<Json<ChatRooms>> {
    let view = l.hub.view(&id).await?;
    let player = who.account.as_ref().is_some_and(|a| plays_in(&view, a));
    let players_room = if player {
        Some(l.chat.lines(&id, Room::Player).await?)
    } else {
        None
    };
    let spectators = l.chat.lines(&id, Room::Spectator).await?;
    let closed = l.chat.players_room_closed(&view).await?;
    Ok(Json(ChatRooms {
        player: players_room,
        spectator: spectators,
        player_closed: closed,
    }))
}

#[utoipa::path(post, path = "/api/games/{id}/chat", tag = "chat", params(("id" = String, Path)),
    request_body = PostLine, security(("bearer" = [])),
    responses((status = 200, body = ChatPosted),
              (status = 400, body = ErrorBody, description = "`empty_line`, `line_too_long`, or a bad request body"),
              (status = 401, body = ErrorBody, description = "Not logged in"),
              (status = 403, body = ErrorBody, description = "`not_a_player` (the players' room of another game), `players_chat_closed` (Art. 11.3)"),
              (status = 404, body = ErrorBody, description = "Unknown game"),
              (status = 413, body = ErrorBody)))]
/// Write a line in a room of a game's chat (logged in; the players' room only for its players).
pub async fn post_chat(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    GameId(id): GameId,
    JsonBody(line): JsonBody<PostLine>,
) -> ApiResult<Json<ChatPosted>> {
    let view = l.hub.view(&id).await?;
    l.chat
        .post(&view, &who.account, line.room, &line.text)
        .await?;
    Ok(Json(ChatPosted { ok: true }))
}

#[utoipa::path(get, path = "/api/games/{id}/chat/stream", tag = "chat", params(("id" = String, Path)),
    responses((status = 200, body = ChatStreamLine, content_type = "application/x-ndjson",
               description = "The new lines, one JSON object a line, until the client goes away; \
                              an empty line at least every 6 s"),
              (status = 401, body = ErrorBody, description = "A malformed Authorization header or an unknown API token"),
              (status = 404, body = ErrorBody, description = "Unknown game")))]
/// The new lines of the rooms the client may read (the players' room only for its players).
pub async fn stream_chat(
    State(l): State<Arc<Lichess>>,
    who: Identity,
    GameId(id): GameId,
) -> ApiResult<Response> {
    let view = l.hub.view(&id).await?;
    let player = who.account.as_ref().is_some_and(|a| plays_in(&view, a));
    let mut rx = l.chat.subscribe();
    Ok(ndjson::stream(l.hub.closing(), move |lines| async move {
        loop {
            match rx.recv().await {
                Ok(line) if line.game == id && (player || line.room == Room::Spectator) => {
                    let v = ChatStreamLine {
                        kind: "chatLine",
                        room: line.room,
                        username: line.username.clone(),
                        text: line.text.clone(),
                        at: line.at,
                    };
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
