//! The hub of live games: finds or loads a game's actor and passes it commands; creates games;
//! lists the open and running ones. The one door of games for the other domains.
//!
//! A file per role: [`registry`] (loading, forgetting and restoring actors, taking over games
//! in a cluster), [`routing`] (a command to the game's owner, here or on another node; serving
//! the other nodes; subscriptions), [`commands`] (the typed commands of a game) and
//! [`creation`] (new games, the lobby's listing).

mod commands;
mod creation;
mod registry;
mod routing;

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, watch, OnceCell};

use super::actor::{Cmd, GameContext};
use super::computer::Engines;
use super::feed::Feed;
use super::mirror::Mirrors;
use super::remote::{self, Request, Response};
use crate::cluster::{Cluster, ClusterError};
use crate::db::{self, Store};
use crate::error::{ApiResult, AppError};

#[derive(Clone)]
struct Handle {
    tx: mpsc::Sender<Cmd>,
    gen: u64,
}

/// Why a game's actor is not here.
enum Load {
    /// Another node owns the game (cluster mode).
    Elsewhere(Arc<str>),
    /// Unknown game, database down…
    Failed(AppError),
}

/// The registry of live games.
pub struct Hub {
    ctx: Arc<GameContext>,
    games: Mutex<HashMap<String, Arc<OnceCell<Handle>>>>,
    next_gen: AtomicU64,
    /// Cluster mode: the events of games owned elsewhere, for this node's sockets.
    mirrors: Arc<Mirrors>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub")
            .field("lag_allowance_ms", &self.ctx.lag_allowance_ms)
            .finish()
    }
}

impl Hub {
    /// A hub over `store`; computer players search on `engines`.
    pub fn new(store: Store, lag_allowance_ms: u64, engines: Arc<Engines>) -> Arc<Self> {
        Arc::new(Self {
            ctx: Arc::new(GameContext {
                store,
                lag_allowance_ms,
                engines,
                closing: watch::channel(false).0,
                cluster: None,
                feed: Arc::default(),
            }),
            games: Mutex::new(HashMap::new()),
            next_gen: AtomicU64::new(1),
            mirrors: Arc::default(),
        })
    }

    /// A hub on a cluster node: games are loaded only by their owner, requests for games owned
    /// elsewhere are forwarded, and this node serves the others' requests for its games,
    /// takes over games whose owner's lease expired, and drops every game when its own lease
    /// is lost.
    ///
    /// # Errors
    /// NATS refuses the service's subscription.
    pub async fn clustered(
        store: Store,
        lag_allowance_ms: u64,
        engines: Arc<Engines>,
        cluster: Arc<Cluster>,
    ) -> Result<Arc<Self>, ClusterError> {
        let hub = Arc::new(Self {
            ctx: Arc::new(GameContext {
                store: store.clone(),
                lag_allowance_ms,
                engines,
                closing: watch::channel(false).0,
                cluster: Some(cluster.clone()),
                feed: Arc::default(),
            }),
            games: Mutex::new(HashMap::new()),
            next_gen: AtomicU64::new(1),
            mirrors: Arc::default(),
        });
        let weak = Arc::downgrade(&hub);
        let handler: crate::cluster::Handler = Arc::new(move |payload| {
            let hub = weak.upgrade();
            Box::pin(async move {
                let answer = match (hub, serde_json::from_slice::<Request>(&payload)) {
                    (Some(hub), Ok(req)) => hub.serve_remote(req).await,
                    (None, _) => Response::NotOwner { node: None },
                    (_, Err(e)) => {
                        Response::of::<()>(Err(AppError::bad_request("bad_request", e.to_string())))
                    }
                };
                serde_json::to_vec(&answer).unwrap_or_default().into()
            })
        });
        cluster.serve(remote::SERVICE, handler).await?;
        hub.mirrors.spawn_sweeper(store);
        tokio::spawn(Self::follow_lease(Arc::downgrade(&hub), cluster.epochs()));
        tokio::spawn(Self::take_over(Arc::downgrade(&hub), cluster.lease() / 5));
        Ok(hub)
    }

    /// The cluster this node belongs to, if any.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.ctx.cluster.as_ref()
    }

    /// Games whose actor is loaded here.
    pub fn loaded(&self) -> usize {
        self.games.lock().expect("hub lock").len()
    }

    /// The fence this node writes a new game's row with (cluster mode).
    fn fence(&self) -> ApiResult<Option<db::Fence>> {
        match &self.ctx.cluster {
            None => Ok(None),
            Some(c) => c.fence().map(Some).ok_or_else(|| {
                AppError::Unavailable(
                    "this node holds no lease at the moment (is the database reachable?); retry"
                        .into(),
                )
            }),
        }
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.ctx.store
    }

    /// Games' starts and ends on this node, for whoever follows a player.
    pub fn feed(&self) -> &Arc<Feed> {
        &self.ctx.feed
    }

    /// The engine threads of computer players.
    pub fn engines(&self) -> &Arc<Engines> {
        &self.ctx.engines
    }

    /// A receiver told when WebSocket sessions must close (shutdown).
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.ctx.closing()
    }

    /// Ask every WebSocket session to close.
    pub fn close_sockets(&self) {
        let _ = self.ctx.closing.send(true);
    }

    /// Stop: close sockets and stop the computers' searches. Game actors stop with the
    /// runtime; everything acknowledged is already committed.
    pub async fn shutdown(&self) {
        self.close_sockets();
    }
}
