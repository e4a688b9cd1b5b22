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
//!
//! The actor's loop only dispatches; the work is in a file per role: [`seats`] (join,
//! withdraw, start), [`moves`] (the players' and the arbiter's actions, the flag),
//! [`rematch`], [`computer_seat`] (the computer's turn) and [`commit`] (store, then publish).

mod cmd;
mod commit;
mod computer_seat;
mod moves;
mod rematch;
mod seats;

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::Instant;

pub use cmd::{Cmd, ComputerAnswer, Reply};
use computer_seat::Computer;

use super::api::Status;
use super::computer::Engines;
use super::feed::Feed;
use super::players::Seats;
use super::referee::{Referee, Spec};
use super::replay::{self, Replayed};
use super::wire::{GameView, Seat, SeatsTaken};
use crate::accounts::queries as account_queries;
use crate::cluster::Cluster;
use crate::db::{Fence, Store};
use crate::error::{ApiResult, AppError};

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
    stored_status: Status,
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
        let computer = replay::computer_seat(&row)?
            .map(|seat| Computer::new(seat, &ctx.engines))
            .transpose()?;
        let accounts: Vec<&str> = [&row.players.white_account, &row.players.black_account]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        let names = account_queries::names(ctx.store.pool(), &accounts).await?;
        let seats = replay::seats(&row, &names);
        let start_ratings_stored = seats.row.white_rating.is_some();
        let (events, _) = broadcast::channel(64);
        let stored_status = replay::status(&row);
        Ok(Self {
            stored_status,
            ctx,
            id: id.to_owned(),
            created_at: row.created_at,
            spec,
            referee,
            seats,
            rematch_offer: None,
            withdrawn: stored_status == Status::Withdrawn,
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

    fn status(&self) -> Status {
        if self.referee.is_over() {
            Status::Finished
        } else if self.referee.is_adjourned() {
            Status::Adjourned
        } else if self.withdrawn {
            Status::Withdrawn
        } else if self.seats.taken(Seat::White) && self.seats.taken(Seat::Black) {
            Status::Playing
        } else {
            Status::Waiting
        }
    }

    fn view(&self) -> GameView {
        let t = self.now_t();
        let r = &self.referee;
        GameView {
            id: self.id.clone(),
            status: self.status(),
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
        if self.status() != Status::Playing {
            return None;
        }
        let deadline = self.referee.flag_deadline()?;
        Some(self.instant_of(deadline + self.ctx.lag_allowance_ms))
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
                    if self.status() != Status::Playing && self.events.receiver_count() == 0 {
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
}
