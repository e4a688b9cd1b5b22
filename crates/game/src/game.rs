//! A game as an arbiter runs it.

use crate::analysis::{ExactAnalysis, MatingAnalysis};
use crate::clock::{Clock, ClockLedger, Clocks};
use crate::event::{Event, GameConfig, GameRecord, TimedEvent};
use crate::result::{GameResult, Points, Termination};
use crate::rules::{DrawOffers, IllegalMovePolicy, Rules};
use crate::time_control::{Speed, TimeControl};
use crate::Millis;
use arbiter_rules::{CastlingMode, Color, History, Move, Position, Role, UciMove};
use core::fmt;
use std::sync::Arc;

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Status {
    /// Created; the clock has not been started (Art. 6.6).
    Created,
    /// Being played.
    Running,
    /// Adjourned with a sealed move (Guideline I); the clocks are stopped.
    Adjourned,
    /// Over; see [`Game::result`] and [`Game::termination`].
    Finished,
}

/// Options that go with a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveOptions {
    /// Offer a draw together with the move (Art. 9.1.2.1: "after having made a move on the
    /// chessboard and before pressing the clock"); recorded as `(=)`.
    pub offer_draw: bool,
    /// Time the server credits for network lag; deducted from the time used for this move
    /// (never below zero). The server bounds it; this crate trusts it.
    pub lag_credit_ms: Millis,
}

/// One move of the game score with its clock reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// The move in UCI (king-two-squares castling in standard chess, king-takes-rook in
    /// Chess960).
    pub uci: String,
    /// The move in SAN with `+`/`#`.
    pub san: String,
    /// Who played it.
    pub color: Color,
    /// When the clock was pressed (the caller's monotonic milliseconds).
    pub at: Millis,
    /// Thinking time charged for this move (after lag credit).
    pub time_used_ms: Millis,
    /// Lag credit applied.
    pub lag_credit_ms: Millis,
    /// The mover's remaining time after the move (increment and new period included): the
    /// `[%clk]` of the PGN. `None` without a clock.
    pub clock_ms: Option<Millis>,
    /// A draw offer was made with this move (`(=)`, Art. 9.1.2.2).
    pub draw_offer: bool,
}

/// The result of a call to [`Game::play`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveOutcome {
    /// The move was played; it is `moves()[ply]`. The game may have ended with it (see
    /// [`Game::status`]).
    Played {
        /// Index into [`Game::moves`].
        ply: usize,
    },
    /// [`IllegalMovePolicy::FidePenalties`]: a completed illegal move; the position before it
    /// stands and the same player is to move (Art. 7.5.1). The game may have ended (second
    /// illegal move, Art. 7.5.5).
    IllegalMovePenalised {
        /// Completed illegal moves by this player so far.
        count: u32,
        /// Time given to the opponent (Art. 7.5.5: 2 minutes, 1 in blitz).
        opponent_bonus_ms: Millis,
    },
    /// [`IllegalMovePolicy::FidePenalties`]: a pawn moved to the last rank without choosing a
    /// piece (Art. 7.5.2): an illegal move, penalised as such (7.5.5), and the pawn becomes a
    /// queen; the move is `moves()[ply]`.
    UnpromotedPawnPenalised {
        /// Index into [`Game::moves`].
        ply: usize,
        /// Completed illegal moves by this player so far.
        count: u32,
        /// Time given to the opponent.
        opponent_bonus_ms: Millis,
    },
}

/// The result of a draw offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferOutcome {
    /// The offer stands until the opponent accepts, declines or moves (Art. 9.1.2.1).
    Offered,
    /// The opponent had offered already: the two offers make an agreement (Art. 5.2.3).
    Agreed,
}

/// The result of a draw claim (Art. 9.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// Art. 9.5.2: correct; the game is drawn.
    Correct(Termination),
    /// Art. 9.5.3: incorrect; the opponent gets time, the game goes on, an intended move has
    /// been played, and the claim stands as a draw offer (9.1.2.3) where offers are allowed.
    Incorrect {
        /// Time given to the opponent (2 minutes, 1 in blitz).
        opponent_bonus_ms: Millis,
        /// Index into [`Game::moves`] of the intended move, now played.
        played: Option<usize>,
    },
}

/// Which draws the player to move could claim now or with some legal move (Art. 9.2, 9.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Claimable {
    /// Art. 9.2: threefold repetition.
    pub threefold: bool,
    /// Art. 9.3: fifty moves.
    pub fifty_moves: bool,
}

impl Claimable {
    /// Either claim would be correct.
    pub fn any(&self) -> bool {
        self.threefold || self.fifty_moves
    }
}

/// A remark on the game score that is not a move: claims, illegal moves, adjournment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Number of moves played when it happened (it follows `moves()[ply - 1]`).
    pub ply: usize,
    /// What happened, citing the Article.
    pub text: String,
}

