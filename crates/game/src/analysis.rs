//! The hook for "cannot checkmate by any series of legal moves" (Art. 5.2.2, 6.9, 7.5.5).
//!
//! Today the answer comes from material alone
//! ([`Position::has_insufficient_material`]); the exact analysis of blocked positions is a
//! later module and plugs in here through [`MatingAnalysis`] and [`crate::Game::set_analysis`].

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
