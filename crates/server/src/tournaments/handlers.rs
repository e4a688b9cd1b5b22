//! The HTTP handlers of tournaments.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::actor::{Action, Outcome, Snapshot};
use super::export;
use super::service::Tournaments;
use super::wire::*;
use crate::auth::LoggedIn;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::extract::JsonBody;

fn view(s: &Snapshot) -> TournamentView {
    tournament_view(&s.state, s.timers)
}

fn player_of(s: &Snapshot, no: u32) -> ApiResult<PlayerView> {
    let t = view(s);
    t.players
        .into_iter()
        .find(|p| p.no == no)
        .ok_or_else(|| AppError::Internal("the player just entered is missing".into()))
}

fn text(content_type: &'static str, body: String) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

#[utoipa::path(get, path = "/api/tournaments", params(ListQuery),
    responses((status = 200, body = TournamentList), (status = 400, body = ErrorBody)))]
/// Tournaments: upcoming, running and finished (or one status), newest first.
pub async fn list_tournaments(
    State(t): State<Arc<Tournaments>>,
    q: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<TournamentList>> {
    let Query(q) = q?;
    let statuses: Vec<&str> = match q.status.as_deref() {
        None => vec!["upcoming", "running", "finished"],
        Some(s @ ("upcoming" | "running" | "finished")) => vec![s],
        Some(other) => {
            return Err(AppError::bad_request(
                "bad_status",
                format!("unknown status {other:?}: upcoming, running or finished"),
            ))
        }
    };
    let mut tournaments = Vec::new();
    for s in statuses {
        tournaments.extend(t.list(s).await?.iter().map(|s| summary(&s.state)));
    }
    Ok(Json(TournamentList { tournaments }))
}

#[utoipa::path(post, path = "/api/tournaments", request_body = CreateTournament,
    responses((status = 201, body = TournamentView), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody)))]
/// Create a tournament; the caller is its director.
pub async fn create_tournament(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    JsonBody(req): JsonBody<CreateTournament>,
) -> ApiResult<(StatusCode, Json<TournamentView>)> {
    let s = t.create(&req, &who.account).await?;
    Ok((StatusCode::CREATED, Json(view(&s))))
}

#[utoipa::path(get, path = "/api/tournaments/{id}", params(("id" = String, Path)),
    responses((status = 200, body = TournamentView), (status = 404, body = ErrorBody)))]
/// A tournament: players, rounds, standings.
pub async fn get_tournament(
    State(t): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    Ok(Json(view(&t.snapshot(&id).await?)))
}

#[utoipa::path(get, path = "/api/tournaments/{id}/rounds/{round}",
    params(("id" = String, Path), ("round" = u32, Path)),
    responses((status = 200, body = RoundView), (status = 400, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
/// A paired round with its pairing explanation.
pub async fn get_round(
    State(t): State<Arc<Tournaments>>,
    path: Result<Path<(String, u32)>, PathRejection>,
) -> ApiResult<Json<RoundView>> {
    let Path((id, round)) = path?;
    let s = t.snapshot(&id).await?;
    let r = s
        .state
        .round(round)
        .ok_or_else(|| AppError::NotFound(format!("round {round} has not been paired")))?;
    Ok(Json(round_view(r)))
}

#[utoipa::path(get, path = "/api/tournaments/{id}/standings", params(("id" = String, Path)),
    responses((status = 200, body = StandingsView), (status = 404, body = ErrorBody)))]
/// The standings with the tie-breaks (C.07).
pub async fn get_standings(
    State(t): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Json<StandingsView>> {
    let s = t.snapshot(&id).await?;
    let (_, table) = s.state.standings();
    Ok(Json(standings_view(&s.state, &table)))
}

async fn crosstable(t: &Arc<Tournaments>, id: &str) -> ApiResult<(CrosstableView, Vec<String>)> {
    let s = t.snapshot(id).await?;
    let (model, table) = s.state.standings();
    let names = table.tie_breaks.iter().map(ToString::to_string).collect();
    Ok((export::crosstable(&s.state, &model, &table), names))
}

#[utoipa::path(get, path = "/api/tournaments/{id}/crosstable", params(("id" = String, Path)),
    responses((status = 200, body = CrosstableView), (status = 404, body = ErrorBody)))]
/// The crosstable.
pub async fn get_crosstable(
    State(t): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Json<CrosstableView>> {
    Ok(Json(crosstable(&t, &id).await?.0))
}

#[utoipa::path(get, path = "/api/tournaments/{id}/crosstable.txt", params(("id" = String, Path)),
    responses((status = 200, content_type = "text/plain", body = String), (status = 404, body = ErrorBody)))]