/// Why an event was refused. A refused event changes nothing, except that a flag found
/// fallen while handling it ends the game first (then the error is [`GameError::GameOver`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The start FEN is not a legal position.
    InvalidStartPosition(String),
    /// The clock has not been started.
    NotStarted,
    /// The game was started already.
    AlreadyStarted,
    /// The game is over.
    GameOver,
    /// The game is adjourned; only offers, replies and resignation are possible (I.4, I.6).
    Adjourned,
    /// The game is not adjourned.
    NotAdjourned,
    /// It is the other player's turn.
    NotYourTurn,
    /// The move is not legal here (Art. 3, 4); the text says which.
    IllegalMove(String),
    /// The move could not be read.
    InvalidMove(String),
    /// The timestamp is earlier than the last event's.
    TimeWentBackwards {
        /// The last event's instant.
        last: Millis,
        /// The instant given.
        now: Millis,
    },
    /// There is no draw offer by the opponent to reply to.
    NoDrawOffer,
    /// This player's offer already stands.
    DrawOfferPending,
    /// The competition rules forbid offers and agreement now (Art. 9.1.1).
    DrawOffersNotAllowed,
    /// Agreement needs both players to have made a move (Art. 5.2.3).
    DrawTooEarly,
    /// Aborting is possible only before both players have moved (online convention).
    CannotAbort,
    /// The competition rules do not allow adjournment.
    AdjournmentNotAllowed,
    /// The game has no clock.
    Untimed,
    /// Guideline III.4 does not apply here.
    QuickplayNotApplicable,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::InvalidStartPosition(e) => write!(f, "invalid start position: {e}"),
            GameError::NotStarted => f.write_str("the game has not started"),
            GameError::AlreadyStarted => f.write_str("the game has already started"),
            GameError::GameOver => f.write_str("the game is over"),
            GameError::Adjourned => f.write_str("the game is adjourned"),
            GameError::NotAdjourned => f.write_str("the game is not adjourned"),
            GameError::NotYourTurn => f.write_str("it is not your turn"),
            GameError::IllegalMove(m) => write!(f, "illegal move {m}"),
            GameError::InvalidMove(m) => write!(f, "cannot read move {m:?}"),
            GameError::TimeWentBackwards { last, now } => {
                write!(f, "timestamp {now} is before the last event at {last}")
            }
            GameError::NoDrawOffer => f.write_str("there is no draw offer to answer"),
            GameError::DrawOfferPending => f.write_str("your draw offer already stands"),
            GameError::DrawOffersNotAllowed => {
                f.write_str("the competition rules do not allow a draw offer now (Art. 9.1.1)")
            }
            GameError::DrawTooEarly => {
                f.write_str("a draw can be agreed only after both players have moved (Art. 5.2.3)")
            }
            GameError::CannotAbort => {
                f.write_str("a game can be aborted only before both players have moved")
            }
            GameError::AdjournmentNotAllowed => {
                f.write_str("the competition rules do not allow adjournment")
            }
            GameError::Untimed => f.write_str("the game has no clock"),
            GameError::QuickplayNotApplicable => f.write_str(
                "Guideline III.4 applies only when announced, without increment, outside blitz, with less than 2 minutes left",
            ),
        }
    }
}

impl std::error::Error for GameError {}

/// An event of a stored record that could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    /// Index of the event (`None`: the configuration).
    pub index: Option<usize>,
    /// Why.
    pub error: GameError,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "event {i}: {}", self.error),
            None => write!(f, "configuration: {}", self.error),
        }
    }
}

impl std::error::Error for ReplayError {}

/// A game as an arbiter runs it. Every event method takes `now`, the caller's monotonic
/// timestamp in milliseconds; nothing here reads a clock.
#[derive(Debug, Clone)]
pub struct Game {
    config: GameConfig,
    history: History,
    pub(crate) records: Vec<MoveRecord>,
    pub(crate) clock: Option<Clock>,
    status: Status,
    result: GameResult,
    termination: Option<Termination>,
    draw_offer: Option<Color>,
    illegal: [u32; 2],
    moves_made: [u32; 2],
    sealed: Option<(Color, String, Millis)>,
    events: Vec<TimedEvent>,
    notes: Vec<Note>,
    last_at: Option<Millis>,
    started_at: Option<Millis>,
    ended_at: Option<Millis>,
    analysis: Arc<dyn MatingAnalysis>,
}

/// "White" or "Black", for notes on the score.
fn side(c: Color) -> &'static str {
    c.fold("White", "Black")
}

/// Seconds with as many decimals as needed (`120`, `1.5`).
pub(crate) fn seconds(ms: Millis) -> String {
    if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        format!("{}.{:03}", ms / 1000, ms % 1000)
            .trim_end_matches('0')
            .to_string()
    }
}

/// The default penalty time (Art. 7.5.5, 9.5.3), 1 minute in blitz (B.2).
fn penalty_for(rules: &Rules, speed: Speed) -> Millis {
    rules.penalty_time_ms.unwrap_or(match speed {
        Speed::Blitz => 60_000,
        _ => 120_000,
    })
}

impl Game {
    /// A new game, not yet started.
    ///
    /// # Errors
    /// [`GameError::InvalidStartPosition`] if the FEN is not a legal position.
    pub fn new(config: GameConfig) -> Result<Game, GameError> {
        let mode = if config.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let start = match &config.start_fen {
            None => {
                let mut p = Position::new();
                p.set_mode(mode);
                p
            }
            Some(fen) => Position::from_fen(fen, mode)
                .map_err(|e| GameError::InvalidStartPosition(e.to_string()))?,
        };
        Ok(Game {
            clock: Clock::new(&config.time_control),
            config,
            history: History::new(start),
            records: Vec::new(),
            status: Status::Created,
            result: GameResult::Unfinished,
            termination: None,
            draw_offer: None,
            illegal: [0; 2],
            moves_made: [0; 2],
            sealed: None,
            events: Vec::new(),
            notes: Vec::new(),
            last_at: None,
            started_at: None,
            ended_at: None,
            analysis: Arc::new(ExactAnalysis::default()),
        })
    }

    /// A standard game under FIDE defaults with the given time control.
    pub fn standard(time_control: TimeControl) -> Game {
        Game::new(GameConfig::new(time_control)).expect("the standard position is legal")
    }

    /// Rebuilds a game from its stored record by replaying every event.
    ///
    /// # Errors
    /// [`ReplayError`] naming the first event that does not apply.
    pub fn from_record(record: &GameRecord) -> Result<Game, ReplayError> {
        let mut game =
            Game::new(record.config.clone()).map_err(|error| ReplayError { index: None, error })?;
        for (i, ev) in record.events.iter().enumerate() {
            game.apply(ev).map_err(|error| ReplayError {
                index: Some(i),
                error,
            })?;
        }
        Ok(game)
    }

