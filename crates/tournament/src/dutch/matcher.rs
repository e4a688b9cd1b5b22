//! The weighted graph of the players still to pair, solved again after each change.

use crate::matching::IncrementalMatching;

use super::weights::Wide;

/// The current weights between the players (by their place in the score order), the pairs
/// already decided and the latest matching.
pub(super) struct Matcher<W> {
    n: usize,
    graph: IncrementalMatching<W>,
    /// Whether each vertex is in a decided pair.
    fixed: Vec<bool>,
    /// The latest matching: each vertex's mate, itself when unmatched.
    mates: Vec<usize>,
    /// Whether the latest matching is still optimal for the current weights (no change since
    /// it was computed, or only changes that provably keep it optimal).
    clean: bool,
}

impl<W: Wide> Matcher<W> {
    /// `n` vertices and no edges.
    pub fn new(n: usize) -> Matcher<W> {
        Matcher {
            n,
            graph: IncrementalMatching::new(n),
            fixed: vec![false; n],
            mates: (0..n).collect(),
            clean: false,
        }
    }

    /// Sets the weight of `{i, j}` (zero: may not be paired).
    pub fn set(&mut self, i: usize, j: usize, weight: W) {
        debug_assert!(i != j && !self.fixed[i] && !self.fixed[j]);
        self.graph.set_weight(i, j, weight);
        self.clean = false;
    }

    /// Sets the weights of edges at `v`. When the latest matching was optimal and the edge
    /// to `v`'s mate gains at least as much as any other edge at `v` (and does not lose), it
    /// stays optimal, and the next [`Self::solve`] has nothing to do: any other matching
    /// gains at most that much.
    pub fn set_row(&mut self, v: usize, row: &[(usize, W)]) {
        let was_clean = self.clean;
        let mate = self.mates[v];
        let mut keeps = was_clean;
        if keeps {
            // The mate's gain (zero when `v` is unmatched), and the largest other gain.
            let gain = |old: W, new: W| -> (bool, W) {
                if new >= old {
                    (true, new.sub(old))
                } else {
                    (false, old.sub(new))
                }
            };
            let mut mate_gain = (true, W::ZERO);
            for &(j, w) in row {
                if j == mate {
                    mate_gain = gain(self.graph.weight(v, j), w);
                }
            }
            if !mate_gain.0 {
                keeps = false;
            }
            for &(j, w) in row {
                if keeps && j != mate {
                    let (up, by) = gain(self.graph.weight(v, j), w);
                    if up && by > mate_gain.1 {
                        keeps = false;
                    }
                }
            }
        }
        for &(j, w) in row {
            self.set(v, j, w);
        }
        self.clean = keeps;
    }

    /// Decides the pair `{i, j}`, matched in the latest matching: their other edges go (a
    /// decided pair outweighs anything its two players could do otherwise, so the optimum
    /// for the others is the same as without them).
    pub fn fix(&mut self, i: usize, j: usize) {
        debug_assert_eq!(self.mates[i], j);
        let clean = self.clean;
        for v in 0..self.n {
            if v != i && v != j && !self.fixed[v] {
                for x in [i, j] {
                    if !self.graph.weight(x, v).is_zero() {
                        self.graph.set_weight(x, v, W::ZERO);
                    }
                }
            }
        }
        self.clean = clean;
        self.fixed[i] = true;
        self.fixed[j] = true;
        // Only unmatched edges lost weight: the matching stays optimal if it was.
    }

    /// Computes a matching of the largest weight, starting from the latest one: only the
    /// edges at the vertices changed since then need work.
    pub fn solve(&mut self) -> &[usize] {
        if self.clean {
            return &self.mates;
        }
        self.clean = true;
        for (v, mate) in self.graph.solve().iter().enumerate() {
            self.mates[v] = mate.unwrap_or(v);
        }
        &self.mates
    }
}
