//! The primal-dual method: alternating trees grown from the free vertices along tight edges,
//! and the dual changes that make new edges tight (Galil 1986, §3, "the weighted case").
//!
//! Every free vertex is the root of a tree and is labeled outer (S). Scanning an outer
//! vertex's edges follows the tight ones: an unlabeled blossom reached from an outer vertex
//! becomes inner (T) and its mate's blossom outer; a tight edge between two outer blossoms
//! either closes an odd cycle (a new blossom, [`super::blossom`]) or joins two trees (an
//! augmenting path, [`super::augment`]). When no tight edge is left to follow, the duals
//! change by the largest δ that keeps them feasible, the least of the four bounds δ1–δ4.
//!
//! Galil's stages start every tree afresh after each augmentation; here only the two trees
//! the augmentation used are dissolved and the others keep growing ([`super::repair`]). The
//! O(n³) bound is unchanged, but on dense graphs the first augmentations, which join trees
//! of one or two vertices, no longer cost a scan of every edge each.
//!
//! Dual variables are stored doubled: `u_i + u_j + Σ z_B ≥ 2 w_ij` for every edge, with
//! `u_v = W` (the largest weight) at the start. Outer vertices lose δ and inner ones gain δ;
//! outer blossoms gain 2δ and inner ones lose 2δ. The slack of an edge between two different
//! top-level blossoms is `u_i + u_j − 2 w_ij` (no blossom contains both ends).

use super::graph::{edge, Arc, Graph, Out};
use super::least_slack::Best;
use super::weight::Weight;

/// "No vertex, blossom or arc".
pub(super) const NONE: usize = usize::MAX;

/// The label of a top-level blossom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Label {
    /// Not in any alternating tree.
    Unlabeled,
    /// S: at an even distance from a free vertex; its vertices are scanned.
    Outer,
    /// T: at an odd distance; reached through its base's mate.
    Inner,
}

/// What the dual change just made possible (the δ that was smallest).
enum Step {
    /// δ1: an outer vertex's dual reached zero: a root's (its tree is done) or another's
    /// (it becomes free instead of the root), or every root's (the matching is optimal).
    Zero,
    /// δ2: this arc from an outer vertex to an unlabeled blossom became tight.
    Reach(Arc),
    /// δ3: this arc between two outer blossoms became tight.
    Join(Arc),
    /// δ4: the dual of this inner blossom reached zero: expand it.
    Expand(usize),
}

/// How much work a run did (for benchmarks and tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Augmentations: the number of matched pairs.
    pub augmentations: usize,
    /// Dual changes.
    pub dual_changes: usize,
    /// Blossoms formed.
    pub blossoms_formed: usize,
    /// Inner blossoms expanded (δ4).
    pub inner_blossoms_expanded: usize,
}

/// The state of the algorithm. Blossom ids: `0..n` are the vertices (trivial blossoms),
/// `n..2n` the non-trivial blossoms (at most n/2 exist at any time).
pub(super) struct Solver<'g, W> {
    pub(super) graph: &'g Graph<W>,
    pub(super) n: usize,
    /// The arc from each vertex to its mate, or `NONE`.
    pub(super) mate: Vec<Arc>,
    /// `u_v` for vertices, `z_B` for blossoms (both doubled).
    pub(super) dual: Vec<W>,
    /// The top-level blossom containing each vertex.
    pub(super) top: Vec<usize>,
    /// The blossom immediately containing each blossom, or `NONE`.
    pub(super) parent: Vec<usize>,
    /// The sub-blossoms of each blossom around its odd cycle, the base's first.
    pub(super) children: Vec<Vec<usize>>,
    /// `cycle[b][i]`: the arc from `children[b][i]` to the next child around the cycle.
    pub(super) cycle: Vec<Vec<Arc>>,
    /// The base vertex of each blossom (`NONE` for unused blossom ids).
    pub(super) base: Vec<usize>,
    /// The label of each top-level blossom.
    pub(super) label: Vec<Label>,
    /// The arc through which each labeled top-level blossom was reached (its head lies in the
    /// blossom): for an outer blossom, the matched arc from its inner parent's base (`NONE` at a
    /// tree's root); for an inner one, the tight arc from an outer vertex.
    pub(super) label_arc: Vec<Arc>,
    /// The root (a free vertex) of the tree of each labeled top-level blossom.
    pub(super) root: Vec<usize>,
    /// For a vertex not in an outer blossom: the least-slack arc to it from an outer vertex.
    /// For a top-level outer blossom: the least-slack arc from it to another outer blossom.
    pub(super) best: Vec<Best<W>>,
    /// For an outer blossom formed in its current tree: for each other outer blossom, the
    /// least-slack arc to it when it was formed (Galil's lists, which make merging the
    /// children's arcs cost O(n) per child instead of their vertices' degrees). `None`: use
    /// the vertices' arcs.
    pub(super) outer_arcs: Vec<Option<Vec<Arc>>>,
    /// Blossom ids not in use.
    pub(super) unused_ids: Vec<usize>,
    /// Outer vertices whose arcs are still to be scanned.
    pub(super) queue: Vec<usize>,
    /// Scratch: blossoms marked while looking for a common ancestor.
    pub(super) marked: Vec<bool>,
    /// Scratch: the best arc to each outer blossom while merging lists, and its slack.
    pub(super) best_to: Vec<Arc>,
    pub(super) best_to_slack: Vec<W>,
    /// Scratch: the label each vertex had in the trees being dissolved.
    pub(super) former_label: Vec<Label>,
    /// The number of trees still growing (free vertices whose dual is not yet zero).
    pub(super) active_roots: usize,
    pub(super) stats: Stats,
}

