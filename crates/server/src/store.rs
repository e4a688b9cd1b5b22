//! Durable storage of games in SQLite or PostgreSQL (sqlx `Any` driver, one schema).
//!
//! Writes go through one writer task that commits them in batches (group commit): a
//! move is acknowledged to the player only after the transaction holding it has been
//! committed, and many games' moves share one commit, so durability costs little
//! throughput.

use std::borrow::Cow;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::{AnyPool, Executor, Row};
use tokio::sync::{mpsc, oneshot};

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL or path is not usable.
    #[error("bad database address {0:?}: expected a file path, sqlite:// or postgres:// URL")]
    BadUrl(String),
    /// A database error.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// A migration failed.
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The writer task has stopped (shutdown).
    #[error("the database writer has stopped")]
    WriterGone,
    /// A write was rejected by the database (constraint, I/O…).
    #[error("write failed: {0}")]
    Write(String),
    /// A stored row cannot be read back.
    #[error("corrupt record: {0}")]
    Corrupt(String),
}

/// When an SQLite commit waits for the disk (PostgreSQL keeps its own `synchronous_commit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sync {
    /// `synchronous = NORMAL` in WAL mode: a commit is in the log file before it is
    /// acknowledged, so it survives any crash of the server process (`kill -9` included); an
    /// operating-system crash or power cut may lose the last commits (not fsynced yet).
    #[default]
    Normal,
    /// `synchronous = FULL`: every commit is fsynced before it is acknowledged (survives a power
    /// cut); group commit shares one fsync among all the moves that arrive meanwhile.
    Full,
}

/// Which database engine backs the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An embedded SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// Turn the `--db` argument (a file path, `sqlite:` or `postgres://` URL) into a sqlx URL.
///
/// # Errors
/// [`StoreError::BadUrl`] for an empty argument or an unknown URL scheme.
pub fn database_url(arg: &str) -> Result<(String, Backend), StoreError> {
    let arg = arg.trim();
    if arg.is_empty() {
        return Err(StoreError::BadUrl(arg.to_owned()));
    }
    if arg.starts_with("postgres://") || arg.starts_with("postgresql://") {
        return Ok((arg.to_owned(), Backend::Postgres));
    }
    if let Some(rest) = arg.strip_prefix("sqlite:") {
        let url = if rest.contains("mode=") || rest.contains(":memory:") {
            arg.to_owned()
        } else if rest.contains('?') {
            format!("{arg}&mode=rwc")
        } else {
            format!("{arg}?mode=rwc")
        };
        return Ok((url, Backend::Sqlite));
    }
    if arg.contains("://") {
        return Err(StoreError::BadUrl(arg.to_owned()));
    }
    Ok((format!("sqlite://{arg}?mode=rwc"), Backend::Sqlite))
}

/// The embedded migrations (the SQL files under `crates/server/migrations`).
#[derive(Debug)]
struct Embedded;

