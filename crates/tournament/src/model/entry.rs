//! What one player did in one round: a game with its result, a forfeit, a bye, or nothing.

use super::player::StartNo;

/// The colour a player had in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The result of a game played over the board, from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum GameResult {
    /// The player won.
    Win,
    /// The game was drawn.
    Draw,
    /// The player lost.
    Loss,
}

impl GameResult {
    /// The same game seen from the opponent's side.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// The kinds of bye (C.04.1, C.07 §16.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Bye {
    /// The pairing-allocated bye (PAB): the player left over when the pairing has an odd number
    /// of players (C.04.1.c; TRF `U`).
    PairingAllocated,
    /// A full-point bye the player was granted (TRF `F`).
    FullPoint,
    /// A half-point bye the player requested (TRF `H`).
    HalfPoint,
    /// A zero-point bye: the player announced an absence (TRF `Z`).
    ZeroPoint,
}

/// One player's round: what the crosstable shows in that player's row and that round's column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum RoundEntry {
    /// A game played over the board. `rated: false` is TRF's `W D L` (a game that does not
    /// count for rating, e.g. fewer than one move each); otherwise `1 = 0`.
    Game {
        /// The opponent.
        opponent: StartNo,
        /// This player's colour.
        colour: Colour,
        /// This player's result.
        result: GameResult,
        /// Whether the game counts for rating.
        rated: bool,
    },
    /// A pairing whose game has no result yet (a round in progress).
    Pending {
        /// The opponent.
        opponent: StartNo,
        /// This player's colour.
        colour: Colour,
    },
    /// A game not played because a player did not appear: `won` is TRF's `+` (the opponent
    /// forfeited), otherwise `-`. When both sides are `-` it is a double forfeit.
    Forfeit {
        /// The opponent the pairing named.
        opponent: StartNo,
        /// The colour the pairing gave this player, when known.
        colour: Option<Colour>,
        /// Whether this player won by forfeit.
        won: bool,
    },
    /// A bye of the given kind.
    Bye(Bye),
    /// Not paired and no bye: not yet entered (a late entry), withdrawn, or absent without
    /// notice (TRF: an empty round block).
    #[default]
    NotPaired,
}

impl RoundEntry {
    /// The opponent named by the pairing, if any (games, pending games, forfeits).
    pub fn opponent(&self) -> Option<StartNo> {
        match *self {
            RoundEntry::Game { opponent, .. }
            | RoundEntry::Pending { opponent, .. }
            | RoundEntry::Forfeit { opponent, .. } => Some(opponent),
            RoundEntry::Bye(_) | RoundEntry::NotPaired => None,
        }
    }

    /// The colour the pairing gave this player, if any.
    pub fn colour(&self) -> Option<Colour> {
        match *self {
            RoundEntry::Game { colour, .. } | RoundEntry::Pending { colour, .. } => Some(colour),
            RoundEntry::Forfeit { colour, .. } => colour,
            RoundEntry::Bye(_) | RoundEntry::NotPaired => None,
        }
    }

    /// Whether a game was played over the board.
    pub fn is_played(&self) -> bool {
        matches!(self, RoundEntry::Game { .. })
    }

    /// Whether the player took part in the pairing of the round: paired against someone
    /// (even if the game was then forfeited) or given the pairing-allocated bye.
    pub fn is_paired(&self) -> bool {
        matches!(
            self,
            RoundEntry::Game { .. }
                | RoundEntry::Pending { .. }
                | RoundEntry::Forfeit { .. }
                | RoundEntry::Bye(Bye::PairingAllocated)
        )
    }

    /// What the opponent's entry for the same pairing must be, for entries that name one.
    pub fn mirrored(&self, me: StartNo) -> Option<RoundEntry> {
        match *self {
            RoundEntry::Game {
                colour,
                result,
                rated,
                ..
            } => Some(RoundEntry::Game {
                opponent: me,
                colour: colour.opposite(),
                result: result.reversed(),
                rated,
            }),
            RoundEntry::Pending { colour, .. } => Some(RoundEntry::Pending {
                opponent: me,
                colour: colour.opposite(),
            }),
            RoundEntry::Forfeit { colour, won, .. } => Some(RoundEntry::Forfeit {
                opponent: me,
                colour: colour.map(Colour::opposite),
                // A win by forfeit is a loss by forfeit for the other; a loss may face a
                // loss (double forfeit), which `Tournament::check` accepts separately.
                won: !won,
            }),
            RoundEntry::Bye(_) | RoundEntry::NotPaired => None,
        }
    }
}
