//! The registry of live games: finds or loads a game's actor and passes it commands; creates
//! games; lists the open and running ones.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::de::DeserializeOwned;
use tokio::sync::{mpsc, oneshot, watch, OnceCell};

use super::actor::{Cmd, GameActor, GameContext, Reply, Subscription, WireEvent};
use super::computer::{ComputerKind, ComputerSeat, Engines};
use super::feed::Feed;
use super::mirror::Mirrors;
use super::players::Credentials;
use super::referee::{Action, ArbiterAction, Referee, Spec};
use super::remote::{self, RemoteCmd, RemoteSubscription, Request, Response};
use super::replay;
use super::wire::{
    Ack, ColorChoice, CreateGame, GameSummary, GameView, Lobby, RematchAnswer, Seat, SeatGrant,
    Variant,
};
use crate::accounts::queries as account_queries;
use crate::auth::Account;
use crate::cluster::{Cluster, ClusterError, Owner};
use crate::db::{self, GameRow, PlayersRow, Store, StoreError, Write};
use crate::error::{ApiResult, AppError};
use crate::token;

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

/// The longest a forwarded command waits for the owner's answer; at most a lease, after which
/// an owner that has not answered (dead, paused) has lost the game and the next hop finds the
/// new one.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(4);

/// The most nodes a cluster request visits before giving up (owners move during failover).
const MAX_HOPS: u32 = 8;

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

    /// When this node's lease is lost (epoch 0, or a new epoch), every game loaded under the
    /// old one is dropped: its actor stops, and its commits would be refused anyway.
    async fn follow_lease(hub: std::sync::Weak<Self>, mut epochs: watch::Receiver<i64>) {
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
    async fn take_over(hub: std::sync::Weak<Self>, period: Duration) {
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

    /// Load every running game so that its clock and flag timer run again after a restart.
    ///
    /// # Errors
    /// Database errors.
    pub async fn restore_running(self: &Arc<Self>) -> Result<usize, StoreError> {
        let mut n = 0;
        for status in ["playing", "adjourned"] {
            let rows = self.ctx.store.games_with_status(status, i64::MAX).await?;
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

    /// Create a game and take the creator's seat. With a computer opponent, the other seat is
    /// the computer's and the game has started when this returns.
    ///
    /// # Errors
    /// A 4xx naming what is wrong with the request (time control, FEN, position number, rules,
    /// computer level); nothing is stored then.
    pub async fn create(
        self: &Arc<Self>,
        req: CreateGame,
        creator: Option<&Account>,
    ) -> ApiResult<SeatGrant> {
        let spec = Spec::from_request(&req, token::random_u64())?;
        let category = spec.category();
        if req.rated {
            if creator.is_none() {
                return Err(AppError::Unauthorized(
                    "log in to create a rated game".into(),
                ));
            }
            if req.computer.is_some() {
                return Err(AppError::bad_request(
                    "cannot_be_rated",
                    "a game against the computer is never rated",
                ));
            }
            if category.is_none() {
                return Err(AppError::bad_request(
                    "cannot_be_rated",
                    "an untimed game cannot be rated",
                ));
            }
        }
        // Validate everything by building the game once.
        Referee::new(&spec)?;
        let computer = req
            .computer
            .as_ref()
            .map(|c| ComputerKind::from_request(c, &self.ctx.engines))
            .transpose()?;
        if let Some(ComputerKind::External { name, .. }) = &computer {
            if spec.variant == Variant::Chess960
                && !self.ctx.engines.external(name).is_some_and(|e| e.chess960)
            {
                return Err(AppError::bad_request(
                    "engine_cannot_play_chess960",
                    format!("the engine '{name}' does not play Chess960 (no UCI_Chess960 option)"),
                ));
            }
        }
        let seat = match req.color {
            ColorChoice::White => Seat::White,
            ColorChoice::Black => Seat::Black,
            ColorChoice::Random => {
                if token::random_u64() & 1 == 0 {
                    Seat::White
                } else {
                    Seat::Black
                }
            }
        };
        let tok = token::generate();
        let now = db::now_unix_ms();
        let id = token::game_id();
        let hash = Some(token::hash(&tok));
        let computer = computer.map(|player| ComputerSeat {
            seat: seat.other(),
            player,
        });
        // The computer's seat is taken like a person's, with a token nobody holds.
        let machine = computer.as_ref().map(|_| token::hash(&token::generate()));
        let row = GameRow {
            id: id.clone(),
            created_at: now,
            updated_at: now,
            spec: serde_json::to_string(&spec).map_err(|e| AppError::Internal(e.to_string()))?,
            time_control: spec.time_control.clone(),
            variant: spec.variant.as_str().to_owned(),
            white_hash: if seat == Seat::White {
                hash.clone()
            } else {
                machine.clone()
            },
            black_hash: if seat == Seat::Black { hash } else { machine },
            status: "waiting".into(),
            result: None,
            termination: None,
            last_seq: 0,
            computer: computer
                .as_ref()
                .map(serde_json::to_string)
                .transpose()
                .map_err(|e| AppError::Internal(e.to_string()))?,
            players: PlayersRow {
                white_account: creator
                    .filter(|_| seat == Seat::White)
                    .map(|a| a.id.clone()),
                black_account: creator
                    .filter(|_| seat == Seat::Black)
                    .map(|a| a.id.clone()),
                rated: req.rated,
                category: category.map(|c| c.name().to_owned()),
                ..PlayersRow::default()
            },
        };
        self.ctx
            .store
            .write_fenced(Write::Create(row), self.fence()?)
            .await
            .map_err(AppError::from)?;
        if computer.is_some() {
            // Both seats are taken: loading the game starts it (Art. 6.6), and the computer
            // thinks at once if it has White.
            let view = self.view(&id).await?;
            if view.status != "playing" {
                return Err(AppError::Unavailable(
                    "the game against the computer could not start; retry".into(),
                ));
            }
        }
        Ok(SeatGrant {
            id,
            seat,
            token: tok,
        })
    }

    async fn handle(self: &Arc<Self>, id: &str) -> Result<Handle, Load> {
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

    fn forget(&self, id: &str, gen: u64) {
        let mut games = self.games.lock().expect("hub lock");
        if games
            .get(id)
            .and_then(|c| c.get())
            .is_some_and(|h| h.gen == gen)
        {
            games.remove(id);
        }
    }

    /// Pass a command to the game's actor on this node, loading (in cluster mode: claiming)
    /// it if needed; `Err(node)` when another node owns the game.
    async fn call<T>(
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
    async fn routed<T: DeserializeOwned>(
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
    async fn serve_remote(self: &Arc<Self>, req: Request) -> Response {
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

    /// Take the free seat; the game starts (Art. 6.6).
    ///
    /// # Errors
    /// 404 unknown game, 409 both seats taken.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        account: Option<&Account>,
    ) -> ApiResult<SeatGrant> {
        self.routed(
            id,
            |reply| Cmd::Join(account.cloned(), reply),
            || RemoteCmd::Join(account.cloned()),
        )
        .await
    }

    /// Create a game whose seats two accounts take at once (a seek accepted, a pool's
    /// pairing), and start it.
    ///
    /// # Errors
    /// 400 for a bad time control or variant (nothing is stored then); 5xx database.
    pub async fn create_paired(
        self: &Arc<Self>,
        req: &CreateGame,
        white: &Account,
        black: &Account,
    ) -> ApiResult<String> {
        self.create_paired_as(token::game_id(), req, white, black)
            .await
    }

    /// As [`Hub::create_paired`], with the game's id given (an accepted challenge's game has
    /// the challenge's id, as on lichess).
    ///
    /// # Errors
    /// As [`Hub::create_paired`]; a 409 `game_exists` when the id is taken.
    pub async fn create_paired_as(
        self: &Arc<Self>,
        id: String,
        req: &CreateGame,
        white: &Account,
        black: &Account,
    ) -> ApiResult<String> {
        if self.ctx.store.game(&id).await?.is_some() {
            return Err(AppError::conflict(
                "game_exists",
                format!("a game with id {id:?} exists already"),
            ));
        }
        let mut row = Self::paired_row(req, white, black)?;
        row.id = id;
        let id = row.id.clone();
        self.ctx
            .store
            .write_fenced(Write::Create(row), self.fence()?)
            .await?;
        // Loading the game starts it (Art. 6.6).
        self.view(&id).await?;
        Ok(id)
    }

    /// The row of a game whose seats two accounts hold, stored as `playing` (it starts when it
    /// is loaded, Art. 6.6), for a caller that stores it with other writes (a tournament round).
    ///
    /// # Errors
    /// 400 for a bad time control, variant or rules, or a rated untimed game.
    pub fn paired_row(req: &CreateGame, white: &Account, black: &Account) -> ApiResult<GameRow> {
        let spec = Spec::from_request(req, token::random_u64())?;
        Referee::new(&spec)?;
        let category = spec.category();
        if req.rated && category.is_none() {
            return Err(AppError::bad_request(
                "cannot_be_rated",
                "an untimed game cannot be rated",
            ));
        }
        let now = db::now_unix_ms();
        Ok(GameRow {
            id: token::game_id(),
            created_at: now,
            updated_at: now,
            spec: serde_json::to_string(&spec).map_err(|e| AppError::Internal(e.to_string()))?,
            time_control: spec.time_control.clone(),
            variant: spec.variant.as_str().to_owned(),
            // Both seats are taken: a restart restores it like a running game.
            status: "playing".into(),
            players: PlayersRow {
                white_account: Some(white.id.clone()),
                black_account: Some(black.id.clone()),
                rated: req.rated,
                category: category.map(|c| c.name().to_owned()),
                ..PlayersRow::default()
            },
            ..GameRow::default()
        })
    }

    /// The arbiter acts on a game (Art. 6.7.1 forfeits, Art. 12.9 penalties); returns the
    /// game event's number.
    ///
    /// # Errors
    /// 404 unknown game; 409 `game_over`, `untimed`.
    pub async fn arbiter(self: &Arc<Self>, id: &str, action: ArbiterAction) -> ApiResult<i64> {
        self.routed(
            id,
            |reply| Cmd::Arbiter { action, reply },
            || RemoteCmd::Arbiter(action),
        )
        .await
    }

    /// Withdraw a game still waiting for an opponent (its creator only).
    ///
    /// # Errors
    /// 401 not the creator, 404 unknown game, 409 `not_waiting`.
    pub async fn withdraw(self: &Arc<Self>, id: &str, who: Credentials) -> ApiResult<()> {
        self.routed(
            id,
            |reply| Cmd::Withdraw {
                who: who.clone(),
                reply,
            },
            || RemoteCmd::Withdraw(who.clone()),
        )
        .await
    }

    /// Offer or accept a rematch (`offer`), or decline or withdraw an offer. When the rematch
    /// starts, the new game is loaded (and so started) before this returns.
    ///
    /// # Errors
    /// 401 not a player, 404 unknown game, 409 `not_finished` or `opponent_left`.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        who: Credentials,
        offer: bool,
    ) -> ApiResult<RematchAnswer> {
        let answer = self
            .routed(
                id,
                |reply| Cmd::Rematch {
                    who: who.clone(),
                    offer,
                    reply,
                },
                || RemoteCmd::Rematch {
                    who: who.clone(),
                    offer,
                },
            )
            .await?;
        if let Some(game) = &answer.game {
            self.view(game).await?;
        }
        Ok(answer)
    }

    /// The whole state of a game, clocks as of now.
    ///
    /// # Errors
    /// 404 unknown game.
    pub async fn view(self: &Arc<Self>, id: &str) -> ApiResult<GameView> {
        self.routed(id, Cmd::View, || RemoteCmd::View).await
    }

    /// The game in PGN.
    ///
    /// # Errors
    /// 404 unknown game.
    pub async fn pgn(self: &Arc<Self>, id: &str) -> ApiResult<String> {
        self.routed(id, Cmd::Pgn, || RemoteCmd::Pgn).await
    }

    /// Perform `action` for the seat holding `token`; returns the event number and the state.
    ///
    /// # Errors
    /// 401 bad token, 404 unknown game, 409 out of turn / finished / not started, 422 illegal.
    pub async fn act(
        self: &Arc<Self>,
        id: &str,
        who: &Credentials,
        action: Action,
    ) -> ApiResult<Ack> {
        let (seq, game) = self
            .routed(
                id,
                |reply| Cmd::Act {
                    who: who.clone(),
                    action: action.clone(),
                    view: true,
                    reply,
                },
                || RemoteCmd::Act {
                    who: who.clone(),
                    action: action.clone(),
                    view: true,
                },
            )
            .await?;
        let game = game.ok_or_else(|| AppError::Internal("no view".into()))?;
        Ok(Ack { seq, game })
    }

    /// As [`Hub::act`], returning only the event number (the WebSocket path).
    ///
    /// # Errors
    /// As [`Hub::act`].
    pub async fn act_quiet(
        self: &Arc<Self>,
        id: &str,
        who: &Credentials,
        action: Action,
    ) -> ApiResult<i64> {
        self.routed(
            id,
            |reply| Cmd::Act {
                who: who.clone(),
                action: action.clone(),
                view: false,
                reply,
            },
            || RemoteCmd::Act {
                who: who.clone(),
                action: action.clone(),
                view: false,
            },
        )
        .await
        .map(|(seq, _): (i64, Option<GameView>)| seq)
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

    /// Open and running games.
    ///
    /// # Errors
    /// Database errors (500).
    pub async fn lobby(&self) -> ApiResult<Lobby> {
        let summary = |r: GameRow, names: &HashMap<String, (String, bool)>| {
            let taken = |hash: &Option<String>, account: &Option<String>| {
                hash.is_some() || account.is_some()
            };
            let white = taken(&r.white_hash, &r.players.white_account);
            let black = taken(&r.black_hash, &r.players.black_account);
            let creator = [&r.players.white_account, &r.players.black_account]
                .into_iter()
                .flatten()
                .find_map(|a| names.get(a).map(|(n, _)| n.clone()));
            GameSummary {
                open_seat: match (white, black) {
                    (false, true) => Some(Seat::White),
                    (true, false) => Some(Seat::Black),
                    _ => None,
                },
                computer: r
                    .computer
                    .as_deref()
                    .and_then(|c| serde_json::from_str::<ComputerSeat>(c).ok())
                    .map(|c| c.view()),
                id: r.id,
                status: r.status,
                time_control: r.time_control,
                variant: r.variant,
                created_at: r.created_at,
                rated: r.players.rated,
                creator,
            }
        };
        let open = self
            .ctx
            .store
            .games_with_status("waiting", 100)
            .await
            .map_err(AppError::from)?;
        let playing = self
            .ctx
            .store
            .games_with_status("playing", 100)
            .await
            .map_err(AppError::from)?;
        let accounts: Vec<&str> = open
            .iter()
            .flat_map(|r| [&r.players.white_account, &r.players.black_account])
            .flatten()
            .map(String::as_str)
            .collect();
        let names = account_queries::names(self.ctx.store.pool(), &accounts).await?;
        Ok(Lobby {
            open: open.into_iter().map(|r| summary(r, &names)).collect(),
            playing: playing.into_iter().map(|r| summary(r, &names)).collect(),
        })
    }
}