const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "games", include_str!("../migrations/0001_games.sql")),
    (
        2,
        "computer",
        include_str!("../migrations/0002_computer.sql"),
    ),
];

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> futures_util::future::BoxFuture<'static, Result<Vec<Migration>, sqlx::error::BoxDynError>>
    {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|(v, d, sql)| {
                    Migration::new(
                        *v,
                        Cow::Borrowed(*d),
                        MigrationType::Simple,
                        Cow::Borrowed(*sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

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
    /// The seat the server plays itself, JSON of [`crate::computer::ComputerSeat`]; `None`
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

type Job = (Write, oneshot::Sender<Result<(), StoreError>>);

/// Handle to the database: a pool for reads and a channel to the group-commit writer.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    writer: mpsc::Sender<Job>,
}

/// Unix time in milliseconds.
pub fn now_unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Largest number of writes committed in one transaction.
const MAX_BATCH: usize = 512;

impl Store {
    /// Connect (creating an SQLite file if needed), run the migrations, start the writer,
    /// with SQLite's default durability [`Sync::Normal`].
    ///
    /// # Errors
    /// A bad address, an unreachable database, or a failed migration.
    pub async fn connect(db: &str) -> Result<Self, StoreError> {
        Self::connect_with(db, Sync::Normal).await
    }

    /// As [`Store::connect`], choosing when SQLite waits for the disk.
    ///
    /// # Errors
    /// A bad address, an unreachable database, or a failed migration.
    pub async fn connect_with(db: &str, sync: Sync) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let (url, backend) = database_url(db)?;
        let options = AnyPoolOptions::new()
            .max_connections(match backend {
                Backend::Sqlite => 4,
                Backend::Postgres => 8,
            })
            .acquire_timeout(Duration::from_secs(10));
        let options = if backend == Backend::Sqlite {
            options.after_connect(move |conn, _meta| {
                Box::pin(async move {
                    // WAL: readers never block the writer, and a commit is durable once it is
                    // in the log file (it survives a crash of the process, kill -9 included).
                    conn.execute("PRAGMA journal_mode = WAL").await?;
                    conn.execute(match sync {
                        Sync::Normal => "PRAGMA synchronous = NORMAL",
                        Sync::Full => "PRAGMA synchronous = FULL",
                    })
                    .await?;
                    conn.execute("PRAGMA busy_timeout = 10000").await?;
                    // Checkpoints are run by a background task (see `checkpointer`), never by
                    // the writer in the middle of acknowledging moves.
                    conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    Ok(())
                })
            })
        } else {
            options
        };
        let pool = options.connect(&url).await?;
        let migrator = Migrator::new(Embedded).await?;
        migrator.run(&pool).await?;
        let (tx, rx) = mpsc::channel::<Job>(8192);
        tokio::spawn(writer_loop(pool.clone(), rx));
        if backend == Backend::Sqlite {
            tokio::spawn(checkpointer(pool.clone()));
        }
        Ok(Self {
            pool,
            backend,
            writer: tx,
        })
    }

    /// The engine behind this store.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The read pool (tests and the load benchmark inspect the database through it).
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Commit `write`; returns once it is durable.
    ///
    /// # Errors
    /// The database rejected the write, or the writer has stopped.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        self.writer
            .send((write, tx))
            .await
            .map_err(|_| StoreError::WriterGone)?;
        rx.await.map_err(|_| StoreError::WriterGone)?
    }

    /// Load a game row.
    ///
    /// # Errors
    /// Database errors.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, created_at, updated_at, spec, time_control, variant, white_hash, \
             black_hash, status, result, termination, last_seq, computer FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| game_row(&r)).transpose()
    }

    /// All events of a game with `seq > after`, in order.
    ///
    /// # Errors
    /// Database errors.
    pub async fn events(&self, id: &str, after: i64) -> Result<Vec<EventRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, seq, kind, t_ms, data, created_at FROM events \
             WHERE game_id = $1 AND seq > $2 ORDER BY seq",
        )
        .bind(id)
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_row).collect()
    }

    /// Ids of games with the given status, newest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn games_with_status(
        &self,
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
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_row).collect()
    }

    /// Close the pool (after the writer has drained).
    pub async fn close(&self) {
        self.pool.close().await;
    }
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
async fn commit_batch(pool: &AnyPool, batch: &[&Write]) -> Result<(), sqlx::Error> {
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

/// Copies the SQLite write-ahead log into the database file twice a second, without blocking
/// the writer (`PASSIVE`), so that no commit waits for a checkpoint.
async fn checkpointer(pool: AnyPool) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if pool.is_closed() {
            break;
        }
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await
        {
            if pool.is_closed() {
                break;
            }
            tracing::warn!(error = %e, "WAL checkpoint failed");
        }
    }
}