#[inline]
pub(super) fn add<W: Weight>(a: W, b: W) -> W {
    a.plus(b)
        .expect("matching: a dual value overflowed despite the bound checked on entry (a bug)")
}

#[inline]
pub(super) fn sub<W: Weight>(a: W, b: W) -> W {
    a.minus(b)
        .expect("matching: a slack or dual went negative (a bug)")
}

impl<'g, W: Weight> Solver<'g, W> {
    pub(super) fn new(graph: &'g Graph<W>) -> Self {
        let n = graph.vertex_count;
        Self {
            graph,
            n,
            mate: vec![NONE; n],
            dual: (0..2 * n)
                .map(|id| if id < n { graph.max_weight } else { W::ZERO })
                .collect(),
            top: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            cycle: vec![Vec::new(); 2 * n],
            base: (0..2 * n)
                .map(|id| if id < n { id } else { NONE })
                .collect(),
            label: vec![Label::Unlabeled; 2 * n],
            label_arc: vec![NONE; 2 * n],
            root: vec![NONE; 2 * n],
            best: vec![Best::NONE; 2 * n],
            outer_arcs: vec![None; 2 * n],
            unused_ids: (n..2 * n).rev().collect(),
            queue: Vec::new(),
            marked: vec![false; 2 * n],
            best_to: vec![NONE; 2 * n],
            best_to_slack: vec![W::ZERO; 2 * n],
            former_label: vec![Label::Unlabeled; n],
            active_roots: n,
            stats: Stats::default(),
        }
    }

    /// Starts from a given matching, as the arc from each vertex to its mate (`NONE`: free),
    /// and vertex duals (doubled) instead of the empty matching: the duals must be feasible
    /// and each matched edge tight; no blossoms. Free vertices whose dual is zero are already
    /// where an optimum can leave them.
    pub(super) fn warm(&mut self, mate_arcs: &[Arc], duals: &[W]) {
        self.mate.copy_from_slice(mate_arcs);
        self.dual[..self.n].copy_from_slice(duals);
        // Roots must share the parity of their duals, so that the slack between two outer
        // blossoms is even (δ3 halves it); raising a free vertex's dual keeps it feasible.
        for v in 0..self.n {
            if self.mate[v] == NONE
                && self.dual[v].half().plus(self.dual[v].half()) != Some(self.dual[v])
            {
                self.dual[v] = add(self.dual[v], W::ONE);
            }
        }
    }

    /// Grows the trees, augmenting whenever two meet, until the duals prove the matching
    /// optimal (δ1) or no vertex is free.
    pub(super) fn run(&mut self) {
        #[cfg(debug_assertions)]
        for v in 0..self.n {
            for out in self.graph.arcs_from(v) {
                let sum = add(self.dual[v], self.dual[out.head]);
                assert!(
                    sum >= out.doubled_weight,
                    "start: edge {v}-{} infeasible",
                    out.head
                );
                if self.mate[v] == out.arc {
                    assert!(
                        sum == out.doubled_weight,
                        "start: matched edge {v}-{} not tight",
                        out.head
                    );
                }
            }
        }
        self.active_roots = 0;
        for v in 0..self.n {
            if self.mate[v] == NONE && self.dual[v] > W::ZERO {
                self.active_roots += 1;
                self.assign_label(v, Label::Outer, NONE);
            }
        }
        while self.active_roots > 0 {
            if let Some(v) = self.queue.pop() {
                // A vertex of a dissolved tree may wait here, no longer outer.
                if self.label[self.top[v]] == Label::Outer {
                    self.scan(v);
                }
                continue;
            }
            let (delta, step) = self.smallest_delta();
            self.change_duals(delta);
            self.stats.dual_changes += 1;
            match step {
                Step::Zero => {
                    if self.settle_zero_duals() {
                        break;
                    }
                }
                Step::Reach(arc) | Step::Join(arc) => {
                    self.follow_tight_arc(arc);
                }
                Step::Expand(b) => {
                    self.stats.inner_blossoms_expanded += 1;
                    self.expand_blossom(b, false);
                }
            }
        }
    }

