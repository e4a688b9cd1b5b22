//! Results, the ways a game ends, and scoring (Art. 5, 6.9, 7.5.5, 9, 10, Guideline I).

use arbiter_rules::Color;
use core::fmt;
use core::str::FromStr;

/// The result of a game as written in the PGN `Result` tag and on a crosstable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: still running, adjourned, or aborted.
    Unfinished,
    /// `+/-`: White wins by forfeit (Black did not play, Art. 6.7).
    WhiteWinsByForfeit,
    /// `-/+`: Black wins by forfeit.
    BlackWinsByForfeit,
    /// `-/-`: both players forfeit.
    DoubleForfeit,
}

impl GameResult {
    /// A decisive or drawn result for the given winner.
    pub const fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// The text: `1-0`, `0-1`, `1/2-1/2`, `*`, `+/-`, `-/+`, `-/-`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
            GameResult::WhiteWinsByForfeit => "+/-",
            GameResult::BlackWinsByForfeit => "-/+",
            GameResult::DoubleForfeit => "-/-",
        }
    }

    /// The PGN `Result` tag can only hold `1-0`, `0-1`, `1/2-1/2` and `*`; forfeits are
    /// written as the matching decisive result (`-/-` as `*`), with the forfeit in
    /// `Termination`.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins | GameResult::WhiteWinsByForfeit => "1-0",
            GameResult::BlackWins | GameResult::BlackWinsByForfeit => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished | GameResult::DoubleForfeit => "*",
        }
    }

    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins | GameResult::WhiteWinsByForfeit => Some(Color::White),
            GameResult::BlackWins | GameResult::BlackWinsByForfeit => Some(Color::Black),
            _ => None,
        }
    }

    /// `true` for the three forfeit results.
    pub const fn is_forfeit(self) -> bool {
        matches!(
            self,
            GameResult::WhiteWinsByForfeit
                | GameResult::BlackWinsByForfeit
                | GameResult::DoubleForfeit
        )
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A result that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseResultError(pub String);

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid result {:?}: expected 1-0, 0-1, 1/2-1/2, *, +/-, -/+ or -/-",
            self.0
        )
    }
}

impl std::error::Error for ParseResultError {}

impl FromStr for GameResult {
    type Err = ParseResultError;

    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        Ok(match s.trim() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unfinished,
            "+/-" | "+/−" | "+--" => GameResult::WhiteWinsByForfeit,
            "-/+" | "−/+" | "--+" => GameResult::BlackWinsByForfeit,
            "-/-" | "−/−" | "---" => GameResult::DoubleForfeit,
            _ => return Err(ParseResultError(s.to_string())),
        })
    }
}

/// Every way a game can end, each with the Article that applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Termination {
    /// Art. 5.1.1.
    Checkmate,
    /// Art. 5.1.2: a player resigned (either player, at any time, also while adjourned, I.6).
    Resignation,
    /// Art. 5.2.1.
    Stalemate,
    /// Art. 5.2.2: a position from which neither player can checkmate (proved by the
    /// game's [`crate::MatingAnalysis`]).
    DeadPosition,
    /// Art. 5.2.3, 9.1: draw by agreement.
    Agreement,
    /// Art. 9.2: a correct claim of threefold repetition.
    ThreefoldRepetition,
    /// Art. 9.3: a correct claim under the fifty-move rule.
    FiftyMoves,
    /// Art. 9.6.1: automatic draw, fivefold repetition.
    FivefoldRepetition,
    /// Art. 9.6.2: automatic draw, 75 moves each without pawn move or capture.
    SeventyFiveMoves,
    /// Art. 6.9: the flag fell; the opponent wins.
    Timeout,
    /// Art. 6.9: the flag fell, but the opponent cannot checkmate by any series of legal
    /// moves; a draw.
    TimeoutVsInsufficientMaterial,
    /// Art. 7.5.5: a second completed illegal move; the opponent wins.
    IllegalMoves,
    /// Art. 7.5.5: a second completed illegal move, but the opponent cannot checkmate; a draw.
    IllegalMovesVsInsufficientMaterial,
    /// Guideline I.8: the sealed move was ambiguous, unreadable or illegal; the sealer loses.
    InvalidSealedMove,
    /// Art. 6.7 / 10.1: a forfeit declared before or instead of play (`+/-`, `-/+`, `-/-`).
    Forfeit,
    /// Art. 12.9: a result decided by the arbiter (penalty, adjudication).
    ArbiterDecision,
    /// Online convention, not a FIDE Law: a player left before both players had moved, so
    /// no game took place and nothing is scored.
    Aborted,
}

