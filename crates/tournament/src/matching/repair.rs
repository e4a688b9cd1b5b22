//! After an augmentation: the two trees it used dissolve, their vertices' least-slack arcs are
//! found again, and those of other vertices and blossoms that came from them become bounds
//! ([`super::least_slack`]). The other trees keep their labels.
//!
//! Why the other trees stay valid: the augmenting path lies inside the two trees (and the
//! edge joining them), so no other tree's matched edges change; the duals do not change;
//! every remaining tree still hangs from a free root. What can go stale is only bookkeeping:
//! the vertices of the dissolved trees are unlabeled now (their blossoms keep their duals;
//! the outer ones whose dual is zero are expanded, as at the end of Galil's stage), and a
//! least-slack arc from, or to, a vertex that was outer there no longer counts.

use super::least_slack::Best;
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
            self.best[b] = Best::NONE;
            self.outer_arcs[b] = None;
            if label == Label::Outer && b >= n && self.dual[b] == W::ZERO {
                spent.push(b);
            }
        }
        for b in spent {
            self.expand_blossom(b, true);
        }
        if self.active_roots == 0 {
            // No tree is left to grow: the least-slack arcs will not be asked for again.
            for v in vertices {
                self.former_label[v] = Label::Unlabeled;
            }
            return;
        }
        // Vertices that may be reached later: their least-slack arc from an outer vertex,
        // found again for the dissolved trees' own, kept as a bound where it came from them.
        for v in 0..n {
            let b = self.top[v];
            if self.label[b] == Label::Outer || (b == v && self.label[b] == Label::Inner) {
                continue; // outer, or inner and never to be unlabeled again
            }
            let best = self.best[v];
            if self.former_label[v] != Label::Unlabeled {
                self.best[v] = self.best_into(v);
            } else if best.is_some() && self.former_label[self.graph.tail(best.arc)] == Label::Outer
            {
                self.best[v].stale = true;
            }
        }
        // Outer blossoms whose least-slack arc led into the dissolved trees: a bound now.
        for b in 0..2 * n {
            let best = self.best[b];
            if best.is_some()
                && self.is_outer_top(b)
                && self.former_label[self.graph.head(best.arc)] == Label::Outer
            {
                self.best[b].stale = true;
            }
        }
        for v in vertices {
            self.former_label[v] = Label::Unlabeled;
        }
    }
}
