//! How a game ends, and material that can never checkmate.

use crate::{Bitboard, Color, Position, Role};
use core::fmt;

/// Why a game ended (or can be ended by a claim).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Art. 5.1.1: the king is in check and there is no legal move.
    Checkmate,
    /// Art. 5.2.1: no legal move and the king is not in check.
    Stalemate,
    /// Art. 5.2.2: neither side can checkmate; decided here from material alone
    /// (see [`Position::has_insufficient_material`]).
    InsufficientMaterial,
    /// Art. 5.2.2: a dead position that is not a mere lack of material (e.g. a locked pawn
    /// wall), proved by [`crate::dead`].
    DeadPosition,
    /// Art. 9.6.1: the same position for at least the fifth time.
    FivefoldRepetition,
    /// Art. 9.6.2: 75 moves by each side without a pawn move or capture.
    SeventyFiveMoves,
    /// Art. 9.2: a correct claim of threefold repetition.
    ThreefoldRepetition,
    /// Art. 9.3: a correct claim under the fifty-move rule.
    FiftyMoves,
}

impl Termination {
    /// A stable snake_case name (`checkmate`, `fivefold_repetition`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::DeadPosition => "dead_position",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
        }
    }

    /// The Article of the 2018 Laws that applies.
    pub const fn article(self) -> &'static str {
        match self {
            Termination::Checkmate => "5.1.1",
            Termination::Stalemate => "5.2.1",
            Termination::InsufficientMaterial => "5.2.2",
            Termination::DeadPosition => "5.2.2",
            Termination::FivefoldRepetition => "9.6.1",
            Termination::SeventyFiveMoves => "9.6.2",
            Termination::ThreefoldRepetition => "9.2",
            Termination::FiftyMoves => "9.3",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub termination: Termination,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl Position {
    /// `true` if `color` cannot checkmate by any series of legal moves **judged from material
    /// alone** (the exact analysis of blocked positions is a separate module).
    ///
    /// The configurations ruled insufficient, and why each is right:
    /// - **a bare king**: a king can never give check;
    /// - **king and one knight, the opponent having nothing but king and queens**: a knight
    ///   mates only a king whose flight squares are blocked by its own pieces; queens cannot
    ///   serve, because a queen beside its king always has a capture or interposition, or the
    ///   king an escape (python-chess applies the same rule);
    /// - **king and any number of bishops all on squares of one colour, with no pawns and no
    ///   knights on the board**: such bishops attack only squares of that colour, and the
    ///   king's flight squares of the other colour can be blocked only by the opponent's
    ///   pieces, which (without knights or pawns) must themselves be bishops of that same
    ///   colour, queens or rooks that could then capture or block.
    ///
    /// Anything with a pawn, rook or queen, two knights, or a knight with other pieces, is
    /// treated as sufficient.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(color);
        if (ours & (b.pawns() | b.rooks() | b.queens())).any() {
            return false;
        }
        if (ours & b.knights()).any() {
            return ours.count() <= 2 && (b.by_color(!color) - b.kings() - b.queens()).is_empty();
        }
        if (ours & b.bishops()).any() {
            let same_color = (b.bishops() & Bitboard::DARK).is_empty()
                || (b.bishops() & Bitboard::LIGHT).is_empty();
            return same_color && b.pawns().is_empty() && b.knights().is_empty();
        }
        true
    }

    /// `true` if neither side has mating material (Art. 5.2.2, material only).
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// The outcome decided by this position alone: checkmate, stalemate or insufficient
    /// material (Art. 5.1.1, 5.2.1, 5.2.2).
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(if self.is_check() {
                Outcome {
                    winner: Some(!self.turn),
                    termination: Termination::Checkmate,
                }
            } else if self.is_insufficient_material() {
                Outcome {
                    winner: None,
                    termination: Termination::InsufficientMaterial,
                }
            } else {
                Outcome {
                    winner: None,
                    termination: Termination::Stalemate,
                }
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome {
                winner: None,
                termination: Termination::InsufficientMaterial,
            });
        }
        None
    }

    /// Material balance helper: total conventional value of `color`'s pieces.
    pub fn material_value(&self, color: Color) -> u32 {
        Role::ALL
            .iter()
            .map(|r| r.value() * self.board.count(r.of(color)))
            .sum()
    }
}
