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

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;

use crate::accounts::Accounts;
use crate::auth::Auth;
use crate::games::Hub;
use crate::lobby::Lobby;
pub use presence::{Presence, PresenceGuard};

/// The lichess-compatible routes, at the server's root (`/api/...`, as on lichess.org).
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Hub>: FromRef<S>,
    Arc<Auth>: FromRef<S>,
    Arc<Accounts>: FromRef<S>,
    Arc<Lobby>: FromRef<S>,
{
    Router::new()
}
