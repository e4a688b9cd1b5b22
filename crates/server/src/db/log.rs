//! The games and their numbered event logs: the rows, the reads, and the commit of a batch of
//! writes in one transaction.

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};

use super::error::StoreError;

/// A row of the `games` table.
#[derive(Debug, Clone)]
pub struct GameRow {
    /// Game id.
    pub id: String,
    /// Creation time, unix ms.
    pub created_at: i64,
    /// Last change, unix ms.
    pub updated_at: i64,
    /// JSON of the game's creation parameters.
    pub spec: String,
    /// Time control (human form).
    pub time_control: String,
    /// `standard` or `chess960`.
    pub variant: String,
    /// Hash of White's token.
    pub white_hash: Option<String>,
    /// Hash of Black's token.
    pub black_hash: Option<String>,
    /// `waiting`, `playing`, `finished`, `adjourned`.
    pub status: String,
    /// Result once finished.
    pub result: Option<String>,
    /// Termination once finished.
    pub termination: Option<String>,
    /// Number of the last event.
    pub last_seq: i64,
    /// The seat the server plays itself, JSON of `ComputerSeat` (games); `None`
    /// for a game between people.
    pub computer: Option<String>,
}

/// A row of the `events` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    /// Game id.
    pub game_id: String,
    /// Event number (1-based, per game).
    pub seq: i64,
    /// Event kind (`start`, `move`, `draw_offer`, `result`, …).
    pub kind: String,
    /// Game time of the event, ms.
    pub t_ms: i64,
    /// JSON payload as clients see it.
    pub data: String,
    /// Wall-clock time, unix ms.
    pub created_at: i64,
}

/// The change to a game's row that accompanies an event.
#[derive(Debug, Clone, Default)]
pub struct GameUpdate {
    /// New status.
    pub status: String,
    /// New result, if any.
    pub result: Option<String>,
    /// New termination, if any.
    pub termination: Option<String>,
    /// Set White's token hash (when a seat is taken).
    pub white_hash: Option<String>,
    /// Set Black's token hash.
    pub black_hash: Option<String>,
}

/// One unit of work for the writer: committed atomically, acknowledged after commit.
#[derive(Debug, Clone)]
pub enum Write {
    /// Insert a new game.
    Create(GameRow),
    /// Append events (consecutive numbers) to a game's log; with a [`GameUpdate`] when the
    /// game's status, result or seats change (otherwise only `last_seq` moves on).
    Append(Vec<EventRow>, Option<GameUpdate>),
}

/// Load a game row.
///
/// # Errors
/// Database errors.
pub async fn game(pool: &AnyPool, id: &str) -> Result<Option<GameRow>, StoreError> {
    let row = sqlx::query(
        "SELECT id, created_at, updated_at, spec, time_control, variant, white_hash, \
         black_hash, status, result, termination, last_seq, computer FROM games WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    row.map(|r| game_row(&r)).transpose()
}

/// All events of a game with `seq > after`, in order.
///
/// # Errors
/// Database errors.
pub async fn events(pool: &AnyPool, id: &str, after: i64) -> Result<Vec<EventRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT game_id, seq, kind, t_ms, data, created_at FROM events \
         WHERE game_id = $1 AND seq > $2 ORDER BY seq",
    )
    .bind(id)
    .bind(after)
    .fetch_all(pool)
    .await?;
    rows.iter().map(event_row).collect()
}

/// Ids of games with the given status, newest first.
///
/// # Errors
/// Database errors.
pub async fn games_with_status(
    pool: &AnyPool,
    status: &str,
    limit: i64,
) -> Result<Vec<GameRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, created_at, updated_at, spec, time_control, variant, white_hash, \
         black_hash, status, result, termination, last_seq, computer FROM games \
         WHERE status = $1 \
         ORDER BY created_at DESC LIMIT $2",
    )
    .bind(status)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    rows.iter().map(game_row).collect()
}

