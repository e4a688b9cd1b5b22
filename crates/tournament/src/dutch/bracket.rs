//! One bracket as the procedure sees it: its players (moved-down ones first, then the
//! residents of its score group, then the next score group, which the look-ahead criteria
//! need), their base weights, and the latest matching.

use super::weights::Wide;

/// The bracket being paired.
pub(super) struct Bracket<W> {
    /// Vertices (places in the score order): `[0, movers)` moved down from above,
    /// `[movers, end)` the residents, `[end, ..)` the next score group.
    pub players: Vec<usize>,
    /// The number of moved-down players.
    pub movers: usize,
    /// Where the residents end.
    pub end: usize,
    /// The first vertex of the residents and of the next score group: a mate in between is
    /// a resident.
    pub group_start: usize,
    pub next_group_start: usize,
    /// `base[a][b]`, `b < a`, `a ≥ movers`: the weight of pairing `players[b]` with
    /// `players[a]` before the procedure's own adjustments (zero: not allowed, or no longer).
    pub base: Vec<Vec<W>>,
    /// The latest matching: each vertex's mate, itself when unmatched.
    pub mates: Vec<usize>,
}

impl<W: Wide> Bracket<W> {
    /// Whether vertex `m` is a resident of this bracket.
    pub fn is_resident(&self, m: usize) -> bool {
        m >= self.group_start && m < self.next_group_start
    }

    /// Whether vertex `v` is matched, in the latest matching, to a later resident (it is in
    /// S1, paired forward within the bracket).
    pub fn pairs_forward(&self, v: usize) -> bool {
        let m = self.mates[v];
        m > v && m < self.next_group_start
    }
}
