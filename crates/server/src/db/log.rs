//! The games and their numbered event logs: the rows, the reads, and the commit of a batch of
//! writes in one transaction.

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};

use super::error::StoreError;
use super::{Fence, DB_NOW_MS};

/// A row of the `games` table.
#[derive(Debug, Clone, Default)]
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
    /// The accounts holding the seats, the rating category and the ratings.
    pub players: PlayersRow,
}

/// The players of a game as stored: accounts, rated or casual, ratings at the start and the
/// changes at the end.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlayersRow {
    /// White's account id (`None`: an anonymous seat, the computer's, or free).
    pub white_account: Option<String>,
    /// Black's account id.
    pub black_account: Option<String>,
    /// A rated game.
    pub rated: bool,
    /// The rating category (`None` when the game cannot be rated: untimed).
    pub category: Option<String>,
    /// White's rating when the game started, and whether it was provisional.
    pub white_rating: Option<(i64, bool)>,
    /// Black's rating when the game started, and whether it was provisional.
    pub black_rating: Option<(i64, bool)>,
    /// White's rating change, once a rated game has ended.
    pub white_rating_diff: Option<i64>,
    /// Black's rating change.
    pub black_rating_diff: Option<i64>,
    /// The game a rematch of this one started.
    pub rematch_id: Option<String>,
}

/// A player's rating in one category as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingRow {
    /// Glicko-2 rating.
    pub rating: f64,
    /// Rating deviation.
    pub rd: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games played in the category.
    pub games: i64,
    /// Unix ms of the last rated game.
    pub last_played: i64,
}

/// How a finished game changes both ratings: `(white, black, white's score, now in unix
/// ms) → (white, black)`. The
/// ratings domain supplies it; the writer calls it inside the transaction that stores the
/// game's last event, on the ratings as they are in that transaction.
pub type RateFn = fn(RatingRow, RatingRow, f64, i64) -> (RatingRow, RatingRow);

/// A rated game has ended: the ratings change in the same transaction.
#[derive(Debug, Clone)]
pub struct RatedEnd {
    /// White's account id.
    pub white: String,
    /// Black's account id.
    pub black: String,
    /// The rating category.
    pub category: String,
    /// White's score: 1, ½ or 0.
    pub white_score: f64,
    /// The rating function.
    pub rate: RateFn,
    /// The rating of a player who has not played the category rated yet.
    pub unrated: RatingRow,
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
    /// Set White's account (when a seat is taken by an account).
    pub white_account: Option<String>,
    /// Set Black's account.
    pub black_account: Option<String>,
    /// Set the ratings at the start (a rated game starting).
    pub start_ratings: Option<[(i64, bool); 2]>,
    /// A rated game ended: rate it in this transaction.
    pub rated_end: Option<RatedEnd>,
}

/// One unit of work for the writer: committed atomically, acknowledged after commit.
#[derive(Debug, Clone)]
pub enum Write {
    /// Insert a new game.
    Create(GameRow),
    /// Append events (consecutive numbers) to a game's log; with a [`GameUpdate`] when the
    /// game's status, result or seats change (otherwise only `last_seq` moves on).
    Append(Vec<EventRow>, Option<GameUpdate>),
    /// Withdraw a game still waiting for an opponent (guarded: status `waiting`, no event).
    Withdraw(String),
    /// A rematch was accepted: create the new game and record it on the old one (guarded:
    /// the old game has no rematch yet).
    Rematch {
        /// The finished game.
        of: String,
        /// The new game.
        game: GameRow,
    },
    /// A tournament's events, with the pairings and games of a round being paired.
    Tournament(Box<super::tournaments::TournamentWrite>),
}

/// What a committed write reports back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Committed {
    /// The rating changes of a rated game that ended: (white, black).
    pub rating_diffs: Option<(i64, i64)>,
}

