//! The leases and game ownership in PostgreSQL: every statement decides on the database's
//! clock ([`DB_NOW_MS`]), so nodes' clocks never matter.

use sqlx::{AnyPool, Row};

use crate::db::{StoreError, DB_NOW_MS};

/// Create the epoch sequence if it does not exist yet (several nodes may start at once: the
/// loser of a race retries).
pub(super) async fn prepare(pool: &AnyPool) -> Result<(), StoreError> {
    let mut last = None;
    for _ in 0..5 {
        match sqlx::query("CREATE SEQUENCE IF NOT EXISTS cluster_epochs")
            .execute(pool)
            .await
        {
            Ok(_) => return Ok(()),
            Err(e) => last = Some(e),
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    Err(last.map_or(StoreError::WriterGone, StoreError::from))
}

/// Register `node` with a new epoch and a lease of `lease_ms`; returns the epoch. A previous
/// incarnation's epoch is replaced, so its games become claimable at once.
pub(super) async fn register(
    pool: &AnyPool,
    node: &str,
    addr: &str,
    lease_ms: i64,
) -> Result<i64, StoreError> {
    let sql = format!(
        "INSERT INTO cluster_nodes (node_id, epoch, lease_until, addr, started_at) \
         VALUES ($1, nextval('cluster_epochs'), {DB_NOW_MS} + $2, $3, {DB_NOW_MS}) \
         ON CONFLICT (node_id) DO UPDATE SET epoch = excluded.epoch, \
         lease_until = excluded.lease_until, addr = excluded.addr, \
         started_at = excluded.started_at \
         RETURNING epoch"
    );
    let epoch: i64 = sqlx::query_scalar(&sql)
        .bind(node)
        .bind(lease_ms)
        .bind(addr)
        .fetch_one(pool)
        .await?;
    Ok(epoch)
}

/// Extend the lease of `node`'s `epoch` by `lease_ms` from now, only if it has not expired:
/// `Ok(false)` when it has (or another incarnation replaced it): the node has lost its games.
pub(super) async fn renew(
    pool: &AnyPool,
    node: &str,
    epoch: i64,
    lease_ms: i64,
) -> Result<bool, StoreError> {
    let sql = format!(
        "UPDATE cluster_nodes SET lease_until = {DB_NOW_MS} + $1 \
         WHERE node_id = $2 AND epoch = $3 AND lease_until > {DB_NOW_MS}"
    );
    let done = sqlx::query(&sql)
        .bind(lease_ms)
        .bind(node)
        .bind(epoch)
        .execute(pool)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Give up the lease at once (a clean shutdown): the node's games are claimable immediately.
pub(super) async fn release(pool: &AnyPool, node: &str, epoch: i64) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "UPDATE cluster_nodes SET lease_until = {DB_NOW_MS} - 1 WHERE node_id = $1 AND epoch = $2"
    ))
    .bind(node)
    .bind(epoch)
    .execute(pool)
    .await?;
    Ok(())
}

/// Who owns a game after [`claim`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// This node (now or already).
    Me,
    /// Another node, whose lease is live.
    Node(String),
    /// No such game.
    Missing,
}

/// The condition "the lease of epoch `e` is live", for a game's `owner_epoch`.
fn live(epoch: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.epoch = {epoch} \
         AND n.lease_until > {DB_NOW_MS})"
    )
}

/// Take game `id` for `node`/`epoch` unless another live node owns it.
pub(super) async fn claim(
    pool: &AnyPool,
    id: &str,
    node: &str,
    epoch: i64,
) -> Result<Owner, StoreError> {
    let sql = format!(
        "UPDATE games SET owner_node = $1, owner_epoch = $2 WHERE id = $3 \
         AND (owner_epoch IS NULL OR owner_epoch = $2 OR NOT {}) AND {}",
        live("games.owner_epoch"),
        live("$2")
    );
    let done = sqlx::query(&sql)
        .bind(node)
        .bind(epoch)
        .bind(id)
        .execute(pool)
        .await?;
    if done.rows_affected() == 1 {
        return Ok(Owner::Me);
    }
    let row = sqlx::query("SELECT owner_node, owner_epoch FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?;
    Ok(match row {
        None => Owner::Missing,
        Some(r) => {
            let owner: Option<String> = r.try_get("owner_node").map_err(StoreError::from)?;
            let owner_epoch: Option<i64> = r.try_get("owner_epoch").map_err(StoreError::from)?;
            match owner {
                // Our own lease has lapsed (the claim's second condition), or the owner's
                // lapsed between the two statements: nobody to forward to; the caller retries.
                Some(n) if n != node || owner_epoch != Some(epoch) => Owner::Node(n),
                _ => return Err(StoreError::Fenced),
            }
        }
    })
}

/// Take this node's share of the playing games whose owner's lease has expired (or that
/// have no owner): at most `ceil(orphans / live nodes)`, so that survivors split them.
/// Returns the games taken.
pub(super) async fn claim_orphans(
    pool: &AnyPool,
    node: &str,
    epoch: i64,
) -> Result<Vec<String>, StoreError> {
    let orphaned = format!(
        "g.status = 'playing' AND (g.owner_epoch IS NULL OR NOT {})",
        live("g.owner_epoch")
    );
    let counts = sqlx::query(&format!(
        "SELECT (SELECT COUNT(*) FROM games g WHERE {orphaned}) AS orphans, \
         (SELECT COUNT(*) FROM cluster_nodes WHERE lease_until > {DB_NOW_MS}) AS nodes"
    ))
    .fetch_one(pool)
    .await?;
    let orphans: i64 = counts.try_get("orphans").map_err(StoreError::from)?;
    let nodes: i64 = counts.try_get("nodes").map_err(StoreError::from)?;
    if orphans == 0 {
        return Ok(Vec::new());
    }
    let share = (orphans + nodes.max(1) - 1) / nodes.max(1);
    let sql = format!(
        "UPDATE games SET owner_node = $1, owner_epoch = $2 WHERE id IN (\
         SELECT g.id FROM games g WHERE {orphaned} LIMIT $3 FOR UPDATE SKIP LOCKED) \
         AND {} RETURNING id",
        live("$2")
    );
    let ids: Vec<String> = sqlx::query_scalar(&sql)
        .bind(node)
        .bind(epoch)
        .bind(share)
        .fetch_all(pool)
        .await?;
    Ok(ids)
}

/// The live node with the oldest epoch (id and address), if any.
pub(super) async fn oldest_live(pool: &AnyPool) -> Result<Option<(String, String)>, StoreError> {
    let row = sqlx::query(&format!(
        "SELECT node_id, COALESCE(addr, '') AS addr FROM cluster_nodes \
         WHERE lease_until > {DB_NOW_MS} ORDER BY epoch LIMIT 1"
    ))
    .fetch_optional(pool)
    .await?;
    row.map(|r| {
        Ok((
            r.try_get("node_id").map_err(StoreError::from)?,
            r.try_get("addr").map_err(StoreError::from)?,
        ))
    })
    .transpose()
}

/// Whether the database answers.
pub(super) async fn ping(pool: &AnyPool) -> bool {
    sqlx::query("SELECT 1").execute(pool).await.is_ok()
}
