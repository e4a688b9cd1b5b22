//! The group-commit writer and SQLite's checkpointer.

use std::time::Duration;

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::error::StoreError;
use super::log::{commit_batch, Committed, Write};
use super::Fence;

/// A write, its fencing token (cluster mode) and where to acknowledge it.
pub(super) type Job = (
    Write,
    Option<Fence>,
    oneshot::Sender<Result<Committed, StoreError>>,
);

/// Largest number of writes committed in one transaction.
const MAX_BATCH: usize = 512;

/// Copies the SQLite write-ahead log into the database file twice a second, without blocking
/// the writer (`PASSIVE`), so that no commit waits for a checkpoint.
pub(super) async fn checkpointer(pool: AnyPool) {
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
pub(super) async fn writer_loop(pool: AnyPool, mut rx: mpsc::Receiver<Job>) {
    let mut jobs: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut jobs, MAX_BATCH).await > 0 {
        let batch: Vec<(&Write, Option<&Fence>)> =
            jobs.iter().map(|(w, f, _)| (w, f.as_ref())).collect();
        match commit_batch(&pool, &batch).await {
            Ok(committed) => {
                for ((_, _, ack), c) in jobs.drain(..).zip(committed) {
                    let _ = ack.send(Ok(c));
                }
            }
            Err(e)
                if jobs.len() == 1
                    || matches!(e, StoreError::Unavailable(_) | StoreError::Unconfirmed(_)) =>
            {
                // One write, a database that cannot be reached, or a commit of unknown outcome
                // (which a retry could store twice): every write fails alike.
                tracing::warn!(error = %e, n = jobs.len(), "write failed");
                for (_, _, ack) in jobs.drain(..) {
                    let _ = ack.send(Err(reported(&e)));
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, n = jobs.len(), "batch failed, retrying one by one");
                for (w, f, ack) in jobs.drain(..) {
                    let r = commit_batch(&pool, &[(&w, f.as_ref())]).await;
                    let r = r.map(|c| c.first().copied().unwrap_or_default());
                    let _ = ack.send(r.map_err(|e| reported(&e)));
                }
            }
        }
    }
    tracing::debug!("database writer stopped");
}

/// The error a write's sender receives: unreachable, fenced and unconfirmed as such, any
/// other refusal as [`StoreError::Write`].
fn reported(e: &StoreError) -> StoreError {
    match e {
        StoreError::Unavailable(m) => StoreError::Unavailable(m.clone()),
        StoreError::Fenced => StoreError::Fenced,
        StoreError::Unconfirmed(m) => StoreError::Unconfirmed(m.clone()),
        other => StoreError::Write(other.to_string()),
    }
}
