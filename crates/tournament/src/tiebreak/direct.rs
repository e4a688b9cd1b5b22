//! Direct encounter (C.07 §6): the games among the players still tied decide between them.

use std::collections::BTreeMap;

use super::crosstable::Crosstable;
use crate::model::{Format, Points};

/// DE of every player, given the groups still tied on everything before it.
///
/// The value is the player's place within their tied group as the direct encounters order it
/// (1 first, players the encounters cannot separate sharing a place), or 0 when the
/// encounters separate nobody in the group (as FIDE's checker Gacrux shows it). Lower is
/// better.
pub(crate) fn direct_encounter(table: &Crosstable, tied_groups: &[Vec<usize>]) -> Vec<Points> {
    let mut values = vec![Points::ZERO; table.rows.len()];
    for group in tied_groups.iter().filter(|g| g.len() > 1) {
        let ordered = separate(table, group.clone());
        if ordered.len() < 2 {
            continue;
        }
        let mut place = 1;
        for subgroup in &ordered {
            for &player in subgroup {
                values[player] = Points::from_int(place);
            }
            place += subgroup.len() as i64;
        }
    }
    values
}

/// Orders a tied group into places by their encounters, splitting again inside every place
/// that is still shared (§6: the rule is applied again to the players still tied).
fn separate(table: &Crosstable, group: Vec<usize>) -> Vec<Vec<usize>> {
    let places = one_pass(table, &group);
    if places.len() < 2 {
        return vec![group];
    }
    places
        .into_iter()
        .flat_map(|place| {
            if place.len() > 1 {
                separate(table, place)
            } else {
                vec![place]
            }
        })
        .collect()
}

/// One application of §6 to a group: each player's points in the games among the group
/// (against an opponent met more than once, the average). When every pair has met (always in
/// a round robin, where forfeits count), the points order the group. Otherwise a player is
/// placed alone above the rest only while their points exceed the most any of the rest
/// could have had by winning every encounter they did not play; the rest share a place.
fn one_pass(table: &Crosstable, group: &[usize]) -> Vec<Vec<usize>> {
    let round_robin = table.format == Format::RoundRobin;
    let win = table.scoring.win;
    let mut scored: Vec<(usize, Points, Points)> = group
        .iter()
        .map(|&player| {
            let mut by_opponent: BTreeMap<usize, (Points, i64)> = BTreeMap::new();
            for cell in &table.rows[player].cells {
                let Some(opponent) = cell.opponent else {
                    continue;
                };
                let counts = cell.played || round_robin;
                if counts && opponent != player && group.contains(&opponent) {
                    let slot = by_opponent.entry(opponent).or_insert((Points::ZERO, 0));
                    slot.0 += cell.points;
                    slot.1 += 1;
                }
            }
            let points: Points = by_opponent
                .values()
                .map(|&(sum, games)| sum.div_int(games))
                .sum();
            let unmet = (group.len() - 1).saturating_sub(by_opponent.len()) as i64;
            let maximum = points + win.times_int(unmet);
            (player, points, maximum)
        })
        .collect();
    let everyone_met = round_robin || scored.iter().all(|s| s.1 == s.2);
    scored.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
    let mut places: Vec<Vec<usize>> = Vec::new();
    if everyone_met {
        for (i, &(player, points, _)) in scored.iter().enumerate() {
            if i > 0 && scored[i - 1].1 == points {
                places.last_mut().expect("a place exists").push(player);
            } else {
                places.push(vec![player]);
            }
        }
        return places;
    }
    let mut i = 0;
    while i < scored.len() {
        let best_of_rest = scored[i + 1..].iter().map(|s| s.2).max();
        match best_of_rest {
            Some(best) if scored[i].1 > best => {
                places.push(vec![scored[i].0]);
                i += 1;
            }
            _ => {
                places.push(scored[i..].iter().map(|s| s.0).collect());
                break;
            }
        }
    }
    places
}
