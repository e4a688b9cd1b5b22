//! A competition: its facts, its players with their rows, and the rules it chose.

use std::collections::HashMap;
use std::fmt;

use super::entry::{Bye, Colour, RoundEntry};
use super::player::{Player, StartNo};
use super::points::Points;
use super::scoring::ScoringSystem;

/// Players who must not be paired with one another (team mates, family; C.04.1 lets the
/// competition forbid pairings), during some rounds or all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ForbiddenPairs {
    /// No two of these players may meet.
    pub players: Vec<StartNo>,
    /// The first and last round (from 1, inclusive) the ban applies to; `None`: all rounds.
    pub rounds: Option<(u32, u32)>,
}

impl ForbiddenPairs {
    /// Whether `a` and `b` may not meet in `round`.
    pub fn forbids(&self, a: StartNo, b: StartNo, round: u32) -> bool {
        a != b
            && self
                .rounds
                .is_none_or(|(first, last)| first <= round && round <= last)
            && self.players.contains(&a)
            && self.players.contains(&b)
    }
}

/// How players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Format {
    /// A Swiss system (C.04): each round paired from the standings.
    Swiss,
    /// Everyone meets everyone (C.05), once per cycle.
    RoundRobin,
}

/// A competition: facts (TRF's header records), players and their results, the rules chosen.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tournament {
    /// Name (TRF 012).
    pub name: String,
    /// City (TRF 022).
    pub city: String,
    /// Federation (TRF 032).
    pub federation: String,
    /// Start date as written (TRF 042).
    pub start_date: String,
    /// End date as written (TRF 052).
    pub end_date: String,
    /// The pairing system's name as written (TRF 092, e.g. `FIDE_DUTCH_2025`, `Round robin`).
    pub system: String,
    /// Chief arbiter (TRF 102).
    pub chief_arbiter: String,
    /// Deputy chief arbiters (TRF 112, one per line).
    pub deputy_arbiters: Vec<String>,
    /// Time control as written (TRF 122).
    pub time_control: String,
    /// Round dates as written (TRF 132), round 1 first.
    pub round_dates: Vec<String>,
    /// The number of rounds planned (TRF `XXR`/142), when known: the Dutch system treats the
    /// last rounds differently, so a pairing program must be told it.
    pub planned_rounds: Option<u32>,
    /// The colour the first player (by start number, or the top board) gets in round 1 (TRF
    /// `XXC white1`/`black1`, 152).
    pub initial_colour: Option<Colour>,
    /// Whether it is a Swiss or a round robin; `None`: decided from `system` and the numbers.
    pub format: Option<Format>,
    /// What each result is worth.
    pub scoring: ScoringSystem,
    /// Pairings the competition forbids.
    pub forbidden_pairs: Vec<ForbiddenPairs>,
    /// The players, in start-number order.
    pub players: Vec<Player>,
}

/// A pairing of one round, seen from above: a board or a bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Two players paired; the entries are each one's own.
    Board {
        /// White (or the first of the two when the pairing gave no colours).
        white: StartNo,
        /// Black.
        black: StartNo,
        /// White's entry.
        entry: RoundEntry,
    },
    /// A player given a bye.
    Bye {
        /// The player.
        player: StartNo,
        /// The kind of bye.
        bye: Bye,
    },
}

/// Something in the crosstable that contradicts itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    /// The round (from 1).
    pub round: u32,
    /// The player whose entry is wrong.
    pub player: StartNo,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "round {}, player {}: {}",
            self.round, self.player, self.message
        )
    }
}

impl Tournament {
    /// The player with this start number.
    pub fn player(&self, start_no: StartNo) -> Option<&Player> {
        // Players are normally stored in order, so try the direct index first.
        let guess = (start_no.0 as usize).wrapping_sub(1);
        match self.players.get(guess) {
            Some(p) if p.start_no == start_no => Some(p),
            _ => self.players.iter().find(|p| p.start_no == start_no),
        }
    }

