//! What the lichess routes share: the games, the lobby, who is online, the chat rooms and
//! the challenges.

use std::sync::Arc;

use axum::http::{header, HeaderMap};

use super::challenge::Challenges;
use super::chat::Chat;
use super::presence::Presence;
use crate::auth::{LoggedIn, BOT_TITLE};
use crate::error::{ApiResult, AppError};
use crate::games::Hub;
use crate::lobby::Lobby;

/// The lichess API's state.
#[derive(Debug)]
pub struct Lichess {
    /// The games.
    pub hub: Arc<Hub>,
    /// Seeks (lichess's Board API seeks are the lobby's).
    pub lobby: Arc<Lobby>,
    /// Who is online.
    pub presence: Arc<Presence>,
    /// The games' chat rooms.
    pub chat: Chat,
    /// The challenges.
    pub challenges: Challenges,
}

impl Lichess {
    /// Over the hub's database.
    pub fn new(hub: Arc<Hub>, lobby: Arc<Lobby>, presence: Arc<Presence>) -> Arc<Self> {
        let pool = hub.store().pool().clone();
        Arc::new(Self {
            hub,
            lobby,
            presence,
            chat: Chat::new(pool.clone()),
            challenges: Challenges::new(pool),
        })
    }
}

/// Which of lichess's two play APIs a request came by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayApi {
    /// The Board API (`/api/board/…`): people, with a board app or an electronic board.
    Board,
    /// The Bot API (`/api/bot/…`): engines, on bot accounts only.
    Bot,
}

impl PlayApi {
    /// The API of a request path.
    pub fn of_path(path: &str) -> Self {
        if path.starts_with("/api/bot/") {
            PlayApi::Bot
        } else {
            PlayApi::Board
        }
    }

    /// 400 unless `who` may use this API (bots the Bot API, people the Board API), 403
    /// without the API's scope.
    ///
    /// # Errors
    /// 400 `bot_account` / `not_a_bot`; 403 `missing_scope`.
    pub fn check(self, who: &LoggedIn) -> ApiResult<()> {
        let bot = who.account.title.as_deref() == Some(BOT_TITLE);
        match self {
            PlayApi::Board => {
                who.require_scope("board:play")?;
                if bot {
                    return Err(AppError::bad_request(
                        "bot_account",
                        "a bot account plays with the Bot API (/api/bot/...), not the Board API",
                    ));
                }
            }
            PlayApi::Bot => {
                who.require_scope("bot:play")?;
                if !bot {
                    return Err(AppError::bad_request(
                        "not_a_bot",
                        "the Bot API is for bot accounts: upgrade with POST /api/bot/account/upgrade",
                    ));
                }
            }
        }
        Ok(())
    }
}

/// 403 unless the request holds one of `scopes`.
///
/// # Errors
/// 403 `missing_scope` naming the first.
pub fn require_any_scope(who: &LoggedIn, scopes: &[&str]) -> ApiResult<()> {
    if scopes.iter().any(|s| who.require_scope(s).is_ok()) {
        return Ok(());
    }
    who.require_scope(scopes[0])
}

/// The site's origin as the client reached it (`http://host`), for lichess's `url` fields.
pub fn origin(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let scheme = headers
        .get("x-forwarded-proto")
        .and_then(|h| h.to_str().ok())
        .filter(|p| *p == "https")
        .unwrap_or("http");
    format!("{scheme}://{host}")
}
