//! Cluster mode: several `arbiter serve --cluster nats://…` nodes over one PostgreSQL.
//!
//! - **PostgreSQL decides ownership.** Each node holds a lease (`cluster_nodes`: node id,
//!   epoch, expiry on the database's clock), renewed every fifth of its length and only while
//!   unexpired. A live game belongs to one node (`games.owner_node`, `owner_epoch`); a node
//!   takes a game only when nobody holds it or its owner's lease has expired.
//! - **Fencing.** Every commit of a game's events carries the owner's epoch ([`Fence`]); it
//!   changes the game only where `owner_epoch` is that epoch and commits only while that
//!   lease is unexpired, checked in the same transaction. A node that was paused or cut off
//!   and wakes after losing its lease commits nothing more; it registers again with a new
//!   epoch and starts afresh.
//! - **NATS carries messages, never decisions.** Commands to a game's owner go as NATS
//!   requests to `arbiter.node.<node>.<service>`; committed events are published on
//!   `arbiter.game.<id>` for sockets on other nodes, which fill any gap from PostgreSQL. A
//!   NATS outage delays messages but changes no owner and loses no committed event.
//!
//! This module knows nothing of games: the games' hub builds on it.

mod lease;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::Client;
use bytes::Bytes;
use futures_util::StreamExt;
use sqlx::AnyPool;
use tokio::sync::watch;
use tokio::time::Instant;

pub use lease::Owner;

use crate::db::{Backend, Fence, Store, StoreError};
use crate::metrics::METRICS;

/// How a node joins a cluster.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// The NATS server(s), e.g. `nats://127.0.0.1:4222`.
    pub nats_url: String,
    /// This node's id: letters, digits, `-` and `_` (unique in the cluster).
    pub node_id: String,
    /// The lease's length: a dead node's games move after at most this long.
    pub lease: Duration,
}

/// The most game owners remembered (see [`Cluster::known_owner`]).
const MAX_KNOWN_OWNERS: usize = 100_000;

/// Default lease length.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(5);

/// Errors joining a cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// Cluster mode needs PostgreSQL.
    #[error("cluster mode needs a PostgreSQL database (--db postgres://…), not SQLite")]
    NotPostgres,
    /// A node id NATS subjects cannot carry.
    #[error("bad node id {0:?}: use letters, digits, '-' and '_' (at most 64)")]
    BadNodeId(String),
    /// A lease too short to renew.
    #[error("the lease must be at least 500 ms")]
    BadLease,
    /// The database refused.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// NATS cannot be reached.
    #[error("NATS at {url}: {reason}")]
    Nats {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
}

/// Why a request to another node got no answer.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// Nobody serves the subject (the node is down) or it did not answer in time.
    #[error("node {node} does not answer: {reason}")]
    NoAnswer {
        /// The node.
        node: String,
        /// Why.
        reason: String,
    },
}

/// A service's request handler: the request's payload → the reply's.
pub type Handler = Arc<dyn Fn(Bytes) -> Pin<Box<dyn Future<Output = Bytes> + Send>> + Send + Sync>;

/// This node's membership of the cluster.
pub struct Cluster {
    node: Arc<str>,
    addr: String,
    pool: AnyPool,
    nats: Client,
    lease: Duration,
    /// The epoch whose lease this node holds; 0 while it holds none (lost, re-registering).
    epoch: watch::Sender<i64>,
    /// The owners of games last seen elsewhere (forwarding without asking the database).
    owners: Mutex<HashMap<String, Arc<str>>>,
    /// The coordinator: the live node with the oldest epoch, which runs the lobby and the
    /// tournaments for the whole cluster.
    coordinator: watch::Sender<Option<Member>>,
    /// Set by [`Cluster::leave`]: the node is stopping and never registers again.
    leaving: std::sync::atomic::AtomicBool,
}

/// A live node of the cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Its id.
    pub node: String,
    /// Where it listens.
    pub addr: String,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("node", &self.node)
            .field("epoch", &*self.epoch.borrow())
            .finish()
    }
}

