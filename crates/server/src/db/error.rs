//! Errors of the store.

/// A store error as the API reports it: 503 while shutting down, else a 500 (details logged).
impl From<StoreError> for crate::error::AppError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::WriterGone => Self::Unavailable("the server is shutting down".into()),
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
