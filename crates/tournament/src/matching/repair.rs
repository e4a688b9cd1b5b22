//! After an augmentation: the two trees it used dissolve, and every least-slack arc that
//! started or ended in them is found again. The other trees keep their labels.
//!
//! Why the other trees stay valid: the augmenting path lies inside the two trees (and the
//! edge joining them), so no other tree's matched edges change; the duals do not change;
//! every remaining tree still hangs from a free root. What can go stale is only bookkeeping:
//! the vertices of the dissolved trees are unlabeled now (their blossoms keep their duals;
//! the outer ones whose dual is zero are expanded, as at the end of Galil's stage), and a
//! least-slack arc from, or to, a vertex that was outer there no longer counts.

use super::graph::{reverse, Arc};
use super::solver::{Label, Solver, NONE};
use super::weight::Weight;

impl<W: Weight> Solver<'_, W> {
    /// Dissolves the trees rooted at `roots` (just joined by an augmenting path).
    pub(super) fn dissolve_trees(&mut self, roots: [usize; 2]) {
        let n = self.n;
        let mut dissolved = Vec::new();
        for b in 0..2 * n {
            let top_level = if b < n {
                self.top[b] == b
            } else {
                self.is_top_blossom(b)
            };
            if top_level && self.label[b] != Label::Unlabeled && roots.contains(&self.root[b]) {
                dissolved.push(b);
            }
        }
        let mut vertices = Vec::new();
        let mut spent = Vec::new();
        for &b in &dissolved {
            let label = self.label[b];
            for leaf in self.leaves(b) {
                self.former_label[leaf] = label;
                vertices.push(leaf);
            }
            self.label[b] = Label::Unlabeled;
            self.label_arc[b] = NONE;
            self.root[b] = NONE;
            self.best_arc[b] = NONE;
            self.outer_arcs[b] = None;
            if label == Label::Outer && b >= n && self.dual[b] == W::ZERO {
                spent.push(b);
            }
        }
        for b in spent {
            self.expand_blossom(b, true);
        }
        // Vertices that may be reached later: their least-slack arc from an outer vertex.
        for v in 0..n {
            let b = self.top[v];
            if self.label[b] == Label::Outer || (b == v && self.label[b] == Label::Inner) {
                continue; // outer, or inner and never to be unlabeled again
            }
            let arc = self.best_arc[v];
            let stale = self.former_label[v] != Label::Unlabeled
                || (arc != NONE && self.former_label[self.graph.tail(arc)] == Label::Outer);
            if stale {
                self.best_arc[v] = self.best_arc_into(v);
            }
        }
        // Outer blossoms: their least-slack arc to another outer blossom.
        for b in 0..2 * n {
            let top_level = if b < n {
                self.top[b] == b
            } else {
                self.is_top_blossom(b)
            };
            let arc = self.best_arc[b];
            if top_level
                && self.label[b] == Label::Outer
                && arc != NONE
                && self.former_label[self.graph.head(arc)] == Label::Outer
            {
                self.best_arc[b] = self.best_arc_out_of(b);
            }
        }
        for v in vertices {
            self.former_label[v] = Label::Unlabeled;
        }
    }

    /// The least-slack arc from an outer vertex (of another blossom) to vertex `v`.
    fn best_arc_into(&self, v: usize) -> Arc {
        let graph = self.graph;
        let mut best = (NONE, W::ZERO);
        let dual_v = self.dual[v];
        for out in graph.arcs_from(v) {
            let other = self.top[out.head];
            if other != self.top[v] && self.label[other] == Label::Outer {
                let slack = self.slack_from(dual_v, out);
                if best.0 == NONE || slack < best.1 {
                    best = (reverse(out.arc), slack);
                }
            }
        }
        best.0
    }

    /// The least-slack arc from the outer blossom `b` to another outer blossom.
    fn best_arc_out_of(&self, b: usize) -> Arc {
        let graph = self.graph;
        let mut best = (NONE, W::ZERO);
        for leaf in self.leaves(b) {
            let dual_leaf = self.dual[leaf];
            for out in graph.arcs_from(leaf) {
                let other = self.top[out.head];
                if other != b && self.label[other] == Label::Outer {
                    let slack = self.slack_from(dual_leaf, out);
                    if best.0 == NONE || slack < best.1 {
                        best = (out.arc, slack);
                    }
                }
            }
        }
        best.0
    }
}
