//! The final standings: tie-breaks computed in the competition's order, players ranked by
//! points and then by each tie-break in turn.

use super::buchholz::{buchholz, sonneborn_berger};
use super::counts::{black_games, black_wins, games_elected, games_won, wins};
use super::crosstable::Crosstable;
use super::direct::direct_encounter;
use super::kind::{Rules, TieBreak};
use super::koya::koya;
use super::rating::{average_rating_of_opponents, perfect_performance, performance_rating};
use crate::model::{Points, StartNo, Tournament};

/// What the standings are computed with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsConfig {
    /// The edition of C.07.
    pub rules: Rules,
    /// The tie-breaks, in the competition's order (C.07 §4: the order is the competition's
    /// choice). Players are ranked by points first in any case.
    pub tie_breaks: Vec<TieBreak>,
    /// Count only the first this many rounds; `None`: every round that was paired.
    pub rounds: Option<u32>,
    /// The rating given to unrated opponents in ARO, TPR and PTP; `None`: their games are
    /// left out of those tie-breaks.
    pub unrated_rating: Option<u16>,
}

impl Default for StandingsConfig {
    fn default() -> StandingsConfig {
        StandingsConfig {
            rules: Rules::default(),
            tie_breaks: TieBreak::all(),
            rounds: None,
            unrated_rating: None,
        }
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StandingsRow {
    /// The player.
    pub start_no: StartNo,
    /// The place, from 1; players equal on points and on every tie-break share it.
    pub rank: u32,
    /// The player's points.
    pub points: Points,
    /// The value of each tie-break, in [`Standings::tie_breaks`] order; `None` when it does
    /// not exist (no rated opponent for ARO, TPR, PTP).
    pub values: Vec<Option<Points>>,
}

/// The standings.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Standings {
    /// The tie-breaks, in order.
    pub tie_breaks: Vec<TieBreak>,
    /// The players, best first (players sharing a place by start number).
    pub rows: Vec<StandingsRow>,
}

impl Standings {
    /// The row of a player.
    pub fn row(&self, start_no: StartNo) -> Option<&StandingsRow> {
        self.rows.iter().find(|r| r.start_no == start_no)
    }

    /// A player's value of a tie-break, when the standings include it.
    pub fn value(&self, start_no: StartNo, tie_break: TieBreak) -> Option<Points> {
        let column = self.tie_breaks.iter().position(|&t| t == tie_break)?;
        self.row(start_no)?.values[column]
    }
}

/// Computes the standings.
pub fn standings(tournament: &Tournament, config: &StandingsConfig) -> Standings {
    let rounds = config.rounds.unwrap_or_else(|| tournament.rounds_paired());
    let table = Crosstable::new(tournament, config.rules, rounds);
    let n = table.rows.len();
    let mut columns: Vec<Vec<Option<Points>>> = Vec::new();
    // Groups of players still tied, best group first, each in start-number order.
    let points: Vec<Option<Points>> = table.rows.iter().map(|r| Some(r.points)).collect();
    let mut groups = refine(vec![(0..n).collect()], &points, false);
    for &tie_break in &config.tie_breaks {
        let values = compute(&table, tie_break, &groups, config.unrated_rating);
        groups = refine(groups, &values, tie_break.lower_is_better());
        columns.push(values);
    }
    let mut rows = Vec::with_capacity(n);
    let mut rank = 1;
    for group in &groups {
        for &player in group {
            rows.push(StandingsRow {
                start_no: tournament.players[player].start_no,
                rank,
                points: table.rows[player].points,
                values: columns.iter().map(|c| c[player]).collect(),
            });
        }
        rank += group.len() as u32;
    }
    Standings {
        tie_breaks: config.tie_breaks.clone(),
        rows,
    }
}

/// Splits every group by `values`: better values first, equal values stay together. A
/// missing value ranks below every present one.
fn refine(
    groups: Vec<Vec<usize>>,
    values: &[Option<Points>],
    lower_is_better: bool,
) -> Vec<Vec<usize>> {
    let mut refined = Vec::with_capacity(groups.len());
    for mut group in groups {
        group.sort_by(|&a, &b| {
            let order = match (values[a], values[b]) {
                (Some(x), Some(y)) if lower_is_better => x.cmp(&y),
                (Some(x), Some(y)) => y.cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            };
            order.then(a.cmp(&b))
        });
        let mut start = 0;
        for i in 1..=group.len() {
            if i == group.len() || values[group[i]] != values[group[start]] {
                let mut part = group[start..i].to_vec();
                part.sort_unstable();
                refined.push(part);
                start = i;
            }
        }
    }
    refined
}

/// One tie-break's value for every player.
fn compute(
    table: &Crosstable,
    tie_break: TieBreak,
    tied: &[Vec<usize>],
    unrated: Option<u16>,
) -> Vec<Option<Points>> {
    let all = |values: Vec<Points>| values.into_iter().map(Some).collect();
    match tie_break {
        TieBreak::Points => table.rows.iter().map(|r| Some(r.points)).collect(),
        TieBreak::Buchholz(cut) => all(buchholz(table, cut)),
        TieBreak::SonnebornBerger(cut) => all(sonneborn_berger(table, cut)),
        TieBreak::DirectEncounter => all(direct_encounter(table, tied)),
        TieBreak::Wins => all(wins(table)),
        TieBreak::GamesWon => all(games_won(table)),
        TieBreak::BlackGames => all(black_games(table)),
        TieBreak::BlackWins => all(black_wins(table)),
        TieBreak::GamesElected => all(games_elected(table)),
        TieBreak::AverageRatingOfOpponents(cut) => average_rating_of_opponents(table, cut, unrated),
        TieBreak::PerformanceRating => performance_rating(table, unrated),
        TieBreak::PerfectPerformance => perfect_performance(table, unrated),
        TieBreak::Koya => all(koya(table)),
    }
}
