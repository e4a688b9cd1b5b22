//! The graph as the algorithm reads it: arcs, doubled weights and the arcs leaving each vertex.

use super::weight::{times, Weight};

/// One direction of an edge: arc `2k` runs from the first endpoint of edge `k` to the second,
/// arc `2k + 1` back.
pub(super) type Arc = usize;

/// Not an arc (a placeholder).
const NO_ARC: Arc = usize::MAX;

/// The same edge, the other way.
#[inline]
pub(super) fn reverse(arc: Arc) -> Arc {
    arc ^ 1
}

/// A walk round a blossom's odd cycle from the child at `start` to its base (position 0),
/// along the side of even length: forwards from an odd position, backwards from an even one.
/// `cycle[p]` is the arc from child `p` to child `p + 1`.
#[derive(Clone, Copy)]
pub(super) struct CycleWalk {
    len: usize,
    forwards: bool,
}

impl CycleWalk {
    /// The walk from `start` in a cycle of `len` children.
    pub(super) fn toward_base(start: usize, len: usize) -> Self {
        CycleWalk {
            len,
            forwards: start % 2 == 1,
        }
    }

    /// Whether the walk goes forwards (towards higher positions).
    pub(super) fn forwards(self) -> bool {
        self.forwards
    }

    /// The position after `position`.
    pub(super) fn step(self, position: usize) -> usize {
        if self.forwards {
            (position + 1) % self.len
        } else {
            (position + self.len - 1) % self.len
        }
    }

    /// The arc from the child at `position` to the next child of the walk.
    pub(super) fn arc_onwards(self, cycle: &[Arc], position: usize) -> Arc {
        if self.forwards {
            cycle[position]
        } else {
            reverse(cycle[(position + self.len - 1) % self.len])
        }
    }
}

/// The edge of an arc.
#[inline]
pub(super) fn edge(arc: Arc) -> usize {
    arc >> 1
}

pub(super) struct Graph<W> {
    pub(super) vertex_count: usize,
    /// `ends[2k]` and `ends[2k + 1]` are the endpoints of edge `k`, so the tail of arc `a` is
    /// `ends[a]` and its head `ends[a ^ 1]`.
    ends: Vec<usize>,
    /// Twice the weight of each edge, with the cardinality bonus added: the duals are kept at
    /// twice their textbook value so that every one of them stays an integer (Galil 1986, §3).
    pub(super) doubled_weight: Vec<W>,
    /// The largest (bonus-included) weight: every vertex dual starts there.
    pub(super) max_weight: W,
    /// `out[out_start[v]..out_start[v + 1]]`: the arcs leaving `v`, in the input's order,
    /// each with its head and weight at hand (scanning reads them in sequence).
    out_start: Vec<usize>,
    out: Vec<Out<W>>,
    /// Where each arc sits in `out` (to change a weight in place).
    slot: Vec<usize>,
}

/// An arc as seen from its tail.
#[derive(Clone, Copy, Debug)]
pub(super) struct Out<W> {
    pub(super) arc: Arc,
    pub(super) head: usize,
    /// Twice the weight (with the cardinality bonus).
    pub(super) doubled_weight: W,
    /// Whether the weight is not zero (an arc of weight zero is never used; a flag because
    /// comparing a wide weight with zero is not free).
    pub(super) present: bool,
}

