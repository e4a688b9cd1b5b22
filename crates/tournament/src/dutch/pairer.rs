//! The state of one round's pairing: the players in score order, the weight layout, what
//! is known of the bye, and the weighted graph; and the first matching, which checks that the
//! round can be paired at all and finds the bye assignee's score.

use std::collections::HashMap;

use super::explain::format_points;
use super::facts::{Facts, Field};
use super::matcher::Matcher;
use super::weights::{bye_search_weight, edge_weight, ByeContext, EdgeContext, Layout, Wide};
use super::PairingError;

/// The state of one round's pairing.
pub(super) struct Pairer<'a, W> {
    pub field: &'a Field,
    /// Players in score order (score, then pairing number): the vertex `v` is `order[v]`.
    pub order: Vec<usize>,
    pub layout: Layout,
    pub bye: ByeContext,
    forbidden: &'a dyn Fn(&Facts, &Facts) -> bool,
    pub matcher: Matcher<W>,
    /// Lines for a person, in the order the pairing was made.
    pub explanation: Vec<String>,
}

impl<'a, W: Wide> Pairer<'a, W> {
    /// The players of `field` sorted by score, before any matching.
    pub fn new(field: &'a Field, forbidden: &'a dyn Fn(&Facts, &Facts) -> bool) -> Self {
        let mut order: Vec<usize> = (0..field.players.len()).collect();
        order.sort_by_key(|&i| {
            (
                std::cmp::Reverse(field.players[i].score),
                field.players[i].rank,
            )
        });
        let layout = Layout::new(field, &order);
        let n = order.len();
        Pairer {
            field,
            order,
            layout,
            bye: ByeContext::default(),
            forbidden,
            matcher: Matcher::new(n),
            explanation: Vec::new(),
        }
    }

    /// The player at vertex `v`.
    pub fn player(&self, v: usize) -> &Facts {
        &self.field.players[self.order[v]]
    }

    /// The score of the player at vertex `v`.
    pub fn score(&self, v: usize) -> i64 {
        self.player(v).score
    }

    /// The start number of the player at vertex `v`, for the explanation.
    pub fn name(&self, v: usize) -> String {
        self.player(v).start_no.to_string()
    }

    /// What an edge weight depends on besides its two players.
    pub fn context(&self) -> EdgeContext<'_> {
        EdgeContext {
            field: self.field,
            layout: &self.layout,
            bye: &self.bye,
            forbidden: self.forbidden,
        }
    }

    /// Sets every edge to its weight outside any bracket and checks that the round can be
    /// paired at all (C.04.3 C1–C4); with an odd number, finds the bye assignee's score (C5)
    /// and whether C9 decides between the candidates.
    pub fn first_matching(&mut self) -> Result<(), PairingError> {
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
}
