//! The bridge to [`arbiter_game`]: turns API requests into game events and game errors into
//! API errors. No Law is applied here — legality, clocks, flags, offers, claims and results
//! are all decided by `arbiter_game::Game`; this module only reads notation and maps types.

use arbiter_game::{Event, Game, GameConfig, GameError, Rules, Status, TimeControl, TimedEvent};
use arbiter_rules::{CastlingMode, Color, Position, SanError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::api::{GameEnded, NewGame};
use super::wire::{
    AdjournRequest, Clocks, DrawAction, DrawRequest, MoveRequest, MoveView, Seat, Variant,
};
use crate::error::{ApiResult, AppError};
use crate::ratings::Category;

/// An action of a seat holder.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Action {
    /// Play a move.
    Move(MoveRequest),
    /// Offer, accept, decline or claim a draw.
    Draw(DrawRequest),
    /// Resign.
    Resign,
    /// Abort before both have moved.
    Abort,
    /// Seal a move and adjourn.
    Seal(AdjournRequest),
    /// Resume an adjourned game.
    Resume,
}

/// What the arbiter (a tournament's director) does to a game (Art. 6.7.1, 12.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArbiterAction {
    /// Declare the result: a forfeit (Art. 6.7.1, `+/-`, `-/+`, `-/-`) or a decision (12.9.6).
    Declare {
        /// The result.
        result: arbiter_game::GameResult,
        /// Why.
        termination: arbiter_game::Termination,
    },
    /// Art. 12.9.2: add time to `seat`'s clock.
    AddTime {
        /// Whose clock.
        seat: Seat,
        /// Milliseconds.
        ms: u64,
    },
    /// Art. 12.9.3: take time from `seat`'s clock (not below 0).
    DeductTime {
        /// Whose clock.
        seat: Seat,
        /// Milliseconds.
        ms: u64,
    },
}

/// A game's creation parameters as stored (normalised, validated).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Spec {
    /// Time control, human form (normalised by `arbiter-game`'s `Display`).
    pub time_control: String,
    /// Variant.
    pub variant: Variant,
    /// Chess960 position number, if the start position is one.
    pub chess960_position: Option<u16>,
    /// Start FEN (`None`: the standard position).
    pub start_fen: Option<String>,
    /// Competition rules (`arbiter_game::Rules` as JSON).
    pub rules: Value,
}

fn seat_color(seat: Seat) -> Color {
    match seat {
        Seat::White => Color::White,
        Seat::Black => Color::Black,
    }
}

fn color_seat(c: Color) -> Seat {
    match c {
        Color::White => Seat::White,
        Color::Black => Seat::Black,
    }
}

fn ms(m: u64) -> i64 {
    i64::try_from(m).unwrap_or(i64::MAX)
}

impl Spec {
    /// The rating category of a game with this spec (`None`: untimed, cannot be rated).
    pub fn category(&self) -> Option<Category> {
        let tc: TimeControl = self.time_control.parse().ok()?;
        crate::ratings::category::of(&tc, self.variant == Variant::Chess960)
    }
}

impl Spec {
    /// The spec of a new game; `random` picks a Chess960 position when none is given.
    ///
    /// # Errors
    /// 400 naming the fault: variant/position, FEN.
    pub fn new(game: &NewGame, random: u64) -> ApiResult<Spec> {
        let rules =
            serde_json::to_value(&game.rules).map_err(|e| AppError::Internal(e.to_string()))?;
        let mut chess960_position = None;
        let start_fen = match (game.variant, game.chess960_position, &game.fen) {
            (Variant::Standard, Some(_), _) => {
                return Err(AppError::bad_request(
                    "bad_variant",
                    "chess960_position needs \"variant\": \"chess960\"",
                ))
            }
            (_, Some(_), Some(_)) => {
                return Err(AppError::bad_request(
                    "bad_variant",
                    "give either fen or chess960_position, not both",
                ))
            }
            (Variant::Chess960, n, None) => {
                // Truncation is intended: any value modulo 960 is a uniform-enough pick.
                let n = n.unwrap_or((random % 960) as u32);
                let pos = u16::try_from(n)
                    .ok()
                    .and_then(Position::chess960)
                    .ok_or_else(|| {
                        AppError::bad_request(
                            "bad_chess960_position",
                            format!("chess960_position {n} is not in 0..=959"),
                        )
                    })?;
                chess960_position = u16::try_from(n).ok();
                Some(pos.fen_shredder())
            }
            (_, None, Some(fen)) => {
                let fen = fen.trim();
                if fen.len() > 200 {
                    return Err(AppError::bad_request(
                        "bad_fen",
                        "FEN longer than 200 characters",
                    ));
                }
                Some(fen.to_owned())
            }
            (Variant::Standard, None, None) => None,
        };
        let spec = Spec {
            time_control: game.time_control.to_string(),
            variant: game.variant,
            chess960_position,
            start_fen,
            rules,
        };
        // Building the game validates the start position (the FEN error names the fault).
        Game::new(spec.config()?).map_err(game_error)?;
        Ok(spec)
    }

