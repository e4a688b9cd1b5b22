//! The weighted graph of the players still to pair, solved again after each change.

use crate::matching::{max_weight_matching_warm, Warm};

use super::weights::Wide;

/// The current weights between the players (by their place in the score order) and the
/// pairs already decided.
pub(super) struct Matcher<W> {
    n: usize,
    /// Lower triangle: the weight of `{i, j}`, `i < j`, at `j (j − 1) / 2 + i`; zero means
    /// the two may not be paired.
    weights: Vec<W>,
    /// The partner of each vertex in a decided pair.
    fixed: Vec<Option<usize>>,
    /// The latest matching: each vertex's mate, itself when unmatched.
    mates: Vec<usize>,
    /// The latest optimum's vertex duals (doubled, blossoms spread over their vertices): the
    /// next computation starts from them and the latest matching.
    duals: Vec<W>,
    /// Vertices whose edges changed since the latest computation.
    dirty: Vec<bool>,
    /// The number of matchings computed (for the explanation and benchmarks).
    pub solves: usize,
}

impl<W: Wide> Matcher<W> {
    /// `n` vertices and no edges.
    pub fn new(n: usize) -> Matcher<W> {
        Matcher {
            n,
            weights: vec![W::ZERO; n * n.saturating_sub(1) / 2],
            fixed: vec![None; n],
            mates: (0..n).collect(),
            duals: vec![W::ZERO; n],
            dirty: vec![true; n],
            solves: 0,
        }
    }

    fn index(i: usize, j: usize) -> usize {
        let (i, j) = if i < j { (i, j) } else { (j, i) };
        j * (j - 1) / 2 + i
    }

    /// Sets the weight of `{i, j}`.
    pub fn set(&mut self, i: usize, j: usize, weight: W) {
        debug_assert!(i != j);
        self.weights[Self::index(i, j)] = weight;
        self.dirty[i] = true;
    }

    /// Decides the pair `{i, j}`: both leave the graph.
    pub fn fix(&mut self, i: usize, j: usize) {
        self.fixed[i] = Some(j);
        self.fixed[j] = Some(i);
        self.mates[i] = j;
        self.mates[j] = i;
    }

    /// Computes a matching of the largest weight among the vertices not yet fixed (a fixed
    /// pair outweighs anything its two vertices could do otherwise, so leaving them out gives
    /// the same optimum for the others), starting from the latest one: only the edges at the
    /// vertices changed since then need work (about n² instead of n³).
    pub fn solve(&mut self) -> &[usize] {
        self.solves += 1;
        let free: Vec<usize> = (0..self.n).filter(|&v| self.fixed[v].is_none()).collect();
        let mut place = vec![usize::MAX; self.n];
        for (a, &v) in free.iter().enumerate() {
            place[v] = a;
        }
        let mut edges = Vec::new();
        let mut heaviest = W::ZERO;
        for (b, &j) in free.iter().enumerate() {
            let row = j * j.saturating_sub(1) / 2;
            for (a, &i) in free[..b].iter().enumerate() {
                let w = self.weights[row + i];
                if !w.is_zero() {
                    edges.push((a, b, w));
                    heaviest = heaviest.max(w);
                }
            }
        }
        let doubled = heaviest.add(heaviest);
        // Raise the duals of changed vertices where an edge needs it (their other edges only
        // gain slack); a dual far above the weights (they only ever drift up) means a
        // fresh start, which is also the first computation's.
        let mut duals: Vec<W> = free.iter().map(|&v| self.duals[v]).collect();
        let fresh = duals.iter().any(|&d| d > doubled.add(doubled));
        if fresh {
            duals = vec![heaviest; free.len()];
        } else {
            for &(a, b, w) in &edges {
                let (i, j) = (free[a], free[b]);
                for (x, y) in [(a, b), (b, a)] {
                    let v = free[x];
                    if self.dirty[v] && (v == i || v == j) {
                        let need = w.add(w);
                        if duals[x].add(duals[y]) < need {
                            duals[x] = need.sub(duals[y]);
                        }
                        break;
                    }
                }
            }
        }
        let mates: Vec<Option<usize>> = if fresh {
            vec![None; free.len()]
        } else {
            free.iter()
                .map(|&v| {
                    let m = self.mates[v];
                    (m != v && self.fixed[m].is_none()).then(|| place[m])
                })
                .collect()
        };
        let start = Warm { mates, duals };
        let result = max_weight_matching_warm(free.len(), &edges, &start);
        for (a, &v) in free.iter().enumerate() {
            self.mates[v] = result.mates[a].map_or(v, |b| free[b]);
            self.duals[v] = result.duals[a];
            self.dirty[v] = false;
        }
        &self.mates
    }
}