/// Load a game row.
///
/// # Errors
/// Database errors.
pub async fn game(pool: &AnyPool, id: &str) -> Result<Option<GameRow>, StoreError> {
    let row = sqlx::query(concat!(
        "SELECT id, created_at, updated_at, spec, time_control, variant, white_hash, \
         black_hash, status, result, termination, last_seq, computer, white_account, \
         black_account, rated, category, white_rating, black_rating, white_provisional, \
         black_provisional, white_rating_diff, black_rating_diff, rematch_id FROM games ",
        "WHERE id = $1"
    ))
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
    let rows = sqlx::query(concat!(
        "SELECT id, created_at, updated_at, spec, time_control, variant, white_hash, \
         black_hash, status, result, termination, last_seq, computer, white_account, \
         black_account, rated, category, white_rating, black_rating, white_provisional, \
         black_provisional, white_rating_diff, black_rating_diff, rematch_id FROM games ",
        "WHERE status = $1 ORDER BY created_at DESC LIMIT $2"
    ))
    .bind(status)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    rows.iter().map(game_row).collect()
}

/// A `games` row read from a query that selects (at least) every column of `games`.
///
/// # Errors
/// A missing or mistyped column.
pub fn game_row(r: &AnyRow) -> Result<GameRow, StoreError> {
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
            players: PlayersRow {
                white_account: r.try_get("white_account")?,
                black_account: r.try_get("black_account")?,
                rated: r.try_get::<i64, _>("rated")? != 0,
                category: r.try_get("category")?,
                white_rating: rating_at_start(
                    r.try_get("white_rating")?,
                    r.try_get("white_provisional")?,
                ),
                black_rating: rating_at_start(
                    r.try_get("black_rating")?,
                    r.try_get("black_provisional")?,
                ),
                white_rating_diff: r.try_get("white_rating_diff")?,
                black_rating_diff: r.try_get("black_rating_diff")?,
                rematch_id: r.try_get("rematch_id")?,
            },
        })
    };
    get().map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn rating_at_start(rating: Option<i64>, provisional: Option<i64>) -> Option<(i64, bool)> {
    rating.map(|r| (r, provisional.unwrap_or(1) != 0))
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

pub(super) async fn insert_game(
    conn: &mut sqlx::AnyConnection,
    g: &GameRow,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO games (id, created_at, updated_at, spec, time_control, variant, \
         white_hash, black_hash, status, result, termination, last_seq, computer, \
         white_account, black_account, rated, category, white_rating, black_rating, \
         white_provisional, black_provisional) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18, $19, $20, $21)",
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
    .bind(&g.players.white_account)
    .bind(&g.players.black_account)
    .bind(i64::from(g.players.rated))
    .bind(&g.players.category)
    .bind(g.players.white_rating.map(|r| r.0))
    .bind(g.players.black_rating.map(|r| r.0))
    .bind(g.players.white_rating.map(|r| i64::from(r.1)))
    .bind(g.players.black_rating.map(|r| i64::from(r.1)))
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
///
/// Cluster mode: a write with a [`Fence`] changes a game only where `owner_epoch` is the
/// fence's epoch, its events record that epoch, and the transaction commits only if each
/// fence's lease is unexpired on the database's clock, checked last (otherwise
/// [`StoreError::Fenced`] and nothing is written).
pub(super) async fn commit_batch(
    pool: &AnyPool,
    batch: &[(&Write, Option<&Fence>)],
) -> Result<Vec<Committed>, StoreError> {
    let mut tx = pool.begin().await?;
    // A fenced transaction may not wait for its node longer than the fence's margin (see
    // `Fence`): a node paused in the middle of it loses its session, not its fence.
    if let Some(margin) = batch
        .iter()
        .filter_map(|(_, f)| f.map(|f| f.margin_ms))
        .min()
    {
        sqlx::query(&format!(
            "SET LOCAL idle_in_transaction_session_timeout = {}",
            margin.max(1)
        ))
        .execute(&mut *tx)
        .await?;
    }
    let mut committed = vec![Committed::default(); batch.len()];
    // Events with the committing node's epoch (-1: unfenced, stored as NULL).
    let mut events: Vec<(&EventRow, i64)> = Vec::new();
    // (game, previous last_seq, new last_seq, unix ms, fence epoch or -1)
    let mut bumps: Vec<(&str, i64, i64, i64, i64)> = Vec::new();
    let mut updates: Vec<(usize, &EventRow, &EventRow, &GameUpdate, i64)> = Vec::new();
    let mut fences: Vec<&Fence> = Vec::new();
    // The last event of a rated game that ends, with the rating changes added (by seq).
    let mut patched: Vec<(&str, i64, String)> = Vec::new();
    for (i, (w, fence)) in batch.iter().enumerate() {
        let epoch = fence.map_or(-1, |f| f.epoch);
        if let Some(f) = fence {
            if !fences.iter().any(|x| x.epoch == f.epoch) {
                fences.push(f);
            }
        }
        match w {
            Write::Create(g) => {
                insert_game(&mut tx, g).await?;
                if let Some(f) = fence {
                    own(&mut tx, &g.id, f).await?;
                }
            }
            Write::Withdraw(id) => {
                let done = sqlx::query(
                    "UPDATE games SET status = 'withdrawn', updated_at = $1 \
                     WHERE id = $2 AND status = 'waiting' AND last_seq = 0 \
                     AND ($3 < 0 OR owner_epoch = $3)",
                )
                .bind(super::now_unix_ms())
                .bind(id)
                .bind(epoch)
                .execute(&mut *tx)
                .await?;
                if done.rows_affected() != 1 {
                    fenced_or(&mut tx, id, epoch, || {
                        sqlx::Error::Protocol(format!("game {id} is no longer waiting"))
                    })
                    .await?;
                }
            }
            Write::Rematch { of, game } => {
                let done = sqlx::query(
                    "UPDATE games SET rematch_id = $1 WHERE id = $2 AND rematch_id IS NULL",
                )
                .bind(&game.id)
                .bind(of)
                .execute(&mut *tx)
                .await?;
                if done.rows_affected() != 1 {
                    return Err(
                        sqlx::Error::Protocol(format!("game {of} already has a rematch")).into(),
                    );
                }
                insert_game(&mut tx, game).await?;
                if let Some(f) = fence {
                    own(&mut tx, &game.id, f).await?;
                }
            }
            Write::Tournament(t) => super::tournaments::commit(&mut tx, t).await?,
            Write::Append(evs, update) => {
                let (Some(first), Some(last)) = (evs.first(), evs.last()) else {
                    continue;
                };
                events.extend(evs.iter().map(|e| (e, epoch)));
                match update {
                    Some(u) => updates.push((i, first, last, u, epoch)),
                    None => bumps.push((
                        &first.game_id,
                        first.seq - 1,
                        last.seq,
                        last.created_at,
                        epoch,
                    )),
                }
            }
        }
    }
    // Rate first, so that the game's last event is stored with the changes.
    for (i, first, last, u, _) in &updates {
        if let Some(end) = &u.rated_end {
            let diffs = rate(&mut tx, &first.game_id, end, last.created_at).await?;
            committed[*i].rating_diffs = Some(diffs);
            patched.push((
                &last.game_id,
                last.seq,
                stored_with_rating_diffs(&last.data, diffs),
            ));
        }
    }
    // The guarded changes of the games first: a stale owner is told it is fenced (rather
    // than that its event numbers are taken).
    for chunk in bumps.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "WITH v (id, p, s, a, e) AS (VALUES {}) \
             UPDATE games SET last_seq = v.s, updated_at = v.a FROM v \
             WHERE games.id = v.id AND games.last_seq = v.p \
             AND (v.e < 0 OR games.owner_epoch = v.e)",
            placeholders(
                chunk.len(),
                5,
                &["TEXT", "BIGINT", "BIGINT", "BIGINT", "BIGINT"],
            )
        );
        let mut q = sqlx::query(&sql);
        for (id, prev, seq, at, epoch) in chunk {
            q = q.bind(*id).bind(*prev).bind(*seq).bind(*at).bind(*epoch);
        }
        let done = q.execute(&mut *tx).await?;
        if done.rows_affected() != chunk.len() as u64 {
            let (id, _, seq, _, epoch) = chunk[0];
            if chunk.len() == 1 {
                fenced_or(&mut tx, id, epoch, || out_of_order(id, seq)).await?;
            }
            return Err(out_of_order(id, seq).into());
        }
    }
    for (_, first, last, u, epoch) in updates {
        let [white_start, black_start] = u
            .start_ratings
            .map_or([None, None], |[w, b]| [Some(w), Some(b)]);
        let done = sqlx::query(
            "UPDATE games SET status = $1, result = $2, termination = $3, last_seq = $4, \
             updated_at = $5, white_hash = COALESCE($6, white_hash), \
             black_hash = COALESCE($7, black_hash), \
             white_account = COALESCE($10, white_account), \
             black_account = COALESCE($11, black_account), \
             white_rating = COALESCE($12, white_rating), \
             black_rating = COALESCE($13, black_rating), \
             white_provisional = COALESCE($14, white_provisional), \
             black_provisional = COALESCE($15, black_provisional) \
             WHERE id = $8 AND last_seq = $9 AND ($16 < 0 OR owner_epoch = $16)",
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
        .bind(&u.white_account)
        .bind(&u.black_account)
        .bind(white_start.map(|r: (i64, bool)| r.0))
        .bind(black_start.map(|r: (i64, bool)| r.0))
        .bind(white_start.map(|r| i64::from(r.1)))
        .bind(black_start.map(|r| i64::from(r.1)))
        .bind(epoch)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            fenced_or(&mut tx, &first.game_id, epoch, || {
                out_of_order(&first.game_id, first.seq)
            })
            .await?;
        }
    }
    for chunk in events.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "INSERT INTO events (game_id, seq, kind, t_ms, data, created_at, epoch) VALUES {}",
            placeholders(chunk.len(), 7, &[])
        );
        let mut q = sqlx::query(&sql);
        for (e, epoch) in chunk {
            let data = patched
                .iter()
                .find(|(g, s, _)| *g == e.game_id && *s == e.seq)
                .map_or(e.data.as_str(), |(_, _, d)| d.as_str());
            q = q
                .bind(&e.game_id)
                .bind(e.seq)
                .bind(&e.kind)
                .bind(e.t_ms)
                .bind(data.to_owned())
                .bind(e.created_at)
                .bind((*epoch >= 0).then_some(*epoch));
        }
        q.execute(&mut *tx).await?;
    }
    // Last, so that the lease is checked as late as possible before the commit.
    for f in fences {
        let live: i64 = sqlx::query_scalar(&format!(
            "SELECT COUNT(*) FROM cluster_nodes WHERE node_id = $1 AND epoch = $2 \
             AND lease_until > {DB_NOW_MS} + $3"
        ))
        .bind(&*f.node)
        .bind(f.epoch)
        .bind(f.margin_ms)
        .fetch_one(&mut *tx)
        .await?;
        if live != 1 {
            return Err(StoreError::Fenced);
        }
    }
    // A failure here leaves the outcome unknown: PostgreSQL may have committed before the
    // connection broke.
    tx.commit()
        .await
        .map_err(|e| StoreError::Unconfirmed(e.to_string()))?;
    Ok(committed)
}

