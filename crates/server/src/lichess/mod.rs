//! lichess's HTTP API, spoken by the same games, referee and accounts as the native API, so
//! that the programs players already run against lichess — lichess-bot, the `berserk` client,
//! Board API apps and electronic-board connectors — play on an Arbiter site unchanged.
//!
//! Paths, methods, bodies and JSON follow lichess's published specification
//! (`lichess-org/api`, `doc/specs/lichess-api.yaml`); what differs is in
//! `docs/lichess-api.md`. Errors are lichess's `{"error": "..."}` ([`error::LichessError`]),
//! bodies are form-encoded or JSON ([`body::FormOrJson`]), streams are NDJSON with keep-alive
//! lines ([`ndjson`]).
//!
//! Inside, imports go one way: `error`, `body`, `ndjson` ← `wire` ← the routes' files.

pub mod body;
pub mod error;
pub mod ndjson;
pub mod presence;
pub mod wire;
// The state the routes share, and the domains below the routes.
pub mod challenge;
pub mod chat;
pub mod service;
// The routes.
pub mod account;
pub mod challenge_api;
pub mod chat_api;
pub mod events;
pub mod game;
pub mod seek;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;

use crate::accounts::Accounts;
use crate::auth::Auth;
use crate::games::Hub;
use crate::lobby::Lobby;
pub use presence::{Presence, PresenceGuard};
pub use service::Lichess;

/// The lichess-compatible routes, at the server's root (`/api/...`, as on lichess.org).
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Hub>: FromRef<S>,
    Arc<Auth>: FromRef<S>,
    Arc<Accounts>: FromRef<S>,
    Arc<Lobby>: FromRef<S>,
    Arc<Lichess>: FromRef<S>,
    Arc<Presence>: FromRef<S>,
{
    use axum::routing::{get, post};
    let mut r = Router::new()
        .route("/api/stream/event", get(events::stream))
        .route("/api/account/playing", get(events::playing))
        .route("/game/export/{id}", get(events::export_pgn))
        .route("/api/board/seek", post(seek::seek))
        .route("/api/challenge", get(challenge_api::list))
        .route("/api/challenge/{username}", post(challenge_api::create))
        .route("/api/challenge/{id}/accept", post(challenge_api::accept))
        .route("/api/challenge/{id}/decline", post(challenge_api::decline))
        .route("/api/challenge/{id}/cancel", post(challenge_api::cancel))
        .route(
            "/api/games/{id}/chat",
            get(chat_api::get_chat).post(chat_api::post_chat),
        )
        .route("/api/games/{id}/chat/stream", get(chat_api::stream_chat))
        .route("/api/token/test", post(account::test_tokens))
        .route("/api/user/{username}", get(account::get_user))
        .route("/api/users/status", get(account::users_status))
        .route("/api/bot/account/upgrade", post(account::upgrade_to_bot))
        .route("/api/bot/online", get(account::bots_online));
    // The Board API and the Bot API: the same routes under two prefixes.
    for api in ["board", "bot"] {
        r = r
            .route(&format!("/api/{api}/game/stream/{{id}}"), get(game::stream))
            .route(
                &format!("/api/{api}/game/{{id}}/move/{{uci}}"),
                post(game::post_move),
            )
            .route(
                &format!("/api/{api}/game/{{id}}/draw/{{answer}}"),
                post(game::post_draw),
            )
            .route(
                &format!("/api/{api}/game/{{id}}/takeback/{{answer}}"),
                post(game::post_takeback),
            )
            .route(
                &format!("/api/{api}/game/{{id}}/abort"),
                post(game::post_abort),
            )
            .route(
                &format!("/api/{api}/game/{{id}}/resign"),
                post(game::post_resign),
            )
            .route(
                &format!("/api/{api}/game/{{id}}/claim-draw"),
                post(game::post_claim_draw),
            )
            .route(
                &format!("/api/{api}/game/{{id}}/claim-victory"),
                post(game::post_claim_victory),
            )
            // berserk writes this one with a trailing slash.
            .route(
                &format!("/api/{api}/game/{{id}}/claim-victory/"),
                post(game::post_claim_victory),
            )
            .route(
                &format!("/api/{api}/game/{{id}}/chat"),
                get(game::get_chat).post(game::post_chat),
            );
    }
    r
}
