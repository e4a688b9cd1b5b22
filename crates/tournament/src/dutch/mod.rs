//! The FIDE Dutch system (C.04.3, in force from 1 February 2026): pairing the next round of a
//! Swiss tournament.
//!
//! [`pair`] takes the tournament as it stands (every earlier round complete, the next round's
//! announced byes already entered) and pairs the players who are present and not yet paired
//! in that round.
//!
//! # How
//!
//! The rules say which pairing is best by comparing candidates criterion after criterion (C1
//! to C21, then the order of transpositions and exchanges of D). Here every criterion is a
//! field of bits in an edge weight, the most important highest (`weights.rs`), so that a
//! maximum weight matching over all the players still to pair is a pairing the rules accept
//! and prefer. The brackets are then paired from the top score down (`brackets.rs`): the
//! moved-down players to pair (`movers.rs`), their opponents, S1 and S2 with their exchanges and
//! the order of S2 (`remainder.rs`) are decided one at a time, each decision the best one that
//! keeps the whole round as good as possible, by adjusting the weights and matching again
//! (`matcher.rs`, on [`crate::matching::IncrementalMatching`]: each question changes the edges
//! at one player, and the matching starts from the previous optimum).
//!
//! The method — criteria as weight fields, brackets decided one player at a time over a
//! global matching — is the one of bbpPairings (Bierema Boyz Programming, Apache-2.0), the
//! FIDE-endorsed program that lichess uses; we read its source to learn the method and wrote
//! this from the rules. Its pairings are the oracle: every round of 120 random tournaments it
//! paired (`tests/dutch_oracle.rs`) is paired identically here, boards, colours and bye.
//!
//! Not supported: accelerated pairings (Baku, C.04.5) — a file that asks for them is refused
//! by the command line.

mod bracket;
mod brackets;
mod colours;
mod explain;
mod facts;
mod matcher;
mod movers;
mod pairer;
mod remainder;
mod weights;

use std::fmt;

use crate::matching::FixedUint;
use crate::model::{Colour, StartNo, Tournament};

use facts::{Facts, Field};

/// One board of a round's pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Board {
    /// The player with white.
    pub white: StartNo,
    /// The player with black.
    pub black: StartNo,
}

/// A round paired by the Dutch system.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RoundPairing {
    /// The round paired (from 1).
    pub round: u32,
    /// The boards in order (C.04.2.B: by the higher-ranked player of each board).
    pub boards: Vec<Board>,
    /// The player who receives the pairing-allocated bye, if the number is odd.
    pub bye: Option<StartNo>,
    /// How the pairing was made, for a person: one line per step (score groups, floaters,
    /// the bye), in the order the pairing was made.
    pub explanation: Vec<String>,
}

/// Why a round could not be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// An earlier round has a game without a result, or the round was already paired.
    RoundNotReady(String),
    /// Fewer than two players are to be paired.
    TooFewPlayers,
    /// No pairing satisfies the absolute criteria (C.04.3 C1–C3): the text says which
    /// players are left without a possible opponent.
    NoLegalPairing(String),
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::RoundNotReady(why) => write!(f, "the round cannot be paired yet: {why}"),
            PairingError::TooFewPlayers => write!(f, "fewer than two players to pair"),
            PairingError::NoLegalPairing(why) => {
                write!(f, "no pairing satisfies the absolute criteria: {why}")
            }
        }
    }
}

impl std::error::Error for PairingError {}

/// Pairs `round` (from 1) of `tournament` by the Dutch system.
///
/// Players paired: those not withdrawn before `round` whose entry for `round` is still
/// `NotPaired` (an announced bye already entered for `round` takes the player out). The
/// number of rounds is `tournament.planned_rounds` (the last round is paired differently;
/// when unknown, every round is treated as not the last); the colour of the top player in
/// round 1 is `tournament.initial_colour` (white when unknown).
pub fn pair(tournament: &Tournament, round: u32) -> Result<RoundPairing, PairingError> {
    let field = facts::collect(tournament, round)?;
    if field.players.len() < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    let forbidden = |a: &Facts, b: &Facts| tournament.is_forbidden(a.start_no, b.start_no, round);
    // The weights need `total_bits` plus a few for the matching's intermediate values.
    let bits = brackets::weight_bits(&field) + 8;
    let outcome = match bits {
        0..=128 => brackets::pair::<u128>(&field, &forbidden),
        129..=256 => brackets::pair::<FixedUint<4>>(&field, &forbidden),
        257..=512 => brackets::pair::<FixedUint<8>>(&field, &forbidden),
        513..=1024 => brackets::pair::<FixedUint<16>>(&field, &forbidden),
        1025..=2048 => brackets::pair::<FixedUint<32>>(&field, &forbidden),
        2049..=4096 => brackets::pair::<FixedUint<64>>(&field, &forbidden),
        _ => brackets::pair::<FixedUint<128>>(&field, &forbidden),
    }?;
    let initial = tournament.initial_colour.unwrap_or(Colour::White);
    Ok(finish(&field, round, outcome, initial))
}

/// Colours for each pair (C.04.3 E) and the boards in their published order (C.04.2 B: by
/// the higher player's score, then the lower player's score, then the higher player's number).
fn finish(field: &Field, round: u32, outcome: brackets::Outcome, initial: Colour) -> RoundPairing {
    let key = |p: &Facts| (std::cmp::Reverse(p.score), p.rank);
    type BoardOrder = (std::cmp::Reverse<i64>, std::cmp::Reverse<i64>, usize);
    let mut boards: Vec<(Board, BoardOrder)> = outcome
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (a, b) = (&field.players[a], &field.players[b]);
            // Allocate from the side of the smaller start number (E is symmetric).
            let (first, second) = if a.start_no < b.start_no {
                (a, b)
            } else {
                (b, a)
            };
            let board = if colours::allocate(first, second, initial) == Colour::White {
                Board {
                    white: first.start_no,
                    black: second.start_no,
                }
            } else {
                Board {
                    white: second.start_no,
                    black: first.start_no,
                }
            };
            let (higher, lower) = if key(a) < key(b) { (a, b) } else { (b, a) };
            let order = (
                std::cmp::Reverse(higher.score),
                std::cmp::Reverse(lower.score),
                higher.rank,
            );
            (board, order)
        })
        .collect();
    boards.sort_by_key(|(_, order)| *order);
    RoundPairing {
        round,
        boards: boards.into_iter().map(|(board, _)| board).collect(),
        bye: outcome.bye.map(|i| field.players[i].start_no),
        explanation: outcome.explanation,
    }
}
