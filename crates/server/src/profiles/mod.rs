//! Profiles: a player's public page (ratings, results, games in progress), the list of their
//! games with filters and paging, the export of all of them as one PGN file, and the
//! leaderboard of each rating category. Reads only: games and ratings are written by the
//! games domain.
//!
//! Inside: `wire`, `queries` ← `handlers` ← this module's router.

pub mod handlers;
pub mod queries;
pub mod wire;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::get;
use axum::Router;
use utoipa::OpenApi;

use crate::error::ErrorBody;
use crate::games::wire::{ComputerView, PlayerView, PlayersView};
use crate::games::Hub;
use crate::ratings::RatingView;
use handlers::*;
use wire::*;

/// The routes of profiles.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Hub>: FromRef<S>,
{
    Router::new()
        .route("/api/users/{name}", get(get_profile))
        .route("/api/users/{name}/games", get(list_games))
        .route("/api/users/{name}/games.pgn", get(export_games))
        .route("/api/leaderboard/{speed}", get(leaderboard))
}

/// The OpenAPI description of the profiles' routes.
#[derive(OpenApi)]
#[openapi(
    paths(get_profile, list_games, export_games, leaderboard),
    components(schemas(
        ErrorBody,
        Profile,
        Counts,
        GameListItem,
        GamesPage,
        LeaderboardEntry,
        PlayersView,
        PlayerView,
        ComputerView,
        RatingView
    ))
)]
pub struct ProfilesApi;
