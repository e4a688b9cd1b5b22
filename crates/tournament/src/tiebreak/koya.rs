//! The Koya system (C.07 §9.2), for round robins.

use super::crosstable::Crosstable;
use crate::model::{Format, Points};

/// KS: the points each player made against the opponents who scored at least half of the
/// maximum possible score (a win in every game the schedule gives each player).
pub(crate) fn koya(table: &Crosstable) -> Vec<Points> {
    let players = table.rows.len() as i64;
    let rounds = i64::from(table.rounds);
    // With an odd number of players in a round robin everyone sits out once per cycle.
    let games_each = match table.format {
        Format::RoundRobin if players % 2 == 1 && players > 0 => rounds - rounds / players,
        _ => rounds,
    };
    let maximum = table.scoring.win.times_int(games_each);
    table
        .rows
        .iter()
        .map(|row| {
            row.cells
                .iter()
                .filter(|c| {
                    c.opponent
                        .is_some_and(|o| table.rows[o].points.times_int(2) >= maximum)
                })
                .map(|c| c.points)
                .sum()
        })
        .collect()
}
