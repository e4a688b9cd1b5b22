//! Live games: one actor task per game in memory, which owns the game (an
//! [`arbiter_game`] game behind [`Referee`]), its seats, its numbered event log and its
//! flag timer. Every action is timestamped by the server when the actor receives it,
//! applied by the game crate, committed to the database, and only then acknowledged and
//! broadcast.
//!
//! # Time
//! Each game keeps its own *game time* in milliseconds: it starts at 0 when the game is
//! created and advances with the server's monotonic clock while the server runs. Every
//! stored event carries its game time, so replaying the log through the game crate rebuilds
//! the clocks exactly. After a restart a game's time resumes from its last stored event:
//! **downtime is not counted** against either player, and neither is the time between the
//! last acknowledged event and the crash: a crash is an interruption of play, for which the
//! arbiter stops both clocks (Art. 6.11.1) until play resumes (6.11.3).
//!
//! # Lag
//! A client may report its one-way network lag with a move (`lag_ms`); the server credits at
//! most [`LAG_ALLOWANCE_MS`] of it (never more than the time the mover used), and waits the
//! same allowance after a flag would fall before declaring it, so that a credited move in
//! flight is not lost.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::time::Instant;

use super::computer::{self, ComputerPlayer, ComputerSeat, Engines, GameClock};
use super::feed::{Feed, GameChange, GameEnded, Lifecycle};
use super::players::{Credentials, Seats};
use super::referee::{Action, ArbiterAction, Referee, Spec};
use super::replay::{self, Replayed};
use super::wire::{
    DrawAction, DrawRequest, GameView, MoveRequest, RematchAnswer, Seat, SeatGrant, SeatsTaken,
};
use crate::accounts::queries as account_queries;
use crate::auth::Account;
use crate::cluster::Cluster;
use crate::db::{self, EventRow, Fence, GameRow, GameUpdate, Store, StoreError, Write};
use crate::error::{ApiResult, AppError};
use crate::metrics::METRICS;
use crate::ratings::{self, Category};
use crate::token;

/// Largest network lag credited to one move, and the grace after a flag falls before the
/// server declares it (ms).
pub const LAG_ALLOWANCE_MS: u64 = 300;

/// What every game actor shares: the database, the engines, the lag allowance and the
/// shutdown signal of WebSocket sessions.
pub struct GameContext {
    /// The database.
    pub store: Store,
    /// Largest network lag credited to a move, ms.
    pub lag_allowance_ms: u64,
    /// The engine threads of computer players.
    pub engines: Arc<Engines>,
    /// Set when WebSocket sessions must close (shutdown).
    pub closing: watch::Sender<bool>,
    /// Cluster mode: this node's membership (events are published to the other nodes).
    pub cluster: Option<Arc<Cluster>>,
    /// Games' starts and ends, for whoever follows a player.
    pub feed: Arc<Feed>,
}

impl GameContext {
    /// A receiver told when WebSocket sessions must close.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }
}

/// What a subscriber receives on connecting.
pub struct Subscription {
    /// The state, sent first when the client gave no `since`.
    pub state: Option<Value>,
    /// Events the client has not seen yet.
    pub backlog: Vec<Arc<WireEvent>>,
    /// Live events after the backlog.
    pub rx: broadcast::Receiver<Arc<WireEvent>>,
    /// Number of the last event in `state`/`backlog`.
    pub last_seq: i64,
}

/// An event as sent to clients (pre-serialised once, shared by every subscriber).
#[derive(Debug)]
pub struct WireEvent {
    /// Event number.
    pub seq: i64,
    /// The JSON text of the WebSocket message.
    pub json: axum::extract::ws::Utf8Bytes,
}

impl WireEvent {
    /// The form published to other nodes: the number, a newline, the JSON.
    pub fn to_bus(&self) -> bytes::Bytes {
        bytes::Bytes::from(format!("{}\n{}", self.seq, self.json.as_str()))
    }

    /// Read the form published by [`WireEvent::to_bus`].
    pub fn from_bus(payload: &[u8]) -> Option<Self> {
        let text = std::str::from_utf8(payload).ok()?;
        let (seq, json) = text.split_once('\n')?;
        Some(Self {
            seq: seq.parse().ok()?,
            json: json.to_owned().into(),
        })
    }
}

/// Where an actor sends its answer.
pub type Reply<T> = oneshot::Sender<ApiResult<T>>;

