//! The bracket procedure (C.04.3 B, D): brackets are paired from the top score down; each
//! one's moved-down players, their opponents, the transpositions and exchanges of its
//! remainder are decided one at a time, each decision the best one that still lets the whole
//! round be paired as well as possible (a maximum weight matching over everyone not yet
//! paired, with the weights of [`super::weights`]).

use std::collections::HashMap;

use super::facts::{Facts, Field};
use super::matcher::Matcher;
use super::weights::{bye_search_weight, edge_weight, ByeContext, EdgeContext, Layout, Wide};
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

/// The state of one round's pairing.
struct Pairer<'a, W> {
    field: &'a Field,
    /// Players in score order (score, then pairing number): the vertex `v` is `order[v]`.
    order: Vec<usize>,
    layout: Layout,
    bye: ByeContext,
    forbidden: &'a dyn Fn(&Facts, &Facts) -> bool,
    matcher: Matcher<W>,
    explanation: Vec<String>,
}

/// Pairs the round.
pub(super) fn pair<W: Wide>(
    field: &Field,
    forbidden: &dyn Fn(&Facts, &Facts) -> bool,
) -> Result<Outcome, PairingError> {
    let mut order: Vec<usize> = (0..field.players.len()).collect();
    order.sort_by_key(|&i| {
        (
            std::cmp::Reverse(field.players[i].score),
            field.players[i].rank,
        )
    });
    let layout = Layout::new(field, &order);
    let n = order.len();
    let mut pairer = Pairer {
        field,
        order,
        layout,
        bye: ByeContext::default(),
        forbidden,
        matcher: Matcher::<W>::new(n),
        explanation: Vec::new(),
    };
    pairer.first_matching()?;
    pairer.brackets()
}

/// The weight type wide enough for the round's layout.
pub(super) fn weight_bits(field: &Field) -> u32 {
    let mut order: Vec<usize> = (0..field.players.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(field.players[i].score));
    Layout::new(field, &order).total_bits()
}