    /// The mate of each vertex.
    pub(super) fn mates(&self) -> Vec<Option<usize>> {
        self.mate
            .iter()
            .map(|&arc| (arc != NONE).then(|| self.graph.head(arc)))
            .collect()
    }

    /// `u_i + u_j − 2w` for an edge between two different top-level blossoms.
    pub(super) fn slack(&self, arc: Arc) -> W {
        let e = edge(arc);
        let (i, j) = (self.graph.tail(2 * e), self.graph.tail(2 * e + 1));
        sub(
            add(self.dual[i], self.dual[j]),
            self.graph.doubled_weight[e],
        )
    }

    /// The slack of an arc seen from its tail, whose dual is `tail_dual` (as [`Self::slack`],
    /// reading the head and weight in sequence).
    #[inline]
    pub(super) fn slack_from(&self, tail_dual: W, out: &Out<W>) -> W {
        sub(add(tail_dual, self.dual[out.head]), out.doubled_weight)
    }

    /// Whether `b` is a non-trivial blossom at the top level.
    #[inline]
    pub(super) fn is_top_blossom(&self, b: usize) -> bool {
        self.base[b] != NONE && self.parent[b] == NONE
    }

    /// Labels the top-level blossom of `w`, reached through `arc` (its head is `w`; `NONE` for
    /// a root). An inner blossom's mate becomes outer at once (its base is matched: free
    /// vertices are roots).
    pub(super) fn assign_label(&mut self, w: usize, label: Label, arc: Arc) {
        let b = self.top[w];
        self.label[b] = label;
        self.label_arc[b] = arc;
        self.root[b] = if arc == NONE {
            w
        } else {
            self.root[self.top[self.graph.tail(arc)]]
        };
        match label {
            Label::Outer => {
                self.best[b] = Best::NONE;
                if b < self.n {
                    self.queue.push(b);
                } else {
                    let leaves = self.leaves(b);
                    self.queue.extend(leaves);
                }
            }
            Label::Inner => {
                let mate_arc = self.mate[self.base[b]];
                debug_assert!(mate_arc != NONE, "an inner blossom's base is matched");
                self.assign_label(self.graph.head(mate_arc), Label::Outer, mate_arc);
            }
            Label::Unlabeled => unreachable!("labels are only ever given"),
        }
    }

    /// Scans the arcs leaving the outer vertex `v`; `true` if the matching was augmented.
    fn scan(&mut self, v: usize) -> bool {
        let graph = self.graph;
        let dual_v = self.dual[v];
        for out in graph.arcs_from(v) {
            let (arc, w) = (out.arc, out.head);
            let (bv, bw) = (self.top[v], self.top[w]);
            if bv == bw {
                continue;
            }
            match self.label[bw] {
                Label::Outer => {
                    let slack = self.slack_from(dual_v, out);
                    if slack == W::ZERO {
                        if self.follow_tight_arc(arc) {
                            return true;
                        }
                    } else {
                        self.best[bv].offer(arc, slack);
                    }
                }
                Label::Unlabeled => {
                    let slack = self.slack_from(dual_v, out);
                    if slack == W::ZERO {
                        if self.follow_tight_arc(arc) {
                            return true;
                        }
                    } else {
                        self.best[w].offer(arc, slack);
                    }
                }
                Label::Inner => {
                    // A non-trivial inner blossom can be expanded (δ4) and leave `w`
                    // unlabeled; remember the best arc to `w` for then (a tight one relabels
                    // `w`'s sub-blossom at the expansion). A trivial one becomes unlabeled
                    // only when its tree dissolves, and `repair` looks again then.
                    if bw >= self.n {
                        let slack = self.slack_from(dual_v, out);
                        self.best[w].offer(arc, slack);
                    }
                }
            }
        }
        false
    }

    /// Follows a tight arc from an outer vertex; `true` if the matching was augmented.
    fn follow_tight_arc(&mut self, arc: Arc) -> bool {
        let (v, w) = (self.graph.tail(arc), self.graph.head(arc));
        let bw = self.top[w];
        if self.top[v] == bw {
            return false;
        }
        match self.label[bw] {
            Label::Unlabeled if self.mate[self.base[bw]] == NONE => {
                // A free vertex outside the trees (its dual is zero): an augmenting path.
                let root = self.root[self.top[v]];
                self.augment_to_free(arc);
                self.stats.augmentations += 1;
                self.active_roots -= 1;
                self.dissolve_trees([root, root]);
                true
            }
            Label::Unlabeled => {
                self.assign_label(w, Label::Inner, arc);
                false
            }
            Label::Outer => match self.common_base(v, w) {
                Some(base) => {
                    self.stats.blossoms_formed += 1;
                    self.add_blossom(base, arc);
                    false
                }
                None => {
                    let roots = [self.root[self.top[v]], self.root[self.top[w]]];
                    self.augment(arc);
                    self.stats.augmentations += 1;
                    self.active_roots -= 2;
                    self.dissolve_trees(roots);
                    true
                }
            },
            Label::Inner => false,
        }
    }

