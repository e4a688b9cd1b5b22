//! The queue and the results in the database (migration 0008): `analyses` holds one job per
//! game, `analysis_positions` one row per analysed position.

use sqlx::{AnyPool, Row};

use crate::db::now_unix_ms;

/// A job as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobRow {
    /// The game.
    pub game_id: String,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    /// The account that asked.
    pub requested_by: String,
    /// When, unix ms.
    pub requested_at: i64,
    /// The engine's name as shown.
    pub engine: String,
    /// `""` for the built-in engine, else the configured external engine's name.
    pub engine_key: String,
    /// JSON [`super::wire::StoredLimit`].
    pub search_limit: String,
    /// The game's start position.
    pub initial_fen: String,
    /// 1 for a Chess960 game.
    pub chess960: i64,
    /// The moves, UCI, space separated.
    pub moves: String,
    /// Positions in the game (moves + 1).
    pub total: i64,
    /// Positions analysed and stored.
    pub done: i64,
    /// Why it failed.
    pub error: Option<String>,
}

const COLUMNS: &str = "game_id, state, requested_by, requested_at, engine, engine_key, \
    search_limit, initial_fen, chess960, moves, total, done, error";

fn job_row(r: &sqlx::any::AnyRow) -> Result<JobRow, sqlx::Error> {
    Ok(JobRow {
        game_id: r.try_get("game_id")?,
        state: r.try_get("state")?,
        requested_by: r.try_get("requested_by")?,
        requested_at: r.try_get("requested_at")?,
        engine: r.try_get("engine")?,
        engine_key: r.try_get("engine_key")?,
        search_limit: r.try_get("search_limit")?,
        initial_fen: r.try_get("initial_fen")?,
        chess960: r.try_get("chess960")?,
        moves: r.try_get("moves")?,
        total: r.try_get("total")?,
        done: r.try_get("done")?,
        error: r.try_get("error")?,
    })
}

/// The job of a game.
///
/// # Errors
/// Database errors.
pub async fn job(pool: &AnyPool, game_id: &str) -> Result<Option<JobRow>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM analyses WHERE game_id = $1"
    ))
    .bind(game_id)
    .fetch_optional(pool)
    .await?;
    row.as_ref().map(job_row).transpose()
}

/// The stored positions of a game's analysis, `(ply, data)` in order.
///
/// # Errors
/// Database errors.
pub async fn positions(pool: &AnyPool, game_id: &str) -> Result<Vec<(i64, String)>, sqlx::Error> {
    let rows =
        sqlx::query("SELECT ply, data FROM analysis_positions WHERE game_id = $1 ORDER BY ply")
            .bind(game_id)
            .fetch_all(pool)
            .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("ply")?, r.try_get("data")?)))
        .collect()
}

/// Queues a job unless the game has one already (one job per game, ever) or the account is at
/// one of its `limits`. The limits are counted in the statement that inserts, so requests
/// made at the same moment cannot pass a limit together.
///
/// # Errors
/// Database errors.
pub async fn insert_job(
    pool: &AnyPool,
    job: &JobRow,
    limits: &AccountLimits,
) -> Result<Inserted, sqlx::Error> {
    let mut tx = pool.begin().await?;
    if tx.backend_name() == "PostgreSQL" {
        // Requests of one account wait for each other here, so each counts the others' jobs
        // (under READ COMMITTED a statement does not see a concurrent uncommitted insert).
        // SQLite runs one write statement at a time and takes its lock before the counts.
        sqlx::query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE")
            .bind(&job.requested_by)
            .execute(&mut *tx)
            .await?;
    }
    let done = sqlx::query(&format!(
        "INSERT INTO analyses ({COLUMNS}) SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
         $12, $13 WHERE (SELECT COUNT(*) FROM analyses WHERE requested_by = $3 \
         AND state IN ('queued', 'running')) < $14 \
         AND (SELECT COUNT(*) FROM analyses WHERE requested_by = $3 AND requested_at >= $15) < $16 \
         ON CONFLICT (game_id) DO NOTHING"
    ))
    .bind(&job.game_id)
    .bind(&job.state)
    .bind(&job.requested_by)
    .bind(job.requested_at)
    .bind(&job.engine)
    .bind(&job.engine_key)
    .bind(&job.search_limit)
    .bind(&job.initial_fen)
    .bind(job.chess960)
    .bind(&job.moves)
    .bind(job.total)
    .bind(job.done)
    .bind(&job.error)
    .bind(limits.max_pending)
    .bind(limits.since)
    .bind(limits.max_recent)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(if done.rows_affected() == 1 {
        Inserted::Queued
    } else {
        Inserted::NotQueued
    })
}

