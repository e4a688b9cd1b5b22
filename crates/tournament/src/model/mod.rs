//! The model of a competition: players, their rounds, results and the scoring system.
//!
//! A tournament is stored as its crosstable — for every player, what happened in every round —
//! because that is what arbiters and TRF files exchange; [`Tournament::pairings`] gives the
//! boards of a round and [`Tournament::check`] says where the two sides of a pairing disagree.

mod entry;
mod history;
mod player;
mod points;
mod scoring;
mod tournament;

pub use entry::{Bye, Colour, GameResult, RoundEntry};
pub use player::{Player, StartNo, Title};
pub use points::{ParsePointsError, Points};
pub use scoring::ScoringSystem;
pub use tournament::{ForbiddenPairs, Format, Inconsistency, Pairing, Tournament};
