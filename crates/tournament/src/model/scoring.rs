//! The scoring system: what each kind of result is worth, as the competition decides.

use super::entry::{Bye, GameResult, RoundEntry};
use super::points::Points;

/// Points for each kind of round result.
///
/// The Laws (Art. 10.1) give 1, ½ and 0 "unless the regulations of an event specify
/// otherwise"; C.04.1 (Swiss basic rules) gives the pairing-allocated bye "the points of a
/// win, unless the rules of the tournament say otherwise"; a forfeit is a win for the player
/// present (Art. 6.7.1) and zero for the absent one. C.07 §16 names the byes whose values the
/// tie-breaks need. Everything is the competition's choice; the defaults are FIDE's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScoringSystem {
    /// A game won over the board.
    pub win: Points,
    /// A game drawn.
    pub draw: Points,
    /// A game lost.
    pub loss: Points,
    /// A win by forfeit (the opponent did not appear).
    pub forfeit_win: Points,
    /// A loss by forfeit (this player did not appear).
    pub forfeit_loss: Points,
    /// The pairing-allocated bye.
    pub pairing_allocated_bye: Points,
    /// A full-point bye.
    pub full_point_bye: Points,
    /// A half-point bye.
    pub half_point_bye: Points,
    /// A zero-point bye.
    pub zero_point_bye: Points,
    /// A round in which the player was not paired at all.
    pub not_paired: Points,
}

impl Default for ScoringSystem {
    fn default() -> ScoringSystem {
        ScoringSystem::standard()
    }
}

impl ScoringSystem {
    /// 1 / ½ / 0, byes and forfeits at FIDE's defaults (Art. 10.1, C.04.1).
    pub const fn standard() -> ScoringSystem {
        ScoringSystem::with_game_points(Points::ONE, Points::HALF, Points::ZERO)
    }

    /// 3 / 1 / 0 ("football" scoring), byes and forfeits valued like the results they stand
    /// for: a pairing-allocated, full-point or forfeit bye as a win, a half-point bye as a draw.
    pub const fn three_one_zero() -> ScoringSystem {
        ScoringSystem::with_game_points(Points::from_int(3), Points::ONE, Points::ZERO)
    }

    /// Given values for a win, a draw and a loss; byes and forfeits valued like the results
    /// they stand for, as FIDE's defaults do.
    pub const fn with_game_points(win: Points, draw: Points, loss: Points) -> ScoringSystem {
        ScoringSystem {
            win,
            draw,
            loss,
            forfeit_win: win,
            forfeit_loss: Points::ZERO,
            pairing_allocated_bye: win,
            full_point_bye: win,
            half_point_bye: draw,
            zero_point_bye: Points::ZERO,
            not_paired: Points::ZERO,
        }
    }

    /// The value of a game result.
    pub fn game(&self, result: GameResult) -> Points {
        match result {
            GameResult::Win => self.win,
            GameResult::Draw => self.draw,
            GameResult::Loss => self.loss,
        }
    }

    /// The value of a bye.
    pub fn bye(&self, bye: Bye) -> Points {
        match bye {
            Bye::PairingAllocated => self.pairing_allocated_bye,
            Bye::FullPoint => self.full_point_bye,
            Bye::HalfPoint => self.half_point_bye,
            Bye::ZeroPoint => self.zero_point_bye,
        }
    }

    /// The points a round entry is worth (a pending game: nothing yet).
    pub fn points(&self, entry: &RoundEntry) -> Points {
        match *entry {
            RoundEntry::Game { result, .. } => self.game(result),
            RoundEntry::Pending { .. } => Points::ZERO,
            RoundEntry::Forfeit { won: true, .. } => self.forfeit_win,
            RoundEntry::Forfeit { won: false, .. } => self.forfeit_loss,
            RoundEntry::Bye(bye) => self.bye(bye),
            RoundEntry::NotPaired => self.not_paired,
        }
    }
}