/// What [`insert_job`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inserted {
    /// The job was stored.
    Queued,
    /// Nothing was stored: the game has a job already, or the account is at a limit.
    NotQueued,
}

/// How many jobs one account may have: queued or running, and requested since `since`.
#[derive(Debug, Clone, Copy)]
pub struct AccountLimits {
    /// Queued or running jobs allowed.
    pub max_pending: i64,
    /// Requests allowed since `since`.
    pub max_recent: i64,
    /// Unix ms.
    pub since: i64,
}

/// An account's jobs that are queued or running, and those requested since `since` (unix ms).
///
/// # Errors
/// Database errors.
pub async fn account_counts(
    pool: &AnyPool,
    account: &str,
    since: i64,
) -> Result<(i64, i64), sqlx::Error> {
    let pending: i64 = sqlx::query(
        "SELECT COUNT(*) AS n FROM analyses WHERE requested_by = $1 \
         AND state IN ('queued', 'running')",
    )
    .bind(account)
    .fetch_one(pool)
    .await?
    .try_get("n")?;
    let recent: i64 = sqlx::query(
        "SELECT COUNT(*) AS n FROM analyses WHERE requested_by = $1 AND requested_at >= $2",
    )
    .bind(account)
    .bind(since)
    .fetch_one(pool)
    .await?
    .try_get("n")?;
    Ok((pending, recent))
}

/// Jobs queued ahead of this one (first in, first out by request time, then game id).
///
/// # Errors
/// Database errors.
pub async fn queue_position(pool: &AnyPool, job: &JobRow) -> Result<i64, sqlx::Error> {
    sqlx::query(
        "SELECT COUNT(*) AS n FROM analyses WHERE state = 'queued' \
         AND (requested_at < $1 OR (requested_at = $1 AND game_id < $2))",
    )
    .bind(job.requested_at)
    .bind(&job.game_id)
    .fetch_one(pool)
    .await?
    .try_get("n")
}

/// The next job for the worker: a job left `running` (its worker stopped: a restart, or a
/// coordinator that left) first, else the oldest queued one, which is taken by a conditional
/// update so that two workers never take the same job.
///
/// # Errors
/// Database errors.
pub async fn claim_next(pool: &AnyPool) -> Result<Option<JobRow>, sqlx::Error> {
    let orphan = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM analyses WHERE state = 'running' \
         ORDER BY requested_at, game_id LIMIT 1"
    ))
    .fetch_optional(pool)
    .await?;
    if let Some(r) = orphan {
        return job_row(&r).map(Some);
    }
    loop {
        let next = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM analyses WHERE state = 'queued' \
             ORDER BY requested_at, game_id LIMIT 1"
        ))
        .fetch_optional(pool)
        .await?;
        let Some(r) = next else {
            return Ok(None);
        };
        let mut job = job_row(&r)?;
        let taken = sqlx::query(
            "UPDATE analyses SET state = 'running', started_at = $1 \
             WHERE game_id = $2 AND state = 'queued'",
        )
        .bind(now_unix_ms())
        .bind(&job.game_id)
        .execute(pool)
        .await?;
        if taken.rows_affected() == 1 {
            job.state = "running".into();
            return Ok(Some(job));
        }
        // Another worker took it meanwhile: look again.
    }
}

/// Stores one position's result and the job's progress in one transaction.
///
/// # Errors
/// Database errors.
pub async fn store_position(
    pool: &AnyPool,
    game_id: &str,
    ply: i64,
    data: &str,
) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "INSERT INTO analysis_positions (game_id, ply, data) VALUES ($1, $2, $3) \
         ON CONFLICT (game_id, ply) DO UPDATE SET data = excluded.data",
    )
    .bind(game_id)
    .bind(ply)
    .bind(data)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE analyses SET done = $1 WHERE game_id = $2 AND done < $1")
        .bind(ply + 1)
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// Ends a job: `done`, or `failed` with the reason.
///
/// # Errors
/// Database errors.
pub async fn finish(pool: &AnyPool, game_id: &str, error: Option<&str>) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE analyses SET state = $1, error = $2, finished_at = $3 WHERE game_id = $4")
        .bind(if error.is_some() { "failed" } else { "done" })
        .bind(error)
        .bind(now_unix_ms())
        .bind(game_id)
        .execute(pool)
        .await?;
    Ok(())
}
