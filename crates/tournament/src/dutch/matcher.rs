//! The weighted graph of the players still to pair, solved again after each change.

use crate::matching::max_weight_matching;

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
    /// the same optimum for the others).
    pub fn solve(&mut self) -> &[usize] {
        self.solves += 1;
        let free: Vec<usize> = (0..self.n).filter(|&v| self.fixed[v].is_none()).collect();
        let mut edges = Vec::new();
        for (b, &j) in free.iter().enumerate() {
            let row = j * j.saturating_sub(1) / 2;
            for (a, &i) in free[..b].iter().enumerate() {
                let w = self.weights[row + i];
                if !w.is_zero() {
                    edges.push((a, b, w));
                }
            }
        }
        let mates = max_weight_matching(free.len(), &edges);
        for (a, &v) in free.iter().enumerate() {
            self.mates[v] = mates[a].map_or(v, |b| free[b]);
        }
        &self.mates
    }
}