    /// Replaces the dead-position analysis used for Art. 5.2.2, 6.9 and 7.5.5.
    pub fn set_analysis(&mut self, analysis: Arc<dyn MatingAnalysis>) {
        self.analysis = analysis;
    }

    // ----- configuration -------------------------------------------------------------

    /// The setup.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The time control.
    pub fn time_control(&self) -> &TimeControl {
        &self.config.time_control
    }

    /// The competition rules.
    pub fn rules(&self) -> &Rules {
        &self.config.rules
    }

    /// Blitz, rapid, standard… (A.1, B.1).
    pub fn speed(&self) -> Speed {
        self.config.time_control.speed()
    }

    // ----- queries -------------------------------------------------------------------

    /// The current position (the position before a sealed move while adjourned).
    pub fn position(&self) -> &Position {
        self.history.position()
    }

    /// The start position.
    pub fn start_position(&self) -> &Position {
        self.history.start()
    }

    /// The moves with the positions they led to (repetition counts, Art. 9.2).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The player to move.
    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// The game score with clock readings.
    pub fn moves(&self) -> &[MoveRecord] {
        &self.records
    }

    /// Remarks that are not moves (claims, illegal moves, adjournment), in order.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// Created, running, adjourned or finished.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The result (`*` until the game ends).
    pub fn result(&self) -> GameResult {
        self.result
    }

    /// How the game ended.
    pub fn termination(&self) -> Option<Termination> {
        self.termination
    }

    /// Points of `color` under the competition's scoring (Art. 10.1); `None` while
    /// unfinished or when aborted.
    pub fn points(&self, color: Color) -> Option<Points> {
        self.config.rules.scoring.points(self.result, color)
    }

    /// The player whose draw offer stands, if any.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// Draws the player to move could claim now or with some move (Art. 9.2, 9.3).
    pub fn claimable(&self) -> Claimable {
        if self.status != Status::Running {
            return Claimable::default();
        }
        Claimable {
            threefold: self.history.can_claim_threefold(),
            fifty_moves: self.history.can_claim_fifty_moves(),
        }
    }

    /// The clocks at `now` (`None` without a clock). While running, `now` should not be
    /// earlier than the last event.
    pub fn clocks(&self, now: Millis) -> Option<Clocks> {
        let clock = self.clock.as_ref()?;
        let mut c = clock.read(now);
        if self.status == Status::Finished || self.status == Status::Adjourned {
            c.running = None;
        }
        Some(c)
    }

    /// The remaining time of `color` at `now` (`None` without a clock).
    pub fn remaining_ms(&self, color: Color, now: Millis) -> Option<Millis> {
        self.clocks(now).map(|c| c.of(color))
    }

    /// Where `color`'s time came from and went.
    pub fn ledger(&self, color: Color) -> Option<ClockLedger> {
        self.clock.as_ref().map(|c| c.ledger(color))
    }

    /// The instant the running player's flag falls if nothing happens before (schedule a
    /// timer then, plus whatever lag allowance the server grants, and call
    /// [`Game::check_time`]). `None` when no clock runs.
    pub fn next_deadline(&self) -> Option<Millis> {
        if self.status != Status::Running {
            return None;
        }
        self.clock.as_ref()?.deadline()
    }

    /// Completed illegal moves by `color` (Art. 7.5.5).
    pub fn illegal_moves(&self, color: Color) -> u32 {
        self.illegal[color.index()]
    }

    /// Moves completed by `color` in this game.
    pub fn moves_made(&self, color: Color) -> u32 {
        self.moves_made[color.index()]
    }

    /// The sealed move (for the arbiter's eyes only: a server must not show it to the
    /// opponent, Guideline I.1.1) and who sealed it.
    pub fn sealed_move(&self) -> Option<(Color, &str)> {
        self.sealed.as_ref().map(|(c, s, _)| (*c, s.as_str()))
    }

    /// When the clock was started.
    pub fn started_at(&self) -> Option<Millis> {
        self.started_at
    }

    /// When the game ended (for a flag fall: the instant the flag fell).
    pub fn ended_at(&self) -> Option<Millis> {
        self.ended_at
    }

    /// The instant of the last event applied (the earliest `now` the next event may have).
    pub fn last_event_at(&self) -> Option<Millis> {
        self.last_at
    }

    /// The events applied so far.
    pub fn events(&self) -> &[TimedEvent] {
        &self.events
    }

    /// The configuration and the events: store this and restore with
    /// [`Game::from_record`].
    pub fn record(&self) -> GameRecord {
        GameRecord {
            config: self.config.clone(),
            events: self.events.clone(),
        }
    }

    // ----- events --------------------------------------------------------------------

    /// Applies a stored event (used by [`Game::from_record`]).
    ///
    /// # Errors
    /// As the method the event stands for.
    pub fn apply(&mut self, ev: &TimedEvent) -> Result<(), GameError> {
        let now = ev.at;
        match &ev.event {
            Event::Start => self.start(now),
            Event::Move {
                color,
                uci,
                offer_draw,
                lag_credit_ms,
            } => self
                .play_uci(
                    *color,
                    uci,
                    now,
                    MoveOptions {
                        offer_draw: *offer_draw,
                        lag_credit_ms: *lag_credit_ms,
                    },
                )
                .map(drop),
            Event::OfferDraw { color } => self.offer_draw(*color, now).map(drop),
            Event::AcceptDraw { color } => self.accept_draw(*color, now),
            Event::DeclineDraw { color } => self.decline_draw(*color, now),
            Event::ClaimDraw { color, intended } => {
                let m = match intended {
                    Some(u) => Some(self.parse_uci_legal(u)?),
                    None => None,
                };
                self.claim_draw(*color, m, now).map(drop)
            }
            Event::Resign { color } => self.resign(*color, now),
            Event::Abort { color } => self.abort(*color, now),
            Event::Flag => {
                if self.check_time(now) {
                    Ok(())
                } else {
                    Err(GameError::GameOver)
                }
            }
            Event::AddTime { color, ms } => self.add_time(*color, *ms, now),
            Event::SetClock { color, ms } => self.set_clock(*color, *ms, now),
            Event::QuickplayIncrement { color } => self.request_increment(*color, now),
            Event::Adjourn { color, sealed } => self.adjourn(*color, sealed, now),
            Event::Resume => self.resume(now),
            Event::Declare {
                result,
                termination,
            } => self.declare_result(*result, *termination, now),
        }
    }

