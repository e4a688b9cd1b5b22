//! The record of the game (Art. 8, Appendix C) as PGN, via `arbiter-pgn`, and a game rebuilt
//! from such a record.
//!
//! Written: the Seven Tag Roster, `TimeControl` (PGN form), `Termination` (PGN standard
//! value) and `ArbiterTermination` (this crate's exact [`Termination`] name), `Variant`,
//! `SetUp` and `FEN` for Chess960 or a set-up position, `[%clk]` (the mover's time after the
//! move) and `[%emt]` (the time the move took) after every move, `(=)` after a move made with
//! a draw offer (Art. 9.1.2.2), and comments for claims, illegal moves, offers without a move
//! and adjournment, each citing its Article.

use crate::event::GameConfig;
use crate::game::{Game, GameError, MoveOptions, Status};
use crate::result::{GameResult, Termination};
use crate::rules::Rules;
use crate::time_control::{ParseTimeControlError, TimeControl};
use crate::Millis;
use arbiter_pgn::{GameRecord as PgnRecord, GameResult as PgnResult, Tags, Writer};
use arbiter_rules::Color;
use core::fmt;
use std::time::Duration;

/// Why a game could not be rebuilt from a PGN record.
#[derive(Debug)]
pub enum FromPgnError {
    /// The PGN text could not be read.
    Read(arbiter_pgn::ReadError),
    /// The `TimeControl` tag could not be read.
    TimeControl(ParseTimeControlError),
    /// A move or the start position did not apply.
    Game {
        /// Index of the move (`None`: the setup).
        ply: Option<usize>,
        /// Why.
        error: GameError,
    },
}

impl fmt::Display for FromPgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromPgnError::Read(e) => write!(f, "cannot read PGN: {e}"),
            FromPgnError::TimeControl(e) => write!(f, "TimeControl tag: {e}"),
            FromPgnError::Game {
                ply: Some(p),
                error,
            } => write!(f, "move {}: {error}", p + 1),
            FromPgnError::Game { ply: None, error } => write!(f, "setup: {error}"),
        }
    }
}

impl std::error::Error for FromPgnError {}

fn duration(ms: Millis) -> Duration {
    Duration::from_millis(ms)
}

fn millis(d: Duration) -> Millis {
    u64::try_from(d.as_millis()).unwrap_or(Millis::MAX)
}