    /// The `arbiter_game` configuration.
    ///
    /// # Errors
    /// 400 for a time control or rules that do not parse (only for a stored spec gone bad).
    pub fn config(&self) -> ApiResult<GameConfig> {
        let time_control: TimeControl =
            self.time_control
                .parse()
                .map_err(|e: arbiter_game::ParseTimeControlError| {
                    AppError::bad_request("bad_time_control", e.to_string())
                })?;
        let rules: Rules = serde_json::from_value(self.rules.clone())
            .map_err(|e| AppError::bad_request("bad_rules", format!("rules: {e}")))?;
        Ok(GameConfig {
            start_fen: self.start_fen.clone(),
            chess960: self.variant == Variant::Chess960,
            time_control,
            rules,
        })
    }
}

/// Map a refusal of the game crate to an API error.
pub fn game_error(e: GameError) -> AppError {
    let msg = e.to_string();
    match e {
        GameError::InvalidStartPosition(_) => AppError::bad_request("bad_fen", msg),
        GameError::InvalidMove(_) => AppError::bad_request("bad_move_notation", msg),
        GameError::IllegalMove(_) => AppError::unprocessable("illegal_move", msg),
        GameError::NotYourTurn => AppError::conflict("not_your_turn", msg),
        GameError::NotStarted => AppError::conflict("not_started", msg),
        GameError::AlreadyStarted => AppError::conflict("already_started", msg),
        GameError::GameOver => AppError::conflict("game_over", msg),
        GameError::Adjourned => AppError::conflict("adjourned", msg),
        GameError::NotAdjourned => AppError::conflict("not_adjourned", msg),
        GameError::NoDrawOffer => AppError::conflict("no_draw_offer", msg),
        GameError::DrawOfferPending => AppError::conflict("draw_offer_pending", msg),
        GameError::DrawOffersNotAllowed => AppError::conflict("draw_offers_not_allowed", msg),
        GameError::DrawTooEarly => AppError::conflict("draw_too_early", msg),
        GameError::CannotAbort => AppError::conflict("cannot_abort", msg),
        GameError::AdjournmentNotAllowed => AppError::conflict("adjournment_not_allowed", msg),
        GameError::Untimed => AppError::conflict("untimed", msg),
        GameError::TimeWentBackwards { .. } => AppError::Internal(msg),
        #[allow(unreachable_patterns)]
        _ => AppError::conflict("refused", msg),
    }
}

/// Why a game in `status` cannot take a move (`None`: it can).
fn not_running(status: Status) -> Option<GameError> {
    match status {
        Status::Created => Some(GameError::NotStarted),
        Status::Adjourned => Some(GameError::Adjourned),
        Status::Finished => Some(GameError::GameOver),
        Status::Running => None,
    }
}

/// Does the text look like UCI (`e2e4`, `e7e8q`)? Otherwise it is read as SAN.
fn looks_like_uci(s: &str) -> bool {
    let b = s.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
}

/// One game under the Laws, as the server drives it.
#[derive(Debug, Clone)]
pub struct Referee {
    game: Game,
}

impl Referee {
    /// A new game from a spec.
    ///
    /// # Errors
    /// 400 for an invalid start position (the message names the fault).
    pub fn new(spec: &Spec) -> ApiResult<Self> {
        let game = Game::new(spec.config()?).map_err(game_error)?;
        Ok(Self { game })
    }

    /// Re-apply a stored event (JSON of an `arbiter_game::TimedEvent`).
    ///
    /// # Errors
    /// The event does not parse or does not apply (a corrupt log).
    pub fn replay(&mut self, timed: Value) -> Result<(), String> {
        let ev: TimedEvent = serde_json::from_value(timed).map_err(|e| e.to_string())?;
        self.game.apply(&ev).map_err(|e| e.to_string())
    }

    /// The game as it was before its events from index `n` (to undo events whose commit
    /// failed). Replays the log; used only on that rare path.
    ///
    /// # Errors
    /// The log does not replay (cannot happen for events the game produced itself).
    pub fn truncated(&self, n: usize) -> Result<Self, String> {
        let mut record = self.game.record();
        record.events.truncate(n);
        Game::from_record(&record)
            .map(|game| Self { game })
            .map_err(|e| e.to_string())
    }