impl<W: Weight> Graph<W> {
    /// Checks the input and adds `bonus` to every weight.
    ///
    /// # Panics
    /// If an endpoint is not below `vertex_count`, an edge joins a vertex to itself, a weight
    /// is negative, or six times the largest weight plus `bonus` does not fit in `W` (the
    /// bound on every intermediate value: vertex duals stay below 2W, the blossom duals
    /// containing a vertex sum to at most 2W, so `u_i + u_j + Σz ≤ 6W`).
    pub(super) fn new(vertex_count: usize, edges: &[(usize, usize, W)], bonus: W) -> Self {
        let mut ends = Vec::with_capacity(2 * edges.len());
        let mut degree = vec![0usize; vertex_count + 1];
        let mut max_weight = W::ZERO;
        for (index, &(i, j, weight)) in edges.iter().enumerate() {
            assert!(
                i < vertex_count && j < vertex_count,
                "matching: edge {index} ({i}, {j}) has an endpoint outside 0..{vertex_count}"
            );
            assert!(i != j, "matching: edge {index} joins vertex {i} to itself");
            assert!(
                weight >= W::ZERO,
                "matching: edge {index} has a negative weight {weight:?}"
            );
            ends.extend([i, j]);
            degree[i] += 1;
            degree[j] += 1;
            max_weight = max_weight.max(weight);
        }
        let max_weight = if edges.is_empty() {
            W::ZERO
        } else {
            max_weight.plus(bonus).and_then(|top| times(top, 6).map(|_| top)).unwrap_or_else(|| {
                panic!(
                    "matching: weights too large for the weight type: 6 × (largest weight {max_weight:?} \
                     + cardinality bonus {bonus:?}) must fit; use a wider type"
                )
            })
        };
        let doubled_weight: Vec<W> = edges
            .iter()
            .map(|&(_, _, weight)| {
                let weight = weight.plus(bonus).expect("checked above");
                weight.plus(weight).expect("checked above")
            })
            .collect();
        // Counting sort of the arcs by tail.
        let mut out_start = vec![0; vertex_count + 1];
        for v in 0..vertex_count {
            out_start[v + 1] = out_start[v] + degree[v];
        }
        let mut next = out_start.clone();
        let mut out = vec![
            Out {
                arc: NO_ARC,
                head: 0,
                doubled_weight: W::ZERO,
                present: false,
            };
            ends.len()
        ];
        let mut slot = vec![0; ends.len()];
        for (arc, &tail) in ends.iter().enumerate() {
            let weight = doubled_weight[edge(arc)];
            out[next[tail]] = Out {
                arc,
                head: ends[arc ^ 1],
                doubled_weight: weight,
                present: weight != W::ZERO,
            };
            slot[arc] = next[tail];
            next[tail] += 1;
        }
        Self {
            vertex_count,
            ends,
            doubled_weight,
            max_weight,
            out_start,
            out,
            slot,
        }
    }

    /// The complete graph on `vertex_count` vertices with every weight zero (an edge of
    /// weight zero is never used: see [`Self::arcs_from`]); edge `{i, j}`, `i < j`, is
    /// number `j (j − 1) / 2 + i`, and its arc leaving `i` is the even one.
    pub(super) fn complete(vertex_count: usize) -> Self {
        let mut edges = Vec::with_capacity(vertex_count * vertex_count.saturating_sub(1) / 2);
        for j in 0..vertex_count {
            for i in 0..j {
                edges.push((i, j, W::ZERO));
            }
        }
        Self::new(vertex_count, &edges, W::ZERO)
    }

    /// Sets the doubled weight of edge `e` (no bound check: the caller keeps six times the
    /// largest weight within the type).
    pub(super) fn set_doubled_weight(&mut self, e: usize, doubled: W) {
        self.doubled_weight[e] = doubled;
        let present = doubled != W::ZERO;
        for arc in [2 * e, 2 * e + 1] {
            let out = &mut self.out[self.slot[arc]];
            out.doubled_weight = doubled;
            out.present = present;
        }
        let weight = doubled.half();
        if weight > self.max_weight {
            self.max_weight = weight;
        }
    }

    /// The number of edges.
    pub(super) fn edge_count(&self) -> usize {
        self.doubled_weight.len()
    }

    /// The vertex an arc leaves.
    #[inline]
    pub(super) fn tail(&self, arc: Arc) -> usize {
        self.ends[arc]
    }

    /// The vertex an arc enters.
    #[inline]
    pub(super) fn head(&self, arc: Arc) -> usize {
        self.ends[arc ^ 1]
    }

    /// The arcs leaving `vertex`, except those of weight zero (never matched: to the
    /// Dutch engine a zero weight means "may not be paired").
    #[inline]
    pub(super) fn arcs_from(&self, vertex: usize) -> impl Iterator<Item = &Out<W>> {
        self.out[self.out_start[vertex]..self.out_start[vertex + 1]]
            .iter()
            .filter(|out| out.present)
    }
}
