//! The crosstable as the tie-breaks see it: every player's rounds up to the last one counted,
//! with the two facts C.07 §16 adds — which rounds are voluntarily unplayed, and what score a
//! player brings to their opponents' tie-breaks.

use std::collections::HashMap;

use super::kind::Rules;
use crate::model::{
    Bye, Colour, Format, GameResult, Points, RoundEntry, ScoringSystem, Tournament,
};

/// One player's round.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell {
    /// The opponent's index in [`Crosstable::rows`], when the pairing named one who exists.
    pub opponent: Option<usize>,
    /// Points scored in the round.
    pub points: Points,
    /// Played over the board (or being played: a game in progress has no result yet).
    pub played: bool,
    /// Colour in a played game.
    pub colour: Option<Colour>,
    /// Result of a played game.
    pub result: Option<GameResult>,
    /// A voluntary unplayed round (VUR, C.07 §16.2): the participant chose not to play it — a
    /// half-point or zero-point bye, a loss by forfeit, or not paired at all (withdrawn, late,
    /// absent). Forfeit wins, full-point and pairing-allocated byes are not voluntary.
    pub voluntary_unplayed: bool,
}

/// One player's row.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    /// The player's rating, if rated.
    pub rating: Option<u16>,
    /// Rounds 1 to [`Crosstable::rounds`].
    pub cells: Vec<Cell>,
    /// The player's score.
    pub points: Points,
    /// The player's score as their opponents' Buchholz and Sonneborn-Berger count it
    /// (C.07 §16.3).
    pub adjusted: Points,
}

/// The crosstable with what every tie-break needs.
#[derive(Clone, Debug)]
pub(crate) struct Crosstable {
    /// Which regulations apply.
    pub rules: Rules,
    /// Swiss or round robin: C.07 treats unplayed rounds differently in each.
    pub format: Format,
    /// The rounds counted.
    pub rounds: u32,
    /// The scoring system.
    pub scoring: ScoringSystem,
    /// The players, in the tournament's order.
    pub rows: Vec<Row>,
}

impl Crosstable {
    /// Builds the crosstable of the first `rounds` rounds.
    pub fn new(tournament: &Tournament, rules: Rules, rounds: u32) -> Crosstable {
        let format = tournament.format();
        let scoring = tournament.scoring;
        let index: HashMap<_, _> = tournament
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.start_no, i))
            .collect();
        let mut rows: Vec<Row> = tournament
            .players
            .iter()
            .map(|player| {
                let cells: Vec<Cell> = (1..=rounds)
                    .map(|round| {
                        let entry = player.entry(round);
                        // A game in progress counts as played, with no result yet.
                        let (played, colour, result) = match entry {
                            RoundEntry::Game { colour, result, .. } => {
                                (true, Some(colour), Some(result))
                            }
                            RoundEntry::Pending { colour, .. } => (true, Some(colour), None),
                            _ => (false, None, None),
                        };
                        Cell {
                            opponent: entry.opponent().and_then(|o| index.get(&o).copied()),
                            points: scoring.points(&entry),
                            played,
                            colour,
                            result,
                            voluntary_unplayed: matches!(
                                entry,
                                RoundEntry::Bye(Bye::HalfPoint | Bye::ZeroPoint)
                                    | RoundEntry::Forfeit { won: false, .. }
                                    | RoundEntry::NotPaired
                            ),
                        }
                    })
                    .collect();
                let points = cells.iter().map(|c| c.points).sum();
                Row {
                    rating: player.rating,
                    cells,
                    points,
                    adjusted: points,
                }
            })
            .collect();
        for row in &mut rows {
            row.adjusted = adjusted_score(row, format, &scoring);
        }
        Crosstable {
            rules,
            format,
            rounds,
            scoring,
            rows,
        }
    }

    /// The score the opponent brings to a played round, or that an unplayed round of
    /// `player` is worth to their own Buchholz (C.07 §16.4); `None` when a round-robin round
    /// without an opponent counts for nothing.
    pub fn opponent_score(&self, player: usize, round: usize) -> Option<OpponentScore> {
        let row = &self.rows[player];
        let cell = &row.cells[round];
        // In a round robin the pairings are fixed in advance, so a forfeited game counts as
        // played against its opponent (C.07 §16: the unplayed-round rules are for Swiss).
        let counts_as_played = match self.format {
            Format::Swiss => cell.played,
            Format::RoundRobin => cell.opponent.is_some(),
        };
        if counts_as_played {
            let opponent = cell.opponent?;
            return Some(OpponentScore {
                score: self.rows[opponent].adjusted,
                voluntary_unplayed: false,
            });
        }
        if self.format == Format::RoundRobin {
            return None;
        }
        let own = row.points;
        let score = match self.rules {
            // 2024 §16.4: an own unplayed round counts as if against a participant with the
            // player's own final score.
            Rules::Fide2024 => own,
            Rules::Fide2026 => match cell.opponent {
                // §16.4.1: a forfeit is worth at most the (adjusted) score of the opponent
                // who did not play.
                Some(opponent) => own.min(self.rows[opponent].adjusted),
                // §16.4.2: any other unplayed round at most half the maximum score (a draw in
                // every round).
                None => own.min(self.scoring.draw.times_int(i64::from(self.rounds))),
            },
        };
        Some(OpponentScore {
            score,
            voluntary_unplayed: cell.voluntary_unplayed,
        })
    }
}

/// A value entering Buchholz or Sonneborn-Berger for one round.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpponentScore {
    /// The opponent's (or the virtual opponent's) score.
    pub score: Points,
    /// Whether the round was a voluntary unplayed round of the player (cut first, §16.5).
    pub voluntary_unplayed: bool,
}

/// C.07 §16.3: for the tie-breaks of their opponents, a participant's unplayed rounds count as
/// scored (§16.3.1), except those of §16.2.5 — the voluntarily unplayed rounds without an opponent after
/// the last round the participant took part in (a withdrawal, late absences) — which count as
/// draws (§16.3.2). In a round robin they count as nothing.
fn adjusted_score(row: &Row, format: Format, scoring: &ScoringSystem) -> Points {
    let last_present = row
        .cells
        .iter()
        .rposition(|c| !c.voluntary_unplayed)
        .map_or(0, |i| i + 1);
    let absent_value = match format {
        Format::Swiss => scoring.draw,
        Format::RoundRobin => Points::ZERO,
    };
    row.cells
        .iter()
        .enumerate()
        .map(|(i, cell)| {
            if i < last_present || cell.opponent.is_some() {
                cell.points
            } else {
                absent_value
            }
        })
        .sum()
}