/// A command to a game actor.
pub enum Cmd {
    /// Take the free seat, for an account if logged in.
    Join(Option<Account>, Reply<SeatGrant>),
    /// Withdraw a game still waiting for an opponent (its creator).
    Withdraw {
        /// Who asks.
        who: Credentials,
        /// Done.
        reply: Reply<()>,
    },
    /// Offer or accept a rematch (`offer`), or decline or withdraw an offer.
    Rematch {
        /// Who asks.
        who: Credentials,
        /// Offer/accept (true) or decline/withdraw (false).
        offer: bool,
        /// What happened; a new game to load when it started.
        reply: Reply<RematchAnswer>,
    },
    /// The whole state.
    View(Reply<GameView>),
    /// An action of the seat these credentials hold; the answer has the state when `view`.
    Act {
        /// A seat token and/or an account.
        who: Credentials,
        /// What to do.
        action: Action,
        /// Answer with the state too.
        view: bool,
        /// The event number (and the state).
        reply: Reply<(i64, Option<GameView>)>,
    },
    /// Subscribe to the events after `since` (or a state snapshot).
    Subscribe {
        /// Last event number the subscriber saw.
        since: Option<i64>,
        /// The subscription.
        reply: Reply<Subscription>,
    },
    /// The events after `after` (a lagging subscriber catching up).
    Since {
        /// Last event number seen.
        after: i64,
        /// The events.
        reply: Reply<Vec<Arc<WireEvent>>>,
    },
    /// The game in PGN.
    Pgn(Reply<String>),
    /// The arbiter (a tournament's director, or its default-time rule) acts on the game.
    Arbiter {
        /// What to do.
        action: ArbiterAction,
        /// The event number.
        reply: Reply<i64>,
    },
    /// The computer player's answer (see [`computer::think`]); `None` if it failed.
    Computer {
        /// The search it answers.
        ticket: u64,
        /// The answer.
        answer: ComputerAnswer,
    },
}

/// The actor of one game.
pub struct GameActor {
    ctx: Arc<GameContext>,
    id: String,
    created_at: i64,
    spec: Spec,
    referee: Referee,
    seats: Seats,
    /// The seat whose rematch offer stands (after the game).
    rematch_offer: Option<Seat>,
    /// The creator withdrew the game before anyone joined.
    withdrawn: bool,
    /// The ratings at the start of a rated game are in the game's row.
    start_ratings_stored: bool,
    log: Vec<Arc<WireEvent>>,
    events: broadcast::Sender<Arc<WireEvent>>,
    /// The status in the game's row.
    stored_status: &'static str,
    /// Game time at `base`.
    base_t: u64,
    base: Instant,
    /// The actor's own mailbox, for the computer's answers.
    me: Option<mpsc::WeakSender<Cmd>>,
    /// The seat the server plays, if any.
    computer: Option<Computer>,
    /// Cluster mode: the lease under which this node took the game; every commit carries it.
    fence: Option<Fence>,
    /// This actor's game may differ from the database's: a commit was refused by the fence
    /// (another node owns the game now) or not confirmed (the database may hold events this
    /// actor undid). The actor stops; the next request loads the game again from the database.
    stale: bool,
}

/// What a computer's search gave the actor: an answer, or an error with the player back
/// (`Some`), or nothing (the player panicked and is lost).
pub type ComputerAnswer = Result<computer::Answer, Option<Box<dyn ComputerPlayer>>>;

/// A computer seat in a live game.
struct Computer {
    seat: ComputerSeat,
    /// The player while it is not thinking (meanwhile it is on the engine thread).
    player: Option<Box<dyn ComputerPlayer>>,
    /// The search under way.
    thinking: Option<Thinking>,
    next_ticket: u64,
    /// A position (ply) for which the player gave no playable move: not asked again.
    stuck_at: Option<usize>,
    /// Errors of the player since its last move.
    failures: u32,
}

impl Computer {
    /// Let go of the player on a blocking thread: an external engine is told to quit, which
    /// may take a moment.
    fn release(&mut self) {
        if let Some(p) = self.player.take() {
            match tokio::runtime::Handle::try_current() {
                Ok(h) => {
                    h.spawn_blocking(move || drop(p));
                }
                Err(_) => drop(p),
            }
        }
    }
}

impl Drop for Computer {
    fn drop(&mut self) {
        self.release();
    }
}

/// A search under way, for the position after `ply` half-moves.
struct Thinking {
    ticket: u64,
    ply: usize,
    stop: Arc<AtomicBool>,
}

impl GameActor {
    /// Load game `id` from the database and start its actor task; `on_exit` runs when the
    /// actor stops (idle, or every sender gone).
    ///
    /// # Errors
    /// 404 unknown game; 500 a log that cannot be replayed or a database error.
    pub async fn spawn(
        ctx: Arc<GameContext>,
        id: &str,
        fence: Option<Fence>,
        on_exit: impl FnOnce() + Send + 'static,
    ) -> ApiResult<mpsc::Sender<Cmd>> {
        let mut actor = Self::load(ctx, id).await?;
        actor.fence = fence;
        let (tx, rx) = mpsc::channel(256);
        actor.me = Some(tx.downgrade());
        tokio::spawn(async move {
            actor.run(rx).await;
            on_exit();
        });
        Ok(tx)
    }

