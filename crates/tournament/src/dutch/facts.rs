//! What the Dutch rules need to know of each player before a round is paired: score, pairing
//! number, colour history and preference (C.04.3 A.6), floats (A.4), bye eligibility
//! (C.04.1.d) and earlier opponents (C.04.1.b).

use std::collections::HashSet;

use crate::model::{Bye, Colour, RoundEntry, StartNo, Tournament};

use super::PairingError;

/// Which way a player floated in an earlier round (C.04.3 A.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Float {
    /// Paired with someone of a lower score, or scored without playing (a bye, a forfeit win).
    Down,
    /// Paired with someone of a higher score.
    Up,
    /// Neither.
    None,
}

/// One player as the pairing of the next round sees them.
#[derive(Clone, Debug)]
pub(super) struct Facts {
    /// Start number.
    pub start_no: StartNo,
    /// The pairing number used to break ties and allocate colours: the rank among the players
    /// taking part (from 0), in start-number order.
    pub rank: usize,
    /// Points before the round, in the exact units of [`Points`].
    pub score: i64,
    /// Games played over the board.
    pub played_games: usize,
    /// Colours of the games played over the board, oldest first (forfeits and byes have none).
    pub colours: Vec<Colour>,
    /// The preferred colour (A.6), if any.
    pub preference: Option<Colour>,
    /// |games with white − games with black|.
    pub imbalance: usize,
    /// The colour of the last two games played, when they were the same.
    pub repeated: Option<Colour>,
    /// A strong preference (A.6.b): an imbalance of one that is not absolute.
    pub strong: bool,
    /// Floats one and two rounds back.
    pub floats: [Float; 2],
    /// May receive the pairing-allocated bye (C.04.1.d: no earlier PAB, full-point bye or win
    /// by forfeit).
    pub bye_eligible: bool,
    /// Opponents met over the board (forfeits do not count: C.04.1.b speaks of playing).
    pub played: HashSet<StartNo>,
}

impl Facts {
    /// An absolute colour preference (A.6.a): an imbalance over one, or the same colour in
    /// the last two games played.
    pub fn absolute(&self) -> bool {
        self.imbalance > 1 || self.repeated.is_some()
    }

    /// An imbalance over one.
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }
}

/// The players to pair in a round, and the facts that hold for all of them.
pub(super) struct Field {
    /// The players to pair, in start-number order.
    pub players: Vec<Facts>,
    /// Rounds already played (the round being paired is `played_rounds + 1`).
    pub played_rounds: u32,
    /// Whether this is the last round (A.7: topscorers may then face each other despite
    /// absolute colour preferences).
    pub last_round: bool,
    /// A score above this makes a topscorer in the last round: more than half the maximum
    /// possible score (C.04.3 A.7).
    pub topscorer_threshold: i64,
}

/// Collects the facts for pairing `round` of `tournament`.
pub(super) fn collect(tournament: &Tournament, round: u32) -> Result<Field, PairingError> {
    if round == 0 {
        return Err(PairingError::RoundNotReady(
            "rounds are numbered from 1".into(),
        ));
    }
    let played_rounds = round - 1;
    let scoring = &tournament.scoring;
    for player in &tournament.players {
        for r in 1..round {
            if let RoundEntry::Pending { opponent, .. } = player.entry(r) {
                return Err(PairingError::RoundNotReady(format!(
                    "round {r}: the game of {} and {opponent} has no result",
                    player.start_no
                )));
            }
        }
        if player.entry(round).is_paired() {
            return Err(PairingError::RoundNotReady(format!(
                "round {round} is already paired (player {} has a pairing)",
                player.start_no
            )));
        }
    }

    let score_before = |player: &crate::model::Player, rounds: u32| -> i64 {
        tournament.points_after(player, rounds).ten_thousandths()
    };

    let mut order: Vec<&crate::model::Player> = tournament.players.iter().collect();
    order.sort_by_key(|p| p.start_no);
    let mut players = Vec::new();
    let mut rank = 0;
    for player in order {
        let to_pair = player.is_active_in(round) && player.entry(round) == RoundEntry::NotPaired;
        // Pairing numbers count the players who take part: those paired now, and those who
        // were paired in an earlier round (a late entry absent so far does not count yet).
        let counts = to_pair || (1..round).any(|r| player.entry(r).is_paired());
        if !counts {
            continue;
        }
        let my_rank = rank;
        rank += 1;
        if !to_pair {
            continue;
        }

        let colours = player.colours_played(played_rounds);
        let whites = colours.iter().filter(|&&c| c == Colour::White).count();
        let blacks = colours.len() - whites;
        let imbalance = whites.abs_diff(blacks);
        let lower = if whites > blacks {
            Colour::Black
        } else {
            Colour::White
        };
        let last = colours.last().copied();
        let run = last.map_or(0, |c| colours.iter().rev().take_while(|&&x| x == c).count());
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Colour::opposite)
        } else if imbalance > 0 {
            Some(lower)
        } else {
            last.map(Colour::opposite)
        };
        let repeated = if run > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();

        let mut floats = [Float::None, Float::None];
        for (back, float) in floats.iter_mut().enumerate() {
            let back = back as u32 + 1;
            if back > played_rounds {
                break;
            }
            let r = round - back;
            *float = match player.entry(r) {
                RoundEntry::Game { opponent, .. } => {
                    let mine = score_before(player, r - 1);
                    let theirs = tournament
                        .player(opponent)
                        .map_or(0, |o| score_before(o, r - 1));
                    match mine.cmp(&theirs) {
                        std::cmp::Ordering::Greater => Float::Down,
                        std::cmp::Ordering::Less => Float::Up,
                        std::cmp::Ordering::Equal => Float::None,
                    }
                }
                entry => {
                    if scoring.points(&entry) > scoring.loss {
                        Float::Down
                    } else {
                        Float::None
                    }
                }
            };
        }

        let bye_eligible = !(1..round).any(|r| {
            let entry = player.entry(r);
            match entry {
                RoundEntry::Bye(Bye::PairingAllocated) => true,
                RoundEntry::Game { .. } => false,
                _ => scoring.points(&entry) >= scoring.win,
            }
        });

        players.push(Facts {
            start_no: player.start_no,
            rank: my_rank,
            score: score_before(player, played_rounds),
            played_games: colours.len(),
            colours,
            preference,
            imbalance,
            repeated,
            strong: !absolute && imbalance > 0,
            floats,
            bye_eligible,
            played: (1..round)
                .filter_map(|r| match player.entry(r) {
                    RoundEntry::Game { opponent, .. } => Some(opponent),
                    _ => None,
                })
                .collect(),
        });
    }

    let best = scoring.win.max(scoring.draw).ten_thousandths();
    Ok(Field {
        players,
        played_rounds,
        last_round: tournament
            .planned_rounds
            .is_some_and(|planned| round >= planned),
        topscorer_threshold: i64::from(played_rounds) * best / 2,
    })
}