impl Termination {
    /// A stable snake_case name.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Resignation => "resignation",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead_position",
            Termination::Agreement => "agreement",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::Timeout => "timeout",
            Termination::TimeoutVsInsufficientMaterial => "timeout_vs_insufficient_material",
            Termination::IllegalMoves => "illegal_moves",
            Termination::IllegalMovesVsInsufficientMaterial => {
                "illegal_moves_vs_insufficient_material"
            }
            Termination::InvalidSealedMove => "invalid_sealed_move",
            Termination::Forfeit => "forfeit",
            Termination::ArbiterDecision => "arbiter_decision",
            Termination::Aborted => "aborted",
        }
    }

    /// The Article of the 2018 Laws that applies (empty for [`Termination::Aborted`]).
    pub const fn article(self) -> &'static str {
        match self {
            Termination::Checkmate => "5.1.1",
            Termination::Resignation => "5.1.2",
            Termination::Stalemate => "5.2.1",
            Termination::DeadPosition => "5.2.2",
            Termination::Agreement => "5.2.3",
            Termination::ThreefoldRepetition => "9.2",
            Termination::FiftyMoves => "9.3",
            Termination::FivefoldRepetition => "9.6.1",
            Termination::SeventyFiveMoves => "9.6.2",
            Termination::Timeout | Termination::TimeoutVsInsufficientMaterial => "6.9",
            Termination::IllegalMoves | Termination::IllegalMovesVsInsufficientMaterial => "7.5.5",
            Termination::InvalidSealedMove => "Guideline I.8",
            Termination::Forfeit => "6.7.1",
            Termination::ArbiterDecision => "12.9",
            Termination::Aborted => "",
        }
    }

    /// A short English description for humans (`"checkmate"`, `"time forfeit"`, …).
    pub const fn description(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Resignation => "resignation",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead position",
            Termination::Agreement => "draw by agreement",
            Termination::ThreefoldRepetition => "threefold repetition claimed",
            Termination::FiftyMoves => "fifty-move rule claimed",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoves => "seventy-five-move rule",
            Termination::Timeout => "time forfeit",
            Termination::TimeoutVsInsufficientMaterial => "flag fell, opponent cannot checkmate",
            Termination::IllegalMoves => "second illegal move",
            Termination::IllegalMovesVsInsufficientMaterial => {
                "second illegal move, opponent cannot checkmate"
            }
            Termination::InvalidSealedMove => "invalid sealed move",
            Termination::Forfeit => "forfeit",
            Termination::ArbiterDecision => "arbiter decision",
            Termination::Aborted => "aborted",
        }
    }

    /// The value of the PGN `Termination` tag (PGN standard 9.8.1): `normal`,
    /// `time forfeit`, `rules infraction`, `adjudication`, `abandoned`.
    pub const fn pgn(self) -> &'static str {
        match self {
            Termination::Timeout | Termination::TimeoutVsInsufficientMaterial => "time forfeit",
            Termination::IllegalMoves
            | Termination::IllegalMovesVsInsufficientMaterial
            | Termination::InvalidSealedMove => "rules infraction",
            Termination::ArbiterDecision => "adjudication",
            Termination::Forfeit | Termination::Aborted => "abandoned",
            _ => "normal",
        }
    }

    /// All terminations.
    pub const ALL: [Termination; 17] = [
        Termination::Checkmate,
        Termination::Resignation,
        Termination::Stalemate,
        Termination::DeadPosition,
        Termination::Agreement,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoves,
        Termination::FivefoldRepetition,
        Termination::SeventyFiveMoves,
        Termination::Timeout,
        Termination::TimeoutVsInsufficientMaterial,
        Termination::IllegalMoves,
        Termination::IllegalMovesVsInsufficientMaterial,
        Termination::InvalidSealedMove,
        Termination::Forfeit,
        Termination::ArbiterDecision,
        Termination::Aborted,
    ];
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Termination {
    type Err = ParseResultError;

    fn from_str(s: &str) -> Result<Termination, ParseResultError> {
        Termination::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| ParseResultError(s.to_string()))
    }
}

/// Points, counted in halves so that ½ is exact (`Points(1)` is ½, `Points(2)` is 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Points(pub u32);

impl Points {
    /// Whole points.
    pub const fn whole(n: u32) -> Points {
        Points(2 * n)
    }

    /// As a float (`0.5` for ½).
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (n, 0) => write!(f, "{n}"),
            (n, _) => write!(f, "{n}½"),
        }
    }
}

/// Points for a win, a draw and a loss (Art. 10.1: 1, ½, 0 unless the competition rules say
/// otherwise). A forfeit win scores as a win and a forfeit loss as a loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Scoring {
    /// Points for a win.
    pub win: Points,
    /// Points for a draw.
    pub draw: Points,
    /// Points for a loss.
    pub loss: Points,
}

impl Scoring {
    /// Art. 10.1: 1 / ½ / 0.
    pub const FIDE: Scoring = Scoring {
        win: Points(2),
        draw: Points(1),
        loss: Points(0),
    };

    /// "Football" scoring some competitions use: 3 / 1 / 0.
    pub const THREE_ONE_ZERO: Scoring = Scoring {
        win: Points(6),
        draw: Points(2),
        loss: Points(0),
    };

    /// Points of `color` for `result`; `None` while unfinished (and for an aborted game).
    pub fn points(&self, result: GameResult, color: Color) -> Option<Points> {
        Some(match result {
            GameResult::Unfinished => return None,
            GameResult::Draw => self.draw,
            GameResult::DoubleForfeit => self.loss,
            r if r.winner() == Some(color) => self.win,
            _ => self.loss,
        })
    }
}

impl Default for Scoring {
    fn default() -> Scoring {
        Scoring::FIDE
    }
}
