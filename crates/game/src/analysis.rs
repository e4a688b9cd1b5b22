//! The hook for "cannot checkmate by any series of legal moves" (Art. 5.2.2, 6.9, 7.5.5).
//!
//! The default, [`ExactAnalysis`], uses `arbiter_rules::dead`: material, reachability
//! behind locked pawns and (for rulings) a bounded helpmate search, all sound — "cannot checkmate" is
//! answered only with a proof. [`MaterialAnalysis`] is the material-only test. Another
//! analysis plugs in through [`MatingAnalysis`] and [`crate::Game::set_analysis`].

use arbiter_rules::dead::{self, Mode, Verdict};
use arbiter_rules::{Color, Position};

/// Decides whether a player can still checkmate.
pub trait MatingAnalysis: Send + Sync + core::fmt::Debug {
    /// `true` if `color` cannot checkmate the opponent by any series of legal moves
    /// (Art. 6.9, 7.5.5: then a flag fall or second illegal move of the opponent draws).
    fn cannot_checkmate(&self, position: &Position, color: Color) -> bool;

    /// `true` if neither player can checkmate: a dead position (Art. 5.2.2), which ends the
    /// game at once.
    fn is_dead(&self, position: &Position) -> bool {
        self.cannot_checkmate(position, Color::White)
            && self.cannot_checkmate(position, Color::Black)
    }
}

/// The material-only analysis of `arbiter-rules` (sound: it never calls a position dead that
/// is not, but misses blocked positions).
#[derive(Debug, Clone, Copy, Default)]
pub struct MaterialAnalysis;

impl MatingAnalysis for MaterialAnalysis {
    fn cannot_checkmate(&self, position: &Position, color: Color) -> bool {
        position.has_insufficient_material(color)
    }
}

/// The exact analysis of `arbiter_rules::dead`: after every move the quick layers (material,
/// reachability) decide dead positions (Art. 5.2.2); for a ruling on a flag fall
/// (6.9) or a second illegal move (7.5.5) the helpmate search runs as well, within a node
/// budget. "Cannot checkmate" is answered only when proved; an exhausted budget counts as
/// "can checkmate" (the Laws' default outcome, the loss, stands).
#[derive(Debug, Clone, Copy)]
pub struct ExactAnalysis {
    /// Work allowed for a ruling (6.9, 7.5.5).
    pub ruling: Mode,
    /// Work allowed after every move (5.2.2).
    pub per_move: Mode,
}

impl Default for ExactAnalysis {
    fn default() -> ExactAnalysis {
        ExactAnalysis {
            ruling: Mode::Full,
            per_move: Mode::Quick,
        }
    }
}

impl MatingAnalysis for ExactAnalysis {
    fn cannot_checkmate(&self, position: &Position, color: Color) -> bool {
        dead::can_checkmate(position, color, self.ruling) == Verdict::No
    }

    fn is_dead(&self, position: &Position) -> bool {
        dead::is_dead(position, self.per_move) == Some(true)
    }
}
