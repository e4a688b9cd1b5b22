//! The HTTP handlers: `POST /api/imports` (PGN import) and `GET /api/openings` (the opening
//! of a position).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use arbiter_openings::Openings;
use arbiter_rules::{CastlingMode, Position};

use super::reader::{self, MAX_GAMES};
use super::wire::{ImportFailure, ImportRequest, ImportResult, ImportedGame, OpeningQuery};
use super::{queries, Imports, MAX_IMPORT_BYTES};
use crate::accounts::handlers::ClientAddr;
use crate::auth::Identity;
use crate::db::now_unix_ms;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::games::wire::OpeningView;
use crate::token;

/// The body's PGN text: the body itself (`application/x-chess-pgn`, `text/plain`, or no
/// type), or the `pgn` field of a JSON body (`application/json`).
fn pgn_of(headers: &HeaderMap, bytes: &[u8]) -> ApiResult<String> {
    let kind = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match kind.as_str() {
        "application/json" => {
            let req: ImportRequest = serde_json::from_slice(bytes)
                .map_err(|e| AppError::bad_request("malformed_json", e.to_string()))?;
            Ok(req.pgn)
        }
        "" | "text/plain" | "application/x-chess-pgn" | "application/vnd.chess-pgn" => {
            Ok(match std::str::from_utf8(bytes) {
                Ok(s) => s.to_owned(),
                // Old PGN files are often Latin-1: every byte is then its own character.
                Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
            })
        }
        other => Err(AppError::bad_request(
            "bad_content_type",
            format!(
                "Content-Type {other:?}: expected application/x-chess-pgn, text/plain or \
                 application/json"
            ),
        )),
    }
}

fn too_large() -> Response {
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        Json(ErrorBody {
            error: "pgn_too_large".into(),
            message: format!(
                "the PGN is larger than {} KiB ({MAX_IMPORT_BYTES} bytes); import it in parts",
                MAX_IMPORT_BYTES / 1024
            ),
        }),
    )
        .into_response()
}

#[utoipa::path(post, path = "/api/imports",
    request_body(content(
        (String = "application/x-chess-pgn"),
        (String = "text/plain"),
        (ImportRequest = "application/json"),
    ), description = "One or more games in PGN (at most 1 MiB and 100 games)"),
    responses(
        (status = 201, body = ImportResult,
         description = "Some games imported; the others' errors with their place"),
        (status = 400, body = ImportFailure, description = "No game could be imported"),
        (status = 413, body = ErrorBody, description = "Larger than 1 MiB"),
        (status = 429, body = ErrorBody)))]
/// Import games from PGN: each well-formed game becomes a stored game with its own page
/// (`/game/{id}`, marked imported); a broken game is reported (game, line, column, as
/// `arbiter pgn check` does) and does not stop the others. The logged-in account, if any, is
/// recorded as the importer; anonymous imports are allowed (limited per client address).
pub async fn post_import(
    State(imports): State<Arc<Imports>>,
    ClientAddr(addr): ClientAddr,
    who: Identity,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Response> {
    let Ok(bytes) = axum::body::to_bytes(body, MAX_IMPORT_BYTES).await else {
        return Ok(too_large());
    };
    let text = pgn_of(&headers, &bytes)?;
    // JSON escapes may hide a longer text in a body within the limit.
    if text.len() > MAX_IMPORT_BYTES {
        return Ok(too_large());
    }
    imports.check_rate(addr)?;
    // Reading checks every move: CPU work off the async workers.
    let parsed = tokio::task::spawn_blocking(move || reader::read(&text))
        .await
        .map_err(|e| AppError::Internal(format!("import reader: {e}")))?;
    if parsed.games.is_empty() {
        let message = if parsed.errors.is_empty() {
            "no game in the input".to_owned()
        } else {
            format!(
                "no game could be imported: {} with errors",
                parsed.errors.len()
            )
        };
        return Ok((
            StatusCode::BAD_REQUEST,
            Json(ImportFailure {
                error: "no_game_imported".into(),
                message,
                errors: parsed.errors,
            }),
        )
            .into_response());
    }
    let ids: Vec<(String, &reader::ParsedGame)> =
        parsed.games.iter().map(|g| (token::game_id(), g)).collect();
    let importer = who.account.as_ref().map(|a| a.id.as_str());
    queries::insert(imports.pool(), &ids, importer, now_unix_ms()).await?;
    let tag = |g: &reader::ParsedGame, name: &str| {
        g.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let imported = ids
        .iter()
        .map(|(id, g)| ImportedGame {
            id: id.clone(),
            game: g.number,
            white: tag(g, "White").unwrap_or_else(|| "?".into()),
            black: tag(g, "Black").unwrap_or_else(|| "?".into()),
            result: g.result.clone(),
            event: tag(g, "Event"),
            date: tag(g, "Date"),
            plies: g.moves.len(),
            opening: g.opening.map(Into::into),
        })
        .collect();
    debug_assert!(ids.len() <= MAX_GAMES);
    Ok((
        StatusCode::CREATED,
        Json(ImportResult {
            imported,
            errors: parsed.errors,
        }),
    )
        .into_response())
}

#[utoipa::path(get, path = "/api/openings", params(OpeningQuery),
    responses((status = 200, body = Option<OpeningView>,
               description = "The position's opening, or null when it has no name"),
              (status = 400, body = ErrorBody, description = "A bad FEN, named")))]
/// The opening named for a position (standard chess; by position, so any move order that
/// reaches it finds the name). The lichess chess-openings data (CC0).
pub async fn get_opening(
    query: Result<Query<OpeningQuery>, QueryRejection>,
) -> ApiResult<Json<Option<OpeningView>>> {
    let Query(query) = query?;
    let fen = query.fen.trim();
    let pos = Position::from_fen(fen, CastlingMode::Standard).or_else(|e| {
        // EPD-like input without the move counters.
        if fen.split_whitespace().count() == 4 {
            Position::from_fen(&format!("{fen} 0 1"), CastlingMode::Standard)
        } else {
            Err(e)
        }
    });
    let pos = pos.map_err(|e| AppError::bad_request("bad_fen", format!("bad FEN: {e}")))?;
    Ok(Json(Openings::get().lookup(&pos).map(Into::into)))
}