    /// The game (a computer player thinks about a snapshot of it).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Number of game events so far.
    pub fn event_count(&self) -> usize {
        self.game.events().len()
    }

    /// The game events from index `from`.
    pub fn events_from(&self, from: usize) -> &[TimedEvent] {
        &self.game.events()[from.min(self.game.events().len())..]
    }

    /// Art. 6.6: start the clock of the side to move.
    ///
    /// # Errors
    /// The game refuses (already started).
    pub fn start(&mut self, t: u64) -> ApiResult<()> {
        self.game.start(t).map_err(game_error)
    }

    fn parse_move(&self, text: &str) -> ApiResult<arbiter_rules::Move> {
        let text = text.trim();
        let pos = self.game.position();
        if looks_like_uci(text) {
            return pos.parse_uci(text).map_err(|_| {
                AppError::unprocessable("illegal_move", format!("illegal move {text}"))
            });
        }
        pos.parse_san(text).map_err(|e| match e {
            SanError::Syntax(_) => AppError::bad_request(
                "bad_move_notation",
                format!("cannot read move {text:?}: expected SAN (Nf3, O-O) or UCI (g1f3)"),
            ),
            SanError::Ambiguous { .. } => {
                AppError::unprocessable("ambiguous_move", format!("ambiguous move {text}"))
            }
            _ => AppError::unprocessable("illegal_move", format!("illegal move {text}")),
        })
    }

    /// Perform a seat holder's action at game time `t`.
    ///
    /// # Errors
    /// The API error for a refusal; the game is unchanged unless a flag fell first (then the
    /// game is over and the flag is among the new events).
    pub fn act(
        &mut self,
        seat: Seat,
        action: Action,
        t: u64,
        lag_allowance_ms: u64,
    ) -> ApiResult<()> {
        let color = seat_color(seat);
        let g = &mut self.game;
        match action {
            Action::Move(req) => {
                if let Some(ply) = req.ply {
                    if usize::try_from(ply).ok() != Some(g.moves().len()) {
                        return Err(AppError::conflict(
                            "stale_ply",
                            format!(
                                "ply {ply} given, but {} half-moves have been played",
                                g.moves().len()
                            ),
                        ));
                    }
                }
                // Out of turn is reported before the notation is read in a position that is
                // not the mover's.
                if g.status() == Status::Running && g.turn() != color {
                    return Err(game_error(GameError::NotYourTurn));
                }
                let opts = arbiter_game::MoveOptions {
                    offer_draw: req.offer_draw,
                    lag_credit_ms: u64::from(req.lag_ms.unwrap_or(0)).min(lag_allowance_ms),
                };
                if let Some(e) = not_running(g.status()) {
                    return Err(game_error(e));
                }
                let text = req.mv.trim();
                if looks_like_uci(text) {
                    // UCI goes to the game as written, so that a completed illegal move can be
                    // penalised under Art. 7.5 when the rules say so.
                    g.play_uci(color, text, t, opts)
                        .map(drop)
                        .map_err(game_error)
                } else {
                    let m = self.parse_move(text)?;
                    self.game
                        .play(color, m, t, opts)
                        .map(drop)
                        .map_err(game_error)
                }
            }
            Action::Draw(req) => match req.action {
                DrawAction::Offer => g.offer_draw(color, t).map(drop).map_err(game_error),
                DrawAction::Accept => g.accept_draw(color, t).map_err(game_error),
                DrawAction::Decline => g.decline_draw(color, t).map_err(game_error),
                DrawAction::Claim => {
                    if g.status() == Status::Running && g.turn() != color {
                        return Err(game_error(GameError::NotYourTurn));
                    }
                    let intended = match req.mv.as_deref() {
                        Some(text) if g.status() == Status::Running => Some(self.parse_move(text)?),
                        _ => None,
                    };
                    self.game
                        .claim_draw(color, intended, t)
                        .map(drop)
                        .map_err(game_error)
                }
            },
            Action::Resign => g.resign(color, t).map_err(game_error),
            Action::Abort => g.abort(color, t).map_err(game_error),
            Action::Seal(req) => g.adjourn(color, req.mv.trim(), t).map_err(game_error),
            Action::Resume => g.resume(t).map_err(game_error),
        }
    }

