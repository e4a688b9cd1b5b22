//! PGN import and opening names (issue 17): `POST /api/imports` stores each well-formed game
//! of a PGN text as an imported game (its own page, marked imported; never in the lobby,
//! ratings or profiles), and `GET /api/openings` names a position's opening.
//!
//! Imported games live in their own table (`imported_games`), not in the games' event log:
//! they were not played here, their result need not follow from the moves (a resignation),
//! and their PGN is kept as it was imported. The games' routes show them through the
//! [`GameArchive`](crate::games::handlers::GameArchive) this module installs.
//!
//! Inside: `wire` ← `reader`, `queries` ← `view` ← `handlers` ← this module's router.

pub mod handlers;
pub mod queries;
pub mod reader;
pub mod view;
pub mod wire;

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;
use axum::routing::{get, post};
use axum::Router;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sqlx::AnyPool;
use utoipa::OpenApi;

use crate::accounts::Accounts;
use crate::auth::Auth;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::games::handlers::GameArchive;
use crate::games::wire::{GameView, OpeningView};
use handlers::*;
use wire::*;

/// The largest PGN one import accepts (bytes of the request body).
pub const MAX_IMPORT_BYTES: usize = 1024 * 1024;

/// Imports per client address: 20 at once, then one every 6 s.
const BURST: u32 = 20;
const EVERY: Duration = Duration::from_secs(6);

/// The imports' state: the database and the per-address limit.
#[derive(Debug)]
pub struct Imports {
    pool: AnyPool,
    per_address: DefaultKeyedRateLimiter<IpAddr>,
}

impl Imports {
    /// Imports stored in `pool`.
    pub fn new(pool: AnyPool) -> Arc<Self> {
        let quota = Quota::with_period(EVERY)
            .expect("a positive period")
            .allow_burst(NonZeroU32::new(BURST).expect("a positive burst"));
        Arc::new(Self {
            pool,
            per_address: RateLimiter::keyed(quota),
        })
    }

    /// The database.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Count one import from `address`.
    ///
    /// # Errors
    /// 429 with the seconds to wait.
    pub fn check_rate(&self, address: IpAddr) -> ApiResult<()> {
        self.per_address
            .check_key(&address)
            .map_err(|n| AppError::TooManyRequests {
                retry_after_secs: n
                    .wait_time_from(DefaultClock::default().now())
                    .as_secs()
                    .max(1),
            })?;
        if self.per_address.len() > 100_000 {
            self.per_address.retain_recent();
        }
        Ok(())
    }
}

impl GameArchive for Imports {
    fn view<'a>(
        &'a self,
        id: &'a str,
    ) -> futures_util::future::BoxFuture<'a, ApiResult<Option<GameView>>> {
        Box::pin(async move {
            match queries::by_id(&self.pool, id).await? {
                Some(row) => Ok(Some(view::game_view(row)?)),
                None => Ok(None),
            }
        })
    }

    fn pgn<'a>(
        &'a self,
        id: &'a str,
    ) -> futures_util::future::BoxFuture<'a, ApiResult<Option<String>>> {
        Box::pin(async move {
            Ok(queries::by_id(&self.pool, id)
                .await?
                .as_ref()
                .map(view::pgn))
        })
    }
}

/// The routes of imports and openings.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Imports>: FromRef<S>,
    Arc<Accounts>: FromRef<S>,
    Arc<Auth>: FromRef<S>,
{
    Router::new()
        .route("/api/imports", post(post_import))
        .route("/api/openings", get(get_opening))
}

/// The OpenAPI description of imports and openings.
#[derive(OpenApi)]
#[openapi(
    paths(post_import, get_opening),
    components(schemas(
        ErrorBody,
        ImportRequest,
        ImportResult,
        ImportFailure,
        ImportedGame,
        ImportErrorView,
        OpeningView
    ))
)]
pub struct ImportsApi;
