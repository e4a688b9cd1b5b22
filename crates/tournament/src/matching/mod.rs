//! Maximum weight matching in general graphs: Edmonds' blossom algorithm with dual variables,
//! O(n³), exact on integer weights.
//!
//! The FIDE Dutch system (C.04.3) is solved, as bbpPairings does, by turning its pairing
//! criteria into edge weights, one field of bits per criterion in priority order, and asking
//! for a matching of the largest weight among those that pair as many players as possible.
//! This module is that matching:
//!
//! - [`max_weight_matching`]: the largest total weight over all matchings;
//! - [`max_weight_max_cardinality_matching`]: the largest total weight among the matchings
//!   with the most edges (what the Dutch engine needs);
//! - [`solve`]: either, with the dual [`Certificate`] that proves the result optimal and
//!   [`Stats`] on the work done;
//! - [`max_weight_matching_warm`]: from a given matching and duals (a [`Warm`] start), for
//!   graphs that change a little between computations;
//! - [`IncrementalMatching`]: a complete graph whose weights change a few vertices at a time,
//!   kept optimal in about n² per change instead of n³ (what the Dutch engine uses).
//!
//! Weights are any [`Weight`]: the primitive integers, or [`FixedUint`] for weights wider
//! than 128 bits. No floating point is used anywhere: the duals are kept doubled so that they
//! stay integers.
//!
//! ```
//! use arbiter_tournament::matching::{max_weight_matching, max_weight_max_cardinality_matching};
//!
//! // A path a–b–c–d: the heavy middle edge alone outweighs the two outer ones,
//! let edges = [(0, 1, 2u64), (1, 2, 5), (2, 3, 2)];
//! assert_eq!(max_weight_matching(4, &edges), [None, Some(2), Some(1), None]);
//! // but pairing everybody comes first when asked.
//! assert_eq!(max_weight_max_cardinality_matching(4, &edges), [Some(1), Some(0), Some(3), Some(2)]);
//! ```
//!
//! # The algorithm
//!
//! The primal-dual method of Edmonds (1965) in the O(n³) form described by Galil ("Efficient
//! algorithms for finding maximum matching in graphs", ACM Computing Surveys 18, 1986):
//! alternating trees grow from the free vertices along tight edges, odd cycles shrink into
//! blossoms, and the duals change by the largest amount that keeps them feasible, until two
//! trees meet (an augmentation: at most n/2 of them) or the duals prove the matching optimal.
//! Between two augmentations the work is O(m + n²): each vertex's edges are scanned once, and
//! each dual change costs O(n) thanks to the least-slack edge kept per vertex and per outer
//! blossom. Unlike Galil's stages, an augmentation dissolves only the two trees it joined;
//! the others keep growing, which makes dense graphs much faster (see BENCHMARKS.md).
//!
//! The files: `solver` has the trees and dual changes, `blossom` the shrinking and
//! expanding, `augment` the augmentation, `repair` what an augmentation leaves stale,
//! `graph` the input as arcs, `certificate` the proof, `weight` and `fixed_uint` the numbers.
//!
//! # Determinism and ties
//!
//! There is no randomness and no hashing: the same vertex count and the same edges in the
//! same order always give the same matching. When several matchings are optimal, which one
//! is returned depends on the order of the edges and the numbering of the vertices (ties
//! between equally good choices go to the first edge found); a caller that prefers one
//! optimum over another should say so in the weights, as the Dutch engine does with its
//! lower-priority criteria.
//!
//! # Weights and their bound
//!
//! Weights must be non-negative. Every intermediate value is at most six times the largest
//! weight `W` (vertex duals stay within 2W, the blossom duals around a vertex sum to at most
//! 2W), so `6 × W` must fit in the weight type; for the maximum-cardinality variant, `W` is
//! the largest weight plus the cardinality bonus `⌊n/2⌋ × max weight + 1`, that is about
//! `3n` times the largest weight in all. The functions check this on entry and panic if it
//! does not hold.
//!
//! Parallel edges are allowed (the heaviest one counts); loops are refused.