/// The crosstable as a fixed-width table.
pub async fn get_crosstable_text(
    State(t): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let (x, names) = crosstable(&t, &id).await?;
    Ok(text(
        "text/plain; charset=utf-8",
        export::crosstable_text(&x, &names),
    ))
}

#[utoipa::path(get, path = "/api/tournaments/{id}/crosstable.csv", params(("id" = String, Path)),
    responses((status = 200, content_type = "text/csv", body = String), (status = 404, body = ErrorBody)))]
/// The crosstable as CSV.
pub async fn get_crosstable_csv(
    State(t): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let (x, names) = crosstable(&t, &id).await?;
    Ok(text(
        "text/csv; charset=utf-8",
        export::crosstable_csv(&x, &names),
    ))
}

#[utoipa::path(get, path = "/api/tournaments/{id}/trf", params(("id" = String, Path)),
    responses((status = 200, content_type = "text/plain", body = String), (status = 404, body = ErrorBody)))]
/// The tournament in FIDE's TRF.
pub async fn get_trf(
    State(t): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let s = t.snapshot(&id).await?;
    let model = s.state.model(None);
    Ok(text(
        "text/plain; charset=utf-8",
        arbiter_tournament::trf::write(&model),
    ))
}

#[utoipa::path(get, path = "/api/tournaments/{id}/pgn", params(("id" = String, Path)),
    responses((status = 200, content_type = "application/x-chess-pgn", body = String),
              (status = 404, body = ErrorBody)))]
/// Every online game of the tournament in PGN.
pub async fn get_pgn(
    State(t): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let s = t.snapshot(&id).await?;
    let pgn = export::pgn(t.hub(), &s.state).await;
    Ok(text("application/x-chess-pgn; charset=utf-8", pgn))
}

async fn act(
    t: &Arc<Tournaments>,
    who: &LoggedIn,
    id: &str,
    action: Action,
) -> ApiResult<(Snapshot, Outcome)> {
    t.act(id, &who.account, action).await
}

