//! Routing: a command runs on the game's owner, this node or another one (forwarded over
//! NATS and followed across a failover); this node answers the others' requests for its games;
//! subscriptions to a game's events, here or mirrored from its owner.

use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use tokio::sync::oneshot;

use super::super::actor::{Cmd, Reply, Subscription, WireEvent};
use super::super::remote::{self, RemoteCmd, RemoteSubscription, Request, Response};
use super::super::replay;
use super::{Hub, Load};
use crate::db;
use crate::error::{ApiResult, AppError};

/// The longest a forwarded command waits for the owner's answer; at most a lease, after which
/// an owner that has not answered (dead, paused) has lost the game and the next hop finds the
/// new one.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(4);

/// The most nodes a cluster request visits before giving up (owners move during failover).
const MAX_HOPS: u32 = 8;

impl Hub {
    /// Pass a command to the game's actor on this node, loading (in cluster mode: claiming)
    /// it if needed; `Err(node)` when another node owns the game.
    pub(super) async fn call<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(Reply<T>) -> Cmd,
    ) -> Result<ApiResult<T>, Arc<str>> {
        // An actor that has just unloaded itself (or lost the game to another node): reload
        // once.
        for _ in 0..2 {
            let h = match self.handle(id).await {
                Ok(h) => h,
                Err(Load::Elsewhere(node)) => return Err(node),
                Err(Load::Failed(e)) => return Ok(Err(e)),
            };
            let (tx, rx) = oneshot::channel();
            if h.tx.send(make(tx)).await.is_err() {
                self.forget(id, h.gen);
                continue;
            }
            match rx.await {
                Ok(Err(AppError::Unavailable(m))) if m == db::FENCED => {
                    self.forget(id, h.gen);
                    continue;
                }
                Ok(r) => return Ok(r),
                Err(_) => {
                    self.forget(id, h.gen);
                    continue;
                }
            }
        }
        Ok(Err(AppError::Unavailable(
            "the game is being reloaded; retry".into(),
        )))
    }

    /// Ask `node`, the game's owner, to run `cmd`: `Err(())` when it does not answer or is
    /// not the owner (the caller looks for the owner again).
    async fn forward<T: DeserializeOwned>(
        &self,
        node: &str,
        id: &str,
        cmd: RemoteCmd,
    ) -> Result<ApiResult<T>, ()> {
        let Some(cluster) = &self.ctx.cluster else {
            return Err(());
        };
        let req = Request {
            game: id.to_owned(),
            cmd,
        };
        let payload = serde_json::to_vec(&req).map_err(|_| ())?;
        let answer = match cluster
            .request(
                node,
                remote::SERVICE,
                payload,
                FORWARD_TIMEOUT.min(cluster.lease()),
            )
            .await
        {
            Ok(a) => a,
            Err(e) => {
                tracing::debug!(game = %id, error = %e, "owner does not answer");
                cluster.forget_owner(id);
                return Err(());
            }
        };
        match serde_json::from_slice::<Response>(&answer) {
            Ok(Response::Ok(v)) => Ok(serde_json::from_value(v)
                .map_err(|e| AppError::Internal(format!("bad answer from node {node}: {e}")))),
            Ok(Response::Err {
                status,
                error,
                message,
            }) => Ok(Err(AppError::from_remote(status, &error, message))),
            Ok(Response::NotOwner { .. }) | Err(_) => {
                cluster.forget_owner(id);
                Err(())
            }
        }
    }

    /// Run a command on the game's owner: here, or forwarded over NATS (acknowledged only
    /// after the owner's commit, as here). Owners move during a failover: the request follows
    /// them for a few hops, then answers 503.
    pub(super) async fn routed<T: DeserializeOwned>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(Reply<T>) -> Cmd,
        cmd: impl Fn() -> RemoteCmd,
    ) -> ApiResult<T> {
        for hop in 0..MAX_HOPS {
            match self.call(id, &make).await {
                Ok(r) => return r,
                Err(node) => {
                    if let Ok(r) = self.forward(&node, id, cmd()).await {
                        return r;
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(100 * u64::from(hop + 1))).await;
        }
        Err(AppError::Unavailable(
            "the game's node does not answer; retry".into(),
        ))
    }

    /// Answer another node's request for a game this node owns (never forwarded again: a
    /// node that is not the owner says so).
    pub(super) async fn serve_remote(self: &Arc<Self>, req: Request) -> Response {
        let id = req.game.as_str();
        // The sender believes this node owns the game: ask the database, not the cache.
        if let Some(c) = &self.ctx.cluster {
            c.forget_owner(id);
        }
        let not_owner = |node: Arc<str>| Response::NotOwner {
            node: Some(node.to_string()),
        };
        macro_rules! answer {
            ($make:expr) => {
                match self.call(id, $make).await {
                    Ok(r) => Response::of(r),
                    Err(node) => not_owner(node),
                }
            };
        }
        match req.cmd {
            RemoteCmd::Join(account) => answer!(|reply| Cmd::Join(account.clone(), reply)),
            RemoteCmd::Withdraw(who) => answer!(|reply| Cmd::Withdraw {
                who: who.clone(),
                reply
            }),
            RemoteCmd::Rematch { who, offer } => answer!(|reply| Cmd::Rematch {
                who: who.clone(),
                offer,
                reply
            }),
            RemoteCmd::View => answer!(Cmd::View),
            RemoteCmd::Pgn => answer!(Cmd::Pgn),
            RemoteCmd::Act { who, action, view } => answer!(|reply| Cmd::Act {
                who: who.clone(),
                action: action.clone(),
                view,
                reply
            }),
            RemoteCmd::Arbiter(action) => answer!(|reply| Cmd::Arbiter { action, reply }),
            RemoteCmd::Subscribe { since } => {
                match self.call(id, |reply| Cmd::Subscribe { since, reply }).await {
                    Ok(r) => Response::of(r.map(|sub| {
                        RemoteSubscription {
                            state: sub.state,
                            backlog: sub
                                .backlog
                                .iter()
                                .map(|e| (e.seq, e.json.as_str().to_owned()))
                                .collect(),
                            last_seq: sub.last_seq,
                        }
                    })),
                    Err(node) => not_owner(node),
                }
            }
        }
    }

    /// Subscribe to a game's events after `since` (or a state snapshot if `None`).
    ///
    /// # Errors
    /// 404 unknown game.
    pub async fn subscribe(
        self: &Arc<Self>,
        id: &str,
        since: Option<i64>,
    ) -> ApiResult<Subscription> {
        for hop in 0..MAX_HOPS {
            let node = match self.call(id, |reply| Cmd::Subscribe { since, reply }).await {
                Ok(r) => return r,
                Err(node) => node,
            };
            let Some(cluster) = self.ctx.cluster.clone() else {
                break;
            };
            // Listen before asking the owner where to start, so that nothing falls between.
            let rx = self.mirrors.subscribe(&cluster, id).await?;
            match self
                .forward::<RemoteSubscription>(&node, id, RemoteCmd::Subscribe { since })
                .await
            {
                Ok(Ok(start)) => {
                    self.mirrors.seen(id, start.last_seq);
                    return Ok(Subscription {
                        state: start.state,
                        backlog: start
                            .backlog
                            .into_iter()
                            .map(|(seq, json)| {
                                Arc::new(WireEvent {
                                    seq,
                                    json: json.into(),
                                })
                            })
                            .collect(),
                        rx,
                        last_seq: start.last_seq,
                    });
                }
                Ok(Err(e)) => return Err(e),
                Err(()) => {
                    tokio::time::sleep(Duration::from_millis(100 * u64::from(hop + 1))).await;
                }
            }
        }
        Err(AppError::Unavailable(
            "the game's node does not answer; retry".into(),
        ))
    }

    /// Events after `after` (a lagging subscriber catching up).
    ///
    /// # Errors
    /// 404 unknown game.
    pub async fn events_since(
        self: &Arc<Self>,
        id: &str,
        after: i64,
    ) -> ApiResult<Vec<Arc<WireEvent>>> {
        let local = self.ctx.cluster.is_none()
            || self
                .games
                .lock()
                .expect("hub lock")
                .get(id)
                .is_some_and(|c| c.initialized());
        if local {
            if let Ok(r) = self.call(id, |reply| Cmd::Since { after, reply }).await {
                return r;
            }
        }
        // Cluster mode, a game owned elsewhere: its committed events are in the database.
        let rows = self.ctx.store.events(id, after).await?;
        Ok(rows
            .iter()
            .filter_map(|row| {
                replay::wire_json(row).map(|json| {
                    Arc::new(WireEvent {
                        seq: row.seq,
                        json: json.into(),
                    })
                })
            })
            .collect())
    }
}