    async fn load(ctx: Arc<GameContext>, id: &str) -> ApiResult<Self> {
        let row = ctx
            .store
            .game(id)
            .await
            .map_err(AppError::from)?
            .ok_or_else(|| AppError::game_not_found(id))?;
        let rows = ctx.store.events(id, 0).await.map_err(AppError::from)?;
        let Replayed {
            spec,
            referee,
            wire,
            base_t,
        } = replay::replay(&row, &rows)?;
        let log = wire
            .into_iter()
            .map(|(seq, json)| {
                Arc::new(WireEvent {
                    seq,
                    json: json.into(),
                })
            })
            .collect();
        let computer = match replay::computer_seat(&row)? {
            None => None,
            Some(seat) => Some(Computer {
                player: Some(seat.player.build(&ctx.engines)?),
                seat,
                thinking: None,
                next_ticket: 1,
                stuck_at: None,
                failures: 0,
            }),
        };
        let accounts: Vec<&str> = [&row.players.white_account, &row.players.black_account]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        let names = account_queries::names(ctx.store.pool(), &accounts).await?;
        let seats = replay::seats(&row, &names);
        let start_ratings_stored = seats.row.white_rating.is_some();
        let (events, _) = broadcast::channel(64);
        let stored_status = match row.status.as_str() {
            "playing" => "playing",
            "finished" => "finished",
            "adjourned" => "adjourned",
            "withdrawn" => "withdrawn",
            _ => "waiting",
        };
        Ok(Self {
            stored_status,
            ctx,
            id: id.to_owned(),
            created_at: row.created_at,
            spec,
            referee,
            seats,
            rematch_offer: None,
            withdrawn: row.status == "withdrawn",
            start_ratings_stored,
            log,
            events,
            base_t,
            base: Instant::now(),
            me: None,
            computer,
            fence: None,
            stale: false,
        })
    }

