//! Games: live game actors and their registry, the referee (the bridge to `arbiter-game`),
//! computer players, the game WebSocket, and the HTTP handlers and wire types of games.
//!
//! Other domains use one typed door: [`api`] ([`NewGame`], [`GameEnded`], [`Status`]) and the
//! [`Hub`]'s methods (the commands of a game); never an HTTP body or a JSON field. The actor is
//! private to games.
//!
//! Inside, imports go one way: `status` ← `wire` ← `api` ← `players`, `referee`, `computer`,
//! `feed` ← `replay` ← `actor` (a folder, a file per role) ← `hub` (likewise) ← `handlers`,
//! `socket` ← this module's router.

mod actor;
pub mod api;
pub mod computer;
pub mod feed;
pub mod handlers;
mod hub;
pub mod mirror;
pub mod players;
pub mod referee;
pub mod remote;
pub mod replay;
pub mod socket;
mod status;
pub mod wire;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::{get, post};
use axum::Router;
use utoipa::OpenApi;

pub use actor::{Subscription, WireEvent, LAG_ALLOWANCE_MS};
pub use api::{GameEnded, NewGame, Status};
pub use hub::Hub;
pub use referee::ArbiterAction;

use crate::auth::Auth;
use crate::error::ErrorBody;
use handlers::*;
use wire::*;

/// The routes of games, for any application state that holds the [`Hub`].
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Hub>: FromRef<S>,
    Arc<Auth>: FromRef<S>,
{
    Router::new()
        .route("/api/games", post(create_game).get(list_games))
        .route("/api/engines", get(list_engines))
        .route("/api/games/{id}", get(get_game).delete(withdraw_game))
        .route(
            "/api/games/{id}/rematch",
            post(offer_rematch).delete(decline_rematch),
        )
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/pgn", get(get_pgn))
        .route("/api/games/{id}/move", post(post_move))
        .route("/api/games/{id}/draw", post(post_draw))
        .route("/api/games/{id}/resign", post(post_resign))
        .route("/api/games/{id}/abort", post(post_abort))
        .route("/api/games/{id}/adjourn", post(post_adjourn))
        .route("/api/games/{id}/resume", post(post_resume))
        .route("/api/games/{id}/ws", get(socket::upgrade))
}

/// The OpenAPI description of the games' routes.
#[derive(OpenApi)]
#[openapi(
    paths(
        create_game,
        list_engines,
        join_game,
        get_game,
        get_pgn,
        list_games,
        post_move,
        post_draw,
        post_resign,
        post_abort,
        post_adjourn,
        post_resume
    ),
    components(schemas(
        ErrorBody,
        CreateGame,
        SeatGrant,
        GameView,
        Status,
        MoveView,
        Clocks,
        SeatsTaken,
        GameSummary,
        Lobby,
        MoveRequest,
        DrawRequest,
        DrawAction,
        AdjournRequest,
        Ack,
        Seat,
        Variant,
        ColorChoice,
        ComputerRequest,
        ComputerView,
        EnginesView,
        ExternalEngineView
    ))
)]
pub struct GamesApi;
