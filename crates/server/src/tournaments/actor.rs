//! One task per live tournament, which owns its state: every change is validated against the
//! state, stored as events (committed before it is acknowledged), applied, then broadcast.
//! The actor also keeps the tournament's timers: the start time, the default time of the
//! current round (Art. 6.7.1) and the pause before the next round; and it hears from the
//! games of the current round when they end.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use arbiter_game::{GameResult, Termination};
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::time::Instant;

use super::events::{ByeKind, Event, PairedBoard, System};
use super::pairing;
use super::state::{State, RESULTS};
use super::wire::{
    player_view, round_view, standings_view, tournament_view, ByeRequest, ForbidRequest, NewPlayer,
    PenaltyDone, PenaltyRequest,
};
use crate::auth::Account;
use crate::db::{
    self, Fence, GameRow, PairingRow, Store, StoreError, TournamentEventRow, TournamentWrite, Write,
};
use crate::error::{ApiResult, AppError};
use crate::games::api::parse_time_control;
use crate::games::wire::Seat;
use crate::games::{ArbiterAction, GameEnded, Hub, NewGame, Status};

/// What every tournament actor shares.
pub struct Ctx {
    /// The live games.
    pub hub: Arc<Hub>,
    /// Set at shutdown: actors stop.
    pub closing: watch::Sender<bool>,
}

impl Ctx {
    fn store(&self) -> &Store {
        self.hub.store()
    }
}

/// Where an actor answers.
pub type Reply<T> = oneshot::Sender<ApiResult<T>>;

/// A message to a tournament's sockets: for everyone, or for one account.
#[derive(Debug)]
pub struct Broadcast {
    /// The JSON text.
    pub json: String,
    /// Only this account's sockets (a player's own game).
    pub to: Option<String>,
}

/// The state and its timers, as a reader sees them.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The state.
    pub state: State,
    /// (next round paired at, default time of the current round ends at), unix ms.
    pub timers: (Option<i64>, Option<i64>),
}

/// What someone asks of a tournament.
#[derive(Debug, Clone)]
pub enum Action {
    /// A player registers (or comes back after withdrawing).
    Register,
    /// A player withdraws.
    Withdraw,
    /// A player checks in for the current round.
    Present,
    /// The director enters a player by name.
    AddPlayer(NewPlayer),
    /// Start now.
    Start,
    /// Pair the next round now.
    Pair,
    /// No automatic pairing.
    Pause,
    /// Automatic pairing again.
    Resume,
    /// Open or close self-registration.
    Registration(bool),
    /// Withdraw a player.
    WithdrawPlayer(u32),
    /// Re-admit a player.
    Readmit(u32),
    /// Grant a bye.
    Bye(ByeRequest),
    /// Forbid a pairing.
    Forbid(ForbidRequest),
    /// Enter or correct a result.
    SetResult {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// Result.
        result: String,
    },
    /// Art. 12.9 penalty on a game.
    Penalty {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// What.
        req: PenaltyRequest,
    },
}

impl Action {
    fn director_only(&self) -> bool {
        !matches!(self, Action::Register | Action::Withdraw | Action::Present)
    }
}

/// What an action gave.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Done.
    Done,
    /// A player registered or was entered (start number).
    Player(u32),
    /// A penalty's game event.
    Penalty(PenaltyDone),
}

/// A command to the actor.
pub enum Cmd {
    /// The state.
    Snapshot(Reply<Snapshot>),
    /// An action by an account.
    Act {
        /// Who.
        who: Account,
        /// What.
        action: Action,
        /// The state after it and what it gave.
        reply: Reply<(Snapshot, Outcome)>,
    },
    /// Subscribe to the live messages.
    Subscribe(Reply<(Snapshot, broadcast::Receiver<Arc<Broadcast>>)>),
    /// A game of the tournament ended.
    GameEnded {
        /// The game.
        game: String,
        /// How it ended.
        ended: GameEnded,
    },
}

enum Timer {
    Start,
    Defaults(u32),
    Pair,
}

/// The actor.
pub struct TournamentActor {
    /// Cluster mode: the coordinator's lease when the actor started; every write carries it.
    fence: Option<Fence>,
    ctx: Arc<Ctx>,
    state: State,
    me: mpsc::WeakSender<Cmd>,
    events: broadcast::Sender<Arc<Broadcast>>,
    /// When this actor loaded the tournament (unix ms): after a restart the default time
    /// runs again from here (downtime is not counted, as for the clocks, Art. 6.11).
    loaded_at: i64,
    /// The automatic start or pairing failed: wait for the director.
    auto_failed: bool,
    watched: HashSet<String>,
    /// A commit was not confirmed: the database may hold events this state lacks. The actor
    /// stops; the next request loads the tournament again from the database.
    stale: bool,
}