impl<W: Wide> Pairer<'_, W> {
    fn player(&self, v: usize) -> &Facts {
        &self.field.players[self.order[v]]
    }

    fn score(&self, v: usize) -> i64 {
        self.player(v).score
    }

    fn context(&self) -> EdgeContext<'_> {
        EdgeContext {
            field: self.field,
            layout: &self.layout,
            bye: &self.bye,
            forbidden: self.forbidden,
        }
    }

    fn name(&self, v: usize) -> String {
        self.player(v).start_no.to_string()
    }

    /// Sets every edge to its weight outside any bracket and checks that the round can be
    /// paired at all (C.04.3 C1–C4); with an odd number, finds the bye assignee's score (C5)
    /// and whether C9 decides between the candidates.
    fn first_matching(&mut self) -> Result<(), PairingError> {
        let n = self.order.len();
        let odd = n % 2 == 1;
        let top = self.score(0);
        for j in 0..n {
            for i in 0..j {
                let w = if odd {
                    bye_search_weight::<W>(&self.context(), self.player(i), self.player(j), top)
                } else {
                    edge_weight::<W>(
                        &self.context(),
                        self.player(i),
                        self.player(j),
                        false,
                        false,
                    )
                };
                self.matcher.set(i, j, w);
            }
        }
        let mates = self.matcher.solve().to_vec();
        let unmatched: Vec<usize> = (0..n).filter(|&v| mates[v] == v).collect();
        let complete = match unmatched.as_slice() {
            [] => true,
            [v] => self.player(*v).bye_eligible,
            _ => false,
        };
        if !complete {
            return Err(PairingError::NoLegalPairing(self.why_unpairable(&mates)));
        }
        if !odd {
            return Ok(());
        }
        let bye_score = self.score(unmatched[0]);
        let single = bye_score >= top
            && (0..n)
                .take_while(|&v| self.score(v) >= top)
                .all(|v| self.score(mates[v]) >= top);
        let mut played: Vec<usize> = (0..n)
            .filter(|&v| self.score(v) == bye_score)
            .map(|v| self.player(v).played_games)
            .collect();
        played.sort_unstable_by(|a, b| b.cmp(a));
        let mut ranks = HashMap::new();
        for (rank, games) in played.into_iter().enumerate() {
            ranks.insert(games, rank as u64);
        }
        self.bye = ByeContext {
            score: bye_score,
            single_downfloater: single,
            unplayed_ranks: ranks,
        };
        self.explanation.push(format!(
            "{n} players: the pairing-allocated bye goes to a player with {} points (the lowest \
             score that still lets everyone else be paired; C.04.3 C5).",
            format_points(bye_score)
        ));
        for j in 0..n {
            for i in 0..j {
                let w = edge_weight::<W>(
                    &self.context(),
                    self.player(i),
                    self.player(j),
                    false,
                    false,
                );
                self.matcher.set(i, j, w);
            }
        }
        Ok(())
    }

    /// Why no pairing satisfies the absolute criteria: the players the best matching leaves
    /// without an opponent.
    fn why_unpairable(&self, mates: &[usize]) -> String {
        let left: Vec<String> = (0..self.order.len())
            .filter(|&v| mates[v] == v)
            .map(|v| {
                let p = self.player(v);
                if p.bye_eligible {
                    p.start_no.to_string()
                } else {
                    format!(
                        "{} (already had a bye or a win without playing)",
                        p.start_no
                    )
                }
            })
            .collect();
        format!(
            "at best {} of the {} players stay unpaired: {} (everyone they could meet is a \
             former opponent, a forbidden pairing or has the same absolute colour preference)",
            left.len(),
            self.order.len(),
            left.join(", ")
        )
    }

    /// Pairs the brackets from the top down.
    fn brackets(mut self) -> Result<Outcome, PairingError> {
        let n = self.order.len();
        let top = self.score(0);
        let mut next = 0;
        let mut bracket: Vec<usize> = Vec::new();
        while next < n && self.score(next) >= top {
            bracket.push(next);
            next += 1;
        }
        let mut movers = 0; // moved-down players at the front of `bracket`
        let mut group_start = 0; // first vertex of the bracket's own score group
        let mut matched = vec![false; n];
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let odd = n % 2 == 1;

        while bracket.len() > 1 || next < n {
            let bracket_end = bracket.len();
            let next_group_start = group_start + (bracket_end - movers);
            let group = next;
            while next < n && self.score(next) >= self.score(group) {
                bracket.push(next);
                next += 1;
            }
            let bracket_score = if bracket_end > movers {
                self.score(bracket[movers])
            } else {
                self.score(bracket[0])
            };

            // Weights inside this bracket and towards the next score group.
            let mut base: Vec<Vec<W>> = vec![Vec::new(); bracket.len()];
            for a in movers..bracket.len() {
                let row: Vec<W> = (0..a)
                    .map(|b| {
                        edge_weight::<W>(
                            &self.context(),
                            self.player(bracket[b]),
                            self.player(bracket[a]),
                            a < bracket_end,
                            a >= bracket_end,
                        )
                    })
                    .collect();
                for (b, w) in row.iter().enumerate() {
                    self.matcher.set(bracket[a], bracket[b], *w);
                }
                base[a] = row;
            }
            let mut mates = self.matcher.solve().to_vec();
            let in_bracket = |m: usize| m >= group_start && m < next_group_start;

            // Moved-down players (C.04.3 B.3): as many as possible, the highest first.
            let mut mover_score = i64::MIN;
            let mut left = 0;
            let mut left_matched = 0;
            let residents = (bracket_end - movers) as u64;
            for p in 0..movers {
                if p == 0 || self.score(bracket[p]) < mover_score {
                    mover_score = self.score(bracket[p]);
                    left = 0;
                    left_matched = 0;
                    let mut q = p;
                    while q < bracket.len() && self.score(bracket[q]) >= mover_score {
                        left += 1;
                        if in_bracket(mates[bracket[q]]) {
                            left_matched += 1;
                        }
                        q += 1;
                    }
                }
                if left_matched == 0 {
                    continue;
                }
                let pv = bracket[p];
                if left <= left_matched {
                    matched[pv] = true;
                    continue;
                }
                left -= 1;
                if !in_bracket(mates[pv]) {
                    for o in movers..bracket_end {
                        let w = base[o][p];
                        if !w.is_zero() {
                            self.matcher.set(pv, bracket[o], w.add(W::ONE));
                        }
                    }
                    mates = self.matcher.solve().to_vec();
                }
                if in_bracket(mates[pv]) {
                    matched[pv] = true;
                    left_matched -= 1;
                    for o in movers..bracket_end {
                        let w = base[o][p];
                        if !w.is_zero() {
                            self.matcher
                                .set(pv, bracket[o], w.add(W::small(residents + 1)));
                        }
                    }
                }
            }

            // Their opponents: the highest resident that still allows the best pairing.
            let mut lines = Vec::new();
            for p in 0..movers {
                let pv = bracket[p];
                if !matched[pv] {
                    continue;
                }
                let mut addend = bracket.len() as u64;
                for o in (movers..bracket_end).rev() {
                    let ov = bracket[o];
                    if matched[ov] {
                        continue;
                    }
                    let w = base[o][p];
                    if !w.is_zero() {
                        self.matcher.set(pv, ov, w.add(W::small(addend)));
                        addend += 1;
                    }
                }
                mates = self.matcher.solve().to_vec();
                let m = mates[pv];
                matched[m] = true;
                self.matcher.fix(pv, m);
                lines.push(format!("{}–{}", self.name(pv), self.name(m)));
            }
            let mover_names: Vec<String> = (0..movers).map(|p| self.name(bracket[p])).collect();

            // The remainder: residents not paired with a moved-down player.
            let mut remainder = Vec::new();
            let mut remainder_pairs = 0;
            for (r, &rv) in bracket.iter().enumerate().take(bracket_end).skip(movers) {
                if mates[rv] < group_start {
                    continue;
                }
                remainder.push(r);
                if mates[rv] < rv {
                    remainder_pairs += 1;
                }
            }
            let b2 = 2 * self.layout.count_bits;
            // D.1/D.2: as few exchanges as possible, the smallest differences of numbers.
            let modified = |base: &Vec<Vec<W>>, s: usize, l: usize, s_index: usize| -> W {
                let w = base[l][s];
                if w.is_zero() {
                    return w;
                }
                let bonus = if s_index < remainder_pairs {
                    W::ONE.shl(b2 + 1)
                } else {
                    W::ZERO
                };
                w.add(bonus).sub(W::small(2 * s_index as u64))
            };
            for (i, &s) in remainder.iter().enumerate() {
                for &l in &remainder[i + 1..] {
                    let w = modified(&base, s, l, i);
                    self.matcher.set(bracket[s], bracket[l], w);
                }
            }
            mates = self.matcher.solve().to_vec();
            let forward = |mates: &[usize], v: usize| mates[v] > v && mates[v] < next_group_start;
            let exchanges = remainder[..remainder_pairs]
                .iter()
                .filter(|&&r| !forward(&mates, bracket[r]))
                .count();

            // D.2: exchange the lowest players of S1 that can be exchanged…
            let mut exchanges_left = exchanges;
            let mut i = remainder_pairs;
            while i > 0 && exchanges_left > 0 {
                i -= 1;
                let pv = bracket[remainder[i]];
                if forward(&mates, pv) {
                    for j in i + 1..remainder.len() {
                        let w = modified(&base, remainder[i], remainder[j], i);
                        if !w.is_zero() {
                            self.matcher.set(pv, bracket[remainder[j]], w.sub(W::ONE));
                        }
                    }
                    mates = self.matcher.solve().to_vec();
                }
                let exchange = !forward(&mates, pv);
                if exchange {
                    exchanges_left -= 1;
                }
                for j in i + 1..remainder.len() {
                    if exchange {
                        base[remainder[j]][remainder[i]] = W::ZERO;
                    }
                    let w = modified(&base, remainder[i], remainder[j], i);
                    self.matcher.set(pv, bracket[remainder[j]], w);
                }
            }
            // …with the highest players of S2 that can be.
            let mut exchanges_left = exchanges;
            for idx in remainder_pairs..remainder.len() {
                if exchanges_left <= 1 {
                    break;
                }
                let r = remainder[idx];
                let pv = bracket[r];
                let already = forward(&mates, pv);
                if !already {
                    for j in idx + 1..remainder.len() {
                        let w = modified(&base, r, remainder[j], idx);
                        if !w.is_zero() {
                            self.matcher.set(pv, bracket[remainder[j]], w.add(W::ONE));
                        }
                    }
                    mates = self.matcher.solve().to_vec();
                }
                if forward(&mates, pv) {
                    exchanges_left -= 1;
                    for &o in &remainder[..idx] {
                        base[r][o] = W::ZERO;
                        self.matcher.set(pv, bracket[o], W::ZERO);
                    }
                    for o in bracket_end..bracket.len() {
                        base[o][r] = W::ZERO;
                        self.matcher.set(pv, bracket[o], W::ZERO);
                    }
                }
                if !already {
                    for j in idx + 1..remainder.len() {
                        let w = modified(&base, r, remainder[j], idx);
                        self.matcher.set(pv, bracket[remainder[j]], w);
                    }
                }
            }
            // Only S1 → S2 pairs remain possible.
            for i in 0..remainder.len() {
                let pv = bracket[remainder[i]];
                for j in i + 1..remainder.len() {
                    let ov = bracket[remainder[j]];
                    if !forward(&mates, pv) || forward(&mates, ov) {
                        base[remainder[j]][remainder[i]] = W::ZERO;
                    }
                    self.matcher.set(pv, ov, base[remainder[j]][remainder[i]]);
                }
            }
            // D.1: each player of S1, in order, with the first player of S2 that still allows
            // the best pairing.
            for &r in &remainder {
                let pv = bracket[r];
                if !forward(&mates, pv) {
                    continue;
                }
                let mut addend = 0u64;
                for &o in remainder.iter().rev() {
                    let ov = bracket[o];
                    if o <= r || matched[ov] {
                        continue;
                    }
                    let w = base[o][r];
                    if !w.is_zero() {
                        self.matcher.set(pv, ov, w.add(W::small(addend)));
                    }
                    addend += 1;
                }
                mates = self.matcher.solve().to_vec();
                let m = mates[pv];
                matched[pv] = true;
                matched[m] = true;
                self.matcher.fix(pv, m);
                lines.push(format!("{}–{}", self.name(pv), self.name(m)));
            }

            // The next bracket: whoever is left, with the next score group.
            let mut single = odd && group < n && self.bye.score >= self.score(group);
            let mut carried = Vec::new();
            let mut carried_movers = 0;
            let mut floaters = Vec::new();
            for (idx, &v) in bracket.iter().enumerate() {
                if idx < bracket_end && matched[v] {
                    if v < mates[v] {
                        pairs.push((self.order[v], self.order[mates[v]]));
                    }
                } else {
                    carried.push(v);
                    if idx < bracket_end {
                        carried_movers += 1;
                        floaters.push(self.name(v));
                    }
                    if single && group < n && self.score(mates[v]) < self.score(group) {
                        single = false;
                    }
                }
            }
            self.bye.single_downfloater = single;
            self.explain_bracket(
                bracket_score,
                &mover_names,
                bracket_end - movers,
                &lines,
                &floaters,
                group >= n,
            );
            bracket = carried;
            movers = carried_movers;
            group_start = next_group_start;
        }

        let bye = bracket.first().map(|&v| self.order[v]);
        if let Some(&v) = bracket.first() {
            self.explanation.push(format!(
                "Pairing-allocated bye: {} ({} points), the player left over; eligible because \
                 they have had no bye and no win without playing (C.04.1.d), and among those \
                 who could take it, of the lowest score (C.04.3 C5){}.",
                self.name(v),
                format_points(self.score(v)),
                if self.bye.unplayed_ranks.len() > 1 {
                    " and with the most games played (C9)"
                } else {
                    ""
                }
            ));
        }
        Ok(Outcome {
            pairs,
            bye,
            explanation: self.explanation,
        })
    }

    fn explain_bracket(
        &mut self,
        score: i64,
        movers: &[String],
        residents: usize,
        pairs: &[String],
        floaters: &[String],
        last: bool,
    ) {
        if pairs.is_empty() && floaters.is_empty() {
            return;
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
        self.explanation.push(line);
    }
}

/// Points in the exact units of [`crate::model::Points`], written as a person writes them.
pub(super) fn format_points(score: i64) -> String {
    let whole = score / 10_000;
    let frac = score % 10_000;
    if frac == 0 {
        whole.to_string()
    } else if frac == 5_000 {
        format!("{whole}.5")
    } else {
        format!("{:.2}", score as f64 / 10_000.0)
    }
}