fn valid_node_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Cluster {
    /// Join: connect to NATS, register this node with a new epoch, and keep its lease renewed
    /// in the background. `addr` is where this node listens (recorded for operators).
    ///
    /// # Errors
    /// Not PostgreSQL, a bad node id or lease, NATS unreachable, a database error.
    pub async fn join(
        store: &Store,
        config: &ClusterConfig,
        addr: &str,
    ) -> Result<Arc<Self>, ClusterError> {
        if store.backend() != Backend::Postgres {
            return Err(ClusterError::NotPostgres);
        }
        if !valid_node_id(&config.node_id) {
            return Err(ClusterError::BadNodeId(config.node_id.clone()));
        }
        if config.lease < Duration::from_millis(500) {
            return Err(ClusterError::BadLease);
        }
        let nats = async_nats::ConnectOptions::new()
            .name(format!("arbiter-{}", config.node_id))
            .request_timeout(Some(Duration::from_secs(5)))
            .connection_timeout(Duration::from_secs(3))
            // Keep trying for ever: a NATS restart must not stop a node.
            .max_reconnects(None)
            .reconnect_delay_callback(|n| Duration::from_millis((100 * n as u64).min(1000)))
            .connect(config.nats_url.as_str())
            .await
            .map_err(|e| ClusterError::Nats {
                url: config.nats_url.clone(),
                reason: e.to_string(),
            })?;
        let pool = store.pool().clone();
        lease::prepare(&pool).await?;
        let lease_ms = lease_ms(config.lease);
        let epoch = lease::register(&pool, &config.node_id, addr, lease_ms).await?;
        tracing::info!(node = %config.node_id, epoch, "joined the cluster");
        let cluster = Arc::new(Self {
            node: config.node_id.as_str().into(),
            addr: addr.to_owned(),
            pool,
            nats,
            lease: config.lease,
            epoch: watch::channel(epoch).0,
            owners: Mutex::new(HashMap::new()),
            coordinator: watch::channel(None).0,
            leaving: std::sync::atomic::AtomicBool::new(false),
        });
        cluster.refresh_coordinator().await;
        tokio::spawn(renew_loop(Arc::downgrade(&cluster)));
        Ok(cluster)
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The lease's length.
    pub fn lease(&self) -> Duration {
        self.lease
    }

    /// The epoch of this node's lease (0: none at the moment).
    pub fn epoch(&self) -> i64 {
        *self.epoch.borrow()
    }

    /// Told whenever the epoch changes (a lost lease: 0, then a new one).
    pub fn epochs(&self) -> watch::Receiver<i64> {
        self.epoch.subscribe()
    }

    /// The coordinator as last seen (`None`: unknown at the moment).
    pub fn coordinator(&self) -> Option<Member> {
        self.coordinator.borrow().clone()
    }

    /// Told whenever the coordinator changes.
    pub fn coordinators(&self) -> watch::Receiver<Option<Member>> {
        self.coordinator.subscribe()
    }

    /// Whether this node is the coordinator (and holds a live lease).
    pub fn is_coordinator(&self) -> bool {
        self.epoch() > 0
            && self
                .coordinator
                .borrow()
                .as_ref()
                .is_some_and(|m| *m.node == *self.node)
    }

    async fn refresh_coordinator(&self) {
        match lease::oldest_live(&self.pool).await {
            Ok(m) => {
                let m = m.map(|(node, addr)| Member { node, addr });
                self.coordinator.send_if_modified(|c| {
                    if *c == m {
                        false
                    } else {
                        tracing::info!(coordinator = ?m.as_ref().map(|m| &m.node), "coordinator");
                        *c = m;
                        true
                    }
                });
            }
            Err(e) => tracing::debug!(error = %e, "cannot read the coordinator"),
        }
    }

    /// The fencing token of this node's writes, if it holds a lease.
    pub fn fence(&self) -> Option<Fence> {
        let epoch = self.epoch();
        (epoch > 0).then(|| Fence {
            node: self.node.clone(),
            epoch,
            margin_ms: lease_ms(self.lease) / 4,
        })
    }

    /// Take game `id` unless another live node owns it. `Me` carries the fence the game's
    /// actor must write with.
    ///
    /// # Errors
    /// Database errors; [`StoreError::Fenced`] when this node holds no live lease.
    pub async fn claim(&self, id: &str) -> Result<(Owner, Option<Fence>), StoreError> {
        let fence = self.fence().ok_or(StoreError::Fenced)?;
        let owner = lease::claim(&self.pool, id, &fence.node, fence.epoch).await?;
        let mut owners = self.owners.lock().expect("owners lock");
        match &owner {
            Owner::Node(n) => {
                // A cache, not a record: bounded by forgetting it all at once.
                if owners.len() >= MAX_KNOWN_OWNERS {
                    owners.clear();
                }
                owners.insert(id.to_owned(), n.as_str().into());
            }
            _ => {
                owners.remove(id);
            }
        }
        Ok((owner, Some(fence)))
    }

    /// The owner last seen for a game owned elsewhere.
    pub fn known_owner(&self, id: &str) -> Option<Arc<str>> {
        self.owners.lock().expect("owners lock").get(id).cloned()
    }

    /// Forget the owner seen for a game (it did not answer, or said it is not the owner).
    pub fn forget_owner(&self, id: &str) {
        self.owners.lock().expect("owners lock").remove(id);
    }

    /// Take this node's share of the playing games whose owner's lease has expired.
    ///
    /// # Errors
    /// Database errors; [`StoreError::Fenced`] without a live lease.
    pub async fn claim_orphans(&self) -> Result<Vec<String>, StoreError> {
        let fence = self.fence().ok_or(StoreError::Fenced)?;
        let ids = lease::claim_orphans(&self.pool, &fence.node, fence.epoch).await?;
        if !ids.is_empty() {
            METRICS.takeovers(ids.len() as u64);
            let mut owners = self.owners.lock().expect("owners lock");
            for id in &ids {
                owners.remove(id);
            }
        }
        Ok(ids)
    }

    fn subject(node: &str, service: &str) -> String {
        format!("arbiter.node.{node}.{service}")
    }

    /// Serve `service` on this node: each request is answered by `handler`, on its own task.
    ///
    /// # Errors
    /// NATS refused the subscription.
    pub async fn serve(&self, service: &str, handler: Handler) -> Result<(), ClusterError> {
        let subject = Self::subject(&self.node, service);
        let mut sub =
            self.nats
                .subscribe(subject.clone())
                .await
                .map_err(|e| ClusterError::Nats {
                    url: subject.clone(),
                    reason: e.to_string(),
                })?;
        let nats = self.nats.clone();
        tokio::spawn(async move {
            while let Some(msg) = sub.next().await {
                let Some(reply) = msg.reply else { continue };
                let handler = handler.clone();
                let nats = nats.clone();
                tokio::spawn(async move {
                    let answer = handler(msg.payload).await;
                    if let Err(e) = nats.publish(reply, answer).await {
                        tracing::warn!(error = %e, "cannot send a reply");
                    }
                });
            }
        });
        Ok(())
    }

    /// Ask `node`'s `service`, waiting at most `timeout`.
    ///
    /// # Errors
    /// The node does not serve it (down) or does not answer in time.
    pub async fn request(
        &self,
        node: &str,
        service: &str,
        payload: Vec<u8>,
        timeout: Duration,
    ) -> Result<Bytes, BusError> {
        METRICS.forwarded();
        let request = async_nats::Request::new()
            .payload(payload.into())
            .timeout(Some(timeout));
        self.nats
            .send_request(Self::subject(node, service), request)
            .await
            .map(|m| m.payload)
            .map_err(|e| BusError::NoAnswer {
                node: node.to_owned(),
                reason: e.to_string(),
            })
    }

    /// Publish a game's committed event to every node (best effort: a subscriber that misses
    /// one fills the gap from the database).
    pub async fn publish_event(&self, game: &str, payload: Bytes) {
        // Never hold a game up for NATS: while it is away (a restart), events are not sent
        // and the other nodes' mirrors read them from the database.
        if !self.nats_connected() {
            return;
        }
        let publish = self.nats.publish(format!("arbiter.game.{game}"), payload);
        match tokio::time::timeout(Duration::from_millis(100), publish).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::debug!(error = %e, "cannot publish an event"),
            Err(_) => tracing::debug!("publishing an event timed out"),
        }
    }

    /// Receive a game's events as its owner publishes them.
    ///
    /// # Errors
    /// NATS refused the subscription.
    pub async fn subscribe_events(
        &self,
        game: &str,
    ) -> Result<async_nats::Subscriber, ClusterError> {
        self.nats
            .subscribe(format!("arbiter.game.{game}"))
            .await
            .map_err(|e| ClusterError::Nats {
                url: game.to_owned(),
                reason: e.to_string(),
            })
    }

    /// A function giving the largest message the NATS server carries (bytes; 1 MiB by
    /// default), as it is when called (the server's limit is known once connected).
    pub fn max_payload_source(&self) -> Arc<dyn Fn() -> usize + Send + Sync> {
        let nats = self.nats.clone();
        Arc::new(move || match nats.server_info().max_payload {
            0 => 1 << 20,
            n => n,
        })
    }

    /// Whether the NATS connection is up.
    pub fn nats_connected(&self) -> bool {
        self.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// Whether the database answers.
    pub async fn database_reachable(&self) -> bool {
        lease::ping(&self.pool).await
    }

    /// Leave: give up the lease so that other nodes take this node's games at once.
    pub async fn leave(&self) {
        self.leaving
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let epoch = self.epoch();
        self.epoch.send_replace(0);
        if epoch > 0 {
            if let Err(e) = lease::release(&self.pool, &self.node, epoch).await {
                tracing::warn!(error = %e, "cannot release the lease");
            }
        }
        let _ = self.nats.flush().await;
    }
}

fn lease_ms(lease: Duration) -> i64 {
    i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 4)
}