    /// The player with this start number, to change.
    pub fn player_mut(&mut self, start_no: StartNo) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.start_no == start_no)
    }

    /// The number of rounds with at least one entry other than `NotPaired`.
    pub fn rounds_played(&self) -> u32 {
        self.players
            .iter()
            .filter_map(|p| {
                p.rounds
                    .iter()
                    .rposition(|e| *e != RoundEntry::NotPaired)
                    .map(|i| i as u32 + 1)
            })
            .max()
            .unwrap_or(0)
    }

    /// The number of rounds that were paired: the last round in which someone played, was
    /// paired (a forfeit, a game in progress) or got the pairing-allocated bye. Byes announced
    /// for a round not yet paired do not count.
    pub fn rounds_paired(&self) -> u32 {
        self.players
            .iter()
            .filter_map(|p| {
                p.rounds
                    .iter()
                    .rposition(RoundEntry::is_paired)
                    .map(|i| i as u32 + 1)
            })
            .max()
            .unwrap_or(0)
    }

    /// A player's points after `round` rounds (all rounds: `rounds_played()`).
    pub fn points_after(&self, player: &Player, round: u32) -> Points {
        (1..=round)
            .map(|r| self.scoring.points(&player.entry(r)))
            .sum()
    }

    /// Every player's points after `round` rounds, by start number.
    pub fn scores_after(&self, round: u32) -> HashMap<StartNo, Points> {
        self.players
            .iter()
            .map(|p| (p.start_no, self.points_after(p, round)))
            .collect()
    }

    /// The format: as set, else a round robin when the system's name says so (`robin`,
    /// `berger`, `RR`) or everyone met everyone, else Swiss.
    pub fn format(&self) -> Format {
        if let Some(format) = self.format {
            return format;
        }
        let system = self.system.to_ascii_uppercase();
        if system.contains("SWISS") || system.contains("DUTCH") || system.contains("BURSTEIN") {
            return Format::Swiss;
        }
        if system.contains("ROBIN") || system.contains("BERGER") || system.contains("RR") {
            return Format::RoundRobin;
        }
        let n = self.players.len() as u32;
        let rounds = self.planned_rounds.unwrap_or_else(|| self.rounds_played());
        if n >= 2 && (rounds == n || rounds + 1 == n || rounds == 2 * n || rounds + 2 == 2 * n) {
            Format::RoundRobin
        } else {
            Format::Swiss
        }
    }

    /// The boards and byes of `round`, boards in the order of their white player's start
    /// number (the crosstable does not record board numbers).
    pub fn pairings(&self, round: u32) -> Vec<Pairing> {
        let mut boards = Vec::new();
        for player in &self.players {
            let entry = player.entry(round);
            match entry {
                RoundEntry::Bye(bye) => boards.push(Pairing::Bye {
                    player: player.start_no,
                    bye,
                }),
                RoundEntry::NotPaired => {}
                _ => {
                    let opponent = entry.opponent().expect("paired entries name an opponent");
                    let is_white = match entry.colour() {
                        Some(colour) => colour == Colour::White,
                        None => player.start_no < opponent,
                    };
                    if is_white {
                        boards.push(Pairing::Board {
                            white: player.start_no,
                            black: opponent,
                            entry,
                        });
                    }
                }
            }
        }
        boards
    }

    /// Checks that the crosstable agrees with itself: opponents exist and name each other
    /// back with opposite colours and complementary results, nobody plays themselves or is
    /// listed twice.
    pub fn check(&self) -> Vec<Inconsistency> {
        let mut problems = Vec::new();
        let mut seen = HashMap::new();
        for player in &self.players {
            if seen.insert(player.start_no, ()).is_some() {
                problems.push(Inconsistency {
                    round: 0,
                    player: player.start_no,
                    message: "start number used twice".into(),
                });
            }
        }
        for player in &self.players {
            for (i, entry) in player.rounds.iter().enumerate() {
                let round = i as u32 + 1;
                let mut report = |message: String| {
                    problems.push(Inconsistency {
                        round,
                        player: player.start_no,
                        message,
                    })
                };
                let Some(opponent_no) = entry.opponent() else {
                    continue;
                };
                if opponent_no == player.start_no {
                    report("paired against themselves".into());
                    continue;
                }
                let Some(opponent) = self.player(opponent_no) else {
                    report(format!("opponent {opponent_no} is not a player"));
                    continue;
                };
                let back = opponent.entry(round);
                let expected = entry.mirrored(player.start_no);
                let double_forfeit = matches!(
                    (entry, back),
                    (
                        RoundEntry::Forfeit { won: false, .. },
                        RoundEntry::Forfeit { won: false, opponent, .. }
                    ) if opponent == player.start_no
                ) && back.colour() == entry.colour().map(Colour::opposite);
                if Some(back) != expected && !double_forfeit {
                    report(format!(
                        "opponent {opponent_no}'s entry does not match: {back:?}"
                    ));
                }
            }
        }
        problems
    }

    /// Whether `a` and `b` may not meet in `round` under the competition's forbidden pairs.
    pub fn is_forbidden(&self, a: StartNo, b: StartNo, round: u32) -> bool {
        self.forbidden_pairs
            .iter()
            .any(|ban| ban.forbids(a, b, round))
    }
}