/// Is self-registration (or, for the director, entering a player) possible now?
///
/// # Errors
/// 409 `registration_closed` saying why.
pub fn registration_possible(state: &State, director: bool) -> ApiResult<()> {
    let closed = |why: &str| Err(AppError::conflict("registration_closed", why.to_owned()));
    let s = state.settings();
    if state.finished_at.is_some() {
        return closed("the tournament is over");
    }
    if !director && !state.registration_open {
        return closed("registration is closed");
    }
    if state.started_at.is_none() {
        return Ok(());
    }
    if s.system.is_round_robin() {
        return closed("a round robin takes no entries after its start");
    }
    if s.late_entry_until_round > state.current_round() {
        Ok(())
    } else {
        closed("the tournament has started and late entry is over")
    }
}

fn default_ms(state: &State) -> i64 {
    state.settings().default_time_secs.saturating_mul(1000)
}

impl TournamentActor {
    /// Load tournament `id` (replaying its log) and start its task.
    ///
    /// # Errors
    /// 404 unknown; 500 a log that does not replay.
    pub async fn spawn(ctx: Arc<Ctx>, id: &str) -> ApiResult<mpsc::Sender<Cmd>> {
        let store = ctx.store();
        let row = store
            .tournament(id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no tournament with id {id:?}")))?;
        let rows = store.tournament_events(id, 0).await?;
        let mut state = State {
            id: row.id.clone(),
            ..State::default()
        };
        for r in &rows {
            let ev: Event = serde_json::from_str(&r.data)
                .map_err(|e| AppError::Internal(format!("tournament {id} event {}: {e}", r.seq)))?;
            state.apply(&ev, r.created_at);
            state.last_seq = r.seq;
        }
        if state.settings.is_none() {
            return Err(AppError::Internal(format!(
                "tournament {id} has no settings"
            )));
        }
        // Cluster mode: the tournament runs on the coordinator, under its lease.
        let fence = match ctx.hub.cluster() {
            None => None,
            Some(c) => Some(
                c.fence()
                    .ok_or_else(|| AppError::from(StoreError::Fenced))?,
            ),
        };
        let (tx, rx) = mpsc::channel(256);
        let actor = TournamentActor {
            fence,
            ctx,
            state,
            me: tx.downgrade(),
            events: broadcast::channel(256).0,
            loaded_at: db::now_unix_ms(),
            auto_failed: false,
            stale: false,
            watched: HashSet::new(),
        };
        tokio::spawn(actor.run(rx));
        Ok(tx)
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.state.clone(),
            timers: (self.pair_at(), self.deadline().map(|(at, _)| at)),
        }
    }

    /// When the next round is paired by itself.
    fn pair_at(&self) -> Option<i64> {
        let st = &self.state;
        let pause = st.settings().pause_secs?;
        if st.paused || self.auto_failed || st.status() != "running" {
            return None;
        }
        let cur = st.current()?;
        if st.planned_rounds.is_some_and(|p| cur.round >= p) {
            return None;
        }
        Some(cur.completed_at? + pause * 1000)
    }

    /// The default time of the current round, if still to apply: (when, round).
    fn deadline(&self) -> Option<(i64, u32)> {
        let cur = self.state.current()?;
        let at = cur.deadline?;
        // Not counted while the server was down: the whole default time again after a restart.
        let at = if cur.paired_at < self.loaded_at {
            at.max(self.loaded_at + default_ms(&self.state))
        } else {
            at
        };
        Some((at, cur.round))
    }

