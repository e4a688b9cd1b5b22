//! Computer analysis of finished games (issue 17): a player asks for it, the request waits in
//! a first-in first-out queue stored in the database (one job per game), and a worker analyses
//! the game position by position on the engine threads, storing each position's evaluation as
//! soon as it is computed — so progress survives a restart, and a job left `running` resumes
//! from its last stored position.
//!
//! * [`handlers`]: `POST`/`GET /api/games/{id}/analysis`.
//! * [`queries`]: the `analyses` and `analysis_positions` tables (migration 0008).
//! * [`worker`]: the queue's worker; each position's search holds one permit of the server's
//!   engine semaphore ([`crate::computer::Engines`], shared with computer opponents) and runs
//!   on a blocking thread, never on the async workers.
//! * [`report`]: the stored evaluations judged ([`arbiter_engine::review`]) into the wire view,
//!   and the `[%eval]` annotations of the PGN export.
//! * [`wire`]: the JSON shapes.
//!
//! **Cluster mode**: any node accepts a request (it is a row in the shared database); only the
//! coordinator (the oldest live node) runs the worker, which takes a job with a conditional
//! `UPDATE … WHERE state = 'queued'`. A node that becomes coordinator resumes the jobs left
//! `running` by the previous one; positions are stored by (game, ply) with an upsert, so a
//! position analysed twice (two coordinators for a moment) is stored once.

pub mod handlers;
pub mod queries;
pub mod report;
pub mod wire;
pub mod worker;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::get;
use axum::Router;
use tokio::sync::Notify;
use utoipa::OpenApi;

use crate::auth::Auth;
use crate::games::Hub;

/// The analysis settings of the server (`arbiter serve --analysis-…`).
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisConfig {
    /// Depth per position (`--analysis-depth`); `None`: no depth limit.
    pub depth: Option<u32>,
    /// Nodes per position (`--analysis-nodes`); `None`: no node limit. At least one of depth
    /// and nodes is set.
    pub nodes: Option<u64>,
    /// The configured external UCI engine that analyses (`--analysis-engine NAME`); `None`:
    /// the built-in engine.
    pub engine: Option<String>,
    /// Analyses an account may have queued or running at once.
    pub max_pending_per_account: u32,
    /// Analyses an account may request per 24 hours.
    pub max_per_day: u32,
    /// The marks' thresholds.
    pub thresholds: arbiter_engine::review::Thresholds,
}

/// The default node budget per position: about half a second of the built-in engine on the
/// development machine (BENCHMARKS.md, "Computer analysis: time per move"). A node budget,
/// unlike time, gives the same analysis on any machine.
pub const DEFAULT_NODES: u64 = 400_000;

/// The default number of analyses an account may have queued or running.
pub const DEFAULT_MAX_PENDING: u32 = 3;

/// The default number of analyses an account may request per day.
pub const DEFAULT_MAX_PER_DAY: u32 = 30;

impl Default for AnalysisConfig {
    fn default() -> Self {
        Self {
            depth: None,
            nodes: Some(DEFAULT_NODES),
            engine: None,
            max_pending_per_account: DEFAULT_MAX_PENDING,
            max_per_day: DEFAULT_MAX_PER_DAY,
            thresholds: arbiter_engine::review::Thresholds::default(),
        }
    }
}

/// The analysis service: its settings, the games' hub, and the worker's wake-up bell.
pub struct Analyses {
    /// Settings.
    pub config: AnalysisConfig,
    /// The games (their records, the store, the engines, the cluster).
    pub hub: Arc<Hub>,
    /// Rung when a job is queued, so the worker need not wait for its next poll.
    pub wake: Notify,
}

impl std::fmt::Debug for Analyses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyses")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Analyses {
    /// The service (the worker is started apart, by [`Analyses::spawn_worker`]).
    pub fn new(hub: Arc<Hub>, config: AnalysisConfig) -> Arc<Self> {
        Arc::new(Self {
            config,
            hub,
            wake: Notify::new(),
        })
    }

    /// Starts the queue's worker in the background; it stops when the hub closes.
    pub fn spawn_worker(self: &Arc<Self>) {
        tokio::spawn(worker::run(self.clone()));
    }

    /// The name shown for the engine that analyses.
    pub fn engine_name(&self) -> String {
        match &self.config.engine {
            None => builtin_engine_name(),
            Some(name) => self
                .hub
                .engines()
                .external(name)
                .map_or_else(|| name.clone(), |e| e.id_name.clone()),
        }
    }
}

/// The built-in engine's name and version, as an analysis names it (`arbiter 0.1.0`).
pub fn builtin_engine_name() -> String {
    format!("arbiter {}", env!("CARGO_PKG_VERSION"))
}

/// The routes of analyses.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Analyses>: FromRef<S>,
    Arc<Auth>: FromRef<S>,
{
    Router::new().route(
        "/api/games/{id}/analysis",
        get(handlers::get_analysis).post(handlers::request_analysis),
    )
}

/// The OpenAPI description of analyses.
#[derive(OpenApi)]
#[openapi(
    paths(handlers::request_analysis, handlers::get_analysis),
    components(schemas(
        wire::AnalysisView,
        wire::Progress,
        wire::EvalView,
        wire::MoveRef,
        wire::PositionView,
        wire::MoveAnalysis,
        wire::PlayerSummary,
        wire::Summary
    ))
)]
pub struct AnalysisApi;

impl crate::games::handlers::PgnAnnotator for Analyses {
    fn annotate<'a>(
        &'a self,
        id: &'a str,
        pgn: String,
    ) -> futures_util::future::BoxFuture<'a, crate::error::ApiResult<String>> {
        Box::pin(handlers::annotated_pgn(self, id, pgn))
    }
}