/// Reads the note `"White receives 120 s (Art. …)"` that [`Game::to_pgn_record`] writes for
/// time added by the arbiter.
fn parse_added_time(comment: &str) -> Option<(Color, Millis)> {
    let flat = comment.split_whitespace().collect::<Vec<_>>().join(" ");
    let (who, rest) = flat.split_once(" receives ")?;
    let color = match who {
        "White" => Color::White,
        "Black" => Color::Black,
        _ => return None,
    };
    let (secs, rest) = rest.split_once(" s (")?;
    // Guideline III.4 time comes with the request, which is replayed itself.
    if !rest.ends_with(')') || rest.starts_with("Guideline III.4") {
        return None;
    }
    let (int, frac) = secs.split_once('.').unwrap_or((secs, ""));
    if int.is_empty()
        || frac.len() > 3
        || !(int.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let ms = int.parse::<Millis>().ok()?.checked_mul(1000)?
        + format!("{frac:0<3}").parse::<Millis>().ok()?;
    Some((color, ms))
}

impl Game {
    /// The game record with its tags; add player names and event tags before writing.
    pub fn to_pgn_record(&self) -> PgnRecord {
        let mut rec = PgnRecord::new();
        rec.tags = Tags::roster();
        rec.tags.set("Result", self.result().pgn());
        rec.result = match self.result().pgn() {
            "1-0" => PgnResult::WhiteWins,
            "0-1" => PgnResult::BlackWins,
            "1/2-1/2" => PgnResult::Draw,
            _ => PgnResult::Unknown,
        };
        rec.tags.set("TimeControl", self.time_control().to_pgn());
        if self.config().chess960 {
            rec.tags.set("Variant", "Chess960");
        }
        let start = self.start_position();
        if self.config().chess960 || self.config().start_fen.is_some() {
            rec.tags.set("SetUp", "1");
            rec.tags.set("FEN", start.fen());
        }
        if let Some(t) = self.termination() {
            rec.tags.set("Termination", t.pgn());
            rec.tags.set("ArbiterTermination", t.name());
        }
        for m in self.moves() {
            let node = rec.moves.push(m.mv);
            node.clock = m.clock_ms.map(duration);
            if self.clock.is_some() {
                node.emt = Some(duration(m.time_used_ms));
            }
            node.draw_offer = m.draw_offer;
        }
        for note in self.notes() {
            match note.ply.checked_sub(1) {
                Some(i) => rec.moves.nodes[i].comments.push(note.text.clone()),
                None => rec.moves.comments.push(note.text.clone()),
            }
        }
        if let Some(t) = self.termination() {
            let text = match t.article() {
                "" => format!("{} ({})", self.result(), t.description()),
                a => format!("{} ({}, Art. {a})", self.result(), t.description()),
            };
            match rec.moves.nodes.last_mut() {
                Some(n) => n.comments.push(text),
                None => rec.moves.comments.push(text),
            }
        }
        rec
    }

    /// The game as PGN text (export format).
    pub fn to_pgn(&self) -> String {
        Writer::export()
            .write(&self.to_pgn_record())
            .expect("a game's own moves are legal")
    }

    /// Rebuilds a game from PGN text: same start position, moves, clocks, offers and result
    /// (see [`Game::from_pgn_record`]).
    ///
    /// # Errors
    /// [`FromPgnError`].
    pub fn from_pgn(text: &str, rules: Rules) -> Result<Game, FromPgnError> {
        let rec = PgnRecord::from_pgn(text).map_err(FromPgnError::Read)?;
        Game::from_pgn_record(&rec, rules)
    }

    /// Rebuilds a game from a PGN record under `rules` (the record does not hold them).
    ///
    /// Time runs from 0: each move is played `[%emt]` after the previous one (or, without
    /// `[%emt]`, after the time that makes the clock show its `[%clk]`); where the clock
    /// still differs from `[%clk]` (time added by an arbiter, penalties), the clock is set to
    /// it (Art. 6.10.2). A running game continues with the clock of the side to move started
    /// at the last move's instant ([`Game::last_event_at`]). A finished game gets its result
    /// and termination from the `Result` and `ArbiterTermination` (or `Termination`) tags.
    ///
    /// # Errors
    /// [`FromPgnError`].
    pub fn from_pgn_record(rec: &PgnRecord, rules: Rules) -> Result<Game, FromPgnError> {
        let setup = |error| FromPgnError::Game { ply: None, error };
        let time_control = match rec.tags.get("TimeControl") {
            Some(t) => TimeControl::from_pgn(t).map_err(FromPgnError::TimeControl)?,
            None => TimeControl::Unknown,
        };
        let chess960 = rec.tags.is_chess960();
        let start = rec
            .start_position()
            .map_err(|e| setup(GameError::InvalidStartPosition(e.to_string())))?;
        let config = GameConfig {
            start_fen: rec.tags.get("FEN").map(|_| start.fen()),
            chess960,
            time_control,
            rules,
        };
        let mut game = Game::new(config).map_err(setup)?;
        game.start(0).map_err(setup)?;
        let mut t: Millis = 0;
        for c in &rec.moves.comments {
            if let Some((color, ms)) = parse_added_time(c) {
                game.add_time(color, ms, t).map_err(setup)?;
            }
        }
        for (ply, node) in rec.moves.nodes.iter().enumerate() {
            let err = |error| FromPgnError::Game {
                ply: Some(ply),
                error,
            };
            if game.status() != Status::Running {
                return Err(err(GameError::GameOver));
            }
            let mover = game.turn();
            let clk = node.clock.map(millis);
            let used = match (node.emt.map(millis), clk, &game.clock) {
                (Some(emt), _, _) => emt,
                (None, Some(clk), Some(clock)) => {
                    let after0 = clock.preview_after(mover, 0);
                    if after0 > clk {
                        after0 - clk + clock.delay_ms(mover)
                    } else {
                        0
                    }
                }
                _ => 0,
            };
            t += used;
            let opts = MoveOptions {
                offer_draw: node.draw_offer,
                lag_credit_ms: 0,
            };
            match game.play(mover, node.mv, t, opts) {
                Ok(_) => {}
                Err(GameError::DrawTooEarly | GameError::DrawOffersNotAllowed) => {
                    game.play(mover, node.mv, t, MoveOptions::default())
                        .map_err(err)?;
                }
                Err(e) => return Err(err(e)),
            }
            if let (Some(clk), Some(rec_ms)) = (clk, game.records.last().and_then(|r| r.clock_ms)) {
                if clk != rec_ms && game.status() != Status::Finished {
                    game.set_clock(mover, clk, t).map_err(err)?;
                    if let Some(r) = game.records.last_mut() {
                        r.clock_ms = Some(clk);
                    }
                }
            }
            // Time the arbiter gave after this move (notes written by `to_pgn_record`).
            if game.status() == Status::Running {
                for c in &node.comments {
                    if let Some((color, ms)) = parse_added_time(c) {
                        game.add_time(color, ms, t).map_err(err)?;
                    }
                    if c.contains("per move for both players (Guideline III.4)") {
                        // Best effort: refused when the rules given do not announce III.
                        let _ = game.request_increment(game.turn(), t);
                    }
                }
            }
        }
        if game.status() == Status::Finished {
            return Ok(game);
        }
        let result = rec.effective_result();
        let termination = rec
            .tags
            .get("ArbiterTermination")
            .and_then(|t| t.parse::<Termination>().ok())
            .or_else(|| match rec.tags.get("Termination") {
                Some(t) if t.eq_ignore_ascii_case("time forfeit") => {
                    Some(if result == PgnResult::Draw {
                        Termination::TimeoutVsInsufficientMaterial
                    } else {
                        Termination::Timeout
                    })
                }
                Some(t) if t.eq_ignore_ascii_case("abandoned") && result == PgnResult::Unknown => {
                    Some(Termination::Aborted)
                }
                _ => None,
            });
        let end = match (result, termination) {
            (PgnResult::Unknown, None) => return Ok(game),
            (_, Some(Termination::Timeout | Termination::TimeoutVsInsufficientMaterial))
                if game.next_deadline().is_some() =>
            {
                let deadline = game.next_deadline().unwrap_or(t);
                game.check_time(deadline);
                return Ok(game);
            }
            (r, Some(Termination::Forfeit)) => match r {
                PgnResult::WhiteWins => (GameResult::WhiteWinsByForfeit, Termination::Forfeit),
                PgnResult::BlackWins => (GameResult::BlackWinsByForfeit, Termination::Forfeit),
                PgnResult::Draw => (GameResult::Draw, Termination::Forfeit),
                PgnResult::Unknown => (GameResult::DoubleForfeit, Termination::Forfeit),
            },
            (PgnResult::Unknown, Some(t)) => (GameResult::Unfinished, t),
            (PgnResult::WhiteWins, t) => {
                (GameResult::WhiteWins, t.unwrap_or(Termination::Resignation))
            }
            (PgnResult::BlackWins, t) => {
                (GameResult::BlackWins, t.unwrap_or(Termination::Resignation))
            }
            (PgnResult::Draw, t) => (GameResult::Draw, t.unwrap_or(Termination::Agreement)),
        };
        game.declare_result(end.0, end.1, t)
            .map_err(|error| FromPgnError::Game { ply: None, error })?;
        Ok(game)
    }
}
