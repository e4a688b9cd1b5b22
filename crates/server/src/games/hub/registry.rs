//! The registry: a game's actor, loaded on first use (in a cluster, claimed first), forgotten
//! when it stops; running games restored after a restart, and taken over from a node whose
//! lease expired.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::super::actor::GameActor;
use super::super::api::Status;
use super::{Handle, Hub, Load};
use crate::cluster::Owner;
use crate::db::StoreError;
use crate::error::AppError;

impl Hub {
    /// When this node's lease is lost (epoch 0, or a new epoch), every game loaded under the
    /// old one is dropped: its actor stops, and its commits would be refused anyway.
    pub(super) async fn follow_lease(hub: std::sync::Weak<Self>, mut epochs: watch::Receiver<i64>) {
        while epochs.changed().await.is_ok() {
            let Some(hub) = hub.upgrade() else { return };
            let dropped = std::mem::take(&mut *hub.games.lock().expect("hub lock"));
            if !dropped.is_empty() {
                tracing::warn!(games = dropped.len(), "lease changed: games dropped");
            }
        }
    }

    /// Every fifth of a lease: take this node's share of the playing games whose owner's
    /// lease has expired, and load them (clocks resume, Art. 6.11: the interruption counts
    /// against nobody).
    pub(super) async fn take_over(hub: std::sync::Weak<Self>, period: Duration) {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(hub) = hub.upgrade() else { return };
            let Some(cluster) = hub.ctx.cluster.clone() else {
                return;
            };
            if hub.ctx.store.pool().is_closed() {
                return;
            }
            match cluster.claim_orphans().await {
                Ok(ids) => {
                    if !ids.is_empty() {
                        tracing::warn!(games = ids.len(), "took over games");
                    }
                    for id in ids {
                        if let Err(e) = hub.view(&id).await {
                            tracing::error!(game = %id, error = %e, "cannot load a game taken over");
                        }
                    }
                }
                Err(StoreError::Fenced) => {}
                Err(e) => tracing::warn!(error = %e, "cannot look for games to take over"),
            }
        }
    }

    /// Load every running game so that its clock and flag timer run again after a restart.
    ///
    /// # Errors
    /// Database errors.
    pub async fn restore_running(self: &Arc<Self>) -> Result<usize, StoreError> {
        let mut n = 0;
        for status in [Status::Playing, Status::Adjourned] {
            let rows = self
                .ctx
                .store
                .games_with_status(status.as_str(), i64::MAX)
                .await?;
            for row in rows {
                match self.handle(&row.id).await {
                    Ok(_) => n += 1,
                    Err(Load::Elsewhere(_)) => {}
                    Err(Load::Failed(e)) => {
                        tracing::error!(game = %row.id, error = %e, "cannot restore game")
                    }
                }
            }
        }
        Ok(n)
    }

    pub(super) async fn handle(self: &Arc<Self>, id: &str) -> Result<Handle, Load> {
        let cell = {
            let mut games = self.games.lock().expect("hub lock");
            match games.get(id) {
                Some(c) => c.clone(),
                None => {
                    // Owned elsewhere as far as we know: no database round trip.
                    if let Some(node) = self.ctx.cluster.as_ref().and_then(|c| c.known_owner(id)) {
                        return Err(Load::Elsewhere(node));
                    }
                    games.entry(id.to_owned()).or_default().clone()
                }
            }
        };
        let r = cell
            .get_or_try_init(|| async {
                let fence = match &self.ctx.cluster {
                    None => None,
                    Some(c) => match c.claim(id).await {
                        Ok((Owner::Me, fence)) => fence,
                        Ok((Owner::Node(n), _)) => return Err(Load::Elsewhere(n.into())),
                        Ok((Owner::Missing, _)) => {
                            return Err(Load::Failed(AppError::game_not_found(id)))
                        }
                        Err(e) => return Err(Load::Failed(e.into())),
                    },
                };
                let gen = self.next_gen.fetch_add(1, Ordering::Relaxed);
                let hub = Arc::downgrade(self);
                let gone = id.to_owned();
                let tx = GameActor::spawn(self.ctx.clone(), id, fence, move || {
                    if let Some(hub) = hub.upgrade() {
                        hub.forget(&gone, gen);
                    }
                })
                .await
                .map_err(Load::Failed)?;
                Ok::<_, Load>(Handle { tx, gen })
            })
            .await
            .cloned();
        if r.is_err() {
            // Do not cache a failure (unknown game, database down, owned elsewhere).
            let mut games = self.games.lock().expect("hub lock");
            if games.get(id).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                games.remove(id);
            }
        }
        r
    }

    pub(super) fn forget(&self, id: &str, gen: u64) {
        let mut games = self.games.lock().expect("hub lock");
        if games
            .get(id)
            .and_then(|c| c.get())
            .is_some_and(|h| h.gen == gen)
        {
            games.remove(id);
        }
    }
}
