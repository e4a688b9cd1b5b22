//! Tournaments online (issue 15): a director creates one (round robin by the Berger tables,
//! C.05, or Swiss by the FIDE Dutch system, C.04.3); players register; each round is paired
//! by the server and its games created and started; absent players lose by default (Art.
//! 6.7.1); results flow from the games; the director's console corrects results and applies
//! Art. 12.9 penalties; standings with the C.07 tie-breaks; TRF, PGN and crosstable exports;
//! a WebSocket per tournament.
//!
//! A tournament is an actor over an append-only event log, like a game. Inside, imports go
//! one way: `events` ← `state` ← `pairing`, `wire` ← `actor`, `watch` ← `service` ←
//! `export`, `handlers`, `socket` ← this module's router.

pub mod actor;
pub mod events;
pub mod export;
pub mod handlers;
pub mod pairing;
pub mod service;
pub mod socket;
pub mod state;
pub mod watch;
pub mod wire;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::{get, post};
use axum::Router;
use utoipa::OpenApi;

pub use service::Tournaments;

use crate::auth::Auth;
use crate::error::ErrorBody;
use events::{ByeKind, ScoringSettings, Settings, System};
use handlers::*;
use wire::*;

/// The routes of tournaments.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Tournaments>: FromRef<S>,
    Arc<Auth>: FromRef<S>,
{
    Router::new()
        .route(
            "/api/tournaments",
            get(list_tournaments).post(create_tournament),
        )
        .route("/api/tournaments/{id}", get(get_tournament))
        .route("/api/tournaments/{id}/rounds/{round}", get(get_round))
        .route("/api/tournaments/{id}/standings", get(get_standings))
        .route("/api/tournaments/{id}/crosstable", get(get_crosstable))
        .route(
            "/api/tournaments/{id}/crosstable.txt",
            get(get_crosstable_text),
        )
        .route(
            "/api/tournaments/{id}/crosstable.csv",
            get(get_crosstable_csv),
        )
        .route("/api/tournaments/{id}/trf", get(get_trf))
        .route("/api/tournaments/{id}/pgn", get(get_pgn))
        .route("/api/tournaments/{id}/ws", get(socket::upgrade))
        .route("/api/tournaments/{id}/register", post(register))
        .route("/api/tournaments/{id}/withdraw", post(withdraw))
        .route("/api/tournaments/{id}/present", post(present))
        .route("/api/tournaments/{id}/players", post(add_player))
        .route("/api/tournaments/{id}/start", post(start))
        .route("/api/tournaments/{id}/pair", post(pair))
        .route("/api/tournaments/{id}/pause", post(pause))
        .route("/api/tournaments/{id}/resume", post(resume))
        .route("/api/tournaments/{id}/registration", post(registration))
        .route(
            "/api/tournaments/{id}/players/{no}/withdraw",
            post(withdraw_player),
        )
        .route(
            "/api/tournaments/{id}/players/{no}/readmit",
            post(readmit_player),
        )
        .route("/api/tournaments/{id}/byes", post(grant_bye))
        .route("/api/tournaments/{id}/forbidden", post(forbid))
        .route(
            "/api/tournaments/{id}/rounds/{round}/boards/{board}/result",
            post(set_result),
        )
        .route(
            "/api/tournaments/{id}/rounds/{round}/boards/{board}/penalty",
            post(penalty),
        )
}

/// The OpenAPI description of the tournaments' routes.
#[derive(OpenApi)]
#[openapi(
    paths(
        list_tournaments,
        create_tournament,
        get_tournament,
        get_round,
        get_standings,
        get_crosstable,
        get_crosstable_text,
        get_crosstable_csv,
        get_trf,
        get_pgn,
        register,
        withdraw,
        present,
        add_player,
        start,
        pair,
        pause,
        resume,
        registration,
        withdraw_player,
        readmit_player,
        grant_bye,
        forbid,
        set_result,
        penalty
    ),
    components(schemas(
        ErrorBody,
        CreateTournament,
        Settings,
        ScoringSettings,
        System,
        ByeKind,
        NewPlayer,
        RegistrationRequest,
        ByeRequest,
        ForbidRequest,
        ResultRequest,
        PenaltyRequest,
        PenaltyDone,
        Summary,
        TournamentList,
        ByeView,
        PlayerView,
        BoardView,
        RoundBye,
        RoundView,
        StandingsLine,
        StandingsView,
        CrosstableLine,
        CrosstableView,
        TournamentView
    ))
)]
pub struct TournamentsApi;
