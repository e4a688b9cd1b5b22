//! Cluster mode: the live events of games owned by other nodes, for this node's sockets.
//!
//! One mirror per game watched here: a NATS subscription to the owner's published events,
//! re-broadcast to this node's sockets. NATS may lose a message (an outage, a restart), so
//! every second the mirrors compare what they have seen with the games' `last_seq` in the
//! database and fetch anything missed from there; sockets drop numbers they already have and
//! fill any gap they see from the database too. A mirror nobody listens to is dropped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use sqlx::Row;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;

use super::actor::WireEvent;
use super::replay;
use crate::cluster::Cluster;
use crate::db::Store;
use crate::error::{ApiResult, AppError};

struct Mirror {
    tx: broadcast::Sender<Arc<WireEvent>>,
    /// The highest event number re-broadcast.
    seen: Arc<AtomicI64>,
    task: JoinHandle<()>,
}

impl Drop for Mirror {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The mirrors of this node.
#[derive(Default)]
pub struct Mirrors {
    map: Mutex<HashMap<String, Mirror>>,
}

impl Mirrors {
    /// A receiver of game `id`'s events, subscribed to NATS before this returns (so that
    /// nothing the owner publishes after the caller's next request to it is missed).
    ///
    /// # Errors
    /// 503 when NATS refuses the subscription.
    pub async fn subscribe(
        &self,
        cluster: &Cluster,
        id: &str,
    ) -> ApiResult<broadcast::Receiver<Arc<WireEvent>>> {
        if let Some(m) = self.map.lock().expect("mirrors lock").get(id) {
            return Ok(m.tx.subscribe());
        }
        let mut sub = cluster
            .subscribe_events(id)
            .await
            .map_err(|e| AppError::Unavailable(e.to_string()))?;
        let mut map = self.map.lock().expect("mirrors lock");
        if let Some(m) = map.get(id) {
            // Another socket made it meanwhile.
            return Ok(m.tx.subscribe());
        }
        let (tx, rx) = broadcast::channel(64);
        let seen = Arc::new(AtomicI64::new(0));
        let task = {
            let tx = tx.clone();
            let seen = seen.clone();
            tokio::spawn(async move {
                while let Some(msg) = sub.next().await {
                    let Some(ev) = WireEvent::from_bus(&msg.payload) else {
                        continue;
                    };
                    if ev.seq > 0 {
                        seen.fetch_max(ev.seq, Ordering::Relaxed);
                    }
                    let _ = tx.send(Arc::new(ev));
                }
            })
        };
        map.insert(id.to_owned(), Mirror { tx, seen, task });
        Ok(rx)
    }

    /// Record that game `id`'s events up to `seq` are known (a subscriber started there).
    pub fn seen(&self, id: &str, seq: i64) {
        if let Some(m) = self.map.lock().expect("mirrors lock").get(id) {
            m.seen.fetch_max(seq, Ordering::Relaxed);
        }
    }

    /// Every second: drop the mirrors nobody listens to, and re-broadcast from the database
    /// the events a mirror has not seen (lost on NATS).
    pub fn spawn_sweeper(self: &Arc<Self>, store: Store) {
        let mirrors: Weak<Self> = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(m) = mirrors.upgrade() else { return };
                if store.pool().is_closed() {
                    return;
                }
                m.sweep(&store).await;
            }
        });
    }

    async fn sweep(&self, store: &Store) {
        let watched: Vec<(String, i64)> = {
            let mut map = self.map.lock().expect("mirrors lock");
            map.retain(|_, m| m.tx.receiver_count() > 0);
            map.iter()
                .map(|(id, m)| (id.clone(), m.seen.load(Ordering::Relaxed)))
                .collect()
        };
        for chunk in watched.chunks(500) {
            let Ok(last) = last_seqs(store, chunk).await else {
                return;
            };
            for (id, seen) in chunk {
                let Some(&stored) = last.get(id) else {
                    continue;
                };
                if stored <= *seen {
                    continue;
                }
                let Ok(rows) = store.events(id, *seen).await else {
                    continue;
                };
                let map = self.map.lock().expect("mirrors lock");
                let Some(m) = map.get(id) else { continue };
                for row in &rows {
                    if let Some(json) = replay::wire_json(row) {
                        m.seen.fetch_max(row.seq, Ordering::Relaxed);
                        let _ = m.tx.send(Arc::new(WireEvent {
                            seq: row.seq,
                            json: json.into(),
                        }));
                    }
                }
            }
        }
    }
}

/// The `last_seq` of each game in `games`, in one query.
async fn last_seqs(
    store: &Store,
    games: &[(String, i64)],
) -> Result<HashMap<String, i64>, sqlx::Error> {
    if games.is_empty() {
        return Ok(HashMap::new());
    }
    let marks: Vec<String> = (1..=games.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT id, last_seq FROM games WHERE id IN ({})",
        marks.join(", ")
    );
    let mut q = sqlx::query(&sql);
    for (id, _) in games {
        q = q.bind(id);
    }
    let rows = q.fetch_all(store.pool()).await?;
    rows.iter()
        .map(|r| Ok((r.try_get("id")?, r.try_get("last_seq")?)))
        .collect()
}