fn game_row(r: &AnyRow) -> Result<GameRow, StoreError> {
    let get = || -> Result<GameRow, sqlx::Error> {
        Ok(GameRow {
            id: r.try_get("id")?,
            created_at: r.try_get("created_at")?,
            updated_at: r.try_get("updated_at")?,
            spec: r.try_get("spec")?,
            time_control: r.try_get("time_control")?,
            variant: r.try_get("variant")?,
            white_hash: r.try_get("white_hash")?,
            black_hash: r.try_get("black_hash")?,
            status: r.try_get("status")?,
            result: r.try_get("result")?,
            termination: r.try_get("termination")?,
            last_seq: r.try_get("last_seq")?,
            computer: r.try_get("computer")?,
        })
    };
    get().map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn event_row(r: &AnyRow) -> Result<EventRow, StoreError> {
    let get = || -> Result<EventRow, sqlx::Error> {
        Ok(EventRow {
            game_id: r.try_get("game_id")?,
            seq: r.try_get("seq")?,
            kind: r.try_get("kind")?,
            t_ms: r.try_get("t_ms")?,
            data: r.try_get("data")?,
            created_at: r.try_get("created_at")?,
        })
    };
    get().map_err(|e| StoreError::Corrupt(e.to_string()))
}

async fn insert_game(conn: &mut sqlx::AnyConnection, g: &GameRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO games (id, created_at, updated_at, spec, time_control, variant, \
         white_hash, black_hash, status, result, termination, last_seq, computer) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(&g.id)
    .bind(g.created_at)
    .bind(g.updated_at)
    .bind(&g.spec)
    .bind(&g.time_control)
    .bind(&g.variant)
    .bind(&g.white_hash)
    .bind(&g.black_hash)
    .bind(&g.status)
    .bind(&g.result)
    .bind(&g.termination)
    .bind(g.last_seq)
    .bind(&g.computer)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Rows per multi-row statement (6 parameters each; well under SQLite's and PostgreSQL's
/// parameter limits).
const ROWS_PER_STATEMENT: usize = 256;

fn placeholders(rows: usize, cols: usize, casts: &[&str]) -> String {
    let mut sql = String::with_capacity(rows * cols * 8);
    for r in 0..rows {
        sql.push_str(if r == 0 { "(" } else { ", (" });
        for c in 0..cols {
            if c > 0 {
                sql.push_str(", ");
            }
            let n = r * cols + c + 1;
            match casts.get(c) {
                Some(t) => sql.push_str(&format!("CAST(${n} AS {t})")),
                None => sql.push_str(&format!("${n}")),
            }
        }
        sql.push(')');
    }
    sql
}

fn out_of_order(game: &str, seq: i64) -> sqlx::Error {
    sqlx::Error::Protocol(format!("event {seq} of game {game} is out of order"))
}

/// Commit a batch in one transaction with few statements: the new games, every event in
/// multi-row INSERTs, one multi-row UPDATE of the games' `last_seq` (guarded: a game's events
/// must follow its last stored one), and a full UPDATE for the rare events that change a
/// game's status, result or seats.
pub(super) async fn commit_batch(pool: &AnyPool, batch: &[&Write]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    let mut events: Vec<&EventRow> = Vec::new();
    // (game, previous last_seq, new last_seq, unix ms)
    let mut bumps: Vec<(&str, i64, i64, i64)> = Vec::new();
    let mut updates: Vec<(&EventRow, &EventRow, &GameUpdate)> = Vec::new();
    for w in batch {
        match w {
            Write::Create(g) => insert_game(&mut tx, g).await?,
            Write::Append(evs, update) => {
                let (Some(first), Some(last)) = (evs.first(), evs.last()) else {
                    continue;
                };
                events.extend(evs.iter());
                match update {
                    Some(u) => updates.push((first, last, u)),
                    None => bumps.push((&first.game_id, first.seq - 1, last.seq, last.created_at)),
                }
            }
        }
    }
    for chunk in events.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "INSERT INTO events (game_id, seq, kind, t_ms, data, created_at) VALUES {}",
            placeholders(chunk.len(), 6, &[])
        );
        let mut q = sqlx::query(&sql);
        for e in chunk {
            q = q
                .bind(&e.game_id)
                .bind(e.seq)
                .bind(&e.kind)
                .bind(e.t_ms)
                .bind(&e.data)
                .bind(e.created_at);
        }
        q.execute(&mut *tx).await?;
    }
    for chunk in bumps.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "WITH v (id, p, s, a) AS (VALUES {}) \
             UPDATE games SET last_seq = v.s, updated_at = v.a FROM v \
             WHERE games.id = v.id AND games.last_seq = v.p",
            placeholders(chunk.len(), 4, &["TEXT", "BIGINT", "BIGINT", "BIGINT"])
        );
        let mut q = sqlx::query(&sql);
        for (id, prev, seq, at) in chunk {
            q = q.bind(*id).bind(*prev).bind(*seq).bind(*at);
        }
        let done = q.execute(&mut *tx).await?;
        if done.rows_affected() != chunk.len() as u64 {
            let (id, _, seq, _) = chunk[0];
            return Err(out_of_order(id, seq));
        }
    }
    for (first, last, u) in updates {
        let done = sqlx::query(
            "UPDATE games SET status = $1, result = $2, termination = $3, last_seq = $4, \
             updated_at = $5, white_hash = COALESCE($6, white_hash), \
             black_hash = COALESCE($7, black_hash) WHERE id = $8 AND last_seq = $9",
        )
        .bind(&u.status)
        .bind(&u.result)
        .bind(&u.termination)
        .bind(last.seq)
        .bind(last.created_at)
        .bind(&u.white_hash)
        .bind(&u.black_hash)
        .bind(&first.game_id)
        .bind(first.seq - 1)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(out_of_order(&first.game_id, first.seq));
        }
    }
    tx.commit().await
}