#[utoipa::path(post, path = "/api/tournaments/{id}/register", params(("id" = String, Path)),
    responses((status = 200, body = PlayerView), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Register (or come back after withdrawing).
pub async fn register(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<PlayerView>> {
    match act(&t, &who, &id, Action::Register).await? {
        (s, Outcome::Player(no)) => Ok(Json(player_of(&s, no)?)),
        _ => Err(AppError::Internal("no player".into())),
    }
}

#[utoipa::path(post, path = "/api/tournaments/{id}/withdraw", params(("id" = String, Path)),
    responses((status = 200, body = PlayerView), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Withdraw oneself.
pub async fn withdraw(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<PlayerView>> {
    match act(&t, &who, &id, Action::Withdraw).await? {
        (s, Outcome::Player(no)) => Ok(Json(player_of(&s, no)?)),
        _ => Err(AppError::Internal("no player".into())),
    }
}

#[utoipa::path(post, path = "/api/tournaments/{id}/present", params(("id" = String, Path)),
    responses((status = 204, description = "Checked in"), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Check in for the current round (Art. 6.7.1: arrived at the board).
pub async fn present(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    act(&t, &who, &id, Action::Present).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/tournaments/{id}/players", params(("id" = String, Path)),
    request_body = NewPlayer,
    responses((status = 201, body = PlayerView), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Director: enter a player by name.
pub async fn add_player(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<NewPlayer>,
) -> ApiResult<(StatusCode, Json<PlayerView>)> {
    match act(&t, &who, &id, Action::AddPlayer(req)).await? {
        (s, Outcome::Player(no)) => Ok((StatusCode::CREATED, Json(player_of(&s, no)?))),
        _ => Err(AppError::Internal("no player".into())),
    }
}

macro_rules! director_action {
    ($name:ident, $path:literal, $doc:literal, $action:expr) => {
        #[utoipa::path(post, path = $path, params(("id" = String, Path)),
            responses((status = 200, body = TournamentView), (status = 401, body = ErrorBody),
                      (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
                      (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
        #[doc = $doc]
        pub async fn $name(
            State(t): State<Arc<Tournaments>>,
            who: LoggedIn,
            Path(id): Path<String>,
        ) -> ApiResult<Json<TournamentView>> {
            Ok(Json(view(&act(&t, &who, &id, $action).await?.0)))
        }
    };
}

director_action!(
    start,
    "/api/tournaments/{id}/start",
    "Director: start now (pairs round 1).",
    Action::Start
);
director_action!(
    pair,
    "/api/tournaments/{id}/pair",
    "Director: pair the next round now.",
    Action::Pair
);
director_action!(
    pause,
    "/api/tournaments/{id}/pause",
    "Director: no round is paired by itself.",
    Action::Pause
);
director_action!(
    resume,
    "/api/tournaments/{id}/resume",
    "Director: automatic pairing again.",
    Action::Resume
);

#[utoipa::path(post, path = "/api/tournaments/{id}/registration", params(("id" = String, Path)),
    request_body = RegistrationRequest,
    responses((status = 200, body = TournamentView), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Director: open or close self-registration.
pub async fn registration(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<RegistrationRequest>,
) -> ApiResult<Json<TournamentView>> {
    Ok(Json(view(
        &act(&t, &who, &id, Action::Registration(req.open)).await?.0,
    )))
}

#[utoipa::path(post, path = "/api/tournaments/{id}/players/{no}/withdraw",
    params(("id" = String, Path), ("no" = u32, Path)),
    responses((status = 200, body = TournamentView), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Director: withdraw a player.
pub async fn withdraw_player(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    path: Result<Path<(String, u32)>, PathRejection>,
) -> ApiResult<Json<TournamentView>> {
    let Path((id, no)) = path?;
    Ok(Json(view(
        &act(&t, &who, &id, Action::WithdrawPlayer(no)).await?.0,
    )))
}

#[utoipa::path(post, path = "/api/tournaments/{id}/players/{no}/readmit",
    params(("id" = String, Path), ("no" = u32, Path)),
    responses((status = 200, body = TournamentView), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Director: re-admit a withdrawn player.
pub async fn readmit_player(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    path: Result<Path<(String, u32)>, PathRejection>,
) -> ApiResult<Json<TournamentView>> {
    let Path((id, no)) = path?;
    Ok(Json(view(
        &act(&t, &who, &id, Action::Readmit(no)).await?.0,
    )))
}

#[utoipa::path(post, path = "/api/tournaments/{id}/byes", params(("id" = String, Path)),
    request_body = ByeRequest,
    responses((status = 200, body = TournamentView), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Director: grant a bye for a round not paired yet.
pub async fn grant_bye(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<ByeRequest>,
) -> ApiResult<Json<TournamentView>> {
    Ok(Json(view(&act(&t, &who, &id, Action::Bye(req)).await?.0)))
}

#[utoipa::path(post, path = "/api/tournaments/{id}/forbidden", params(("id" = String, Path)),
    request_body = ForbidRequest,
    responses((status = 200, body = TournamentView), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Director: forbid the pairing of two players.
pub async fn forbid(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<ForbidRequest>,
) -> ApiResult<Json<TournamentView>> {
    Ok(Json(view(
        &act(&t, &who, &id, Action::Forbid(req)).await?.0,
    )))
}

#[utoipa::path(post, path = "/api/tournaments/{id}/rounds/{round}/boards/{board}/result",
    params(("id" = String, Path), ("round" = u32, Path), ("board" = u32, Path)),
    request_body = ResultRequest,
    responses((status = 200, body = TournamentView), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Director: enter or correct a result (Art. 12.9 on a game being played).
pub async fn set_result(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    JsonBody(req): JsonBody<ResultRequest>,
) -> ApiResult<Json<TournamentView>> {
    let Path((id, round, board)) = path?;
    let action = Action::SetResult {
        round,
        board,
        result: req.result,
    };
    Ok(Json(view(&act(&t, &who, &id, action).await?.0)))
}

#[utoipa::path(post, path = "/api/tournaments/{id}/rounds/{round}/boards/{board}/penalty",
    params(("id" = String, Path), ("round" = u32, Path), ("board" = u32, Path)),
    request_body = PenaltyRequest,
    responses((status = 200, body = PenaltyDone), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Director: an Art. 12.9 penalty on a game being played.
pub async fn penalty(
    State(t): State<Arc<Tournaments>>,
    who: LoggedIn,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    JsonBody(req): JsonBody<PenaltyRequest>,
) -> ApiResult<Json<PenaltyDone>> {
    let Path((id, round, board)) = path?;
    match act(&t, &who, &id, Action::Penalty { round, board, req }).await? {
        (_, Outcome::Penalty(done)) => Ok(Json(done)),
        _ => Err(AppError::Internal("no penalty".into())),
    }
}
