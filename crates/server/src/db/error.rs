//! Errors of the store.

/// The 503 message of a write refused by its fence (cluster mode): the hub recognises it and
/// asks the game's new owner.
pub const FENCED: &str = "this node no longer owns the game; retry";

/// A store error as the API reports it: 503 while shutting down, else a 500 (details logged).
impl From<StoreError> for crate::error::AppError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::WriterGone => Self::Unavailable("the server is shutting down".into()),
            StoreError::Unavailable(why) => {
                Self::Unavailable(format!("the database is unreachable ({why}); retry"))
            }
            StoreError::Fenced => Self::Unavailable(FENCED.into()),
            StoreError::Unconfirmed(why) => Self::Unavailable(format!(
                "the database did not confirm the write ({why}); retry"
            )),
            other => Self::Internal(other.to_string()),
        }
    }
}

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL or path is not usable.
    #[error("bad database address {0:?}: expected a file path, sqlite:// or postgres:// URL")]
    BadUrl(String),
    /// A database error.
    #[error("database: {0}")]
    Db(sqlx::Error),
    /// The database cannot be reached (down, restarting, connections refused): a 503.
    #[error("database unreachable: {0}")]
    Unavailable(String),
    /// Cluster mode: the write's fencing token is stale (this node's lease has expired or
    /// another node has taken the game over), so nothing was written.
    #[error("fenced: this node no longer owns the game")]
    Fenced,
    /// The connection failed while the database committed: the writes may or may not be
    /// stored. Whoever holds the state they change must read it again from the database.
    #[error("commit not confirmed: {0}")]
    Unconfirmed(String),
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

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        if is_unreachable(&e) {
            Self::Unavailable(e.to_string())
        } else {
            Self::Db(e)
        }
    }
}

/// Whether `e` says the database cannot be reached now (as opposed to refusing a statement):
/// I/O errors, pool timeouts, and PostgreSQL's connection and shutdown classes (08, 57P).
pub fn is_unreachable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => true,
        sqlx::Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("08") || c.starts_with("57P")),
        sqlx::Error::Protocol(m) => m.contains("connection") || m.contains("closed"),
        _ => false,
    }
}