mod augment;
mod blossom;
mod certificate;
mod fixed_uint;
mod graph;
mod incremental;
mod least_slack;
mod repair;
mod solver;
mod weight;

pub use certificate::{Certificate, CertificateError, DualBlossom};
pub use fixed_uint::{DoesNotFit, FixedUint};
pub use incremental::IncrementalMatching;
pub use solver::Stats;
pub use weight::Weight;

use graph::Graph;
use solver::{Solver, NONE};

/// Which matchings compete for the largest weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cardinality {
    /// All matchings: the result has the largest total weight (edges of weight zero may or
    /// may not be in it).
    Any,
    /// Only the matchings with the most edges: the result has as many edges as possible and,
    /// among such matchings, the largest total weight. Solved as the largest weight after
    /// adding to every edge a bonus larger than any matching's total weight.
    Maximum,
}

/// A matching of the largest weight, with its proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<W> {
    /// The mate of each vertex, `None` if it is unmatched.
    pub mates: Vec<Option<usize>>,
    /// The duals that prove `mates` optimal; see [`Certificate::verify`].
    pub certificate: Certificate<W>,
    /// The work done.
    pub stats: Stats,
}

/// A matching of the largest total weight in the graph with vertices `0..vertex_count` and
/// `edges` `(i, j, weight)`: the mate of each vertex, `None` if unmatched.
///
/// # Panics
/// If an endpoint is not below `vertex_count`, an edge is a loop, a weight is negative, or
/// six times the largest weight does not fit in `W` (see the [module docs](self)).
pub fn max_weight_matching<W: Weight>(
    vertex_count: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    solve(vertex_count, edges, Cardinality::Any).mates
}

/// Where a matching computation may start: a matching and vertex duals, typically those of
/// the optimum for slightly different weights ([`max_weight_matching_warm`] returns them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warm<W> {
    /// The mate of each vertex, `None` if unmatched.
    pub mates: Vec<Option<usize>>,
    /// Each vertex's dual, doubled (`d_i + d_j ≥ 2 w_ij` for every edge when feasible).
    pub duals: Vec<W>,
}

/// As [`max_weight_matching`], starting from `start` instead of the empty matching, and
/// returning with the matching its duals as a [`Warm`] start for the next computation (the
/// blossoms' duals spread over their vertices, so that no blossom needs to be kept).
///
/// When only the edges at a few vertices changed since `start` was computed, little work is
/// left: where a dual is too small for a changed edge it is raised, matched edges no longer
/// tight are unmatched, and the search grows trees only from the vertices this freed. Any
/// `start` of the right length gives a correct result; a poor one only costs time.
///
/// # Panics
/// As [`max_weight_matching`], or if `start` does not have `vertex_count` entries.
pub fn max_weight_matching_warm<W: Weight>(
    vertex_count: usize,
    edges: &[(usize, usize, W)],
    start: &Warm<W>,
) -> Warm<W> {
    assert!(
        start.mates.len() == vertex_count && start.duals.len() == vertex_count,
        "matching: the warm start has the wrong number of vertices"
    );
    let graph = Graph::new(vertex_count, edges, W::ZERO);
    let mut duals = start.duals.clone();
    let mut mates = start.mates.clone();
    // Feasibility: raise the first end of an edge whose duals are too small for it.
    for e in 0..graph.edge_count() {
        let (i, j) = (graph.tail(2 * e), graph.tail(2 * e + 1));
        let needed = graph.doubled_weight[e];
        let have = duals[i].plus(duals[j]).expect("duals within the bound");
        if have < needed {
            duals[i] = needed.minus(duals[j]).unwrap_or(needed);
        }
    }
    // Complementary slackness: matched edges must be tight and still there.
    let mut tight = vec![false; vertex_count];
    for e in 0..graph.edge_count() {
        let (i, j) = (graph.tail(2 * e), graph.tail(2 * e + 1));
        if mates[i] == Some(j)
            && mates[j] == Some(i)
            && duals[i].plus(duals[j]) == Some(graph.doubled_weight[e])
        {
            tight[i] = true;
            tight[j] = true;
        }
    }
    for v in 0..vertex_count {
        if !tight[v] {
            mates[v] = None;
        }
    }
    // The heaviest of parallel edges is the one that can be tight.
    let mate_arcs: Vec<usize> = (0..vertex_count)
        .map(|v| match mates[v] {
            None => NONE,
            Some(m) => graph
                .arcs_from(v)
                .filter(|out| out.head == m)
                .max_by_key(|out| out.doubled_weight)
                .map_or(NONE, |out| out.arc),
        })
        .collect();
    let mut solver = Solver::new(&graph);
    solver.warm(&mate_arcs, &duals);
    solver.run();
    let mates = solver.mates();
    let duals = (0..vertex_count)
        .map(|v| {
            let mut dual = solver.dual[v];
            let mut b = solver.parent[v];
            while b != NONE {
                dual = dual
                    .plus(solver.dual[b].half())
                    .expect("duals within the bound");
                b = solver.parent[b];
            }
            dual
        })
        .collect();
    Warm { mates, duals }
}

