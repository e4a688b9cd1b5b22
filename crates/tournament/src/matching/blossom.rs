//! Blossoms: odd cycles of tight edges shrunk into one outer vertex, and expanded again
//! (Galil 1986, §2–3; Edmonds 1965).
//!
//! A blossom is stored as the cycle of its sub-blossoms, starting with the one holding its
//! base, and the arcs joining each sub-blossom to the next. Inside a blossom every vertex but
//! the base is matched; around the cycle the arcs alternate unmatched, matched, …, unmatched.

use super::graph::{reverse, Arc, CycleWalk};
use super::least_slack::Best;
use super::solver::{Label, Solver, NONE};
use super::weight::Weight;

impl<W: Weight> Solver<'_, W> {
    /// The vertices inside blossom `b`.
    pub(super) fn leaves(&self, b: usize) -> Vec<usize> {
        let mut leaves = Vec::new();
        self.push_leaves(b, &mut leaves);
        leaves
    }

    fn push_leaves(&self, b: usize, leaves: &mut Vec<usize>) {
        if b < self.n {
            leaves.push(b);
        } else {
            for &child in &self.children[b] {
                self.push_leaves(child, leaves);
            }
        }
    }

    /// The outer blossom at the root's end of the tree path from the outer vertex `vertex`,
    /// two steps up: through its label arc to the inner blossom, then through that one's.
    fn outer_grandparent(&self, vertex: usize) -> Option<usize> {
        let arc = self.label_arc[self.top[vertex]];
        if arc == NONE {
            return None;
        }
        let inner = self.top[self.graph.tail(arc)];
        Some(self.graph.tail(self.label_arc[inner]))
    }

    /// Follows the tree paths up from the outer vertices `v` and `w` (joined by a tight edge),
    /// one outer blossom at a time on each side in turn: the first outer blossom met twice is
    /// the nearest common one, whose base becomes the new blossom's base; if both paths end at
    /// (different) roots instead, the edge completes an augmenting path (`None`).
    pub(super) fn common_base(&mut self, v: usize, w: usize) -> Option<usize> {
        let mut visited = Vec::new();
        let mut found = None;
        let (mut current, mut other) = (Some(v), Some(w));
        while let Some(vertex) = current {
            let b = self.top[vertex];
            if self.marked[b] {
                found = Some(self.base[b]);
                break;
            }
            self.marked[b] = true;
            visited.push(b);
            let next = self.outer_grandparent(vertex);
            if other.is_some() {
                current = other;
                other = next;
            } else {
                current = next;
            }
        }
        for b in visited {
            self.marked[b] = false;
        }
        found
    }

    /// Shrinks the odd cycle closed by the tight arc `arc` between two outer blossoms of one
    /// tree into a new outer blossom whose base is `base` (Galil's "shrink"). The inner
    /// blossoms on the cycle become outer: their vertices are queued for scanning.
    pub(super) fn add_blossom(&mut self, base: usize, arc: Arc) {
        let graph = self.graph;
        let (v, w) = (graph.tail(arc), graph.head(arc));
        let base_blossom = self.top[base];
        let b = self
            .unused_ids
            .pop()
            .expect("at most n/2 blossoms exist at once");
        // The tree paths from v's and w's blossoms down to the base blossom, with the label
        // arcs that join them (each label arc enters its blossom from the next one down).
        let mut v_side = Vec::new();
        let mut v_arcs = Vec::new();
        let mut x = self.top[v];
        while x != base_blossom {
            v_side.push(x);
            v_arcs.push(self.label_arc[x]);
            x = self.top[graph.tail(self.label_arc[x])];
        }
        let mut w_side = Vec::new();
        let mut w_arcs = Vec::new();
        let mut y = self.top[w];
        while y != base_blossom {
            w_side.push(y);
            w_arcs.push(reverse(self.label_arc[y]));
            y = self.top[graph.tail(self.label_arc[y])];
        }
        // Around the cycle: base blossom, v's path upwards to v, the new edge to w, w's path
        // down to the base blossom; arc i runs from child i to child i + 1.
        let mut children = vec![base_blossom];
        children.extend(v_side.iter().rev());
        children.extend(&w_side);
        let mut cycle: Vec<Arc> = v_arcs.into_iter().rev().collect();
        cycle.push(arc);
        cycle.extend(w_arcs);

        self.base[b] = base;
        self.parent[b] = NONE;
        self.dual[b] = W::ZERO;
        self.label[b] = Label::Outer;
        self.label_arc[b] = self.label_arc[base_blossom];
        self.root[b] = self.root[base_blossom];
        for &child in &children {
            self.parent[child] = b;
            if self.label[child] == Label::Inner {
                let leaves = self.leaves(child);
                self.queue.extend(leaves);
            }
        }
        self.children[b] = children;
        self.cycle[b] = cycle;
        for leaf in self.leaves(b) {
            self.top[leaf] = b;
        }
        self.merge_outer_arcs(b);
    }

    /// The new blossom's least-slack arc to each other outer blossom, from its children's
    /// lists where they have one and from all their vertices' arcs where not (Galil's
    /// bookkeeping for δ3).
    fn merge_outer_arcs(&mut self, b: usize) {
        let graph = self.graph;
        let mut reached = Vec::new();
        let children = std::mem::take(&mut self.children[b]);
        for &child in &children {
            match self.outer_arcs[child].take() {
                Some(list) => {
                    for arc in list {
                        let other = self.top[graph.head(arc)];
                        if other != b && self.label[other] == Label::Outer {
                            self.offer_outer_arc(other, arc, self.slack(arc), &mut reached);
                        }
                    }
                }
                None => {
                    for leaf in self.leaves(child) {
                        let dual_leaf = self.dual[leaf];
                        for out in graph.arcs_from(leaf) {
                            let other = self.top[out.head];
                            if other != b && self.label[other] == Label::Outer {
                                let slack = self.slack_from(dual_leaf, out);
                                self.offer_outer_arc(other, out.arc, slack, &mut reached);
                            }
                        }
                    }
                }
            }
            self.best[child] = Best::NONE;
        }
        self.children[b] = children;
        let mut best = NONE;
        let mut best_slack = W::ZERO;
        let mut list = Vec::with_capacity(reached.len());
        for other in reached {
            let arc = std::mem::replace(&mut self.best_to[other], NONE);
            let slack = self.best_to_slack[other];
            if best == NONE || slack < best_slack {
                best = arc;
                best_slack = slack;
            }
            list.push(arc);
        }
        self.best[b] = Best {
            arc: best,
            slack: best_slack,
            stale: false,
        };
        self.outer_arcs[b] = Some(list);
    }

    /// Keeps `arc` (from the new blossom to the outer blossom `other`, with slack `slack`) if
    /// it is the least-slack arc to `other` so far.
    #[inline]
    fn offer_outer_arc(&mut self, other: usize, arc: Arc, slack: W, reached: &mut Vec<usize>) {
        if self.best_to[other] == NONE {
            reached.push(other);
        } else if slack >= self.best_to_slack[other] {
            return;
        }
        self.best_to[other] = arc;
        self.best_to_slack[other] = slack;
    }

    /// Undoes blossom `b`: its children become top-level blossoms. For δ4 on an inner
    /// blossom, the children on the even path from the entry vertex's child to the base
    /// child are labeled inner and outer in turn, and the others are left unlabeled unless a
    /// tight arc from an outer vertex already reaches them. When `spent` (an outer blossom
    /// of a dissolved tree, Galil's end of a stage), children whose dual is zero are expanded
    /// too, and nothing is labeled.
    pub(super) fn expand_blossom(&mut self, b: usize, spent: bool) {
        let children = std::mem::take(&mut self.children[b]);
        let cycle = std::mem::take(&mut self.cycle[b]);
        for &child in &children {
            self.parent[child] = NONE;
            self.label[child] = Label::Unlabeled;
            self.label_arc[child] = NONE;
            if child < self.n {
                self.top[child] = child;
            } else if spent && self.dual[child] == W::ZERO {
                self.expand_blossom(child, true);
            } else {
                for leaf in self.leaves(child) {
                    self.top[leaf] = child;
                }
            }
        }
        if !spent && self.label[b] == Label::Inner {
            self.relabel_children(b, &children, &cycle);
        }
        self.label[b] = Label::Unlabeled;
        self.label_arc[b] = NONE;
        self.base[b] = NONE;
        self.best[b] = Best::NONE;
        self.outer_arcs[b] = None;
        self.dual[b] = W::ZERO;
        self.unused_ids.push(b);
    }

    /// Labels the children of the inner blossom `b`, just expanded, so that the tree passes
    /// through them from the vertex where it entered `b` to `b`'s base.
    fn relabel_children(&mut self, b: usize, children: &[usize], cycle: &[Arc]) {
        let graph = self.graph;
        let len = children.len();
        let entry = self.top[graph.head(self.label_arc[b])];
        let start = children
            .iter()
            .position(|&child| child == entry)
            .expect("entry child");
        // The path to the base child (index 0) must have even length.
        let walk = CycleWalk::toward_base(start, len);
        let mut arc = self.label_arc[b];
        let mut position = start;
        while position != 0 {
            // Inner, and its mate (the next child) outer; then the unmatched arc onwards.
            self.assign_label(graph.head(arc), Label::Inner, arc);
            let outer = walk.step(position);
            arc = walk.arc_onwards(cycle, outer);
            position = walk.step(outer);
        }
        // The base child: inner, its mate (outside b) is outer already.
        self.label[children[0]] = Label::Inner;
        self.label_arc[children[0]] = arc;
        self.root[children[0]] = self.root[self.top[graph.tail(arc)]];
        // The children off the path are unlabeled, unless an outer vertex reaches one of
        // their vertices through a tight arc (recorded by `scan` while they were inside b).
        let off_path = if walk.forwards() {
            1..start
        } else {
            start + 1..len
        };
        for position in off_path {
            let child = children[position];
            if self.label[child] != Label::Unlabeled {
                continue; // labeled outer as the mate of an earlier one
            }
            for leaf in self.leaves(child) {
                if self.best[leaf].stale {
                    self.refresh(leaf);
                }
                let best = self.best[leaf];
                if best.is_some() && best.slack == W::ZERO {
                    self.assign_label(leaf, Label::Inner, best.arc);
                    break;
                }
            }
        }
    }
}
