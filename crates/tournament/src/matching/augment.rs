//! Augmentation: flipping the matched and unmatched edges along an augmenting path, through
//! the blossoms it crosses (Galil 1986, §2: a blossom is entered at any vertex and left at its
//! base, so the path inside it is re-routed by making that vertex the base).

use super::graph::{reverse, Arc, CycleWalk};
use super::solver::{Solver, NONE};
use super::weight::Weight;

impl<W: Weight> Solver<'_, W> {
    /// Augments along the path through the tight arc `arc` between two outer blossoms of
    /// different trees: from each end up to its tree's root.
    pub(super) fn augment(&mut self, arc: Arc) {
        let graph = self.graph;
        self.flip_to_root(graph.tail(arc), arc);
        self.flip_to_root(graph.head(arc), reverse(arc));
    }

    /// Augments along the path from the root of the outer vertex `v`'s tree through the tight
    /// arc `arc` to the free vertex at its head, which is in no tree (a free vertex whose dual
    /// is already zero, left out of the trees when a run starts from a given matching).
    pub(super) fn augment_to_free(&mut self, arc: Arc) {
        let graph = self.graph;
        let w = graph.head(arc);
        let top = self.top[w];
        if top >= self.n {
            self.augment_blossom(top, w);
        }
        self.mate[w] = reverse(arc);
        self.flip_to_root(graph.tail(arc), arc);
    }

    /// Makes the outer vertex `x` free and its tree's root matched, flipping the even path
    /// between them (when `x`'s dual reached zero before the root's: the matching keeps its
    /// size and the free vertex is now one whose dual may be zero).
    pub(super) fn release(&mut self, x: usize) {
        self.flip_to_root(x, NONE);
    }

    /// From the vertex `start` in an outer blossom, which becomes matched through `link`
    /// (`NONE`: becomes free), up to the tree's root, flipping matched and unmatched edges.
    fn flip_to_root(&mut self, start: usize, first: Arc) {
        let graph = self.graph;
        let (mut s, mut link) = (start, first);
        loop {
            // s, in an outer blossom, is matched through `link`.
            let outer = self.top[s];
            if outer >= self.n {
                self.augment_blossom(outer, s);
            }
            self.mate[s] = link;
            let up = self.label_arc[outer];
            if up == NONE {
                break; // the root: its free base is matched inside now
            }
            // The inner blossom above is entered at `entry` from the outer vertex `next`.
            let inner = self.top[graph.tail(up)];
            let into = self.label_arc[inner];
            let entry = graph.head(into);
            if inner >= self.n {
                self.augment_blossom(inner, entry);
            }
            self.mate[entry] = reverse(into);
            s = graph.tail(into);
            link = into;
        }
    }

    /// Makes vertex `v` the base of blossom `b`: flips the even path around the cycle from
    /// `v`'s child to the base child (recursively inside the children it crosses) and rotates
    /// the cycle so that `v`'s child comes first.
    pub(super) fn augment_blossom(&mut self, b: usize, v: usize) {
        let graph = self.graph;
        let mut child = v;
        while self.parent[child] != b {
            child = self.parent[child];
        }
        if child >= self.n {
            self.augment_blossom(child, v);
        }
        let len = self.children[b].len();
        let start = self.children[b]
            .iter()
            .position(|&c| c == child)
            .expect("child of b");
        if start != 0 {
            let walk = CycleWalk::toward_base(start, len);
            let mut position = start;
            loop {
                // The matched edge to the next child becomes unmatched, and the unmatched
                // edge after it matched.
                let next = walk.step(position);
                let after = walk.step(next);
                let arc = walk.arc_onwards(&self.cycle[b], next);
                let (x, y) = (graph.tail(arc), graph.head(arc));
                let (next_child, after_child) = (self.children[b][next], self.children[b][after]);
                if next_child >= self.n {
                    self.augment_blossom(next_child, x);
                }
                if after_child >= self.n {
                    self.augment_blossom(after_child, y);
                }
                self.mate[x] = arc;
                self.mate[y] = reverse(arc);
                position = after;
                if position == 0 {
                    break;
                }
            }
            self.children[b].rotate_left(start);
            self.cycle[b].rotate_left(start);
        }
        self.base[b] = v;
    }
}
