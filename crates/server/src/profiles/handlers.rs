//! The HTTP handlers of profiles: a player's page, game list and PGN export, and the
//! leaderboards.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::queries::{self, Cursor, Filter, NamedGame, Outcome};
use super::wire::{
    Counts, ExportQuery, GameListItem, GamesPage, GamesQuery, LeaderboardEntry, Profile,
};
use crate::accounts::queries::{self as account_queries, AccountRow};
use crate::db::{now_unix_ms, EventRow, Store};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::games::wire::OpeningView;
use crate::games::Hub;
use crate::games::{replay, Status};
use crate::ratings::{self, Category, RatingView};

/// Games on a page of a player's list.
pub const PER_PAGE: i64 = 20;
/// Games read from the database at a time by a PGN export.
const EXPORT_BATCH: i64 = 50;
/// A leaderboard shows players whose RD is at most this (lichess's line)…
const LEADERBOARD_MAX_RD: f64 = 75.0;
/// …who played a rated game in the category within these last days.
const LEADERBOARD_DAYS: i64 = 28;
/// Places on a leaderboard.
const LEADERBOARD_SIZE: usize = 100;

async fn account_named(store: &Store, name: &str) -> ApiResult<AccountRow> {
    let found = if name.is_empty() || name.len() > 64 {
        None
    } else {
        account_queries::by_name(store.pool(), name).await?
    };
    found.ok_or_else(|| AppError::NotFound(format!("no player named {name:?}")))
}

fn category(speed: Option<&str>) -> ApiResult<Option<Category>> {
    speed
        .filter(|s| !s.is_empty())
        .map(|s| {
            Category::ALL
                .into_iter()
                .find(|c| c.name() == s)
                .ok_or_else(|| {
                    AppError::bad_request(
                        "bad_speed",
                        format!(
                            "unknown speed {s:?}: bullet, blitz, rapid, standard, \
                             correspondence or chess960"
                        ),
                    )
                })
        })
        .transpose()
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> ApiResult<T> {
    q.map(|Query(q)| q)
        .map_err(|e| AppError::bad_request("invalid_request", e.body_text()))
}

#[utoipa::path(get, path = "/api/users/{name}",
    params(("name" = String, Path, description = "Username (any case)")),
    responses((status = 200, body = Profile), (status = 404, body = ErrorBody)))]