    fn log(&mut self, at: Millis, event: Event) {
        self.events.push(TimedEvent { at, event });
    }

    /// Common checks: time monotonic, game not over. Then a flag that fell before `now`
    /// ends the game first (Art. 6.8).
    fn begin(&mut self, now: Millis) -> Result<(), GameError> {
        if let Some(last) = self.last_at {
            if now < last {
                return Err(GameError::TimeWentBackwards { last, now });
            }
        }
        if self.status == Status::Finished {
            return Err(GameError::GameOver);
        }
        if self.check_time(now) {
            return Err(GameError::GameOver);
        }
        self.last_at = Some(now);
        Ok(())
    }

    fn finish(&mut self, result: GameResult, termination: Termination, at: Millis) {
        if self.status == Status::Running {
            if let Some(clock) = &mut self.clock {
                let used = clock.elapsed(at, 0);
                clock.stop(used, false);
            }
        }
        self.status = Status::Finished;
        self.result = result;
        self.termination = Some(termination);
        self.draw_offer = None;
        self.ended_at = Some(at);
    }

    /// Art. 6.9 / 7.5.5: `loser` loses, unless the opponent cannot checkmate by any series of
    /// legal moves; then a draw.
    fn lose_unless_cannot_mate(
        &mut self,
        loser: Color,
        lose: Termination,
        draw: Termination,
        at: Millis,
    ) {
        if self
            .analysis
            .cannot_checkmate(self.history.position(), !loser)
        {
            self.finish(GameResult::Draw, draw, at);
        } else {
            self.finish(GameResult::from_winner(Some(!loser)), lose, at);
        }
    }

    /// Art. 6.6: starts the clock of the side to move (normally White), e.g. when the second
    /// seat is taken.
    ///
    /// # Errors
    /// [`GameError::AlreadyStarted`], [`GameError::GameOver`], [`GameError::TimeWentBackwards`].
    pub fn start(&mut self, now: Millis) -> Result<(), GameError> {
        if self.status != Status::Created {
            return Err(if self.status == Status::Finished {
                GameError::GameOver
            } else {
                GameError::AlreadyStarted
            });
        }
        self.begin(now)?;
        let turn = self.turn();
        if let Some(clock) = &mut self.clock {
            clock.start(turn, now);
        }
        self.status = Status::Running;
        self.started_at = Some(now);
        self.log(now, Event::Start);
        // A start position can already be over (Art. 5).
        self.check_automatic_end(now);
        Ok(())
    }

    /// Flag detection without a move (Art. 6.8): if the running player's flag has fallen by
    /// `now`, ends the game (6.9) and returns `true`. A timestamp earlier than the last event
    /// is ignored.
    pub fn check_time(&mut self, now: Millis) -> bool {
        if self.status != Status::Running || self.last_at.is_some_and(|l| now < l) {
            return false;
        }
        let Some(clock) = &self.clock else {
            return false;
        };
        let Some(deadline) = clock.deadline() else {
            return false;
        };
        if now < deadline {
            return false;
        }
        self.flag(now, deadline);
        true
    }

    fn flag(&mut self, now: Millis, deadline: Millis) {
        let loser = self.turn();
        self.last_at = Some(now);
        self.log(now, Event::Flag);
        self.lose_unless_cannot_mate(
            loser,
            Termination::Timeout,
            Termination::TimeoutVsInsufficientMaterial,
            deadline,
        );
    }

    fn check_running(&self, color: Color) -> Result<(), GameError> {
        match self.status {
            Status::Created => Err(GameError::NotStarted),
            Status::Adjourned => Err(GameError::Adjourned),
            Status::Finished => Err(GameError::GameOver),
            Status::Running if self.turn() != color => Err(GameError::NotYourTurn),
            Status::Running => Ok(()),
        }
    }

    fn parse_uci_legal(&self, s: &str) -> Result<Move, GameError> {
        self.position()
            .parse_uci(s)
            .map_err(|_| GameError::IllegalMove(s.to_string()))
    }

    /// Plays a move given in UCI (either castling encoding).
    ///
    /// # Errors
    /// As [`Game::play`]; [`GameError::InvalidMove`] if the text is not UCI.
    pub fn play_uci(
        &mut self,
        color: Color,
        uci: &str,
        now: Millis,
        opts: MoveOptions,
    ) -> Result<MoveOutcome, GameError> {
        let u: UciMove = uci
            .parse()
            .map_err(|_| GameError::InvalidMove(uci.to_string()))?;
        let m = self.position().uci_to_move(u).unwrap_or(Move {
            from: u.from,
            to: u.to,
            promotion: u.promotion,
        });
        self.play(color, m, now, opts)
    }

    /// Plays a move given in SAN (English letters). Under FIDE penalties an illegal SAN move
    /// is still refused: a penalised illegal move must name its squares (use UCI).
    ///
    /// # Errors
    /// As [`Game::play`]; [`GameError::InvalidMove`] or [`GameError::IllegalMove`] if the SAN
    /// does not name a legal move.
    pub fn play_san(
        &mut self,
        color: Color,
        san: &str,
        now: Millis,
        opts: MoveOptions,
    ) -> Result<MoveOutcome, GameError> {
        let m = self.position().parse_san(san).map_err(|e| match e {
            arbiter_rules::SanError::Syntax(_) => GameError::InvalidMove(san.to_string()),
            _ => GameError::IllegalMove(san.to_string()),
        })?;
        self.play(color, m, now, opts)
    }

