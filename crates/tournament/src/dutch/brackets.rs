//! The bracket procedure (C.04.3 B, D): brackets are paired from the top score down; each
//! one's moved-down players, their opponents, the exchanges and transpositions of its
//! remainder are decided one at a time, each decision the best one that still lets the whole
//! round be paired as well as possible (a maximum weight matching over everyone not yet
//! paired, with the weights of [`super::weights`]).

use super::bracket::Bracket;
use super::explain::format_points;
use super::facts::{Facts, Field};
use super::pairer::Pairer;
use super::weights::{edge_weight, Layout, Wide};
use super::PairingError;

/// What the procedure decided: pairs and the bye as indices into `field.players`.
pub(super) struct Outcome {
    /// Pairs, as indices into the field's players.
    pub pairs: Vec<(usize, usize)>,
    /// The player left for the pairing-allocated bye.
    pub bye: Option<usize>,
    /// Lines for a person.
    pub explanation: Vec<String>,
}

/// Pairs the round.
pub(super) fn pair<W: Wide>(
    field: &Field,
    forbidden: &dyn Fn(&Facts, &Facts) -> bool,
) -> Result<Outcome, PairingError> {
    let mut pairer = Pairer::<W>::new(field, forbidden);
    pairer.first_matching()?;
    Ok(brackets(pairer))
}

/// The number of bits the round's weights take.
pub(super) fn weight_bits(field: &Field) -> u32 {
    let mut order: Vec<usize> = (0..field.players.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(field.players[i].score));
    Layout::new(field, &order).total_bits()
}

/// Pairs the brackets from the top down.
fn brackets<W: Wide>(mut p: Pairer<'_, W>) -> Outcome {
    let n = p.order.len();
    let top = p.score(0);
    let mut next = 0;
    let mut players: Vec<usize> = Vec::new();
    while next < n && p.score(next) >= top {
        players.push(next);
        next += 1;
    }
    let mut movers = 0; // moved-down players at the front of `players`
    let mut group_start = 0; // first vertex of the bracket's own score group
    let mut matched = vec![false; n];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let odd = n % 2 == 1;

    while players.len() > 1 || next < n {
        let end = players.len();
        let next_group_start = group_start + (end - movers);
        let group = next;
        while next < n && p.score(next) >= p.score(group) {
            players.push(next);
            next += 1;
        }
        let score = p.score(players[if end > movers { movers } else { 0 }]);
        let mut br = Bracket {
            base: Vec::new(),
            mates: Vec::new(),
            players,
            movers,
            end,
            group_start,
            next_group_start,
        };
        weigh(&mut p, &mut br);
        br.mates = p.matcher.solve().to_vec();

        let mut lines = Vec::new();
        p.choose_movers(&mut br, &mut matched);
        p.pair_movers(&mut br, &mut matched, &mut lines);
        let mover_names: Vec<String> = br.players[..br.movers].iter().map(|&v| p.name(v)).collect();
        p.pair_remainder(&mut br, &mut matched, &mut lines);

        // The next bracket: whoever is left, with the next score group. C9 still decides
        // there only if everyone in it is matched within it or above.
        let mut single = odd && group < n && p.bye.score >= p.score(group);
        let mut carried = Vec::new();
        let mut carried_movers = 0;
        let mut floaters = Vec::new();
        for (idx, &v) in br.players.iter().enumerate() {
            if idx < br.end && matched[v] {
                if v < br.mates[v] {
                    pairs.push((p.order[v], p.order[br.mates[v]]));
                }
            } else {
                carried.push(v);
                if idx < br.end {
                    carried_movers += 1;
                    floaters.push(p.name(v));
                }
                if single && group < n && p.score(br.mates[v]) < p.score(group) {
                    single = false;
                }
            }
        }
        p.bye.single_downfloater = single;
        let line = explain_bracket(
            score,
            &mover_names,
            br.end - br.movers,
            &lines,
            &floaters,
            group >= n,
        );
        p.explanation.extend(line);
        players = carried;
        movers = carried_movers;
        group_start = next_group_start;
    }

    let bye = players.first().map(|&v| p.order[v]);
    if let Some(&v) = players.first() {
        p.explanation.push(format!(
            "Pairing-allocated bye: {} ({} points), the player left over; eligible because \
             they have had no bye and no win without playing (C.04.1.d), and among those \
             who could take it, of the lowest score (C.04.3 C5){}.",
            p.name(v),
            format_points(p.score(v)),
            if p.bye.unplayed_ranks.len() > 1 {
                " and with the most games played (C9)"
            } else {
                ""
            }
        ));
    }
    Outcome {
        pairs,
        bye,
        explanation: p.explanation,
    }
}

/// Sets the weights inside the bracket and towards the next score group (the others keep
/// those set before).
fn weigh<W: Wide>(p: &mut Pairer<'_, W>, br: &mut Bracket<W>) {
    br.base = vec![Vec::new(); br.players.len()];
    for a in br.movers..br.players.len() {
        let row: Vec<W> = (0..a)
            .map(|b| {
                edge_weight::<W>(
                    &p.context(),
                    p.player(br.players[b]),
                    p.player(br.players[a]),
                    a < br.end,
                    a >= br.end,
                )
            })
            .collect();
        for (b, w) in row.iter().enumerate() {
            p.matcher.set(br.players[a], br.players[b], *w);
        }
        br.base[a] = row;
    }
}

/// A line on one bracket: its score, its players, the pairs made, who floats down.
fn explain_bracket(
    score: i64,
    movers: &[String],
    residents: usize,
    pairs: &[String],
    floaters: &[String],
    last: bool,
) -> Option<String> {
    if pairs.is_empty() && floaters.is_empty() {
        return None;
    }
    let mut line = format!(
        "Bracket {} points: {} resident{}",
        format_points(score),
        residents,
        if residents == 1 { "" } else { "s" }
    );
    if !movers.is_empty() {
        line += &format!(", moved down from above: {}", movers.join(", "));
    }
    line += ". ";
    if pairs.is_empty() {
        line += "No pairs";
    } else {
        line += &format!("Pairs: {}", pairs.join(", "));
    }
    if !floaters.is_empty() && !last {
        line += &format!(
            "; floating down to the next bracket: {} (C.04.3 B.3, C6/C7)",
            floaters.join(", ")
        );
    }
    line.push('.');
    Some(line)
}
