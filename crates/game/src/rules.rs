//! Choices the Laws leave to the rules of the competition, each with the FIDE default.

use crate::result::Scoring;
use crate::Millis;

/// What happens to an illegal move (Art. 7.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum IllegalMovePolicy {
    /// The online default: an illegal move is refused and nothing happens.
    #[default]
    Reject,
    /// As an arbiter with an electronic board sees a *completed* illegal move (Art. 7.5.1):
    /// the position before it is restored; the first time the opponent gets 2 minutes
    /// (1 in blitz, B.2), the second time the player loses, unless the opponent cannot
    /// checkmate, then a draw (7.5.5).
    FidePenalties,
}

/// When draw offers and agreements are allowed (Art. 9.1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DrawOffers {
    /// Art. 9.1.2: allowed (agreement still needs a move by each player, 5.2.3).
    #[default]
    Allowed,
    /// Art. 9.1.1: no offer or agreement until both players have completed this many moves
    /// ("Sofia rules" style).
    NotBeforeMove(u32),
    /// Art. 9.1.1: no offer or agreement at all (claims under 9.2/9.3 stay possible).
    Never,
}

/// The rules of the competition that a game is played under.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct Rules {
    /// Illegal moves: rejected (online default) or penalised (Art. 7.5.5).
    pub illegal_moves: IllegalMovePolicy,
    /// How many completed illegal moves lose (Art. 7.5.5: the second).
    pub illegal_moves_to_lose: u32,
    /// Draw offers and agreement (Art. 9.1.1).
    pub draw_offers: DrawOffers,
    /// Points for win/draw/loss (Art. 10.1).
    pub scoring: Scoring,
    /// Time given to the opponent for an incorrect claim (9.5.3) or a first illegal move
    /// (7.5.5). `None`: 2 minutes, 1 minute in blitz (Appendix B.2).
    pub penalty_time_ms: Option<Millis>,
    /// Online convention: either player may abort the game before both have moved.
    pub allow_abort: bool,
    /// Guideline I: adjournment allowed.
    pub allow_adjournment: bool,
    /// Guideline III applies (announced beforehand, III.2.1): in a standard or rapid game
    /// without increment, a player with less than 2 minutes may ask for 5 seconds per move
    /// for both players (III.4).
    pub guideline_iii: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            illegal_moves: IllegalMovePolicy::Reject,
            illegal_moves_to_lose: 2,
            draw_offers: DrawOffers::Allowed,
            scoring: Scoring::FIDE,
            penalty_time_ms: None,
            allow_abort: true,
            allow_adjournment: true,
            guideline_iii: false,
        }
    }
}

impl Rules {
    /// The FIDE defaults with Art. 7.5.5 penalties for illegal moves (over-the-board play).
    pub fn fide_over_the_board() -> Rules {
        Rules {
            illegal_moves: IllegalMovePolicy::FidePenalties,
            allow_abort: false,
            ..Rules::default()
        }
    }
}