/// The group-commit writer: takes every queued write, commits them in one transaction,
/// then acknowledges each. If a batch fails, its writes are retried one by one so that
/// one bad write cannot fail the others.
async fn writer_loop(pool: AnyPool, mut rx: mpsc::Receiver<Job>) {
    let mut jobs: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut jobs, MAX_BATCH).await > 0 {
        let batch: Vec<&Write> = jobs.iter().map(|(w, _)| w).collect();
        match commit_batch(&pool, &batch).await {
            Ok(()) => {
                for (_, ack) in jobs.drain(..) {
                    let _ = ack.send(Ok(()));
                }
            }
            Err(e) if jobs.len() == 1 => {
                tracing::warn!(error = %e, "write failed");
                for (_, ack) in jobs.drain(..) {
                    let _ = ack.send(Err(StoreError::Write(e.to_string())));
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, n = jobs.len(), "batch failed, retrying one by one");
                for (w, ack) in jobs.drain(..) {
                    let r = commit_batch(&pool, &[&w]).await;
                    let _ = ack.send(r.map_err(|e| StoreError::Write(e.to_string())));
                }
            }
        }
    }
    tracing::debug!("database writer stopped");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_url_accepts_paths_and_urls() {
        assert_eq!(
            database_url("/tmp/a.db").unwrap(),
            ("sqlite:///tmp/a.db?mode=rwc".to_owned(), Backend::Sqlite)
        );
        assert_eq!(
            database_url("sqlite://x.db").unwrap(),
            ("sqlite://x.db?mode=rwc".to_owned(), Backend::Sqlite)
        );
        assert_eq!(
            database_url("postgres://u@h/db").unwrap().1,
            Backend::Postgres
        );
        assert!(matches!(
            database_url("mysql://h/db"),
            Err(StoreError::BadUrl(_))
        ));
        assert!(matches!(database_url(" "), Err(StoreError::BadUrl(_))));
    }

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            created_at: 1,
            updated_at: 1,
            spec: "{}".into(),
            time_control: "5+3".into(),
            variant: "standard".into(),
            white_hash: Some("h".into()),
            black_hash: None,
            status: "waiting".into(),
            result: None,
            termination: None,
            last_seq: 0,
            computer: None,
        }
    }

    fn event(id: &str, seq: i64) -> EventRow {
        EventRow {
            game_id: id.into(),
            seq,
            kind: "move".into(),
            t_ms: seq * 10,
            data: format!("{{\"n\":{seq}}}"),
            created_at: 5,
        }
    }

    #[tokio::test]
    async fn events_are_stored_once_in_order_and_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let store = Store::connect(path.to_str().unwrap()).await.unwrap();
        store.write(Write::Create(game("g1"))).await.unwrap();
        let update = GameUpdate {
            status: "playing".into(),
            ..GameUpdate::default()
        };
        for seq in 1..=3 {
            store
                .write(Write::Append(vec![event("g1", seq)], Some(update.clone())))
                .await
                .unwrap();
        }
        // A duplicate event number is refused and leaves the log unchanged.
        let dup = store.write(Write::Append(vec![event("g1", 3)], None)).await;
        assert!(matches!(dup, Err(StoreError::Write(_))));
        // So is a gap.
        assert!(store
            .write(Write::Append(vec![event("g1", 5)], None))
            .await
            .is_err());
        store.close().await;

        let store = Store::connect(path.to_str().unwrap()).await.unwrap();
        let evs = store.events("g1", 0).await.unwrap();
        assert_eq!(evs, (1..=3).map(|s| event("g1", s)).collect::<Vec<_>>());
        assert_eq!(store.events("g1", 2).await.unwrap().len(), 1);
        let row = store.game("g1").await.unwrap().unwrap();
        assert_eq!((row.status.as_str(), row.last_seq), ("playing", 3));
        assert!(store.game("nope").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn concurrent_writes_share_commits_and_all_land() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::connect(dir.path().join("c.db").to_str().unwrap())
            .await
            .unwrap();
        let ids: Vec<String> = (0..50).map(|i| format!("g{i}")).collect();
        for id in &ids {
            store.write(Write::Create(game(id))).await.unwrap();
        }
        let mut tasks = Vec::new();
        for id in ids.clone() {
            let s = store.clone();
            tasks.push(tokio::spawn(async move {
                for seq in 1..=20 {
                    let u = GameUpdate {
                        status: "playing".into(),
                        ..GameUpdate::default()
                    };
                    s.write(Write::Append(
                        vec![event(&id, seq)],
                        if seq == 1 { Some(u) } else { None },
                    ))
                    .await
                    .unwrap();
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        for id in &ids {
            assert_eq!(store.events(id, 0).await.unwrap().len(), 20);
        }
    }
}