    fn now_t(&self) -> u64 {
        self.base_t + u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX / 2)
    }

    fn instant_of(&self, t: u64) -> Instant {
        self.base + Duration::from_millis(t.saturating_sub(self.base_t))
    }

    fn last_seq(&self) -> i64 {
        self.log.last().map_or(0, |e| e.seq)
    }

    fn status(&self) -> &'static str {
        if self.referee.is_over() {
            "finished"
        } else if self.referee.is_adjourned() {
            "adjourned"
        } else if self.withdrawn {
            "withdrawn"
        } else if self.seats.taken(Seat::White) && self.seats.taken(Seat::Black) {
            "playing"
        } else {
            "waiting"
        }
    }

    fn view(&self) -> GameView {
        let t = self.now_t();
        let r = &self.referee;
        GameView {
            id: self.id.clone(),
            status: self.status().to_owned(),
            variant: self.spec.variant,
            time_control: self.spec.time_control.clone(),
            rules: self.spec.rules.clone(),
            initial_fen: r.initial_fen(),
            fen: r.fen(),
            moves: r.moves(),
            clocks: r.clocks(t),
            turn: r.turn(),
            result: r.result(),
            termination: r.termination(),
            draw_offer: r.draw_offer(),
            claimable: r.claimable(),
            seats: SeatsTaken {
                white: self.seats.taken(Seat::White),
                black: self.seats.taken(Seat::Black),
            },
            computer: self.computer.as_ref().map(|c| c.seat.view()),
            last_seq: self.last_seq(),
            rated: self.seats.row.rated,
            speed: self.seats.row.category.clone(),
            players: self.seats.view(),
            rematch: self.seats.row.rematch_id.clone(),
            rematch_offer: self.rematch_offer,
            opening: r.opening().map(Into::into),
            imported: false,
            import: None,
            created_at: self.created_at,
        }
    }

    /// When the flag timer must look at the clocks next (an instant), if a clock runs.
    fn flag_alarm(&self) -> Option<Instant> {
        if self.status() != "playing" {
            return None;
        }
        let deadline = self.referee.flag_deadline()?;
        Some(self.instant_of(deadline + self.ctx.lag_allowance_ms))
    }

    /// Art. 6.6: the game starts when the second seat is taken. A game created with both
    /// seats taken (against the computer, from a seek or a pool, a rematch) starts as soon as
    /// it is loaded, as when a person joins.
    async fn auto_start(&mut self) {
        if self.referee.is_started()
            || self.referee.is_over()
            || self.withdrawn
            || !(self.seats.taken(Seat::White) && self.seats.taken(Seat::Black))
        {
            return;
        }
        if let Err(e) = self.start(None).await {
            tracing::error!(game = %self.id, error = %e, "cannot store the start of a game");
        }
    }

    /// Start the game now (both seats taken; `taken` is the seat taken just now), with the
    /// players' ratings at the start of a rated game.
    async fn start(&mut self, taken: Option<Seat>) -> ApiResult<i64> {
        if self.seats.row.rated {
            let category = self
                .seats
                .row
                .category
                .as_deref()
                .and_then(|c| c.parse::<Category>().ok())
                .ok_or_else(|| AppError::Internal("a rated game without a category".into()))?;
            let now = db::now_unix_ms();
            let pool = self.ctx.store.pool();
            for seat in [Seat::White, Seat::Black] {
                let Some(account) = self.seats.account(seat) else {
                    continue;
                };
                let r = ratings::rating_of(pool, account, category, now).await?;
                let at_start = Some((r.rating, r.provisional));
                match seat {
                    Seat::White => self.seats.row.white_rating = at_start,
                    Seat::Black => self.seats.row.black_rating = at_start,
                }
            }
        }
        let t = self.now_t();
        let n0 = self.referee.event_count();
        let ply0 = self.referee.ply();
        // The clock of the side to move starts now.
        self.referee.start(t)?;
        match self.commit(n0, ply0, taken).await {
            Ok(seq) => {
                self.tell_feed(Lifecycle::Started);
                Ok(seq)
            }
            Err(e) => {
                self.undo(n0);
                Err(e)
            }
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        const IDLE: Duration = Duration::from_secs(600);
        loop {
            if self.stale {
                // Another node owns the game now, or the database knows better: answer nothing
                // more from here (the hub asks the new owner, or loads the game again).
                break;
            }
            self.auto_start().await;
            self.computer_step().await;
            if self.stale {
                // A timer's or the computer's commit made the state stale: stop now, so that
                // subscribers reconnect to the game as the database has it.
                break;
            }
            let alarm = self.flag_alarm();
            let idle = Instant::now() + IDLE;
            let cmd = tokio::select! {
                c = rx.recv() => c,
                () = tokio::time::sleep_until(alarm.unwrap_or(idle)) => {
                    if alarm.is_some() {
                        self.check_flag().await;
                        continue;
                    }
                    // Idle: unload a game nobody is playing or watching.
                    if self.status() != "playing" && self.events.receiver_count() == 0 {
                        break;
                    }
                    continue;
                }
            };
            let Some(cmd) = cmd else { break };
            match cmd {
                Cmd::Join(account, reply) => {
                    let r = self.join(account).await;
                    let _ = reply.send(r);
                }
                Cmd::Withdraw { who, reply } => {
                    let r = self.withdraw(&who).await;
                    let _ = reply.send(r);
                }
                Cmd::Rematch { who, offer, reply } => {
                    let r = self.rematch(&who, offer).await;
                    let _ = reply.send(r);
                }
                Cmd::View(reply) => {
                    let _ = reply.send(Ok(self.view()));
                }
                Cmd::Pgn(reply) => {
                    let computer = self
                        .computer
                        .as_ref()
                        .map(|c| (c.seat.seat, c.seat.player.name()));
                    let tags = self.seats.pgn_tags(computer);
                    let _ = reply.send(Ok(self.referee.pgn(&self.id, self.created_at, &tags)));
                }
                Cmd::Computer { ticket, answer } => self.computer_answer(ticket, answer).await,
                Cmd::Arbiter { action, reply } => {
                    let r = self.arbiter(action).await;
                    let _ = reply.send(r);
                }
                Cmd::Act {
                    who,
                    action,
                    view,
                    reply,
                } => {
                    let r = self.act(&who, action).await;
                    let _ = reply.send(r.map(|seq| (seq, view.then(|| self.view()))));
                }
                Cmd::Subscribe { since, reply } => {
                    let rx = self.events.subscribe();
                    let sub = match since {
                        None => Subscription {
                            state: serde_json::to_value(self.view()).ok(),
                            backlog: Vec::new(),
                            rx,
                            last_seq: self.last_seq(),
                        },
                        // A client never gets an event it says it has (`since` beyond the
                        // last event: it saw the database's, which this actor had not).
                        Some(n) => Subscription {
                            state: None,
                            backlog: self.since(n),
                            rx,
                            last_seq: self.last_seq().max(n),
                        },
                    };
                    let _ = reply.send(Ok(sub));
                }
                Cmd::Since { after, reply } => {
                    let _ = reply.send(Ok(self.since(after)));
                }
            }
        }
    }

    fn since(&self, after: i64) -> Vec<Arc<WireEvent>> {
        let start = usize::try_from(after.max(0))
            .unwrap_or(usize::MAX)
            .min(self.log.len());
        self.log[start..].to_vec()
    }

    async fn join(&mut self, account: Option<Account>) -> ApiResult<SeatGrant> {
        if self.withdrawn {
            return Err(AppError::conflict("withdrawn", "the game was withdrawn"));
        }
        let seat = match (self.seats.taken(Seat::White), self.seats.taken(Seat::Black)) {
            (false, _) => Seat::White,
            (_, false) => Seat::Black,
            _ => return Err(AppError::conflict("seats_taken", "both seats are taken")),
        };
        if self.seats.row.rated && account.is_none() {
            return Err(AppError::Unauthorized("log in to play a rated game".into()));
        }
        if let Some(a) = &account {
            if self.seats.account(seat.other()) == Some(a.id.as_str()) {
                return Err(AppError::conflict(
                    "own_game",
                    "you hold the other seat of this game",
                ));
            }
        }
        let tok = token::generate();
        self.seats
            .take(seat, Some(token::hash(&tok)), account.as_ref());
        // Art. 6.6: the game starts when the second seat is taken.
        if let Err(e) = self.start(Some(seat)).await {
            self.seats.free(seat);
            return Err(e);
        }
        Ok(SeatGrant {
            id: self.id.clone(),
            seat,
            token: tok,
        })
    }

    async fn withdraw(&mut self, who: &Credentials) -> ApiResult<()> {
        let seat = self.seats.seat_of(who).ok_or_else(|| {
            AppError::Unauthorized("only the game's creator can withdraw it".into())
        })?;
        if self.status() != "waiting" {
            return Err(AppError::conflict(
                "not_waiting",
                "the game has started: it can no longer be withdrawn",
            ));
        }
        debug_assert!(self.seats.taken(seat));
        self.write(Write::Withdraw(self.id.clone())).await?;
        self.withdrawn = true;
        self.stored_status = "withdrawn";
        self.notice(json!({"type": "withdrawn"})).await;
        Ok(())
    }

    /// Tell the players' followers that the game started or ended (after its commit).
    fn tell_feed(&self, what: Lifecycle) {
        self.ctx.feed.publish(GameChange {
            game: self.id.clone(),
            white: self.seats.account(Seat::White).map(str::to_owned),
            black: self.seats.account(Seat::Black).map(str::to_owned),
            what,
        });
    }

    /// Send every subscriber a message that is not a game event (not numbered, not stored).
    async fn notice(&mut self, msg: Value) {
        let ev = Arc::new(WireEvent {
            seq: 0,
            json: msg.to_string().into(),
        });
        if let Some(c) = &self.ctx.cluster {
            c.publish_event(&self.id, ev.to_bus()).await;
        }
        let _ = self.events.send(ev);
    }

    /// Commit `write` under this actor's fence; a refused fence or an unconfirmed commit
    /// stops the actor.
    async fn write(&mut self, write: Write) -> ApiResult<db::Committed> {
        let started = std::time::Instant::now();
        let r = self.ctx.store.write_fenced(write, self.fence.clone()).await;
        METRICS.commit(started.elapsed());
        r.map_err(|e| {
            match &e {
                StoreError::Fenced => {
                    tracing::warn!(game = %self.id, "fenced: another node owns the game now");
                    METRICS.fenced();
                    self.stale = true;
                }
                StoreError::Unconfirmed(why) => {
                    tracing::warn!(game = %self.id, error = %why,
                        "commit not confirmed: the game will be loaded again from the database");
                    self.stale = true;
                }
                _ => {}
            }
            AppError::from(e)
        })
    }

    async fn rematch(&mut self, who: &Credentials, offer: bool) -> ApiResult<RematchAnswer> {
        let seat = self.seats.seat_of(who).ok_or_else(|| {
            AppError::Unauthorized("only the players of a game can ask for a rematch".into())
        })?;
        if !self.referee.is_over() {
            return Err(AppError::conflict("not_finished", "the game is not over"));
        }
        if let Some(game) = &self.seats.row.rematch_id {
            return Ok(RematchAnswer {
                status: "started".into(),
                game: Some(game.clone()),
            });
        }
        if !offer {
            if self.rematch_offer.take().is_some() {
                self.notice(json!({"type": "rematch", "offer": null})).await;
            }
            return Ok(RematchAnswer {
                status: "declined".into(),
                game: None,
            });
        }
        let opponent = seat.other();
        let computer = self.computer.as_ref().map(|c| c.seat.clone());
        let vs_computer = computer.as_ref().is_some_and(|c| c.seat == opponent);
        if self.seats.name(opponent).is_some_and(|(_, closed)| *closed) {
            return Err(AppError::conflict(
                "opponent_left",
                "the opponent's account is closed",
            ));
        }
        // The computer always accepts.
        if !vs_computer && self.rematch_offer != Some(opponent) {
            if self.rematch_offer != Some(seat) {
                self.rematch_offer = Some(seat);
                self.notice(json!({"type": "rematch", "offer": seat})).await;
            }
            return Ok(RematchAnswer {
                status: "offered".into(),
                game: None,
            });
        }
        let game = self.rematch_row(computer)?;
        let new_id = game.id.clone();
        self.write(Write::Rematch {
            of: self.id.clone(),
            game,
        })
        .await?;
        self.seats.row.rematch_id = Some(new_id.clone());
        self.rematch_offer = None;
        self.notice(json!({"type": "rematch", "game": new_id}))
            .await;
        Ok(RematchAnswer {
            status: "started".into(),
            game: Some(new_id),
        })
    }

    /// The new game of a rematch: the same time control, variant, rules and rated-ness, the
    /// colours swapped; each seat held by the same token hash and account as before.
    fn rematch_row(&self, computer: Option<ComputerSeat>) -> ApiResult<GameRow> {
        let now = db::now_unix_ms();
        let old = &self.seats.row;
        let computer = computer.map(|c| ComputerSeat {
            seat: c.seat.other(),
            player: c.player,
        });
        Ok(GameRow {
            id: token::game_id(),
            created_at: now,
            updated_at: now,
            spec: serde_json::to_string(&self.spec)
                .map_err(|e| AppError::Internal(e.to_string()))?,
            time_control: self.spec.time_control.clone(),
            variant: self.spec.variant.as_str().to_owned(),
            white_hash: self.seats.black_hash.clone(),
            black_hash: self.seats.white_hash.clone(),
            // Both seats are taken: it is loaded at once and starts (Art. 6.6).
            status: "playing".into(),
            result: None,
            termination: None,
            last_seq: 0,
            computer: computer
                .map(|c| serde_json::to_string(&c))
                .transpose()
                .map_err(|e| AppError::Internal(e.to_string()))?,
            players: db::PlayersRow {
                white_account: old.black_account.clone(),
                black_account: old.white_account.clone(),
                rated: old.rated,
                category: old.category.clone(),
                ..db::PlayersRow::default()
            },
        })
    }

    async fn act(&mut self, who: &Credentials, action: Action) -> ApiResult<i64> {
        let seat = self.seats.seat_of(who).ok_or_else(|| {
            AppError::Unauthorized(if who.is_empty() {
                "send a seat token (Authorization: Bearer) or log in".into()
            } else {
                "these credentials hold no seat in this game".into()
            })
        })?;
        if !self.referee.is_started() {
            return Err(AppError::conflict(
                "not_started",
                "the game has not started: a seat is still free",
            ));
        }
        let t = self.now_t();
        self.act_seat(seat, action, t).await
    }

    /// Perform `action` for `seat` at game time `t`: the one path of every action, a person's
    /// or the computer's.
    async fn act_seat(&mut self, seat: Seat, action: Action, t: u64) -> ApiResult<i64> {
        let n0 = self.referee.event_count();
        let ply0 = self.referee.ply();
        // A flag that has fallen (Art. 6.9) or a penalised illegal move (7.5.5) brings a
        // ruling, which runs the full dead-position analysis.
        let game = self.referee.game();
        let may_rule = game.next_deadline().is_some_and(|d| d <= t)
            || game.config().rules.illegal_moves == arbiter_game::IllegalMovePolicy::FidePenalties;
        let lag = self.ctx.lag_allowance_ms;
        let referee = &mut self.referee;
        let r = off_the_runtime(may_rule, || referee.act(seat, action, t, lag));
        // A refused action changes nothing, except that the game may have found the mover's
        // flag fallen first (Art. 6.8): that event is stored like any other.
        if self.referee.event_count() > n0 {
            if let Err(e) = self.commit(n0, ply0, None).await {
                self.undo(n0);
                return Err(e);
            }
        }
        match r {
            Ok(()) => Ok(self.last_seq()),
            Err(e)
                if e.code() == "game_over"
                    && self
                        .referee
                        .termination()
                        .as_deref()
                        .is_some_and(|t| t.starts_with("timeout")) =>
            {
                Err(AppError::conflict(
                    "game_over",
                    format!(
                        "the game is over: {}",
                        self.referee.termination().unwrap_or_default()
                    ),
                ))
            }
            Err(e) => Err(e),
        }
    }

    /// The arbiter's action, stored and published like a player's.
    async fn arbiter(&mut self, action: ArbiterAction) -> ApiResult<i64> {
        let t = self
            .now_t()
            .max(self.referee.game().last_event_at().unwrap_or(0));
        let n0 = self.referee.event_count();
        let ply0 = self.referee.ply();
        // A flag that fell before the arbiter acts ends the game first (Art. 6.9).
        let referee = &mut self.referee;
        off_the_runtime(true, || referee.check_flag(t));
        let r = if self.referee.is_over() {
            Err(AppError::conflict("game_over", "the game is over"))
        } else {
            self.referee.arbiter(action, t)
        };
        if self.referee.event_count() > n0 {
            if let Err(e) = self.commit(n0, ply0, None).await {
                self.undo(n0);
                return Err(e);
            }
        }
        r.map(|()| self.last_seq())
    }

    async fn check_flag(&mut self) {
        let t = self.now_t();
        let n0 = self.referee.event_count();
        let ply0 = self.referee.ply();
        let referee = &mut self.referee;
        if off_the_runtime(true, || referee.check_flag(t)) {
            if let Err(e) = self.commit(n0, ply0, None).await {
                tracing::error!(game = %self.id, error = %e, "cannot store a flag fall");
                self.undo(n0);
                // Try again a little later rather than spinning.
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        } else {
            // Not fallen yet; the next alarm is recomputed.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// The computer's part, looked at before every command: start a game whose seats the
    /// creator and the computer have taken, decline a draw offered to the computer, stop a
    /// search that is no longer wanted, and start one when it is the computer's turn.
    async fn computer_step(&mut self) {
        let Some(seat) = self.computer.as_ref().map(|c| c.seat.seat) else {
            return;
        };
        // Art. 9.1.2: the computer never offers or claims a draw, and declines every offer
        // at once (the offer lapses; the person may offer again later).
        if self.status() == "playing" && self.referee.draw_offer() == Some(seat.other()) {
            let decline = Action::Draw(DrawRequest {
                action: DrawAction::Decline,
                mv: None,
            });
            let t = self.now_t();
            if let Err(e) = self.act_seat(seat, decline, t).await {
                tracing::warn!(game = %self.id, error = %e, "the computer cannot decline a draw");
            }
        }
        let its_turn = self.status() == "playing" && self.referee.turn() == seat;
        let ply = self.referee.ply();
        let Some(c) = self.computer.as_mut() else {
            return;
        };
        if let Some(th) = &c.thinking {
            // The game ended (flag, resignation, abort, agreement) or moved on: answer at once;
            // the answer will be discarded.
            if !its_turn || th.ply != ply {
                th.stop.store(true, Ordering::SeqCst);
            }
            return;
        }
        if self.referee.is_over() {
            // An external engine quits when the game ends, not when the game is unloaded.
            c.release();
            return;
        }
        if !its_turn || c.stuck_at == Some(ply) {
            return;
        }
        let Some(player) = c.player.take() else {
            return;
        };
        let ticket = c.next_ticket;
        c.next_ticket += 1;
        let stop = Arc::new(AtomicBool::new(false));
        c.thinking = Some(Thinking {
            ticket,
            ply,
            stop: stop.clone(),
        });
        let game = self.referee.game().clone();
        let clock = GameClock {
            base_t: self.base_t,
            base: self.base,
        };
        let engines = self.ctx.engines.clone();
        let closing = self.ctx.closing();
        let me = self.me.clone();
        tokio::spawn(async move {
            let answer = match computer::think(engines, player, game, clock, stop, closing).await {
                computer::Outcome::Answer(a) => Ok(a),
                computer::Outcome::Error(p) => Err(Some(p)),
                computer::Outcome::Failed => Err(None),
                computer::Outcome::Closed => return,
            };
            if let Some(tx) = me.and_then(|w| w.upgrade()) {
                let _ = tx.send(Cmd::Computer { ticket, answer }).await;
            }
        });
    }

    /// The computer has answered: play its move through the same path as a person's, at the
    /// game time it answered, unless the game has moved on meanwhile (then it is discarded).
    async fn computer_answer(&mut self, ticket: u64, answer: ComputerAnswer) {
        let Some(c) = self.computer.as_mut() else {
            return;
        };
        let answer = match answer {
            Ok(a) => a,
            Err(Some(player)) => {
                // The player could not choose (an external engine's error, logged; the engine
                // is dropped and restarted at the next search, a few times at most): ask
                // again. Once the player gives up, its every answer is an error at once: then
                // this position is not asked about again (the computer's flag will fall).
                c.player = Some(player);
                if let Some(th) = c.thinking.take_if(|th| th.ticket == ticket) {
                    c.failures += 1;
                    tracing::warn!(game = %self.id, ply = th.ply, failures = c.failures, "the computer could not choose a move");
                    if c.failures > computer::MAX_ENGINE_RESTARTS {
                        c.stuck_at = Some(th.ply);
                    }
                }
                return;
            }
            Err(None) => {
                // The player failed (and was lost with its thread): a fresh one, which will
                // not be asked about this position again (the computer's flag will fall).
                tracing::error!(game = %self.id, "the computer player failed");
                c.player = c.seat.player.build(&self.ctx.engines).ok();
                if let Some(th) = c.thinking.take_if(|th| th.ticket == ticket) {
                    c.stuck_at = Some(th.ply);
                }
                return;
            }
        };
        c.player = Some(answer.player);
        if c.thinking.as_ref().map(|th| th.ticket) != Some(ticket) {
            return;
        }
        let Some(th) = c.thinking.take() else { return };
        let seat = c.seat.seat;
        if self.status() != "playing" || self.referee.turn() != seat || self.referee.ply() != th.ply
        {
            tracing::debug!(game = %self.id, "stale computer move discarded");
            return;
        }
        let Some(uci) = answer.uci else {
            tracing::error!(game = %self.id, ply = th.ply, "the computer found no move");
            if let Some(c) = self.computer.as_mut() {
                c.stuck_at = Some(th.ply);
            }
            return;
        };
        // Events are in time order: a draw offer stored while the engine thought is earlier.
        let t = answer
            .t
            .max(self.referee.game().last_event_at().unwrap_or(0));
        let mv = Action::Move(MoveRequest {
            mv: uci.clone(),
            offer_draw: false,
            ply: u32::try_from(th.ply).ok(),
            lag_ms: None,
        });
        match self.act_seat(seat, mv, t).await {
            Ok(_) => {
                if let Some(c) = self.computer.as_mut() {
                    c.failures = 0;
                }
            }
            Err(AppError::Internal(e) | AppError::Unavailable(e)) => {
                // Not stored (the database): think again a little later.
                tracing::error!(game = %self.id, error = %e, "cannot store the computer's move");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => {
                tracing::error!(game = %self.id, %uci, error = %e, "the computer's move was refused");
                if let Some(c) = self.computer.as_mut() {
                    c.stuck_at = Some(th.ply);
                }
            }
        }
    }

    /// Forget the game events from index `n0`, whose commit failed: the game is as if the
    /// action had not been made (it was not acknowledged).
    fn undo(&mut self, n0: usize) {
        match self.referee.truncated(n0) {
            Ok(r) => self.referee = r,
            Err(e) => tracing::error!(game = %self.id, error = %e, "cannot undo an unstored event"),
        }
    }

    /// The public JSON of the game event `ev` (number `seq`), with the state after it.
    fn wire(&self, seq: i64, ev: &arbiter_game::TimedEvent, ply0: usize) -> Value {
        let (kind, fields) = Referee::describe(ev);
        let mut data = json!({
            "type": "event",
            "seq": seq,
            "kind": kind,
            "t_ms": ev.at,
            "status": self.status(),
            "turn": self.referee.turn(),
            "clocks": self.referee.clocks(ev.at),
            "draw_offer": self.referee.draw_offer(),
            "result": self.referee.result(),
            "termination": self.referee.termination(),
            "ply": self.referee.ply(),
        });
        if self.referee.ply() > ply0 {
            data["move"] = serde_json::to_value(self.referee.move_at(self.referee.ply() - 1))
                .unwrap_or(Value::Null);
            data["fen"] = Value::String(self.referee.fen());
        }
        if let (Value::Object(d), Value::Object(x)) = (&mut data, fields) {
            d.extend(x);
        }
        data
    }

    /// Store the game events from index `n0` (just applied), then publish them.
    /// Store the game events from index `n0` (just applied), then publish them; `taken` is a
    /// seat taken with them (a join). A rated game that ends here is rated in the same
    /// transaction, and its last event carries the rating changes.
    async fn commit(&mut self, n0: usize, ply0: usize, taken: Option<Seat>) -> ApiResult<i64> {
        let first = self.last_seq() + 1;
        let now = db::now_unix_ms();
        let mut rows = Vec::new();
        let mut wires = Vec::new();
        for (i, ev) in self.referee.events_from(n0).iter().enumerate() {
            let seq = first + i as i64;
            let wire = self.wire(seq, ev, ply0).to_string();
            let (kind, _) = Referee::describe(ev);
            let timed = serde_json::to_string(ev).map_err(|e| AppError::Internal(e.to_string()))?;
            let data = format!("{{\"timed\":{timed},\"wire\":{wire}}}");
            rows.push(EventRow {
                game_id: self.id.clone(),
                seq,
                kind: kind.to_owned(),
                t_ms: i64::try_from(ev.at).unwrap_or(i64::MAX),
                data,
                created_at: now,
            });
            wires.push(Arc::new(WireEvent {
                seq,
                json: wire.into(),
            }));
        }
        // The game's row changes only with its status (start, end, adjournment) or seats.
        let status = self.status();
        let result = self.referee.result();
        let termination = self.referee.termination();
        let ends = status == "finished" && self.stored_status != "finished";
        let rated_end = if ends {
            self.seats
                .rated_end(result.as_deref(), termination.as_deref())
        } else {
            None
        };
        let row = &self.seats.row;
        let start_ratings = match (row.rated, row.white_rating, row.black_rating) {
            (true, Some(w), Some(b)) if !self.start_ratings_stored => Some([w, b]),
            _ => None,
        };
        let seat_hash = |seat: Seat| {
            (taken == Some(seat))
                .then(|| self.seats.hash(seat))
                .flatten()
        };
        let seat_account = |seat: Seat| {
            (taken == Some(seat))
                .then(|| self.seats.account(seat))
                .flatten()
        };
        // A game created with both seats taken (a seek, a pool, a rematch) is stored as
        // playing already: its start changes no status but stores the ratings.
        let update = (status != self.stored_status || taken.is_some() || start_ratings.is_some())
            .then(|| GameUpdate {
                status: status.to_owned(),
                result,
                termination,
                white_hash: seat_hash(Seat::White).map(str::to_owned),
                black_hash: seat_hash(Seat::Black).map(str::to_owned),
                white_account: seat_account(Seat::White).map(str::to_owned),
                black_account: seat_account(Seat::Black).map(str::to_owned),
                start_ratings,
                rated_end,
            });
        let committed = self.write(Write::Append(rows, update)).await?;
        if ends {
            self.tell_feed(Lifecycle::Ended(GameEnded {
                result: self.referee.result(),
                termination: self.referee.termination(),
            }));
        }
        METRICS.moves(self.referee.ply().saturating_sub(ply0) as u64);
        self.stored_status = status;
        self.start_ratings_stored |= start_ratings.is_some();
        if let Some((white, black)) = committed.rating_diffs {
            self.seats.row.white_rating_diff = Some(white);
            self.seats.row.black_rating_diff = Some(black);
            // The last event as stored carries the changes (the writer added them); the live
            // one says the same.
            if let Some(last) = wires.pop() {
                let json = db::with_rating_diffs(last.json.as_str(), (white, black));
                wires.push(Arc::new(WireEvent {
                    seq: last.seq,
                    json: json.into(),
                }));
            }
        }
        for ev in wires {
            if let Some(c) = &self.ctx.cluster {
                c.publish_event(&self.id, ev.to_bus()).await;
            }
            self.log.push(ev.clone());
            let _ = self.events.send(ev);
        }
        Ok(self.last_seq())
    }
}

/// Runs `f`. When it `may_take_long` (a ruling's full dead-position analysis: microseconds for
/// a real game, up to a few hundred milliseconds for a constructed position), without stalling
/// the other tasks of this worker thread: on a multi-threaded runtime the worker hands them to
/// another thread for the duration.
fn off_the_runtime<R>(may_take_long: bool, f: impl FnOnce() -> R) -> R {
    let multi = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if may_take_long && multi {
        tokio::task::block_in_place(f)
    } else {
        f()
    }
}
