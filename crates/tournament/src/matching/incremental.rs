//! A matching kept optimal while the weights of a complete graph change a few vertices at a
//! time: the Dutch engine's many small questions ("can this player be paired here without
//! loss?") each change the edges at one vertex and ask again.
//!
//! The graph and the latest optimum (matching and vertex duals) are kept. A change raises the
//! changed vertex's dual where an edge needs it and unmatches its matched edge if that is no
//! longer tight; the next [`IncrementalMatching::solve`] then grows trees only from the
//! vertices this freed — about n² work instead of n³ — and the blossoms' duals are spread
//! over their vertices afterwards, so no blossom needs to outlive a computation.

use super::graph::Graph;
use super::solver::{Solver, NONE};
use super::weight::Weight;

/// A maximum weight matching of a complete graph whose edge weights change.
///
/// ```
/// use arbiter_tournament::matching::IncrementalMatching;
///
/// let mut m = IncrementalMatching::<u64>::new(4);
/// m.set_weight(0, 1, 5);
/// m.set_weight(2, 3, 5);
/// m.set_weight(1, 2, 12); // more than the two others together
/// assert_eq!(m.solve(), [None, Some(2), Some(1), None]);
/// m.set_weight(1, 2, 0); // zero: no edge
/// assert_eq!(m.solve(), [Some(1), Some(0), Some(3), Some(2)]);
/// ```
pub struct IncrementalMatching<W> {
    graph: Graph<W>,
    mates: Vec<Option<usize>>,
    /// The latest optimum's duals (doubled; blossoms spread over their vertices).
    duals: Vec<W>,
    /// Vertices with an edge made heavier since the latest computation: their dual may need
    /// raising.
    dirty: Vec<bool>,
    /// Vertices whose matched edge changed weight since the latest computation.
    rematch: Vec<usize>,
    /// Whether the next computation starts from scratch (the first one, or when the duals
    /// have drifted far above the weights).
    fresh: bool,
}

impl<W: Weight> IncrementalMatching<W> {
    /// `n` vertices, every weight zero (no edges).
    pub fn new(n: usize) -> Self {
        IncrementalMatching {
            graph: Graph::complete(n),
            mates: vec![None; n],
            duals: vec![W::ZERO; n],
            dirty: vec![false; n],
            rematch: Vec::new(),
            fresh: true,
        }
    }

    fn edge(i: usize, j: usize) -> usize {
        let (i, j) = if i < j { (i, j) } else { (j, i) };
        j * (j - 1) / 2 + i
    }

    /// The arc of edge `{v, m}` leaving `v`.
    fn arc(v: usize, m: usize) -> usize {
        2 * Self::edge(v, m) + usize::from(v > m)
    }

    /// The weight of `{i, j}`.
    pub fn weight(&self, i: usize, j: usize) -> W {
        self.graph.doubled_weight[Self::edge(i, j)].half()
    }

    /// Sets the weight of `{i, j}` (zero: no edge). When the edge gets heavier, the next
    /// [`Self::solve`] raises `i`'s dual if the edge needs it (so put first the vertex the
    /// change is about).
    ///
    /// # Panics
    /// If `i == j`, either is out of range, or twelve times the weight does not fit in `W`.
    pub fn set_weight(&mut self, i: usize, j: usize, weight: W) {
        assert!(i != j, "matching: no loops");
        let doubled = weight
            .plus(weight)
            .expect("matching: weight too large for the type");
        assert!(
            super::weight::times(doubled, 6).is_some(),
            "matching: weight too large for the type (12 × weight must fit)"
        );
        let e = Self::edge(i, j);
        let old = self.graph.doubled_weight[e];
        if old == doubled {
            return;
        }
        self.graph.set_doubled_weight(e, doubled);
        if doubled > old {
            self.dirty[i] = true;
        }
        if self.mates[i] == Some(j) {
            self.rematch.push(i);
        }
    }

    /// A maximum weight matching for the current weights (edges of weight zero never in it):
    /// the mate of each vertex.
    pub fn solve(&mut self) -> &[Option<usize>] {
        let n = self.graph.vertex_count;
        // Duals only drift up over many warm starts; far above the weights, start afresh.
        let ceiling = super::weight::times(self.graph.max_weight, 8);
        if ceiling.is_none_or(|c| self.duals.iter().any(|&d| d > c)) {
            self.fresh = true;
        }
        if self.fresh {
            self.fresh = false;
            self.mates.fill(None);
            self.duals.fill(self.graph.max_weight);
            self.dirty.fill(false);
            self.rematch.clear();
        }
        // Feasibility at the changed vertices: raise the dual where an edge needs it (a
        // raised vertex's matched edge is no longer tight).
        for v in 0..n {
            if !self.dirty[v] {
                continue;
            }
            self.dirty[v] = false;
            let mut need = self.duals[v];
            for out in self.graph.arcs_from(v) {
                if let Some(rest) = out.doubled_weight.minus(self.duals[out.head]) {
                    need = need.max(rest);
                }
            }
            if need > self.duals[v] {
                self.duals[v] = need;
                self.rematch.push(v);
            }
        }
        // Complementary slackness: those matched edges must still be tight.
        for v in std::mem::take(&mut self.rematch) {
            if let Some(m) = self.mates[v] {
                let w = self.graph.doubled_weight[Self::edge(v, m)];
                if w == W::ZERO || self.duals[v].plus(self.duals[m]) != Some(w) {
                    self.mates[v] = None;
                    self.mates[m] = None;
                }
            }
        }
        let mate_arcs: Vec<usize> = (0..n)
            .map(|v| self.mates[v].map_or(NONE, |m| Self::arc(v, m)))
            .collect();
        let mut solver = Solver::new(&self.graph);
        solver.warm(&mate_arcs, &self.duals);
        solver.run();
        self.mates = solver.mates();
        for v in 0..n {
            let mut dual = solver.dual[v];
            let mut b = solver.parent[v];
            while b != NONE {
                dual = dual
                    .plus(solver.dual[b].half())
                    .expect("duals within the bound");
                b = solver.parent[b];
            }
            if dual != solver.dual[v] {
                // A blossom's dual spread over its vertices: an edge leaving the blossom is
                // no longer tight; the next computation unmatches it if it is matched.
                self.rematch.push(v);
            }
            self.duals[v] = dual;
        }
        &self.mates
    }
}