    /// The arbiter acts on the game at game time `t`.
    ///
    /// # Errors
    /// 409 `game_over`, `untimed` (a time penalty in an untimed game).
    pub fn arbiter(&mut self, action: ArbiterAction, t: u64) -> ApiResult<()> {
        let g = &mut self.game;
        match action {
            ArbiterAction::Declare {
                result,
                termination,
            } => g.declare_result(result, termination, t),
            ArbiterAction::AddTime { seat, ms } => g.add_time(seat_color(seat), ms, t),
            ArbiterAction::DeductTime { seat, ms } => {
                let color = seat_color(seat);
                match g.remaining_ms(color, t) {
                    Some(left) => g.set_clock(color, left.saturating_sub(ms), t),
                    None => Err(GameError::Untimed),
                }
            }
        }
        .map_err(game_error)
    }

    /// Art. 6.8: has the running player's flag fallen by `t`? Ends the game if so.
    pub fn check_flag(&mut self, t: u64) -> bool {
        self.game.check_time(t)
    }

    /// Game time at which the running player's flag falls.
    pub fn flag_deadline(&self) -> Option<u64> {
        self.game.next_deadline()
    }

    /// The game is over.
    pub fn is_over(&self) -> bool {
        self.game.status() == Status::Finished
    }

    /// The clock has been started (both seats taken, Art. 6.6).
    pub fn is_started(&self) -> bool {
        self.game.status() != Status::Created
    }

    /// The game is adjourned (Guideline I).
    pub fn is_adjourned(&self) -> bool {
        self.game.status() == Status::Adjourned
    }

    /// FEN of the start position.
    pub fn initial_fen(&self) -> String {
        self.fen_of(self.game.start_position())
    }

    fn fen_of(&self, p: &Position) -> String {
        if p.mode() == CastlingMode::Chess960 {
            p.fen_shredder()
        } else {
            p.fen()
        }
    }

    /// FEN of the current position.
    pub fn fen(&self) -> String {
        self.fen_of(self.game.position())
    }

    /// The moves played.
    pub fn moves(&self) -> Vec<MoveView> {
        self.game
            .moves()
            .iter()
            .map(|r| MoveView {
                uci: r.uci.clone(),
                san: r.san.clone(),
                clock_ms: r.clock_ms.map(ms),
            })
            .collect()
    }