/// A matching with as many edges as possible and, among those, the largest total weight (the
/// Dutch system's objective): the mate of each vertex, `None` if unmatched.
///
/// # Panics
/// If an endpoint is not below `vertex_count`, an edge is a loop, a weight is negative, or
/// `6 × (⌊n/2⌋ + 1) × max weight + 6` does not fit in `W` (see the [module docs](self)).
pub fn max_weight_max_cardinality_matching<W: Weight>(
    vertex_count: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    solve(vertex_count, edges, Cardinality::Maximum).mates
}

/// A matching of the largest weight among those allowed by `cardinality`, with the
/// certificate of its optimality and statistics.
///
/// # Panics
/// As [`max_weight_matching`] and [`max_weight_max_cardinality_matching`].
pub fn solve<W: Weight>(
    vertex_count: usize,
    edges: &[(usize, usize, W)],
    cardinality: Cardinality,
) -> Solution<W> {
    let (mates, certificate, stats) = run(vertex_count, edges, cardinality);
    Solution {
        mates,
        certificate,
        stats,
    }
}

fn run<W: Weight>(
    vertex_count: usize,
    edges: &[(usize, usize, W)],
    cardinality: Cardinality,
) -> (Vec<Option<usize>>, Certificate<W>, Stats) {
    let bonus = match cardinality {
        Cardinality::Any => W::ZERO,
        Cardinality::Maximum => cardinality_bonus(vertex_count, edges),
    };
    let graph = Graph::new(vertex_count, edges, bonus);
    let mut solver = Solver::new(&graph);
    solver.run();
    let mates = solver.mates();
    let blossoms = (vertex_count..2 * vertex_count)
        .filter(|&b| solver.base[b] != NONE && solver.dual[b] > W::ZERO)
        .map(|b| DualBlossom {
            vertices: solver.leaves(b),
            dual: solver.dual[b],
        })
        .collect();
    let certificate = Certificate {
        cardinality_bonus: bonus,
        vertex_duals: solver.dual[..vertex_count].to_vec(),
        blossoms,
    };
    (mates, certificate, solver.stats)
}

/// More than the weight of any matching: `k × max weight + 1`, with `k` the most edges a
/// matching can have. A matching with more edges then always weighs more.
fn cardinality_bonus<W: Weight>(vertex_count: usize, edges: &[(usize, usize, W)]) -> W {
    let heaviest = edges.iter().map(|edge| edge.2).max().unwrap_or(W::ZERO);
    let most_edges = (vertex_count / 2).min(edges.len());
    weight::times(heaviest, most_edges)
        .and_then(|total| total.plus(W::ONE))
        .unwrap_or_else(|| {
            panic!("matching: weights too large for the weight type: the cardinality bonus overflows; use a wider type")
        })
}
