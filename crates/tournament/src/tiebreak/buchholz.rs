//! Buchholz (C.07 §8.1) and Sonneborn-Berger (§9.1), with the cut modifiers of §14.1–14.4.

use super::crosstable::Crosstable;
use super::kind::Cut;
use crate::model::Points;

/// One round's contribution: the opponent's score, and that score times the points the
/// player made in the round (Sonneborn-Berger's value).
#[derive(Clone, Copy, Debug)]
struct Contribution {
    score: Points,
    weighted: Points,
    voluntary_unplayed: bool,
}

/// Buchholz of every player.
pub(crate) fn buchholz(table: &Crosstable, cut: Cut) -> Vec<Points> {
    (0..table.rows.len())
        .map(|p| total(contributions(table, p), cut, |c| c.score))
        .collect()
}

/// Sonneborn-Berger of every player.
pub(crate) fn sonneborn_berger(table: &Crosstable, cut: Cut) -> Vec<Points> {
    (0..table.rows.len())
        .map(|p| total(contributions(table, p), cut, |c| c.weighted))
        .collect()
}

fn contributions(table: &Crosstable, player: usize) -> Vec<Contribution> {
    let row = &table.rows[player];
    (0..row.cells.len())
        .filter_map(|round| {
            let value = table.opponent_score(player, round)?;
            Some(Contribution {
                score: value.score,
                weighted: value.score.times(row.cells[round].points),
                voluntary_unplayed: value.voluntary_unplayed,
            })
        })
        .collect()
}

/// The sum after the cuts. §14.1–14.4: the least significant values are cut — the lowest
/// opponents' scores; §16.5: a participant's voluntary unplayed rounds are cut first, whatever
/// their value (the lowest of them first). The median (§14.3) also cuts the highest.
fn total(mut values: Vec<Contribution>, cut: Cut, value: fn(&Contribution) -> Points) -> Points {
    let order = |c: &Contribution| (c.score, value(c));
    for _ in 0..cut.low {
        let lowest = values
            .iter()
            .enumerate()
            .filter(|(_, c)| c.voluntary_unplayed)
            .min_by_key(|(_, c)| order(c))
            .or_else(|| values.iter().enumerate().min_by_key(|(_, c)| order(c)))
            .map(|(i, _)| i);
        match lowest {
            Some(i) => {
                values.remove(i);
            }
            None => break,
        }
    }
    for _ in 0..cut.high {
        let highest = values
            .iter()
            .enumerate()
            .max_by_key(|(_, c)| order(c))
            .map(|(i, _)| i);
        match highest {
            Some(i) => {
                values.remove(i);
            }
            None => break,
        }
    }
    values.iter().map(value).sum()
}
