//! Tournaments as stored: the row, the numbered event log, the pairing rows (one per player
//! per round, `UNIQUE (tournament, round, player)`), and their part of a committed batch.

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};

use super::error::StoreError;
use super::log::{insert_game, GameRow};

/// A row of the `tournaments` table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TournamentRow {
    /// Tournament id.
    pub id: String,
    /// Creation time, unix ms.
    pub created_at: i64,
    /// The director's account id.
    pub director: String,
    /// Name.
    pub name: String,
    /// `upcoming`, `running` or `finished`.
    pub status: String,
    /// When it starts by itself, unix ms.
    pub starts_at: Option<i64>,
    /// Number of the last event.
    pub last_seq: i64,
}

/// A row of `tournament_events`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentEventRow {
    /// Event number (1-based, per tournament).
    pub seq: i64,
    /// Event kind.
    pub kind: String,
    /// JSON of the event.
    pub data: String,
    /// Unix ms.
    pub created_at: i64,
}

/// A row of `tournament_pairings`: a player's place in a paired round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingRow {
    /// Round, from 1.
    pub round: i64,
    /// The player's start number.
    pub player: i64,
    /// Board, from 1; 0 for a bye.
    pub board: i64,
    /// The online game, if any.
    pub game_id: Option<String>,
}

/// A tournament's change, committed atomically: events (following the last stored one), the
/// new status, the pairing rows and the games of a round being paired.
#[derive(Debug, Clone, Default)]
pub struct TournamentWrite {
    /// The tournament.
    pub id: String,
    /// Create the tournament's row first (its first events).
    pub create: Option<TournamentRow>,
    /// Events, numbered consecutively after the last stored one.
    pub events: Vec<TournamentEventRow>,
    /// The new status, if it changes.
    pub status: Option<String>,
    /// Pairing rows (a round being paired).
    pub pairings: Vec<PairingRow>,
    /// Games to create (a round being paired), status `playing`.
    pub games: Vec<GameRow>,
}

/// Commit a tournament's write inside the batch's transaction.
pub(super) async fn commit(
    tx: &mut sqlx::AnyConnection,
    w: &TournamentWrite,
) -> Result<(), sqlx::Error> {
    let now = w
        .events
        .last()
        .map_or_else(super::now_unix_ms, |e| e.created_at);
    if let Some(t) = &w.create {
        sqlx::query(
            "INSERT INTO tournaments (id, created_at, updated_at, director, name, status, \
             starts_at, last_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, 0)",
        )
        .bind(&t.id)
        .bind(t.created_at)
        .bind(t.created_at)
        .bind(&t.director)
        .bind(&t.name)
        .bind(&t.status)
        .bind(t.starts_at)
        .execute(&mut *tx)
        .await?;
    }
    if let (Some(first), Some(last)) = (w.events.first(), w.events.last()) {
        // Guarded like a game's log: the events must follow the last stored one.
        let done = sqlx::query(
            "UPDATE tournaments SET last_seq = $1, updated_at = $2, status = COALESCE($3, status) \
             WHERE id = $4 AND last_seq = $5",
        )
        .bind(last.seq)
        .bind(now)
        .bind(&w.status)
        .bind(&w.id)
        .bind(first.seq - 1)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(sqlx::Error::Protocol(format!(
                "event {} of tournament {} is out of order",
                first.seq, w.id
            )));
        }
        for e in &w.events {
            sqlx::query(
                "INSERT INTO tournament_events (tournament_id, seq, kind, data, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&w.id)
            .bind(e.seq)
            .bind(&e.kind)
            .bind(&e.data)
            .bind(e.created_at)
            .execute(&mut *tx)
            .await?;
        }
    }
    for g in &w.games {
        insert_game(&mut *tx, g).await?;
    }
    for p in &w.pairings {
        sqlx::query(
            "INSERT INTO tournament_pairings (tournament_id, round, player, board, game_id) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&w.id)
        .bind(p.round)
        .bind(p.player)
        .bind(p.board)
        .bind(&p.game_id)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// Load a tournament's row.
///
/// # Errors
/// Database errors.
pub async fn tournament(pool: &AnyPool, id: &str) -> Result<Option<TournamentRow>, StoreError> {
    let row = sqlx::query(
        "SELECT id, created_at, director, name, status, starts_at, last_seq FROM tournaments \
         WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    row.map(|r| tournament_row(&r)).transpose()
}

/// Tournaments with the given status, newest first.
///
/// # Errors
/// Database errors.
pub async fn tournaments_with_status(
    pool: &AnyPool,
    status: &str,
    limit: i64,
) -> Result<Vec<TournamentRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, created_at, director, name, status, starts_at, last_seq FROM tournaments \
         WHERE status = $1 ORDER BY created_at DESC LIMIT $2",
    )
    .bind(status)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    rows.iter().map(tournament_row).collect()
}

/// A tournament's events with `seq > after`, in order.
///
/// # Errors
/// Database errors.
pub async fn tournament_events(
    pool: &AnyPool,
    id: &str,
    after: i64,
) -> Result<Vec<TournamentEventRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT seq, kind, data, created_at FROM tournament_events \
         WHERE tournament_id = $1 AND seq > $2 ORDER BY seq",
    )
    .bind(id)
    .bind(after)
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(TournamentEventRow {
                seq: r.try_get("seq")?,
                kind: r.try_get("kind")?,
                data: r.try_get("data")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn tournament_row(r: &AnyRow) -> Result<TournamentRow, StoreError> {
    let get = || -> Result<TournamentRow, sqlx::Error> {
        Ok(TournamentRow {
            id: r.try_get("id")?,
            created_at: r.try_get("created_at")?,
            director: r.try_get("director")?,
            name: r.try_get("name")?,
            status: r.try_get("status")?,
            starts_at: r.try_get("starts_at")?,
            last_seq: r.try_get("last_seq")?,
        })
    };
    get().map_err(|e| StoreError::Corrupt(e.to_string()))
}