    /// `color` makes move `m` and presses the clock at `now` (Art. 6.2.1).
    ///
    /// The flag is checked first, with the lag credit: a move whose thinking time (less the
    /// credit) reaches the player's allowance comes too late and the game is lost on time
    /// (6.9). A standing offer by the opponent lapses (9.1.2.1). After the move: checkmate,
    /// stalemate, dead position, 75 moves, fivefold repetition end the game (5, 9.6).
    ///
    /// # Errors
    /// [`GameError::NotYourTurn`], [`GameError::NotStarted`], [`GameError::Adjourned`],
    /// [`GameError::GameOver`] (also when the flag fell first), [`GameError::IllegalMove`]
    /// (policy [`IllegalMovePolicy::Reject`]), [`GameError::DrawOffersNotAllowed`] /
    /// [`GameError::DrawTooEarly`] for an offer that may not be made.
    pub fn play(
        &mut self,
        color: Color,
        m: Move,
        now: Millis,
        opts: MoveOptions,
    ) -> Result<MoveOutcome, GameError> {
        if let Some(last) = self.last_at {
            if now < last {
                return Err(GameError::TimeWentBackwards { last, now });
            }
        }
        self.check_running(color)?;
        // Art. 6.9 with the server's lag credit.
        let mut used = 0;
        if let Some(clock) = &self.clock {
            used = clock.elapsed(now, opts.lag_credit_ms);
            if clock.is_flagged_with(used) {
                let deadline = clock.deadline().unwrap_or(now);
                self.flag(now, deadline);
                return Err(GameError::GameOver);
            }
        }
        let uci = UciMove {
            from: m.from,
            to: m.to,
            promotion: m.promotion,
        }
        .to_string();
        if !self.position().is_legal(m) {
            if self.config.rules.illegal_moves == IllegalMovePolicy::Reject {
                return Err(GameError::IllegalMove(uci));
            }
            self.last_at = Some(now);
            self.log(
                now,
                Event::Move {
                    color,
                    uci: uci.clone(),
                    offer_draw: false,
                    lag_credit_ms: opts.lag_credit_ms,
                },
            );
            // Art. 7.5.2: a pawn moved to the last rank and left unpromoted becomes a queen.
            let queen = Move {
                promotion: Some(Role::Queen),
                ..m
            };
            if m.promotion.is_none() && self.position().is_legal(queen) {
                let out = self.penalise_illegal(color, &uci, now, true);
                let MoveOutcome::IllegalMovePenalised {
                    count,
                    opponent_bonus_ms,
                } = out
                else {
                    return Ok(out);
                };
                if self.status == Status::Finished {
                    return Ok(out);
                }
                let ply = self.push_move(color, queen, now, used, opts.lag_credit_ms, false, true);
                return Ok(MoveOutcome::UnpromotedPawnPenalised {
                    ply,
                    count,
                    opponent_bonus_ms,
                });
            }
            return Ok(self.penalise_illegal(color, &uci, now, false));
        }
        if opts.offer_draw {
            self.offer_allowed(color, Some(color))?;
        }
        self.last_at = Some(now);
        self.log(
            now,
            Event::Move {
                color,
                uci,
                offer_draw: opts.offer_draw,
                lag_credit_ms: opts.lag_credit_ms,
            },
        );
        let ply = self.push_move(
            color,
            m,
            now,
            used,
            opts.lag_credit_ms,
            opts.offer_draw,
            true,
        );
        Ok(MoveOutcome::Played { ply })
    }

    /// Plays a legal move, presses the clock and checks automatic ends.
    #[allow(clippy::too_many_arguments)]
    fn push_move(
        &mut self,
        color: Color,
        m: Move,
        now: Millis,
        used: Millis,
        lag_credit_ms: Millis,
        offer_draw: bool,
        lapse_offer: bool,
    ) -> usize {
        let pos = *self.position();
        let san = pos.san(m);
        let uci = pos.uci(m);
        self.history.push_unchecked(m);
        self.moves_made[color.index()] += 1;
        let mut clock_ms = None;
        if let Some(clock) = &mut self.clock {
            if clock.running().is_some() {
                clock.stop(used, true);
            }
            clock.count_move(color);
            clock_ms = Some(clock.remaining(color));
            clock.start(!color, now);
        }
        // Art. 9.1.2.1: the opponent's offer lapses when this player moves.
        if lapse_offer && self.draw_offer == Some(!color) {
            self.draw_offer = None;
        }
        if offer_draw {
            self.draw_offer = Some(color);
        }
        self.records.push(MoveRecord {
            mv: m,
            uci,
            san,
            color,
            at: now,
            time_used_ms: used,
            lag_credit_ms,
            clock_ms,
            draw_offer: offer_draw,
        });
        self.check_automatic_end(now);
        self.records.len() - 1
    }

    /// Art. 5.1.1, 5.2.1, 5.2.2, 9.6: endings that need no claim. A mate stands even on the
    /// move that completes 75 moves or a fivefold repetition (9.6).
    fn check_automatic_end(&mut self, now: Millis) {
        let pos = *self.position();
        let end = if !pos.has_legal_move() {
            if pos.is_check() {
                Some((
                    GameResult::from_winner(Some(!pos.turn())),
                    Termination::Checkmate,
                ))
            } else {
                Some((GameResult::Draw, Termination::Stalemate))
            }
        } else if self.analysis.is_dead(&pos) {
            Some((GameResult::Draw, Termination::DeadPosition))
        } else if self.history.is_seventyfive_moves() {
            Some((GameResult::Draw, Termination::SeventyFiveMoves))
        } else if self.history.is_fivefold_repetition() {
            Some((GameResult::Draw, Termination::FivefoldRepetition))
        } else {
            None
        };
        if let Some((result, termination)) = end {
            self.finish(result, termination, now);
        }
    }