/// Record `f`'s node as the owner of the game `id` just created.
async fn own(tx: &mut sqlx::AnyConnection, id: &str, f: &Fence) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET owner_node = $1, owner_epoch = $2 WHERE id = $3")
        .bind(&*f.node)
        .bind(f.epoch)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// A guarded change of game `id` touched no row: [`StoreError::Fenced`] if the write was
/// fenced (`epoch` ≥ 0) and the game's owner is no longer that epoch, else `other`.
async fn fenced_or(
    tx: &mut sqlx::AnyConnection,
    id: &str,
    epoch: i64,
    other: impl FnOnce() -> sqlx::Error,
) -> Result<(), StoreError> {
    if epoch >= 0 {
        let owner: Option<Option<i64>> =
            sqlx::query_scalar("SELECT owner_epoch FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        if owner.flatten() != Some(epoch) {
            return Err(StoreError::Fenced);
        }
    }
    Err(other().into())
}

/// A client event (a JSON object's text) with the rating changes of both players added as
/// `"rating_diff": {"white": w, "black": b}`.
pub fn with_rating_diffs(event: &str, (white, black): (i64, i64)) -> String {
    let body = event.trim_end().strip_suffix('}').unwrap_or(event);
    let sep = if body.trim_end().ends_with('{') {
        ""
    } else {
        ","
    };
    format!("{body}{sep}\"rating_diff\":{{\"white\":{white},\"black\":{black}}}}}")
}