/// A player's profile: ratings per category, results, games in progress.
pub async fn get_profile(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> ApiResult<Json<Profile>> {
    let store = hub.store();
    let account = account_named(store, &name).await?;
    let pool = store.pool();
    let ratings = ratings::ratings_of(pool, &account.id, now_unix_ms()).await?;
    let [games, wins, draws, losses] = queries::counts(pool, &account.id).await?;
    Ok(Json(Profile {
        username: account.username,
        created_at: account.created_at,
        closed: account.closed_at.is_some(),
        title: account.title,
        ratings,
        count: Counts {
            games,
            wins,
            draws,
            losses,
        },
        playing: queries::playing(pool, &account.id).await?,
    }))
}

/// The opening of a listed game: stored with a finished game's row, looked up (from its
/// events) and stored the first time the game is listed after it finished.
async fn opening_of(store: &Store, game: &NamedGame) -> ApiResult<Option<OpeningView>> {
    if replay::status(&game.row) != Status::Finished {
        return Ok(None);
    }
    let (eco, name) = match &game.opening {
        Some(stored) => stored.clone(),
        None => {
            let events = store.events(&game.row.id, 0).await?;
            let replayed = replay::replay(&game.row, &events)?;
            let found = replayed
                .referee
                .opening()
                .map_or((String::new(), String::new()), |o| {
                    (o.eco.to_owned(), o.name.to_owned())
                });
            queries::store_opening(store.pool(), &game.row.id, (&found.0, &found.1)).await?;
            found
        }
    };
    Ok((!eco.is_empty()).then_some(OpeningView { eco, name }))
}

fn list_item(game: NamedGame, opening: Option<OpeningView>) -> ApiResult<GameListItem> {
    let seats = replay::seats(&game.row, &game.names);
    let computer = replay::computer_seat(&game.row)?.map(|c| c.view());
    let status = replay::status(&game.row);
    let row = game.row;
    Ok(GameListItem {
        id: row.id,
        created_at: row.created_at,
        time_control: row.time_control,
        variant: row.variant,
        speed: row.players.category.clone(),
        rated: row.players.rated,
        status,
        result: row.result,
        termination: row.termination,
        players: seats.view(),
        computer,
        opening,
    })
}

#[utoipa::path(get, path = "/api/users/{name}/games",
    params(("name" = String, Path, description = "Username (any case)"), GamesQuery),
    responses((status = 200, body = GamesPage), (status = 400, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
/// A player's games, newest first, 20 a page, optionally of one speed and one result.
pub async fn list_games(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
    q: Result<Query<GamesQuery>, QueryRejection>,
) -> ApiResult<Json<GamesPage>> {
    let q = query(q)?;
    let page = match q.page.as_deref().filter(|p| !p.is_empty()) {
        None => 1,
        Some(p) => p
            .parse::<i64>()
            .ok()
            .filter(|p| (1..=1_000_000).contains(p))
            .ok_or_else(|| AppError::bad_request("bad_page", "page: a number from 1"))?,
    };
    let category = category(q.speed.as_deref())?;
    let outcome = match q.result.as_deref().filter(|r| !r.is_empty()) {
        None => None,
        Some("win") => Some(Outcome::Win),
        Some("draw") => Some(Outcome::Draw),
        Some("loss") => Some(Outcome::Loss),
        Some(r) => {
            return Err(AppError::bad_request(
                "bad_result",
                format!("unknown result {r:?}: win, draw or loss"),
            ))
        }
    };
    let store = hub.store();
    let account = account_named(store, &name).await?;
    let filter = Filter {
        category: category.map(Category::name),
        outcome,
    };
    let (games, total) = queries::games_page(
        store.pool(),
        &account.id,
        filter,
        PER_PAGE,
        (page - 1) * PER_PAGE,
    )
    .await?;
    let mut items = Vec::with_capacity(games.len());
    for game in games {
        let opening = opening_of(store, &game).await?;
        items.push(list_item(game, opening)?);
    }
    Ok(Json(GamesPage {
        page,
        per_page: PER_PAGE,
        total,
        games: items,
    }))
}

/// The PGN of one stored game, ending with the blank line that separates games.
fn game_pgn(game: &NamedGame, events: &[EventRow]) -> ApiResult<String> {
    let replayed = replay::replay(&game.row, events)?;
    let seats = replay::seats(&game.row, &game.names);
    let mut text = replay::pgn(&game.row, &seats, &replayed.referee)?;
    let len = text.trim_end().len();
    text.truncate(len);
    text.push_str("\n\n");
    Ok(text)
}

/// Where an export stream has got to.
struct Export {
    store: Store,
    account: String,
    category: Option<&'static str>,
    cursor: Option<Cursor>,
    done: bool,
}

impl Export {
    /// The PGN of the next batch of games; `None` at the end.
    async fn next_batch(&mut self) -> Option<Result<Bytes, std::io::Error>> {
        if self.done {
            return None;
        }
        let batch = match queries::finished_after(
            self.store.pool(),
            &self.account,
            self.category,
            self.cursor.as_ref(),
            EXPORT_BATCH,
        )
        .await
        {
            Ok(b) => b,
            Err(e) => return Some(Err(self.fail(e.to_string()))),
        };
        if batch.len() < EXPORT_BATCH as usize {
            self.done = true;
        }
        let last = batch.last()?;
        self.cursor = Some((last.row.created_at, last.row.id.clone()));
        let mut games = Vec::with_capacity(batch.len());
        for game in batch {
            match self.store.events(&game.row.id, 0).await {
                Ok(events) => games.push((game, events)),
                Err(e) => return Some(Err(self.fail(e.to_string()))),
            }
        }
        // Replaying is CPU work: off the async workers.
        let text = tokio::task::spawn_blocking(move || {
            let mut text = String::new();
            for (game, events) in &games {
                match game_pgn(game, events) {
                    Ok(pgn) => text.push_str(&pgn),
                    // Stored data the server wrote itself: a fault to log, not a reason to
                    // withhold the player's other games.
                    Err(e) => tracing::error!(game = %game.row.id, "PGN export: {e}"),
                }
            }
            text
        })
        .await;
        match text {
            Ok(text) => Some(Ok(Bytes::from(text))),
            Err(e) => Some(Err(self.fail(e.to_string()))),
        }
    }

    /// End the stream with an error: the client sees the download cut short.
    fn fail(&mut self, why: String) -> std::io::Error {
        self.done = true;
        tracing::error!(account = %self.account, "PGN export stopped: {why}");
        std::io::Error::other(why)
    }
}

#[utoipa::path(get, path = "/api/users/{name}/games.pgn",
    params(("name" = String, Path, description = "Username (any case)"), ExportQuery),
    responses((status = 200, description = "Every finished game of the player (aborted games \
        left out), newest first, streamed", content_type = "application/x-chess-pgn",
        body = String),
              (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
/// Every finished game of a player as one PGN file, streamed in batches (never built whole in
/// memory).
pub async fn export_games(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
    q: Result<Query<ExportQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let q = query(q)?;
    let category = category(q.speed.as_deref())?;
    let store = hub.store().clone();
    let account = account_named(&store, &name).await?;
    let export = Export {
        store,
        account: account.id,
        category: category.map(Category::name),
        cursor: None,
        done: false,
    };
    let stream = futures_util::stream::unfold(export, |mut export| async move {
        let item = export.next_batch().await?;
        Some((item, export))
    });
    let filename = format!("attachment; filename=\"arbiter-{}.pgn\"", account.username);
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn".to_owned()),
            (header::CONTENT_DISPOSITION, filename),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}

#[utoipa::path(get, path = "/api/leaderboard/{speed}",
    params(("speed" = String, Path,
        description = "bullet, blitz, rapid, standard, correspondence or chess960")),
    responses((status = 200, body = [LeaderboardEntry]), (status = 404, body = ErrorBody)))]
/// The best 100 ratings of a category among players with RD ≤ 75 who played a rated game in
/// it in the last 4 weeks.
pub async fn leaderboard(
    State(hub): State<Arc<Hub>>,
    Path(speed): Path<String>,
) -> ApiResult<Json<Vec<LeaderboardEntry>>> {
    let category = category(Some(&speed))
        .ok()
        .flatten()
        .ok_or_else(|| AppError::NotFound(format!("no leaderboard {speed:?}")))?;
    let now = now_unix_ms();
    let since = now - LEADERBOARD_DAYS * 86_400_000;
    // The stored RD only grows when shown (idle time), so the stored line is a first cut
    // and the shown RD decides.
    let rows = queries::best_ratings(
        hub.store().pool(),
        category.name(),
        LEADERBOARD_MAX_RD,
        since,
        4 * LEADERBOARD_SIZE as i64,
    )
    .await?;
    let board = rows
        .into_iter()
        .filter_map(|(username, row)| {
            let view = RatingView::of(&row, now);
            (view.rd as f64 <= LEADERBOARD_MAX_RD).then_some(LeaderboardEntry {
                username,
                rating: view.rating,
                rd: view.rd,
                games: view.games,
            })
        })
        .take(LEADERBOARD_SIZE)
        .collect();
    Ok(Json(board))
}
