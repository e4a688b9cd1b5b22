//! Durable storage of games in SQLite or PostgreSQL (sqlx `Any` driver, one schema).
//!
//! Writes go through one writer task that commits them in batches (group commit): a
//! move is acknowledged to the player only after the transaction holding it has been
//! committed, and many games' moves share one commit, so durability costs little
//! throughput.

mod error;
mod log;
mod migrations;
mod tournaments;
mod writer;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::any::AnyPoolOptions;
use sqlx::migrate::Migrator;
use sqlx::{AnyPool, Executor};
use tokio::sync::{mpsc, oneshot};

pub use error::{is_unreachable, StoreError, FENCED};
pub use log::{
    game_row, rating, with_rating_diffs, Committed, EventRow, GameRow, GameUpdate, PlayersRow,
    RateFn, RatedEnd, RatingRow, Write,
};
use migrations::Embedded;
pub use tournaments::{PairingRow, TournamentEventRow, TournamentRow, TournamentWrite};
use writer::{checkpointer, writer_loop, Job};

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

/// Handle to the database: a pool for reads and a channel to the group-commit writer.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    writer: mpsc::Sender<Job>,
}

/// Cluster mode: the proof a node gives with each write that it still owns what it writes —
/// its node id and the epoch of its lease. The write commits only if, in the same
/// transaction, the node's lease with this epoch is unexpired on the database's clock and the
/// game's `owner_epoch` is this epoch; otherwise nothing is written ([`StoreError::Fenced`]).
///
/// The lease is checked last, and must still have `margin_ms` to run; the transaction may not
/// wait longer than that for its node between two statements (PostgreSQL's
/// `idle_in_transaction_session_timeout`, set for the transaction), so a node paused after the
/// check cannot commit once its lease has expired: PostgreSQL ends its session first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    /// The node's id.
    pub node: std::sync::Arc<str>,
    /// The epoch of its lease.
    pub epoch: i64,
    /// How long the lease must still run when checked, ms (a quarter of the lease).
    pub margin_ms: i64,
}

/// PostgreSQL's clock now, in unix ms: leases are timed by the database, never by a node's
/// own clock (cluster mode is PostgreSQL only).
pub const DB_NOW_MS: &str = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

/// Unix time in milliseconds.
pub fn now_unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

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
            // PostgreSQL down: a request fails with a 503 after 5 s rather than hanging (SQLite
            // waits longer: a busy file, never an unreachable one).
            .acquire_timeout(Duration::from_secs(match backend {
                Backend::Sqlite => 10,
                Backend::Postgres => 5,
            }));
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
    pub async fn write(&self, write: Write) -> Result<Committed, StoreError> {
        self.write_fenced(write, None).await
    }

    /// Commit `write` under a fencing token (cluster mode; `None`: unfenced, as
    /// [`Store::write`]). A created game is owned by the fence's node.
    ///
    /// # Errors
    /// As [`Store::write`]; [`StoreError::Fenced`] when the token is stale.
    pub async fn write_fenced(
        &self,
        write: Write,
        fence: Option<Fence>,
    ) -> Result<Committed, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.writer
            .send((write, fence, tx))
            .await
            .map_err(|_| StoreError::WriterGone)?;
        rx.await.map_err(|_| StoreError::WriterGone)?
    }

    /// Load a game row.
    ///
    /// # Errors
    /// Database errors.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        log::game(&self.pool, id).await
    }

    /// All events of a game with `seq > after`, in order.
    ///
    /// # Errors
    /// Database errors.
    pub async fn events(&self, id: &str, after: i64) -> Result<Vec<EventRow>, StoreError> {
        log::events(&self.pool, id, after).await
    }

    /// Games with the given status, newest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn games_with_status(
        &self,
        status: &str,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        log::games_with_status(&self.pool, status, limit).await
    }

    /// Load a tournament's row.
    ///
    /// # Errors
    /// Database errors.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        tournaments::tournament(&self.pool, id).await
    }

    /// Tournaments with the given status, newest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn tournaments_with_status(
        &self,
        status: &str,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        tournaments::tournaments_with_status(&self.pool, status, limit).await
    }

    /// A tournament's events with `seq > after`, in order.
    ///
    /// # Errors
    /// Database errors.
    pub async fn tournament_events(
        &self,
        id: &str,
        after: i64,
    ) -> Result<Vec<TournamentEventRow>, StoreError> {
        tournaments::tournament_events(&self.pool, id, after).await
    }

    /// Close the pool (after the writer has drained).
    pub async fn close(&self) {
        self.pool.close().await;
    }
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
            players: PlayersRow::default(),
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
        assert!(matches!(dup, Err(StoreError::Write(_))), "{dup:?}");
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
