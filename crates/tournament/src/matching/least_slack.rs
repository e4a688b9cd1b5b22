//! The least-slack arcs that make each dual change O(n) (Galil 1986, §3): one kept for every
//! vertex not in an outer blossom (from an outer vertex, for δ2 and for relabeling after an
//! expansion), and one for every top-level outer blossom (to another outer blossom, for δ3).
//!
//! Each keeps its slack, updated at every dual change, so that comparing and choosing δ read
//! a number instead of recomputing a slack. When a tree dissolves ([`super::repair`]), a kept
//! arc that led to or from it no longer counts, but its slack is still a lower bound for the
//! arcs that do (it was the least of a larger set, and they all change alike): such an entry
//! is marked stale and looked for again only if it becomes the least of all when δ is chosen.

use super::graph::{reverse, Arc};
use super::solver::{Label, Solver, NONE};
use super::weight::Weight;

/// A least-slack arc with its slack; `stale`: the slack is only a lower bound.
#[derive(Clone, Copy, Debug)]
pub(super) struct Best<W> {
    pub(super) arc: Arc,
    pub(super) slack: W,
    pub(super) stale: bool,
}

impl<W: Weight> Best<W> {
    /// No arc.
    pub(super) const NONE: Self = Self {
        arc: NONE,
        slack: W::ZERO,
        stale: false,
    };

    pub(super) fn is_some(&self) -> bool {
        self.arc != NONE
    }

    /// Keeps `arc` if its slack is below the kept one (strictly: the first stays). Below a
    /// stale bound, it is below every arc the bound stands for: exact again.
    #[inline]
    pub(super) fn offer(&mut self, arc: Arc, slack: W) {
        if self.arc == NONE || slack < self.slack {
            *self = Self {
                arc,
                slack,
                stale: false,
            };
        }
    }
}

impl<W: Weight> Solver<'_, W> {
    /// Whether slot `b` holds an outer blossom's arc (else a vertex's, or nothing that counts).
    pub(super) fn is_outer_top(&self, b: usize) -> bool {
        let top_level = if b < self.n {
            self.top[b] == b
        } else {
            self.is_top_blossom(b)
        };
        top_level && self.label[b] == Label::Outer
    }

    /// The dual change's effect on the kept slacks: an arc between two outer blossoms loses
    /// 2δ, an arc from an outer vertex to an unlabeled one δ, to an inner one nothing.
    pub(super) fn age_least_slacks(&mut self, delta: W) {
        let double = delta.plus(delta).expect("bounded as the duals");
        for b in 0..2 * self.n {
            if !self.best[b].is_some() {
                continue;
            }
            let change = if self.is_outer_top(b) {
                double
            } else if b < self.n && self.label[self.top[b]] == Label::Unlabeled {
                delta
            } else {
                continue;
            };
            let best = &mut self.best[b];
            best.slack = best
                .slack
                .minus(change)
                .expect("δ is at most every kept slack");
        }
    }

    /// Finds slot `b`'s least-slack arc again from all the arcs it stands for.
    pub(super) fn refresh(&mut self, b: usize) {
        self.best[b] = if self.is_outer_top(b) {
            self.best_out_of(b)
        } else {
            self.best_into(b)
        };
    }

    /// The least-slack arc from an outer vertex (of another blossom) to vertex `v`.
    pub(super) fn best_into(&self, v: usize) -> Best<W> {
        let graph = self.graph;
        let mut best = Best::NONE;
        let dual_v = self.dual[v];
        for out in graph.arcs_from(v) {
            let other = self.top[out.head];
            if other != self.top[v] && self.label[other] == Label::Outer {
                best.offer(reverse(out.arc), self.slack_from(dual_v, out));
            }
        }
        best
    }

    /// The least-slack arc from the outer blossom `b` to another outer blossom.
    fn best_out_of(&self, b: usize) -> Best<W> {
        let graph = self.graph;
        let mut best = Best::NONE;
        for leaf in self.leaves(b) {
            let dual_leaf = self.dual[leaf];
            for out in graph.arcs_from(leaf) {
                let other = self.top[out.head];
                if other != b && self.label[other] == Label::Outer {
                    best.offer(out.arc, self.slack_from(dual_leaf, out));
                }
            }
        }
        best
    }

    /// In debug builds: every exact kept slack is the arc's slack.
    pub(super) fn debug_check_least_slacks(&self) {
        if cfg!(debug_assertions) {
            for b in 0..2 * self.n {
                let best = self.best[b];
                let counts = self.is_outer_top(b)
                    || (b < self.n
                        && (self.label[self.top[b]] == Label::Unlabeled
                            || (self.label[self.top[b]] == Label::Inner && self.top[b] != b)));
                if counts && best.is_some() && !best.stale {
                    assert_eq!(best.slack, self.slack(best.arc), "kept slack of slot {b}");
                }
            }
        }
    }
}
