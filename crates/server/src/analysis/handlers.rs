//! `POST /api/games/{id}/analysis` (request) and `GET /api/games/{id}/analysis` (progress and
//! result).

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use super::queries::{self, AccountLimits, Inserted, JobRow};
use super::report;
use super::wire::{AnalysisView, StoredLimit};
use super::Analyses;
use crate::auth::Identity;
use crate::db::now_unix_ms;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::games::handlers::{Archive, GameId};
use crate::games::wire::Variant;
use crate::games::Status;

/// A day, ms (the per-day limit counts requests over the last 24 hours).
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

#[utoipa::path(post, path = "/api/games/{id}/analysis", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses(
        (status = 202, body = AnalysisView, description = "Queued"),
        (status = 200, body = AnalysisView, description = "Already requested: its current state"),
        (status = 401, body = ErrorBody, description = "Only players with an account may ask"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "`game_not_finished`"),
        (status = 429, body = ErrorBody, description = "`analysis_limit`: too many analyses queued or requested today")))]
/// Ask for a computer analysis of a finished (or imported) game. One analysis per game: asking
/// again answers the one that exists.
pub async fn request_analysis(
    State(analyses): State<Arc<Analyses>>,
    GameId(id): GameId,
    who: Identity,
    archive: Option<Extension<Archive>>,
) -> ApiResult<Response> {
    let Some(account) = who.account else {
        return Err(AppError::Unauthorized(
            "sign in to ask for a computer analysis".into(),
        ));
    };
    let pool = analyses.hub.store().pool();
    if let Some(job) = queries::job(pool, &id).await? {
        return Ok((StatusCode::OK, Json(current_view(&analyses, &job).await?)).into_response());
    }
    // A played game, or an imported one (kept apart by the imports, finished by nature).
    let game = match (analyses.hub.view(&id).await, archive) {
        (Err(AppError::NotFound(m)), Some(Extension(a))) => {
            a.0.view(&id).await?.ok_or(AppError::NotFound(m))?
        }
        (other, _) => other?,
    };
    if game.status != Status::Finished {
        return Err(AppError::conflict(
            "game_not_finished",
            format!(
                "game {id} is {}: only finished games can be analysed",
                game.status
            ),
        ));
    }
    let config = &analyses.config;
    let now = now_unix_ms();
    let limit = StoredLimit {
        depth: config.depth,
        nodes: config.nodes,
    };
    let moves: Vec<&str> = game.moves.iter().map(|m| m.uci.as_str()).collect();
    let job = JobRow {
        game_id: id.clone(),
        state: "queued".into(),
        requested_by: account.id.clone(),
        requested_at: now,
        engine: analyses.engine_name(),
        engine_key: config.engine.clone().unwrap_or_default(),
        search_limit: serde_json::to_string(&limit).expect("plain JSON"),
        initial_fen: game.initial_fen.clone(),
        chess960: i64::from(matches!(game.variant, Variant::Chess960)),
        moves: moves.join(" "),
        total: game.moves.len() as i64 + 1,
        done: 0,
        error: None,
    };
    // The game must be readable before it is queued (a bad record fails here, not later).
    report::job_game(&job).map_err(|e| AppError::Internal(format!("game {id}: {e}")))?;
    let limits = AccountLimits {
        max_pending: i64::from(config.max_pending_per_account),
        max_recent: i64::from(config.max_per_day),
        since: now - DAY_MS,
    };
    let inserted = queries::insert_job(pool, &job, &limits).await?;
    let job = match queries::job(pool, &id).await? {
        Some(j) => j,
        // Not stored and no other request's job: the player is at a limit (decided by the
        // insert; the counts here only say which).
        None => {
            return match limit_refusal(pool, &account.id, config, now).await? {
                Some(refused) => Ok(refused),
                None => Err(AppError::Internal("analysis job vanished".into())),
            }
        }
    };
    let view = current_view(&analyses, &job).await?;
    if inserted == Inserted::Queued {
        analyses.wake.notify_one();
        Ok((StatusCode::ACCEPTED, Json(view)).into_response())
    } else {
        // Asked twice at once: the other request queued it.
        Ok((StatusCode::OK, Json(view)).into_response())
    }
}

#[utoipa::path(get, path = "/api/games/{id}/analysis", params(("id" = String, Path)),
    responses((status = 200, body = AnalysisView),
              (status = 404, body = ErrorBody, description = "No analysis was requested")))]
/// A game's computer analysis: its state and progress, the evaluated positions, the judged
/// moves and (once done) the players' summary. Poll it until `done` or `failed`.
pub async fn get_analysis(
    State(analyses): State<Arc<Analyses>>,
    GameId(id): GameId,
) -> ApiResult<Json<AnalysisView>> {
    let job = queries::job(analyses.hub.store().pool(), &id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("no analysis of game {id:?} was requested")))?;
    Ok(Json(current_view(&analyses, &job).await?))
}

/// The view of a job as stored now.
async fn current_view(analyses: &Analyses, job: &JobRow) -> ApiResult<AnalysisView> {
    let pool = analyses.hub.store().pool();
    let game = report::job_game(job).map_err(AppError::Internal)?;
    let rows = queries::positions(pool, &job.game_id).await?;
    let positions = report::stored_positions(&game, &rows);
    let queue_position = if job.state == "queued" {
        Some(queries::queue_position(pool, job).await?)
    } else {
        None
    };
    Ok(report::view(
        job,
        &game,
        &positions,
        queue_position,
        &analyses.config.thresholds,
    ))
}

/// The game's PGN with the stored analysis written in as `[%eval]` comments, NAGs and
/// comments; unchanged when the game has no analysis (or it cannot be matched to the PGN).
///
/// # Errors
/// Database errors.
pub async fn annotated_pgn(analyses: &Analyses, id: &str, pgn: String) -> ApiResult<String> {
    let pool = analyses.hub.store().pool();
    let Some(job) = queries::job(pool, id).await? else {
        return Ok(pgn);
    };
    let Ok(game) = report::job_game(&job) else {
        return Ok(pgn);
    };
    let rows = queries::positions(pool, id).await?;
    let positions = report::stored_positions(&game, &rows);
    Ok(report::annotate_pgn(&pgn, &game, &positions, &analyses.config.thresholds).unwrap_or(pgn))
}

/// The 429 answer if `account` is at one of the limits (queued or running, requested today).
async fn limit_refusal(
    pool: &sqlx::AnyPool,
    account: &str,
    config: &super::AnalysisConfig,
    now: i64,
) -> ApiResult<Option<Response>> {
    let (pending, today) = queries::account_counts(pool, account, now - DAY_MS).await?;
    let message = if pending >= i64::from(config.max_pending_per_account) {
        format!(
            "at most {} analyses queued or running per player; wait until one is done",
            config.max_pending_per_account
        )
    } else if today >= i64::from(config.max_per_day) {
        format!("at most {} analyses per player per day", config.max_per_day)
    } else {
        return Ok(None);
    };
    let body = ErrorBody {
        error: "analysis_limit".into(),
        message,
    };
    Ok(Some(
        (StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response(),
    ))
}