    fn next_alarm(&self) -> Option<(i64, Timer)> {
        let st = &self.state;
        let mut best: Option<(i64, Timer)> = None;
        let mut consider = |at: i64, t: Timer| {
            if best.as_ref().is_none_or(|(b, _)| at < *b) {
                best = Some((at, t));
            }
        };
        if st.status() == "upcoming" && !st.paused && !self.auto_failed {
            if let Some(at) = st.settings().starts_at {
                consider(at, Timer::Start);
            }
        }
        if let Some((at, round)) = self.deadline() {
            consider(at, Timer::Defaults(round));
        }
        if let Some(at) = self.pair_at() {
            consider(at, Timer::Pair);
        }
        best
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        let mut closing = self.ctx.closing.subscribe();
        loop {
            if self.stale {
                break;
            }
            self.watch_games();
            let alarm = self.next_alarm();
            let sleep_until = alarm.as_ref().map_or_else(
                || Instant::now() + Duration::from_secs(3600),
                |(at, _)| {
                    let wait = (*at - db::now_unix_ms()).max(0) as u64;
                    Instant::now() + Duration::from_millis(wait)
                },
            );
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = tokio::time::sleep_until(sleep_until) => {
                    if let Some((_, timer)) = alarm {
                        self.on_alarm(timer).await;
                    }
                }
                _ = closing.changed() => break,
            }
        }
    }

    async fn on_alarm(&mut self, timer: Timer) {
        let r = match timer {
            Timer::Start => self.start().await,
            Timer::Defaults(round) => self.apply_defaults(round).await,
            Timer::Pair => self.pair_next().await,
        };
        if let Err(e) = r {
            match e {
                AppError::Internal(_) | AppError::Unavailable(_) => {
                    tracing::error!(tournament = %self.state.id, error = %e, "timer failed");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                e => {
                    // Too few players, no legal pairing: the director decides.
                    tracing::warn!(tournament = %self.state.id, error = %e, "automatic step refused");
                    self.auto_failed = true;
                    self.send(json!({"type": "notice", "message": e.to_string()}), None);
                }
            }
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Snapshot(reply) => {
                let _ = reply.send(Ok(self.snapshot()));
            }
            Cmd::Subscribe(reply) => {
                let rx = self.events.subscribe();
                let _ = reply.send(Ok((self.snapshot(), rx)));
            }
            Cmd::Act { who, action, reply } => {
                let r = self.act(&who, action).await;
                let _ = reply.send(r.map(|o| (self.snapshot(), o)));
            }
            Cmd::GameEnded { game, ended } => {
                if let Err(e) = self.game_ended(&game, ended).await {
                    tracing::error!(tournament = %self.state.id, %game, error = %e, "cannot record a game's result");
                }
            }
        }
    }

    async fn act(&mut self, who: &Account, action: Action) -> ApiResult<Outcome> {
        if action.director_only() && who.id != self.state.director {
            return Err(AppError::forbidden(
                "not_director",
                "only the tournament's director may do this",
            ));
        }
        // The director acting brings the automatic steps back.
        if action.director_only() {
            self.auto_failed = false;
        }
        match action {
            Action::Register => self.register(who).await,
            Action::Withdraw => {
                let no = self
                    .state
                    .player_of(&who.id)
                    .map(|p| p.no)
                    .ok_or_else(not_registered)?;
                self.withdraw(no, "player").await
            }
            Action::Present => self.present(who).await,
            Action::AddPlayer(p) => self.add_player(p).await,
            Action::Start => self.start().await.map(|()| Outcome::Done),
            Action::Pair => self.pair_next().await.map(|()| Outcome::Done),
            Action::Pause => self.switch(Event::Paused).await,
            Action::Resume => self.switch(Event::Resumed).await,
            Action::Registration(open) => self.switch(Event::Registration { open }).await,
            Action::WithdrawPlayer(no) => {
                self.player(no)?;
                self.withdraw(no, "director").await
            }
            Action::Readmit(no) => self.readmit(no).await,
            Action::Bye(req) => self.bye(req).await,
            Action::Forbid(req) => self.forbid(req).await,
            Action::SetResult {
                round,
                board,
                result,
            } => self.set_result(round, board, &result).await,
            Action::Penalty { round, board, req } => self.penalty(round, board, req).await,
        }
    }

    fn player(&self, no: u32) -> ApiResult<&super::state::Entrant> {
        self.state
            .player(no)
            .ok_or_else(|| AppError::NotFound(format!("no player number {no}")))
    }

    fn not_finished(&self) -> ApiResult<()> {
        if self.state.finished_at.is_some() {
            return Err(AppError::conflict("finished", "the tournament is over"));
        }
        Ok(())
    }

    async fn switch(&mut self, ev: Event) -> ApiResult<Outcome> {
        self.not_finished()?;
        let unchanged = match &ev {
            Event::Paused => self.state.paused,
            Event::Resumed => !self.state.paused,
            Event::Registration { open } => self.state.registration_open == *open,
            _ => false,
        };
        if !unchanged {
            self.commit(vec![ev], Vec::new(), Vec::new()).await?;
        }
        Ok(Outcome::Done)
    }

    async fn register(&mut self, who: &Account) -> ApiResult<Outcome> {
        if let Some(p) = self.state.player_of(&who.id) {
            if !p.withdrawn() {
                return Err(AppError::conflict(
                    "already_registered",
                    "you are already registered in this tournament",
                ));
            }
            let no = p.no;
            registration_possible(&self.state, false)?;
            self.commit(
                vec![Event::Readmitted { player: no }],
                Vec::new(),
                Vec::new(),
            )
            .await?;
            return Ok(Outcome::Player(no));
        }
        registration_possible(&self.state, false)?;
        let rating = self.rating_of(&who.id).await?;
        let no = self.next_no();
        self.commit(
            vec![Event::Registered {
                player: no,
                name: who.username.clone(),
                account: Some(who.id.clone()),
                rating,
                title: None,
                federation: String::new(),
                fide_id: None,
            }],
            Vec::new(),
            Vec::new(),
        )
        .await?;
        Ok(Outcome::Player(no))
    }

    /// The account's rating in the tournament's category (Glicko-2, rounded).
    async fn rating_of(&self, account: &str) -> ApiResult<Option<u16>> {
        let tc: arbiter_game::TimeControl = match self.state.settings().time_control.parse() {
            Ok(tc) => tc,
            Err(_) => return Ok(None),
        };
        let Some(category) = crate::ratings::category::of(&tc, false) else {
            return Ok(None);
        };
        let r = crate::ratings::rating_of(
            self.ctx.store().pool(),
            account,
            category,
            db::now_unix_ms(),
        )
        .await?;
        Ok(u16::try_from(r.rating.max(0)).ok())
    }

    fn next_no(&self) -> u32 {
        self.state.players.iter().map(|p| p.no).max().unwrap_or(0) + 1
    }

    async fn add_player(&mut self, p: NewPlayer) -> ApiResult<Outcome> {
        let name = p.name.trim();
        if name.is_empty() || name.chars().count() > 60 || name.chars().any(char::is_control) {
            return Err(AppError::bad_request(
                "bad_name",
                "a player's name has 1 to 60 characters",
            ));
        }
        let rating = match p.rating {
            None => None,
            Some(r) if r <= 4000 => Some(r as u16),
            Some(_) => return Err(AppError::bad_request("bad_rating", "a rating is 0 to 4000")),
        };
        let title = match p.title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => match arbiter_tournament::model::Title::parse(t) {
                Some(arbiter_tournament::model::Title::Other(_)) | None => {
                    return Err(AppError::bad_request(
                        "bad_title",
                        format!("unknown title {t:?} (GM IM FM CM WGM WIM WFM WCM)"),
                    ))
                }
                Some(t) => Some(t.to_string()),
            },
        };
        let federation = p.federation.unwrap_or_default().trim().to_uppercase();
        if federation.len() > 3 || !federation.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(AppError::bad_request(
                "bad_federation",
                "a federation is up to three letters",
            ));
        }
        registration_possible(&self.state, true)?;
        let no = self.next_no();
        self.commit(
            vec![Event::Registered {
                player: no,
                name: name.to_owned(),
                account: None,
                rating,
                title,
                federation,
                fide_id: p.fide_id,
            }],
            Vec::new(),
            Vec::new(),
        )
        .await?;
        Ok(Outcome::Player(no))
    }

    async fn withdraw(&mut self, no: u32, reason: &str) -> ApiResult<Outcome> {
        self.not_finished()?;
        if self.player(no)?.withdrawn() {
            return Err(AppError::conflict(
                "already_withdrawn",
                "the player has already withdrawn",
            ));
        }
        let from_round = self.state.current_round() + 1;
        self.commit(
            vec![Event::Withdrawn {
                player: no,
                from_round,
                reason: reason.to_owned(),
            }],
            Vec::new(),
            Vec::new(),
        )
        .await?;
        Ok(Outcome::Player(no))
    }

    async fn readmit(&mut self, no: u32) -> ApiResult<Outcome> {
        self.not_finished()?;
        if !self.player(no)?.withdrawn() {
            return Err(AppError::conflict(
                "not_withdrawn",
                "the player has not withdrawn",
            ));
        }
        if self.state.settings().system.is_round_robin() && self.state.started_at.is_some() {
            return Err(AppError::conflict(
                "round_robin",
                "a round robin's withdrawn player stays out: the remaining games are forfeits",
            ));
        }
        self.commit(
            vec![Event::Readmitted { player: no }],
            Vec::new(),
            Vec::new(),
        )
        .await?;
        Ok(Outcome::Player(no))
    }

    async fn present(&mut self, who: &Account) -> ApiResult<Outcome> {
        let no = self
            .state
            .player_of(&who.id)
            .map(|p| p.no)
            .ok_or_else(not_registered)?;
        let cur = self.state.current().ok_or_else(not_paired)?;
        let round = cur.round;
        if cur.board_of(no).is_none() {
            return Err(not_paired());
        }
        if !cur.present.contains(&no) {
            self.commit(
                vec![Event::Present { round, player: no }],
                Vec::new(),
                Vec::new(),
            )
            .await?;
        }
        Ok(Outcome::Done)
    }

    async fn bye(&mut self, req: ByeRequest) -> ApiResult<Outcome> {
        self.not_finished()?;
        let bye = match req.kind.as_str() {
            "half" => ByeKind::Half,
            "full" => ByeKind::Full,
            "zero" => ByeKind::Zero,
            other => {
                return Err(AppError::bad_request(
                    "bad_bye",
                    format!("unknown bye {other:?}: half, full or zero"),
                ))
            }
        };
        if req.round == 0 || self.state.planned_rounds.is_some_and(|p| req.round > p) {
            return Err(AppError::bad_request(
                "bad_bye",
                format!("there is no round {}", req.round),
            ));
        }
        let p = self.player(req.player)?;
        if p.withdrawn() {
            return Err(AppError::conflict("withdrawn", "the player has withdrawn"));
        }
        if self.state.settings().system.is_round_robin() {
            return Err(AppError::conflict(
                "round_robin",
                "no byes in a round robin: every round's opponent is fixed",
            ));
        }
        if req.round <= self.state.current_round() {
            return Err(AppError::conflict(
                "round_already_paired",
                format!("round {} is already paired", req.round),
            ));
        }
        self.commit(
            vec![Event::Bye {
                player: req.player,
                round: req.round,
                bye,
            }],
            Vec::new(),
            Vec::new(),
        )
        .await?;
        Ok(Outcome::Done)
    }

    async fn forbid(&mut self, req: ForbidRequest) -> ApiResult<Outcome> {
        self.not_finished()?;
        let [a, b] = match req.players[..] {
            [a, b] if a != b => [a, b],
            _ => {
                return Err(AppError::bad_request(
                    "bad_players",
                    "name two different players",
                ))
            }
        };
        self.player(a)?;
        self.player(b)?;
        if self.state.settings().system.is_round_robin() {
            return Err(AppError::conflict(
                "round_robin",
                "a round robin's pairings are fixed by the Berger tables",
            ));
        }
        self.commit(
            vec![Event::Forbidden { players: [a, b] }],
            Vec::new(),
            Vec::new(),
        )
        .await?;
        Ok(Outcome::Done)
    }

    fn board(&self, round: u32, board: u32) -> ApiResult<&super::state::BoardState> {
        self.state
            .round(round)
            .and_then(|r| r.boards.iter().find(|b| b.paired.board == board))
            .ok_or_else(|| {
                AppError::NotFound(format!(
                    "no board {board} in round {round} of this tournament"
                ))
            })
    }

    async fn set_result(&mut self, round: u32, board: u32, result: &str) -> ApiResult<Outcome> {
        // Only the tournament's own spellings (the game crate reads `½-½`, `+--`, … too).
        let typed: GameResult = match result.parse() {
            Ok(r) if RESULTS.contains(&result) => r,
            _ => {
                return Err(AppError::bad_request(
                    "bad_result",
                    format!("unknown result {result:?}: 1-0, 1/2-1/2, 0-1, +/-, -/+ or -/-"),
                ))
            }
        };
        let b = self.board(round, board)?.clone();
        let declared = match (&b.paired.game, &b.result) {
            // Art. 12.9: the arbiter ends a game being played with this result.
            (Some(game), None) => {
                let (r, t) = declared(typed);
                match self
                    .ctx
                    .hub
                    .arbiter(
                        game,
                        ArbiterAction::Declare {
                            result: r,
                            termination: t,
                        },
                    )
                    .await
                {
                    Ok(_) => Some(t.name().to_owned()),
                    Err(AppError::Conflict {
                        code: "game_over", ..
                    }) => Some("arbiter_decision".to_owned()),
                    Err(e) => return Err(e),
                }
            }
            (_, Some(_)) => Some("arbiter_decision".to_owned()),
            (None, None) => None,
        };
        self.record_results(vec![Event::Result {
            round,
            board,
            result: result.to_owned(),
            termination: declared,
            by: "director".into(),
        }])
        .await?;
        Ok(Outcome::Done)
    }

    async fn penalty(&mut self, round: u32, board: u32, req: PenaltyRequest) -> ApiResult<Outcome> {
        let bad = |m: &str| AppError::bad_request("bad_penalty", m.to_owned());
        let seat = match req.player.as_str() {
            "white" => Seat::White,
            "black" => Seat::Black,
            _ => return Err(bad("player: white or black")),
        };
        let secs = || -> ApiResult<u64> {
            match req.seconds {
                Some(s) if (1..=3600).contains(&s) => Ok(u64::from(s) * 1000),
                _ => Err(bad("seconds: 1 to 3600")),
            }
        };
        let action = match req.kind.as_str() {
            "add_time" => ArbiterAction::AddTime { seat, ms: secs()? },
            "deduct_time" => ArbiterAction::DeductTime { seat, ms: secs()? },
            "declare_lost" => ArbiterAction::Declare {
                result: if seat == Seat::White {
                    GameResult::BlackWins
                } else {
                    GameResult::WhiteWins
                },
                termination: Termination::ArbiterDecision,
            },
            _ => return Err(bad("kind: add_time, deduct_time or declare_lost")),
        };
        let b = self.board(round, board)?;
        let game = b
            .paired
            .game
            .clone()
            .ok_or_else(|| AppError::conflict("no_game", "this board has no online game"))?;
        let seq = self.ctx.hub.arbiter(&game, action).await?;
        // The game's end (a game declared lost) comes back through its watcher.
        Ok(Outcome::Penalty(PenaltyDone { game, seq }))
    }

    /// Start: number the players by rating (C.04.2: the initial ranking), then pair round 1.
    async fn start(&mut self) -> ApiResult<()> {
        if self.state.started_at.is_some() {
            return Err(AppError::conflict(
                "already_started",
                "the tournament has started",
            ));
        }
        let mut active: Vec<&super::state::Entrant> = self.state.active_in(1).collect();
        if active.len() < 2 {
            return Err(AppError::conflict(
                "too_few_players",
                format!("{} player(s): at least 2 are needed", active.len()),
            ));
        }
        active.sort_by(|a, b| {
            b.rating
                .unwrap_or(0)
                .cmp(&a.rating.unwrap_or(0))
                .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
                .then(a.no.cmp(&b.no))
        });
        let s = self.state.settings();
        let rounds = match s.system {
            System::Swiss => s.rounds.unwrap_or(5),
            rr => pairing::round_robin_rounds(rr, active.len() as u32),
        };
        let order = active.iter().map(|p| p.no).collect();
        self.commit(
            vec![Event::Started { order, rounds }],
            Vec::new(),
            Vec::new(),
        )
        .await?;
        self.pair_next().await
    }

    /// Pair the next round: the games are created with the round's event and pairing rows in
    /// one transaction, then loaded, which starts their clocks.
    async fn pair_next(&mut self) -> ApiResult<()> {
        self.not_finished()?;
        let st = &self.state;
        if st.started_at.is_none() {
            return Err(AppError::conflict(
                "not_started",
                "the tournament has not started",
            ));
        }
        if let Some(cur) = st.current() {
            if !cur.complete() {
                return Err(AppError::conflict(
                    "round_not_complete",
                    format!("round {} still has games without a result", cur.round),
                ));
            }
        }
        let round = st.current_round() + 1;
        if st.planned_rounds.is_some_and(|p| round > p) {
            return Err(AppError::conflict(
                "finished",
                "every round has been played",
            ));
        }
        let paired = pairing::pair(st, round)
            .await
            .map_err(|why| AppError::unprocessable("cannot_pair", why))?;
        let s = st.settings();
        let mut req = NewGame::new(parse_time_control(&s.time_control)?);
        req.rated = s.rated;
        // A tournament game is played or forfeited, never aborted or adjourned online.
        req.rules.allow_abort = false;
        req.rules.allow_adjournment = false;
        let mut boards = Vec::new();
        let mut games: Vec<GameRow> = Vec::new();
        let mut rows = Vec::new();
        for (i, &(white, black)) in paired.boards.iter().enumerate() {
            let board = i as u32 + 1;
            let account = |no: u32| {
                st.player(no).and_then(|p| {
                    p.account.clone().map(|id| Account {
                        id,
                        username: p.name.clone(),
                        title: None,
                    })
                })
            };
            let forfeit = paired.forfeits.iter().any(|(b, _)| *b == i);
            let game = match (s.online && !forfeit, account(white), account(black)) {
                (true, Some(w), Some(b)) => {
                    let row = Hub::paired_row(&req, &w, &b)?;
                    let id = row.id.clone();
                    games.push(row);
                    Some(id)
                }
                _ => None,
            };
            for p in [white, black] {
                rows.push(PairingRow {
                    round: i64::from(round),
                    player: i64::from(p),
                    board: i64::from(board),
                    game_id: game.clone(),
                });
            }
            boards.push(PairedBoard {
                board,
                white,
                black,
                game,
            });
        }
        for (p, _) in &paired.byes {
            rows.push(PairingRow {
                round: i64::from(round),
                player: i64::from(*p),
                board: 0,
                game_id: None,
            });
        }
        let deadline = (!games.is_empty()).then(|| db::now_unix_ms() + default_ms(st));
        let mut events = vec![Event::RoundPaired {
            round,
            boards,
            byes: paired.byes.clone(),
            explanation: paired.explanation.clone(),
            deadline,
        }];
        for (i, result) in &paired.forfeits {
            events.push(Event::Result {
                round,
                board: *i as u32 + 1,
                result: (*result).to_owned(),
                termination: Some("forfeit".into()),
                by: "withdrawal".into(),
            });
        }
        let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
        self.commit(events, rows, games).await?;
        // Loading a game starts its clock (Art. 6.6): the round starts now.
        for id in &ids {
            if let Err(e) = self.ctx.hub.view(id).await {
                tracing::error!(tournament = %self.state.id, game = %id, error = %e, "cannot start a tournament game");
            }
        }
        self.after_results().await
    }

    /// Art. 6.7.1: when the default time has passed, a player who has not arrived (no move,
    /// no check-in) loses by forfeit; both absent, both lose. A player who lost by default is
    /// not paired again until they come back (register again, or the director re-admits).
    async fn apply_defaults(&mut self, round: u32) -> ApiResult<()> {
        let Some(r) = self.state.round(round).cloned() else {
            return Ok(());
        };
        let mut events = Vec::new();
        let mut absent = Vec::new();
        for b in r.boards.iter().filter(|b| b.result.is_none()) {
            let Some(game) = &b.paired.game else { continue };
            let view = self.ctx.hub.view(game).await?;
            if view.status == Status::Finished {
                continue;
            }
            let moves = view.moves.len();
            let white = moves >= 1 || r.present.contains(&b.paired.white);
            let black = moves >= 2 || r.present.contains(&b.paired.black);
            let result = match (white, black) {
                (true, true) => continue,
                (true, false) => GameResult::WhiteWinsByForfeit,
                (false, true) => GameResult::BlackWinsByForfeit,
                (false, false) => GameResult::DoubleForfeit,
            };
            let (res, term) = declared(result);
            match self
                .ctx
                .hub
                .arbiter(
                    game,
                    ArbiterAction::Declare {
                        result: res,
                        termination: term,
                    },
                )
                .await
            {
                Ok(_) => {}
                // Ended meanwhile: its result comes through its watcher.
                Err(AppError::Conflict {
                    code: "game_over", ..
                }) => continue,
                Err(e) => return Err(e),
            }
            events.push(Event::Result {
                round,
                board: b.paired.board,
                result: result.as_str().to_owned(),
                termination: Some(term.name().to_owned()),
                by: "default".into(),
            });
            if !white {
                absent.push(b.paired.white);
            }
            if !black {
                absent.push(b.paired.black);
            }
        }
        for p in absent {
            if self.state.player(p).is_some_and(|e| !e.withdrawn()) {
                events.push(Event::Withdrawn {
                    player: p,
                    from_round: round + 1,
                    reason: "default".into(),
                });
            }
        }
        events.push(Event::DefaultsApplied { round });
        self.record_results(events).await
    }

    async fn game_ended(&mut self, game: &str, ended: GameEnded) -> ApiResult<()> {
        self.watched.remove(game);
        let Some((round, board)) = self.state.rounds.iter().find_map(|r| {
            r.boards
                .iter()
                .find(|b| b.paired.game.as_deref() == Some(game) && b.result.is_none())
                .map(|b| (r.round, b.paired.board))
        }) else {
            return Ok(());
        };
        let result = ended.result.as_str();
        if !RESULTS.contains(&result) {
            tracing::warn!(tournament = %self.state.id, %game, "a tournament game ended without a result");
            return Ok(());
        }
        self.record_results(vec![Event::Result {
            round,
            board,
            result: result.to_owned(),
            termination: ended.termination.map(|t| t.name().to_owned()),
            by: "game".into(),
        }])
        .await
    }

    async fn record_results(&mut self, events: Vec<Event>) -> ApiResult<()> {
        self.commit(events, Vec::new(), Vec::new()).await?;
        self.after_results().await
    }

    /// After the last round's last result the tournament is over.
    async fn after_results(&mut self) -> ApiResult<()> {
        let st = &self.state;
        let done = st.finished_at.is_none()
            && st
                .current()
                .is_some_and(|c| c.complete() && st.planned_rounds.is_some_and(|p| c.round >= p));
        if done {
            self.commit(vec![Event::Finished], Vec::new(), Vec::new())
                .await?;
        }
        Ok(())
    }

    /// Watch the games of the current round that have not ended.
    fn watch_games(&mut self) {
        let Some(cur) = self.state.current() else {
            return;
        };
        let games: Vec<String> = cur
            .boards
            .iter()
            .filter(|b| b.result.is_none())
            .filter_map(|b| b.paired.game.clone())
            .filter(|g| !self.watched.contains(g))
            .collect();
        for g in games {
            self.watched.insert(g.clone());
            let hub = self.ctx.hub.clone();
            let me = self.me.clone();
            let closing = self.ctx.closing.subscribe();
            tokio::spawn(super::watch::watch_game(hub, g, me, closing));
        }
    }

    /// Store `events` (with a round's pairing rows and games), apply them, publish them.
    async fn commit(
        &mut self,
        events: Vec<Event>,
        pairings: Vec<PairingRow>,
        games: Vec<GameRow>,
    ) -> ApiResult<()> {
        let now = db::now_unix_ms();
        let mut next = self.state.clone();
        let mut rows = Vec::with_capacity(events.len());
        for ev in &events {
            let seq = next.last_seq + 1;
            next.apply(ev, now);
            next.last_seq = seq;
            rows.push(TournamentEventRow {
                seq,
                kind: ev.kind().to_owned(),
                data: serde_json::to_string(ev).map_err(|e| AppError::Internal(e.to_string()))?,
                created_at: now,
            });
        }
        let status = (next.status() != self.state.status()).then(|| next.status().to_owned());
        self.ctx
            .store()
            .write_fenced(
                Write::Tournament(Box::new(TournamentWrite {
                    id: self.state.id.clone(),
                    create: None,
                    events: rows,
                    status,
                    pairings,
                    games,
                })),
                self.fence.clone(),
            )
            .await
            .map_err(|e| {
                if let StoreError::Unconfirmed(why) = &e {
                    tracing::warn!(tournament = %self.state.id, error = %why,
                        "commit not confirmed: the tournament will be loaded again");
                    self.stale = true;
                }
                AppError::from(e)
            })?;
        let first = self.state.last_seq + 1;
        self.state = next;
        self.publish(first, &events);
        Ok(())
    }

    fn send(&self, msg: Value, to: Option<String>) {
        let _ = self.events.send(Arc::new(Broadcast {
            json: msg.to_string(),
            to,
        }));
    }

    fn publish(&self, first: i64, events: &[Event]) {
        let mut standings = false;
        for (i, ev) in events.iter().enumerate() {
            let seq = first + i as i64;
            let mut msg = match ev {
                Event::Registered { player, .. } => {
                    let Some(e) = self.state.player(*player) else {
                        continue;
                    };
                    json!({"player": player_view(&self.state, e, Default::default())})
                }
                Event::RoundPaired { round, .. } => {
                    let Some(r) = self.state.round(*round) else {
                        continue;
                    };
                    standings = true;
                    json!({"round": round_view(r)})
                }
                Event::Created { .. } => continue,
                other => {
                    standings |= matches!(other, Event::Result { .. });
                    serde_json::to_value(other).unwrap_or(Value::Null)
                }
            };
            msg["type"] = json!("event");
            msg["seq"] = json!(seq);
            msg["kind"] = json!(ev.kind());
            self.send(msg, None);
            match ev {
                Event::Started { .. } => {
                    let snap = self.snapshot();
                    self.send(
                        json!({"type": "tournament", "tournament": tournament_view(&snap.state, snap.timers)}),
                        None,
                    );
                }
                Event::RoundPaired { round, boards, .. } => {
                    for b in boards {
                        let Some(game) = &b.game else { continue };
                        for (no, color) in [(b.white, "white"), (b.black, "black")] {
                            if let Some(account) =
                                self.state.player(no).and_then(|p| p.account.clone())
                            {
                                self.send(
                                    json!({"type": "your_game", "round": round, "board": b.board, "game": game, "color": color}),
                                    Some(account),
                                );
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        if standings {
            let (_, table) = self.state.standings();
            self.send(
                json!({"type": "standings", "standings": standings_view(&self.state, &table)}),
                None,
            );
        }
    }
}

/// The game result and termination the arbiter declares for a tournament result: a forfeit
/// (Art. 6.7.1), or the arbiter's decision (Art. 12.9).
fn declared(result: GameResult) -> (GameResult, Termination) {
    let termination = if result.is_forfeit() {
        Termination::Forfeit
    } else {
        Termination::ArbiterDecision
    };
    (result, termination)
}

fn not_registered() -> AppError {
    AppError::conflict(
        "not_registered",
        "you are not registered in this tournament",
    )
}

fn not_paired() -> AppError {
    AppError::conflict("not_paired", "you have no board in the current round")
}
