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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{EventRow, Fence, GameRow, GameUpdate, Store, Write};

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            created_at: 1,
            updated_at: 1,
            spec: "{}".into(),
            time_control: "5+3".into(),
            variant: "standard".into(),
            status: "playing".into(),
            ..GameRow::default()
        }
    }

    fn event(id: &str, seq: i64) -> EventRow {
        EventRow {
            game_id: id.into(),
            seq,
            kind: "move".into(),
            t_ms: seq,
            data: "{}".into(),
            created_at: 1,
        }
    }

    /// The fencing token (lease epoch) decides who may commit a game's events: the owner
    /// while its lease is live; once it has expired and another node took the game, never
    /// again, even though the old owner still believes it owns the game.
    #[tokio::test]
    async fn a_stale_owner_is_fenced_and_the_new_owner_commits() {
        let Ok(url) = std::env::var("ARBITER_TEST_POSTGRES_URL") else {
            eprintln!("skipped: ARBITER_TEST_POSTGRES_URL not set");
            return;
        };
        let store = Store::connect(&url).await.unwrap();
        let pool = store.pool().clone();
        prepare(&pool).await.unwrap();
        let tag = crate::token::game_id();
        let (a, b) = (format!("a{tag}"), format!("b{tag}"));
        let ea = register(&pool, &a, "", 60_000).await.unwrap();
        let eb = register(&pool, &b, "", 60_000).await.unwrap();
        assert_ne!(ea, eb);
        let fa = Fence {
            node: a.as_str().into(),
            epoch: ea,
            margin_ms: 1000,
        };
        let fb = Fence {
            node: b.as_str().into(),
            epoch: eb,
            margin_ms: 1000,
        };
        let id = format!("g{tag}");
        store
            .write_fenced(Write::Create(game(&id)), Some(fa.clone()))
            .await
            .unwrap();
        // A owns it: B cannot take it, A commits.
        assert_eq!(
            claim(&pool, &id, &b, eb).await.unwrap(),
            Owner::Node(a.clone())
        );
        assert_eq!(claim(&pool, &id, &a, ea).await.unwrap(), Owner::Me);
        store
            .write_fenced(Write::Append(vec![event(&id, 1)], None), Some(fa.clone()))
            .await
            .unwrap();
        // A is paused past its lease: it cannot renew, B takes the game over.
        release(&pool, &a, ea).await.unwrap();
        assert!(!renew(&pool, &a, ea, 60_000).await.unwrap());
        assert_eq!(claim(&pool, &id, &b, eb).await.unwrap(), Owner::Me);
        // A wakes up: its next event is refused and nothing is stored.
        let stale = store
            .write_fenced(
                Write::Append(vec![event(&id, 2)], Some(GameUpdate::default())),
                Some(fa.clone()),
            )
            .await;
        assert!(matches!(stale, Err(StoreError::Fenced)), "{stale:?}");
        let stale = store
            .write_fenced(Write::Append(vec![event(&id, 2)], None), Some(fa.clone()))
            .await;
        assert!(matches!(stale, Err(StoreError::Fenced)), "{stale:?}");
        // B commits the same number; its epoch is recorded.
        store
            .write_fenced(Write::Append(vec![event(&id, 2)], None), Some(fb.clone()))
            .await
            .unwrap();
        let epochs: Vec<Option<i64>> =
            sqlx::query_scalar("SELECT epoch FROM events WHERE game_id = $1 ORDER BY seq")
                .bind(&id)
                .fetch_all(&pool)
                .await
                .unwrap();
        assert_eq!(epochs, vec![Some(ea), Some(eb)]);
        // B's lease lapses while nobody has taken the game: B is fenced too (the lease is
        // checked in the commit's transaction), and the game is an orphan for the others.
        release(&pool, &b, eb).await.unwrap();
        let late = store
            .write_fenced(Write::Append(vec![event(&id, 3)], None), Some(fb))
            .await;
        assert!(matches!(late, Err(StoreError::Fenced)), "{late:?}");
        let ec = register(&pool, &a, "", 60_000).await.unwrap();
        assert!(ec > eb, "a new incarnation gets a new epoch");
        let taken = claim_orphans(&pool, &a, ec).await.unwrap();
        assert!(taken.contains(&id), "{taken:?}");
        assert_eq!(store.events(&id, 0).await.unwrap().len(), 2);
        release(&pool, &a, ec).await.unwrap();
        store.close().await;
    }
}