    /// The opening of the moves so far: the last position of the game's line that has a name
    /// (lichess's convention), looked up by position so that transpositions are named; none
    /// in Chess960.
    pub fn opening(&self) -> Option<&'static arbiter_openings::Opening> {
        let openings = arbiter_openings::Openings::get();
        let mut pos = *self.game.start_position();
        let mut named = openings.lookup(&pos);
        for r in self.game.moves() {
            pos.play_unchecked(r.mv);
            named = openings.lookup(&pos).or(named);
        }
        named
    }

    /// Clocks at game time `t`.
    pub fn clocks(&self, t: u64) -> Clocks {
        match self.game.clocks(t) {
            Some(c) => Clocks {
                white_ms: Some(ms(c.white_ms)),
                black_ms: Some(ms(c.black_ms)),
            },
            None => Clocks {
                white_ms: None,
                black_ms: None,
            },
        }
    }

    /// Side to move.
    pub fn turn(&self) -> Seat {
        color_seat(self.game.turn())
    }

    /// Result once over (`1-0`, `0-1`, `1/2-1/2`, forfeits); `None` while running or aborted.
    pub fn result(&self) -> Option<String> {
        if self.game.status() != Status::Finished {
            return None;
        }
        Some(self.game.result().to_string())
    }

    /// The result and termination, once the game has ended.
    pub fn ended(&self) -> Option<GameEnded> {
        (self.game.status() == Status::Finished).then(|| GameEnded {
            result: self.game.result(),
            termination: self.game.termination(),
        })
    }

    /// How the game ended.
    pub fn termination(&self) -> Option<String> {
        self.game.termination().map(|t| t.name().to_owned())
    }

    /// Whose draw offer stands.
    pub fn draw_offer(&self) -> Option<Seat> {
        self.game.draw_offer().map(color_seat)
    }

    /// Claims the side to move could make (Art. 9.2, 9.3).
    pub fn claimable(&self) -> Vec<String> {
        let c = self.game.claimable();
        let mut v = Vec::new();
        if c.threefold {
            v.push("threefold_repetition".to_owned());
        }
        if c.fifty_moves {
            v.push("fifty_moves".to_owned());
        }
        v
    }

    /// Number of moves played.
    pub fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// The last move played, if it is `moves()[ply]`.
    pub fn move_at(&self, ply: usize) -> Option<MoveView> {
        self.game.moves().get(ply).map(|r| MoveView {
            uci: r.uci.clone(),
            san: r.san.clone(),
            clock_ms: r.clock_ms.map(ms),
        })
    }

    /// The public description of a game event (never the sealed move, Guideline I.1.1).
    pub fn describe(ev: &TimedEvent) -> (&'static str, Value) {
        match &ev.event {
            Event::Start => ("start", json!({})),
            Event::Move {
                color, offer_draw, ..
            } => (
                "move",
                json!({"color": color_seat(*color), "offer_draw": offer_draw}),
            ),
            Event::OfferDraw { color } => ("draw_offer", json!({"color": color_seat(*color)})),
            Event::AcceptDraw { color } => ("draw_accept", json!({"color": color_seat(*color)})),
            Event::DeclineDraw { color } => ("draw_decline", json!({"color": color_seat(*color)})),
            Event::ClaimDraw { color, .. } => ("draw_claim", json!({"color": color_seat(*color)})),
            Event::Resign { color } => ("resign", json!({"color": color_seat(*color)})),
            Event::Abort { color } => ("abort", json!({"color": color_seat(*color)})),
            Event::Flag => ("flag", json!({})),
            Event::AddTime { color, ms: m } => {
                ("add_time", json!({"color": color_seat(*color), "ms": m}))
            }
            Event::Adjourn { color, .. } => ("adjourn", json!({"color": color_seat(*color)})),
            Event::Resume => ("resume", json!({})),
            Event::Declare { .. } => ("declare", json!({})),
            Event::SetClock { color, ms: m } => {
                ("set_clock", json!({"color": color_seat(*color), "ms": m}))
            }
            #[allow(unreachable_patterns)]
            _ => ("other", json!({})),
        }
    }

    /// The game in PGN (export format), from `arbiter-game`'s record plus the site's tags;
    /// `names` are White's and Black's.
    pub fn pgn(
        &self,
        id: &str,
        created_unix_ms: i64,
        players: &[(&'static str, String)],
    ) -> String {
        let mut record = self.game.to_pgn_record();
        record.tags.set("Event", "Arbiter online game");
        record.tags.set("Site", format!("arbiter game {id}"));
        record.tags.set("Date", pgn_date(created_unix_ms));
        for (tag, value) in players {
            record.tags.set(*tag, value.as_str());
        }
        if let Some(o) = self.opening() {
            record.tags.set("ECO", o.eco);
            record.tags.set("Opening", o.name);
        }
        arbiter_pgn::Writer::export()
            .write(&record)
            .unwrap_or_else(|e| format!("; cannot write PGN: {e}\n"))
    }
}

/// `YYYY.MM.DD` of a unix time in ms (UTC).
fn pgn_date(unix_ms: i64) -> String {
    // Civil-from-days (Howard Hinnant's algorithm).
    let days = unix_ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_date_of_known_days() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(1_700_000_000_000), "2023.11.14");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
    }

    #[test]
    fn uci_shape_is_recognised_and_san_is_not() {
        assert!(looks_like_uci("e2e4"));
        assert!(looks_like_uci("e7e8q"));
        assert!(!looks_like_uci("Nf3"));
        assert!(!looks_like_uci("e4"));
        assert!(!looks_like_uci("O-O"));
    }

    /// The spec of a `POST /api/games` body.
    fn spec_of(v: Value) -> ApiResult<Spec> {
        let req: super::super::wire::CreateGame = serde_json::from_value(v).unwrap();
        Spec::new(&NewGame::try_from(req)?, 0)
    }

    #[test]
    fn spec_rejects_bad_fen_naming_the_fault() {
        let e = spec_of(json!({"time_control": "5+3", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}))
            .unwrap_err();
        assert_eq!(e.code(), "bad_fen");
        assert!(e.to_string().contains("invalid start position"), "{e}");
    }

    #[test]
    fn spec_rejects_bad_time_control_and_position_number() {
        let e = spec_of(json!({"time_control": "five"})).unwrap_err();
        assert_eq!(e.code(), "bad_time_control");
        let e = spec_of(
            json!({"time_control": "5+3", "variant": "chess960", "chess960_position": 960}),
        )
        .unwrap_err();
        assert_eq!(e.code(), "bad_chess960_position");
        let e = spec_of(json!({"time_control": "5+3", "chess960_position": 5})).unwrap_err();
        assert_eq!(e.code(), "bad_variant");
    }

    #[test]
    fn chess960_518_is_the_standard_array() {
        let s = spec_of(
            json!({"time_control": "5+3", "variant": "chess960", "chess960_position": 518}),
        )
        .unwrap();
        assert!(s.start_fen.unwrap().starts_with("rnbqkbnr/pppppppp/"));
        assert_eq!(s.chess960_position, Some(518));
    }
}
