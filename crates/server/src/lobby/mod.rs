//! Finding an opponent: seeks others can accept, quick-pairing pools, and the lobby's
//! WebSocket. Games start through the games' hub, for both players at once.

pub mod handlers;
pub mod matching;
pub mod service;
pub mod socket;
pub mod wire;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::{delete, get, post};
use axum::Router;
use utoipa::OpenApi;

pub use service::Lobby;

use crate::auth::Auth;
use crate::error::ErrorBody;
use crate::games::Hub;
use handlers::*;
use wire::*;

/// The routes of the lobby.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Lobby>: FromRef<S>,
    Arc<Hub>: FromRef<S>,
    Arc<Auth>: FromRef<S>,
{
    Router::new()
        .route("/api/lobby", get(get_lobby))
        .route("/api/lobby/ws", get(socket::upgrade))
        .route("/api/seeks", post(post_seek))
        .route("/api/seeks/{id}", delete(delete_seek))
        .route("/api/seeks/{id}/accept", post(accept_seek))
        .route("/api/pools/{id}/join", post(join_pool))
        .route("/api/pools", delete(leave_pool))
}

/// The OpenAPI description of the lobby's routes.
#[derive(OpenApi)]
#[openapi(
    paths(get_lobby, post_seek, delete_seek, accept_seek, join_pool, leave_pool),
    components(schemas(ErrorBody, SeekRequest, Seek, Pool, LobbyView, Started, Joined))
)]
pub struct LobbyApi;