/// Renew the lease every fifth of its length. When the database says it has expired, the
/// node has lost every game: the epoch goes to 0 (the hub drops its games) and the node
/// registers again. When the database cannot be reached for a whole lease, the node assumes
/// the same (its commits would be refused anyway).
async fn renew_loop(cluster: std::sync::Weak<Cluster>) {
    let period = match cluster.upgrade() {
        Some(c) => c.lease / 5,
        None => return,
    };
    let mut last_renewed = Instant::now();
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(c) = cluster.upgrade() else { return };
        if c.leaving.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let lease_ms = lease_ms(c.lease);
        let epoch = c.epoch();
        if epoch == 0 {
            if c.pool.is_closed() {
                return;
            }
            match lease::register(&c.pool, &c.node, &c.addr, lease_ms).await {
                Ok(e) => {
                    tracing::warn!(node = %c.node, epoch = e, "registered again with a new epoch");
                    last_renewed = Instant::now();
                    c.epoch.send_replace(e);
                }
                Err(e) => tracing::warn!(error = %e, "cannot register in the cluster"),
            }
            continue;
        }
        match lease::renew(&c.pool, &c.node, epoch, lease_ms).await {
            Ok(true) => {
                METRICS.lease_renewed();
                last_renewed = Instant::now();
                c.refresh_coordinator().await;
            }
            Ok(false) => {
                tracing::error!(node = %c.node, epoch, "lease lost: this node's games go to others");
                METRICS.lease_lost();
                c.epoch.send_replace(0);
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot renew the lease");
                if last_renewed.elapsed() >= c.lease {
                    tracing::error!(node = %c.node, epoch, "lease expired while the database was unreachable");
                    METRICS.lease_lost();
                    c.epoch.send_replace(0);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_are_nats_subject_tokens() {
        assert!(valid_node_id("n1"));
        assert!(valid_node_id("eu-west_2"));
        assert!(!valid_node_id(""));
        assert!(!valid_node_id("a.b"));
        assert!(!valid_node_id("a b"));
        assert!(!valid_node_id("*"));
        assert!(!valid_node_id(&"x".repeat(65)));
    }
}
