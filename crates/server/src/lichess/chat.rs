//! The games' chat: two rooms per game, the players' (only the two players read and write
//! it) and the spectators' (every logged-in account). Lines are stored before they are
//! acknowledged and broadcast; lichess's game streams carry them as `chatLine`, the web UI
//! reads them from `/api/games/{id}/chat/stream`.
//!
//! In a cluster a line is broadcast on the node that stored it; the stored lines are what
//! every node shows when a chat is opened.

use std::sync::Arc;

use serde::Serialize;
use sqlx::{AnyPool, Row};
use tokio::sync::broadcast;

use crate::auth::Account;
use crate::db::now_unix_ms;
use crate::error::{ApiResult, AppError};
use crate::games::wire::GameView;
use crate::games::Status;
use crate::token;
use crate::tournaments::events::Event;

/// The longest line, in characters (lichess's limit).
pub const MAX_LINE_CHARS: usize = 140;

/// The most lines a room shows (the newest).
const ROOM_LINES: i64 = 200;

/// A chat room of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    /// The players' room.
    Player,
    /// The spectators' room.
    Spectator,
}

impl Room {
    /// `player` or `spectator`.
    pub fn as_str(self) -> &'static str {
        match self {
            Room::Player => "player",
            Room::Spectator => "spectator",
        }
    }

    /// Read lichess's room name.
    ///
    /// # Errors
    /// 400 `bad_room`.
    pub fn parse(s: &str) -> ApiResult<Self> {
        match s {
            "player" => Ok(Room::Player),
            "spectator" => Ok(Room::Spectator),
            other => Err(AppError::bad_request(
                "bad_room",
                format!("the room is player or spectator, not {other:?}"),
            )),
        }
    }
}

/// A line of a game's chat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ChatLine {
    /// The game.
    #[serde(skip)]
    pub game: String,
    /// The room.
    pub room: Room,
    /// Who wrote it.
    pub username: String,
    /// What.
    pub text: String,
    /// When, unix ms.
    #[schema(example = 1_700_000_000_000_i64)]
    pub at: i64,
}

/// The chat rooms of every game.
#[derive(Debug)]
pub struct Chat {
    pool: AnyPool,
    lines: broadcast::Sender<Arc<ChatLine>>,
}

/// Is `account` a player of the game `view` shows?
pub fn plays_in(view: &GameView, account: &Account) -> bool {
    super::wire::seat_of(view, &account.username).is_some()
}

impl Chat {
    /// Over the database `pool`.
    pub fn new(pool: AnyPool) -> Self {
        Self {
            pool,
            lines: broadcast::channel(1024).0,
        }
    }

    /// Every new line of every game, from now on (a subscriber keeps its game's).
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<ChatLine>> {
        self.lines.subscribe()
    }

    /// Write `text` in `room` of the game `view` shows, as `account`.
    ///
    /// # Errors
    /// 400 `empty_line`, `line_too_long`; 403 `not_a_player` (the players' room of a game one
    /// does not play in); 500 database.
    pub async fn post(
        &self,
        view: &GameView,
        account: &Account,
        room: Room,
        text: &str,
    ) -> ApiResult<ChatLine> {
        let text = text.trim();
        if text.is_empty() {
            return Err(AppError::bad_request("empty_line", "the line is empty"));
        }
        let n = text.chars().count();
        if n > MAX_LINE_CHARS {
            return Err(AppError::bad_request(
                "line_too_long",
                format!("a line has at most {MAX_LINE_CHARS} characters, not {n}"),
            ));
        }
        if room == Room::Player && !plays_in(view, account) {
            return Err(AppError::forbidden(
                "not_a_player",
                "only the players write in the players' room",
            ));
        }
        if room == Room::Player && self.players_room_closed(view).await? {
            return Err(AppError::forbidden(
                "players_chat_closed",
                "the players' chat is closed while the tournament game is played (FIDE Art. 11.3)",
            ));
        }
        let line = ChatLine {
            game: view.id.clone(),
            room,
            username: account.username.clone(),
            text: text.to_owned(),
            at: now_unix_ms(),
        };
        sqlx::query(
            "INSERT INTO chat_lines (id, game_id, room, account_id, username, text, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(token::game_id())
        .bind(&line.game)
        .bind(room.as_str())
        .bind(&account.id)
        .bind(&line.username)
        .bind(&line.text)
        .bind(line.at)
        .execute(&self.pool)
        .await?;
        let _ = self.lines.send(Arc::new(line.clone()));
        Ok(line)
    }

    /// Art. 11.3: is the players' room of this game closed now? It is while a tournament's
    /// game is played, unless the tournament lets its players chat (`players_chat`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn players_room_closed(&self, view: &GameView) -> ApiResult<bool> {
        if !matches!(view.status, Status::Playing | Status::Adjourned) {
            return Ok(false);
        }
        let row = sqlx::query(
            "SELECT e.data FROM tournament_pairings p JOIN tournament_events e \
             ON e.tournament_id = p.tournament_id AND e.seq = 1 WHERE p.game_id = $1 LIMIT 1",
        )
        .bind(&view.id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(false) };
        let data: String = row.try_get("data")?;
        let players_chat = match serde_json::from_str::<Event>(&data) {
            Ok(Event::Created { settings, .. }) => settings.players_chat,
            // Not the tournament's creation (cannot happen): the FIDE default.
            _ => false,
        };
        Ok(!players_chat)
    }

    /// The newest lines of a room, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn lines(&self, game: &str, room: Room) -> ApiResult<Vec<ChatLine>> {
        let rows = sqlx::query(
            "SELECT username, text, created_at FROM chat_lines WHERE game_id = $1 AND room = $2 \
             ORDER BY created_at DESC, id DESC LIMIT $3",
        )
        .bind(game)
        .bind(room.as_str())
        .bind(ROOM_LINES)
        .fetch_all(&self.pool)
        .await?;
        let mut out = rows
            .iter()
            .map(|r| {
                Ok(ChatLine {
                    game: game.to_owned(),
                    room,
                    username: r.try_get("username")?,
                    text: r.try_get("text")?,
                    at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        out.reverse();
        Ok(out)
    }
}