/// The stored form of an event (`{"timed":…,"wire":{…}}`) with the changes added to its
/// client part.
fn stored_with_rating_diffs(data: &str, diffs: (i64, i64)) -> String {
    let inner = data.trim_end().strip_suffix('}').unwrap_or(data);
    format!("{}}}", with_rating_diffs(inner, diffs))
}

/// Rate a finished game inside its transaction: read both ratings as they are now, compute,
/// store both, and record the changes on the game. On one node the writer is the only one
/// that changes ratings, one transaction at a time; in a cluster several nodes' writers do, so
/// on PostgreSQL both players' accounts are locked first (in id order, so two transactions
/// never wait for each other in a circle) and nothing can change their ratings in between.
async fn rate(
    tx: &mut sqlx::AnyConnection,
    game_id: &str,
    end: &RatedEnd,
    now: i64,
) -> Result<(i64, i64), sqlx::Error> {
    if tx.backend_name() == "PostgreSQL" {
        sqlx::query("SELECT id FROM accounts WHERE id = $1 OR id = $2 ORDER BY id FOR UPDATE")
            .bind(&end.white)
            .bind(&end.black)
            .execute(&mut *tx)
            .await?;
    }
    let white = rating(&mut *tx, &end.white, &end.category)
        .await?
        .unwrap_or(end.unrated);
    let black = rating(&mut *tx, &end.black, &end.category)
        .await?
        .unwrap_or(end.unrated);
    let (new_white, new_black) = (end.rate)(white, black, end.white_score, now);
    // Ratings are shown rounded: the change shown is the change of the rounded figure.
    let diff =
        |old: &RatingRow, new: &RatingRow| new.rating.round() as i64 - old.rating.round() as i64;
    let (white_diff, black_diff) = (diff(&white, &new_white), diff(&black, &new_black));
    for (account, row) in [(&end.white, &new_white), (&end.black, &new_black)] {
        sqlx::query(
            "INSERT INTO ratings (account_id, category, rating, rd, volatility, games, last_played) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (account_id, category) DO UPDATE SET rating = excluded.rating, \
             rd = excluded.rd, volatility = excluded.volatility, games = excluded.games, \
             last_played = excluded.last_played",
        )
        .bind(account)
        .bind(&end.category)
        .bind(row.rating)
        .bind(row.rd)
        .bind(row.volatility)
        .bind(row.games)
        .bind(row.last_played)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("UPDATE games SET white_rating_diff = $1, black_rating_diff = $2 WHERE id = $3")
        .bind(white_diff)
        .bind(black_diff)
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
    Ok((white_diff, black_diff))
}

/// A player's rating in a category, if they have played it rated.
///
/// # Errors
/// Database errors.
pub async fn rating<'c, E>(
    ex: E,
    account: &str,
    category: &str,
) -> Result<Option<RatingRow>, sqlx::Error>
where
    E: sqlx::Executor<'c, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT rating, rd, volatility, games, last_played FROM ratings \
         WHERE account_id = $1 AND category = $2",
    )
    .bind(account)
    .bind(category)
    .fetch_optional(ex)
    .await?;
    row.map(|r| {
        Ok(RatingRow {
            rating: r.try_get("rating")?,
            rd: r.try_get("rd")?,
            volatility: r.try_get("volatility")?,
            games: r.try_get("games")?,
            last_played: r.try_get("last_played")?,
        })
    })
    .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rating_changes_are_added_to_the_client_event_stored_and_live() {
        let live = r#"{"type":"event","seq":9,"status":"finished"}"#;
        let v: serde_json::Value =
            serde_json::from_str(&with_rating_diffs(live, (12, -12))).unwrap();
        assert_eq!(v["rating_diff"]["white"], 12);
        assert_eq!(v["rating_diff"]["black"], -12);
        assert_eq!(v["seq"], 9);
        let stored = format!(r#"{{"timed":{{"at":5}},"wire":{live}}}"#);
        let v: serde_json::Value =
            serde_json::from_str(&stored_with_rating_diffs(&stored, (3, -4))).unwrap();
        assert_eq!(v["wire"]["rating_diff"]["black"], -4);
        assert_eq!(v["timed"]["at"], 5);
    }
}