    /// Art. 7.5.1, 7.5.5: a completed illegal move under FIDE penalties.
    fn penalise_illegal(
        &mut self,
        color: Color,
        uci: &str,
        now: Millis,
        unpromoted: bool,
    ) -> MoveOutcome {
        let i = color.index();
        self.illegal[i] += 1;
        let count = self.illegal[i];
        let action = if unpromoted {
            "the pawn is replaced by a queen (Art. 7.5.2)"
        } else {
            "the position before it is restored (Art. 7.5.1)"
        };
        self.notes.push(Note {
            ply: self.records.len(),
            text: format!("{} completed the illegal move {uci}; {action}", side(color)),
        });
        if count >= self.config.rules.illegal_moves_to_lose {
            self.lose_unless_cannot_mate(
                color,
                Termination::IllegalMoves,
                Termination::IllegalMovesVsInsufficientMaterial,
                now,
            );
            return MoveOutcome::IllegalMovePenalised {
                count,
                opponent_bonus_ms: 0,
            };
        }
        let bonus = self.give_penalty_time(!color, "Art. 7.5.5");
        MoveOutcome::IllegalMovePenalised {
            count,
            opponent_bonus_ms: bonus,
        }
    }

    fn give_penalty_time(&mut self, to: Color, citation: &str) -> Millis {
        let bonus = penalty_for(&self.config.rules, self.speed());
        match &mut self.clock {
            Some(clock) => {
                clock.add(to, bonus);
                self.notes.push(Note {
                    ply: self.records.len(),
                    text: format!("{} receives {} s ({citation})", side(to), seconds(bonus)),
                });
                bonus
            }
            None => 0,
        }
    }

    /// Art. 9.1.1, 5.2.3: may `color` offer (or agree) a draw now; `moving` counts a move
    /// being made with the offer.
    fn offer_allowed(&self, _color: Color, moving: Option<Color>) -> Result<(), GameError> {
        let mut made = self.moves_made;
        if let Some(c) = moving {
            made[c.index()] += 1;
        }
        let fewest = made[0].min(made[1]);
        match self.config.rules.draw_offers {
            DrawOffers::Never => return Err(GameError::DrawOffersNotAllowed),
            DrawOffers::NotBeforeMove(n) if fewest < n => {
                return Err(GameError::DrawOffersNotAllowed)
            }
            _ => {}
        }
        // Art. 5.2.3: agreement needs a move by each player; an offer the opponent could
        // answer only by moving (which makes it lapse) is refused as too early.
        if fewest == 0 {
            return Err(GameError::DrawTooEarly);
        }
        Ok(())
    }

    fn check_not_over(&self) -> Result<(), GameError> {
        match self.status {
            Status::Created => Err(GameError::NotStarted),
            Status::Finished => Err(GameError::GameOver),
            _ => Ok(()),
        }
    }

    /// `color` offers a draw without a move (Art. 9.1.2.1: valid at any time). If the
    /// opponent's offer stands, this is agreement. Possible while adjourned (I.4).
    ///
    /// # Errors
    /// [`GameError::DrawOffersNotAllowed`], [`GameError::DrawTooEarly`],
    /// [`GameError::DrawOfferPending`], and the usual state errors.
    pub fn offer_draw(&mut self, color: Color, now: Millis) -> Result<OfferOutcome, GameError> {
        self.check_not_over()?;
        if let Some(last) = self.last_at {
            if now < last {
                return Err(GameError::TimeWentBackwards { last, now });
            }
        }
        if self.check_time(now) {
            return Err(GameError::GameOver);
        }
        self.offer_allowed(color, None)?;
        if self.draw_offer == Some(color) {
            return Err(GameError::DrawOfferPending);
        }
        self.last_at = Some(now);
        self.log(now, Event::OfferDraw { color });
        if self.draw_offer == Some(!color) {
            self.finish(GameResult::Draw, Termination::Agreement, now);
            return Ok(OfferOutcome::Agreed);
        }
        self.draw_offer = Some(color);
        self.notes.push(Note {
            ply: self.records.len(),
            text: format!("{} offers a draw (Art. 9.1.2.1)", side(color)),
        });
        Ok(OfferOutcome::Offered)
    }

    /// `color` accepts the opponent's standing offer: a draw by agreement (Art. 5.2.3).
    ///
    /// # Errors
    /// [`GameError::NoDrawOffer`], [`GameError::DrawOffersNotAllowed`],
    /// [`GameError::DrawTooEarly`], and the usual state errors.
    pub fn accept_draw(&mut self, color: Color, now: Millis) -> Result<(), GameError> {
        self.check_not_over()?;
        if self.draw_offer != Some(!color) {
            return Err(GameError::NoDrawOffer);
        }
        self.offer_allowed(color, None)?;
        self.begin(now)?;
        self.log(now, Event::AcceptDraw { color });
        self.finish(GameResult::Draw, Termination::Agreement, now);
        Ok(())
    }

    /// `color` declines the opponent's standing offer (Art. 9.1.2.1).
    ///
    /// # Errors
    /// [`GameError::NoDrawOffer`] and the usual state errors.
    pub fn decline_draw(&mut self, color: Color, now: Millis) -> Result<(), GameError> {
        self.check_not_over()?;
        if self.draw_offer != Some(!color) {
            return Err(GameError::NoDrawOffer);
        }
        self.begin(now)?;
        self.log(now, Event::DeclineDraw { color });
        self.draw_offer = None;
        Ok(())
    }