    /// The largest feasible dual change and what it makes possible (ties go to the earlier of
    /// δ1, δ2, δ3, δ4 and, within one, to the first found).
    fn smallest_delta(&mut self) -> (W, Step) {
        self.debug_check_least_slacks();
        loop {
            let (delta, step, slot) = self.least_bound();
            match slot {
                // A stale bound is the least: find that slot's arc again, and look again.
                Some(b) if self.best[b].stale => self.refresh(b),
                _ => return (delta, step),
            }
        }
    }

    /// The least of the four bounds, and the least-slack slot it came from (δ2, δ3).
    fn least_bound(&self) -> (W, Step, Option<usize>) {
        // δ1: the smallest dual of an outer vertex (none may go negative). From the empty
        // matching it is the free vertices' (all equal); from a given one it may be another's.
        let mut delta = (0..self.n)
            .filter(|&v| self.label[self.top[v]] == Label::Outer)
            .map(|v| self.dual[v])
            .min()
            .expect("a tree is growing");
        let mut step = Step::Zero;
        let mut slot = None;
        // δ2: the least slack of an arc from an outer vertex to an unlabeled blossom.
        for v in 0..self.n {
            let best = self.best[v];
            if best.is_some() && self.label[self.top[v]] == Label::Unlabeled && best.slack < delta {
                delta = best.slack;
                step = Step::Reach(best.arc);
                slot = Some(v);
            }
        }
        // δ3: half the least slack between two outer blossoms (even: both ends moved alike).
        for b in 0..2 * self.n {
            let best = self.best[b];
            if best.is_some() && self.is_outer_top(b) && best.slack.half() < delta {
                delta = best.slack.half();
                step = Step::Join(best.arc);
                slot = Some(b);
            }
        }
        // δ4: half the dual of an inner blossom.
        for b in self.n..2 * self.n {
            if self.is_top_blossom(b)
                && self.label[b] == Label::Inner
                && self.dual[b].half() < delta
            {
                delta = self.dual[b].half();
                step = Step::Expand(b);
                slot = None;
            }
        }
        if let (Step::Join(_), Some(b)) = (&step, slot) {
            let slack = self.best[b].slack;
            debug_assert!(
                self.best[b].stale || slack.half().plus(slack.half()) == Some(slack),
                "odd slack between outer blossoms"
            );
        }
        (delta, step, slot)
    }

    /// After δ1: the outer vertices whose dual is now zero. When every tree's root is among
    /// them the matching is optimal (`true`). Otherwise each such root's tree is done (the
    /// root stays free); if no root is, the first such vertex becomes free instead of its
    /// root, whose tree is then done.
    fn settle_zero_duals(&mut self) -> bool {
        let zero: Vec<usize> = (0..self.n)
            .filter(|&v| self.label[self.top[v]] == Label::Outer && self.dual[v] == W::ZERO)
            .collect();
        let is_root = |s: &Self, v: usize| s.label_arc[s.top[v]] == NONE && s.mate[v] == NONE;
        let roots: Vec<usize> = zero.iter().copied().filter(|&v| is_root(self, v)).collect();
        if roots.len() == self.active_roots {
            return true;
        }
        if roots.is_empty() {
            let x = zero[0];
            let root = self.root[self.top[x]];
            self.release(x);
            self.active_roots -= 1;
            self.dissolve_trees([root, root]);
        } else {
            for root in roots {
                self.active_roots -= 1;
                self.dissolve_trees([root, root]);
            }
        }
        false
    }

    /// Outer vertices lose δ, inner ones gain δ; outer blossoms gain 2δ, inner ones lose 2δ.
    fn change_duals(&mut self, delta: W) {
        if delta == W::ZERO {
            return;
        }
        self.age_least_slacks(delta);
        for v in 0..self.n {
            match self.label[self.top[v]] {
                Label::Outer => self.dual[v] = sub(self.dual[v], delta),
                Label::Inner => self.dual[v] = add(self.dual[v], delta),
                Label::Unlabeled => {}
            }
        }
        let double = add(delta, delta);
        for b in self.n..2 * self.n {
            if self.is_top_blossom(b) {
                match self.label[b] {
                    Label::Outer => self.dual[b] = add(self.dual[b], double),
                    Label::Inner => self.dual[b] = sub(self.dual[b], double),
                    Label::Unlabeled => {}
                }
            }
        }
    }
}