    /// The player to move claims a draw under Art. 9.2 or 9.3, now or with an intended move
    /// (written, not played). Correct: drawn at once (9.5.2). Incorrect: the opponent gets
    /// 2 minutes (1 in blitz), an intended move is played, and the claim stands as a draw
    /// offer (9.1.2.3, where the competition allows offers).
    ///
    /// # Errors
    /// [`GameError::NotYourTurn`], [`GameError::IllegalMove`] for an illegal intended move,
    /// and the usual state errors.
    pub fn claim_draw(
        &mut self,
        color: Color,
        intended: Option<Move>,
        now: Millis,
    ) -> Result<ClaimOutcome, GameError> {
        self.check_running(color)?;
        if let Some(m) = intended {
            if !self.position().is_legal(m) {
                return Err(GameError::IllegalMove(format!("{m:?}")));
            }
        }
        self.begin(now)?;
        let pos = *self.position();
        self.log(
            now,
            Event::ClaimDraw {
                color,
                intended: intended.map(|m| pos.uci(m)),
            },
        );
        let h = &self.history;
        let by_repetition =
            h.is_threefold_repetition() || intended.is_some_and(|m| h.threefold_with_move(m));
        let by_fifty = h.is_fifty_moves() || intended.is_some_and(|m| h.fifty_moves_with_move(m));
        let with = intended
            .map(|m| format!(" with the intended move {}", pos.san(m)))
            .unwrap_or_default();
        if by_repetition || by_fifty {
            let t = if by_repetition {
                Termination::ThreefoldRepetition
            } else {
                Termination::FiftyMoves
            };
            self.notes.push(Note {
                ply: self.records.len(),
                text: format!(
                    "{} claims a draw{with}; the claim is correct (Art. {}, 9.5.2)",
                    side(color),
                    t.article()
                ),
            });
            self.finish(GameResult::Draw, t, now);
            return Ok(ClaimOutcome::Correct(t));
        }
        self.notes.push(Note {
            ply: self.records.len(),
            text: format!(
                "{} claims a draw{with}; the claim is incorrect (Art. 9.5.3)",
                side(color)
            ),
        });
        let bonus = self.give_penalty_time(!color, "Art. 9.5.3");
        // Art. 9.1.2.3: a claim is also an offer.
        let offers = self.offer_allowed(color, intended.map(|_| color)).is_ok();
        let played = match intended {
            Some(m) => {
                let used = self.clock.as_ref().map_or(0, |c| c.elapsed(now, 0));
                Some(self.push_move(color, m, now, used, 0, offers, true))
            }
            None => {
                if offers {
                    self.draw_offer = Some(color);
                }
                None
            }
        };
        Ok(ClaimOutcome::Incorrect {
            opponent_bonus_ms: bonus,
            played,
        })
    }

    /// `color` resigns (Art. 5.1.2; at any time, also while adjourned, I.6).
    ///
    /// # Errors
    /// [`GameError::NotStarted`], [`GameError::GameOver`], [`GameError::TimeWentBackwards`].
    pub fn resign(&mut self, color: Color, now: Millis) -> Result<(), GameError> {
        self.check_not_over()?;
        self.begin(now)?;
        self.log(now, Event::Resign { color });
        self.finish(
            GameResult::from_winner(Some(!color)),
            Termination::Resignation,
            now,
        );
        Ok(())
    }

    /// Online convention (no FIDE Law): either player may abort while at least one of them
    /// has not yet moved; nothing is scored.
    ///
    /// # Errors
    /// [`GameError::CannotAbort`] once both have moved or if the rules do not allow it.
    pub fn abort(&mut self, color: Color, now: Millis) -> Result<(), GameError> {
        if self.status == Status::Finished {
            return Err(GameError::GameOver);
        }
        if !self.config.rules.allow_abort
            || self.status == Status::Adjourned
            || (self.moves_made[0] > 0 && self.moves_made[1] > 0)
        {
            return Err(GameError::CannotAbort);
        }
        self.begin(now)?;
        self.log(now, Event::Abort { color });
        self.notes.push(Note {
            ply: self.records.len(),
            text: format!("{} aborted the game", side(color)),
        });
        self.finish(GameResult::Unfinished, Termination::Aborted, now);
        Ok(())
    }

    /// The arbiter adds time to `color`'s clock (Art. 6.10.2, 7.5.5, 9.5.3, 12.9.2).
    ///
    /// # Errors
    /// [`GameError::Untimed`], [`GameError::GameOver`], [`GameError::TimeWentBackwards`].
    pub fn add_time(&mut self, color: Color, ms: Millis, now: Millis) -> Result<(), GameError> {
        if self.status == Status::Finished {
            return Err(GameError::GameOver);
        }
        if self.clock.is_none() {
            return Err(GameError::Untimed);
        }
        self.begin(now)?;
        if let Some(clock) = &mut self.clock {
            clock.add(color, ms);
        }
        self.log(now, Event::AddTime { color, ms });
        self.notes.push(Note {
            ply: self.records.len(),
            text: format!("{} receives {} s (Art. 6.10.2)", side(color), seconds(ms)),
        });
        Ok(())
    }

    /// Guideline III.4: the player to move, with less than 2 minutes left in a standard or
    /// rapid game without increment, asks for 5 seconds per move for both players. The
    /// request is also a draw offer (where offers are allowed). The arbiter's consent is
    /// taken as given (the online arbiter is this crate): the increment applies from the
    /// next move on and the opponent gets 2 minutes at once; the opponent may still accept
    /// the draw while the offer stands.
    ///
    /// # Errors
    /// [`GameError::QuickplayNotApplicable`] when the rules do not announce Guideline III,
    /// the game is blitz, the control has an increment or delay, or 2 minutes or more are
    /// left; the usual state errors.
    pub fn request_increment(&mut self, color: Color, now: Millis) -> Result<(), GameError> {
        self.check_running(color)?;
        let applicable = self.config.rules.guideline_iii
            && self.speed() != Speed::Blitz
            && self
                .clock
                .as_ref()
                .is_some_and(|c| c.is_sudden_death(color));
        if !applicable {
            return Err(GameError::QuickplayNotApplicable);
        }
        self.begin(now)?;
        if self.remaining_ms(color, now).unwrap_or(0) >= 120_000 {
            return Err(GameError::QuickplayNotApplicable);
        }
        self.log(now, Event::QuickplayIncrement { color });
        self.notes.push(Note {
            ply: self.records.len(),
            text: format!(
                "{} asks for 5 seconds per move for both players (Guideline III.4)",
                side(color)
            ),
        });
        if self.offer_allowed(color, None).is_ok() && self.draw_offer.is_none() {
            self.draw_offer = Some(color);
        }
        if let Some(clock) = &mut self.clock {
            clock.introduce_increment(5_000);
        }
        if let Some(clock) = &mut self.clock {
            clock.add(!color, 120_000);
        }
        self.notes.push(Note {
            ply: self.records.len(),
            text: format!("{} receives 120 s (Guideline III.4)", side(!color)),
        });
        Ok(())
    }

    /// The arbiter sets `color`'s clock to `ms` (Art. 6.10.2: "the arbiter shall set the
    /// clocks correctly"); used when a game is rebuilt from its record.
    ///
    /// # Errors
    /// [`GameError::Untimed`], [`GameError::GameOver`], [`GameError::TimeWentBackwards`].
    pub fn set_clock(&mut self, color: Color, ms: Millis, now: Millis) -> Result<(), GameError> {
        if self.status == Status::Finished {
            return Err(GameError::GameOver);
        }
        if self.clock.is_none() {
            return Err(GameError::Untimed);
        }
        self.begin(now)?;
        let running = self.clock.as_ref().and_then(|c| c.running());
        if let Some(clock) = &mut self.clock {
            // A running clock is set as it reads at `now`.
            let shown = if running == Some(color) {
                clock.read(now).of(color)
            } else {
                clock.remaining(color)
            };
            let target = clock.remaining(color) + ms;
            clock.set(color, target.saturating_sub(shown));
        }
        self.log(now, Event::SetClock { color, ms });
        Ok(())
    }

    /// Guideline I.1: the player to move seals `sealed` (SAN or UCI, kept hidden and not
    /// played) and the game is adjourned; the clocks stop, the time used until now is
    /// charged.
    ///
    /// # Errors
    /// [`GameError::AdjournmentNotAllowed`], [`GameError::NotYourTurn`], and the usual state
    /// errors.
    pub fn adjourn(&mut self, color: Color, sealed: &str, now: Millis) -> Result<(), GameError> {
        if !self.config.rules.allow_adjournment {
            return Err(GameError::AdjournmentNotAllowed);
        }
        self.check_running(color)?;
        self.begin(now)?;
        let mut used = 0;
        if let Some(clock) = &mut self.clock {
            used = clock.elapsed(now, 0);
            clock.stop(used, true);
        }
        self.sealed = Some((color, sealed.to_string(), used));
        self.status = Status::Adjourned;
        // Sealing is making a move (I.1.1): the opponent's standing offer lapses (9.1.2.1).
        // Offers made after the seal stand until answered (I.4).
        if self.draw_offer == Some(!color) {
            self.draw_offer = None;
        }
        self.log(
            now,
            Event::Adjourn {
                color,
                sealed: sealed.to_string(),
            },
        );
        self.notes.push(Note {
            ply: self.records.len(),
            text: format!(
                "{} seals a move; the game is adjourned (Guideline I.1)",
                side(color)
            ),
        });
        Ok(())
    }

    /// Guideline I.9.1: the envelope is opened, the sealed move played and the opponent's
    /// clock started. An ambiguous, unreadable or illegal sealed move loses (I.8).
    ///
    /// # Errors
    /// [`GameError::NotAdjourned`], [`GameError::TimeWentBackwards`].
    pub fn resume(&mut self, now: Millis) -> Result<(), GameError> {
        if self.status != Status::Adjourned {
            return Err(GameError::NotAdjourned);
        }
        self.begin(now)?;
        let Some((color, text, used)) = self.sealed.take() else {
            return Err(GameError::NotAdjourned);
        };
        self.log(now, Event::Resume);
        self.status = Status::Running;
        let pos = *self.position();
        let m = pos
            .parse_san(text.trim())
            .ok()
            .or_else(|| pos.parse_uci(text.trim()).ok());
        match m {
            Some(m) => {
                // I.4: an offer made while adjourned stands until answered; the sealed move
                // was chosen before it and does not make it lapse.
                self.push_move(color, m, now, 0, 0, false, false);
                if let Some(r) = self.records.last_mut() {
                    r.time_used_ms = used;
                }
            }
            None => {
                self.notes.push(Note {
                    ply: self.records.len(),
                    text: format!(
                        "the sealed move {text:?} of {} is ambiguous, unreadable or illegal (Guideline I.8)",
                        side(color)
                    ),
                });
                self.finish(
                    GameResult::from_winner(Some(!color)),
                    Termination::InvalidSealedMove,
                    now,
                );
            }
        }
        Ok(())
    }

    /// The arbiter declares a result: forfeits `+/-`, `-/+`, `-/-` (Art. 6.7) or a decision
    /// under Art. 12.9.
    ///
    /// # Errors
    /// [`GameError::GameOver`], [`GameError::TimeWentBackwards`].
    pub fn declare_result(
        &mut self,
        result: GameResult,
        termination: Termination,
        now: Millis,
    ) -> Result<(), GameError> {
        if self.status == Status::Finished {
            return Err(GameError::GameOver);
        }
        if let Some(last) = self.last_at {
            if now < last {
                return Err(GameError::TimeWentBackwards { last, now });
            }
        }
        self.last_at = Some(now);
        self.log(
            now,
            Event::Declare {
                result,
                termination,
            },
        );
        self.finish(result, termination, now);
        Ok(())
    }
}
