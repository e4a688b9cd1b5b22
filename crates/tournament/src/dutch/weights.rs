//! The Dutch criteria as edge weights: one field of bits per criterion, the most important
//! highest, so that a matching of the largest total weight is the pairing the rules prefer.
//!
//! The layout is the one bbpPairings uses (its authors describe the method in their
//! documentation): the completion requirement and the bye (C.04.3 C4, C5), the number and
//! scores of the pairs in the bracket being paired and in the next (C6, C7 and the look-ahead
//! of C8), the bye assignee's unplayed games (C9), the colour criteria (C10–C13), the repeated
//! floats (C14–C21), and at the bottom room for the order of transpositions and exchanges
//! (C.04.3 D) that the bracket procedure fills in.

use std::collections::HashMap;

use crate::matching::{FixedUint, Weight};

use super::colours::{absolute_colours_allow, preferences_fit};
use super::facts::{Facts, Field, Float};

/// An edge weight wide enough for the layout: built by shifting fields in.
pub(super) trait Wide: Weight + Send {
    /// A small value.
    fn small(value: u64) -> Self;
    /// `self × 2^bits` (the layout guarantees it fits).
    fn shl(self, bits: u32) -> Self;
    /// `self + other` (fits by the layout).
    fn add(self, other: Self) -> Self {
        self.plus(other).expect("the weight layout leaves room")
    }
    /// `self − other` (never negative by the layout).
    fn sub(self, other: Self) -> Self {
        self.minus(other)
            .expect("the weight layout keeps weights positive")
    }
    /// Whether the value is zero (no edge).
    fn is_zero(&self) -> bool {
        *self == Self::ZERO
    }
}

impl Wide for u128 {
    fn small(value: u64) -> Self {
        u128::from(value)
    }
    fn shl(self, bits: u32) -> Self {
        debug_assert!(bits < 128 && self.leading_zeros() >= bits);
        self << bits
    }
}

impl<const LIMBS: usize> Wide for FixedUint<LIMBS> {
    fn small(value: u64) -> Self {
        FixedUint::from(value)
    }
    fn shl(self, bits: u32) -> Self {
        self.checked_shl(bits)
            .expect("the weight layout leaves room")
    }
}

/// The number of bits needed to write `value` (0 for 0).
pub(super) fn bits_for(value: usize) -> u32 {
    usize::BITS - value.leading_zeros()
}

/// The sizes of the fields for one round.
pub(super) struct Layout {
    /// Bits for a count of players in one score group (the largest group's size).
    pub count_bits: u32,
    /// Bits for one bit-field per score group, each wide enough to count that group.
    pub groups_bits: u32,
    /// Where each score's sub-field starts in a score-group field (lowest score at 0).
    shifts: HashMap<i64, u32>,
    /// Rounds of float history that count (0, 1 or 2).
    float_rounds: u32,
}

/// Who may get the bye, known once the first matching has found the bye assignee's score.
#[derive(Clone, Debug, Default)]
pub(super) struct ByeContext {
    /// The bye assignee's score (0 before it is known, or with an even number of players).
    pub score: i64,
    /// Whether criterion C9 applies in the bracket being paired: the bye will go to the
    /// single player this bracket leaves over.
    pub single_downfloater: bool,
    /// For players with the bye assignee's score: the rank of their played games (more
    /// played games, lower rank) — pairing a player with a higher rank weighs more.
    pub unplayed_ranks: HashMap<usize, u64>,
}

impl Layout {
    /// The layout for `players` sorted by score (highest first).
    pub fn new(field: &Field, sorted: &[usize]) -> Layout {
        let mut shifts = HashMap::new();
        let mut groups_bits = 0;
        let mut largest = 0;
        let mut i = sorted.len();
        while i > 0 {
            let score = field.players[sorted[i - 1]].score;
            let mut j = i;
            while j > 0 && field.players[sorted[j - 1]].score == score {
                j -= 1;
            }
            let size = i - j;
            shifts.insert(score, groups_bits);
            groups_bits += bits_for(size);
            largest = largest.max(size);
            i = j;
        }
        Layout {
            count_bits: bits_for(largest),
            groups_bits,
            shifts,
            float_rounds: field.played_rounds.min(2),
        }
    }

    /// The total number of bits of a weight.
    pub fn total_bits(&self) -> u32 {
        let (b, s) = (self.count_bits, self.groups_bits);
        2 + b + s + b + s + 2 * b + 4 * b + self.float_rounds * (2 * b + 2 * s) + 3 * b + 1
    }

    /// The bit where `score`'s sub-field starts.
    pub fn shift(&self, score: i64) -> u32 {
        self.shifts[&score]
    }

    /// The number of low bits left for the bracket procedure (transpositions, exchanges).
    pub fn procedure_bits(&self) -> u32 {
        3 * self.count_bits + 1
    }
}

/// Whether the player could take the bye given the bye assignee's score.
fn bye_candidate(player: &Facts, bye: &ByeContext) -> bool {
    player.bye_eligible && player.score <= bye.score
}

/// Whether `a` and `b` may meet at all (C.04.3 C1–C3 and the competition's forbidden pairs).
pub(super) fn compatible(
    field: &Field,
    forbidden: &dyn Fn(&Facts, &Facts) -> bool,
    a: &Facts,
    b: &Facts,
) -> bool {
    !a.played.contains(&b.start_no) && !forbidden(a, b) && absolute_colours_allow(field, a, b)
}

/// The inputs of one edge weight besides the two players.
pub(super) struct EdgeContext<'a> {
    pub field: &'a Field,
    pub layout: &'a Layout,
    pub bye: &'a ByeContext,
    pub forbidden: &'a dyn Fn(&Facts, &Facts) -> bool,
}

/// The weight of pairing `higher` (earlier in the score order) with `lower`, where `lower` is
/// in the bracket being paired (`lower_in_bracket`) or in the next score group
/// (`lower_in_next`) or neither; zero when they may not meet.
pub(super) fn edge_weight<W: Wide>(
    ctx: &EdgeContext<'_>,
    higher: &Facts,
    lower: &Facts,
    lower_in_bracket: bool,
    lower_in_next: bool,
) -> W {
    if !compatible(ctx.field, ctx.forbidden, higher, lower) {
        return W::ZERO;
    }
    let layout = ctx.layout;
    let (b, s) = (layout.count_bits, layout.groups_bits);
    let bit_at = |at: u32| W::ONE.shl(at);
    let flag = |on: bool| if on { W::ONE } else { W::ZERO };
    let mut w = W::small(
        1 + u64::from(!bye_candidate(higher, ctx.bye)) + u64::from(!bye_candidate(lower, ctx.bye)),
    );
    let mut push = |bits: u32, value: W| {
        w = w.shl(bits).add(value);
    };

    // C6/C7: pairs in this bracket, and the scores they pair.
    push(b, flag(lower_in_bracket));
    push(
        s,
        if lower_in_bracket {
            bit_at(layout.shift(higher.score))
        } else {
            W::ZERO
        },
    );
    // C8: the same for the next bracket.
    push(b, flag(lower_in_next));
    push(
        s,
        if lower_in_next {
            bit_at(layout.shift(higher.score))
        } else {
            W::ZERO
        },
    );

    // C9: the bye assignee has played as many games as possible.
    let mut unplayed = 0;
    if ctx.bye.single_downfloater {
        for p in [higher, lower] {
            if p.score == ctx.bye.score {
                unplayed += ctx.bye.unplayed_ranks[&p.played_games];
            }
        }
    }
    push(2 * b, W::small(unplayed));

    // C10–C13: colours, in the bracket only.
    let (p, o) = (lower, higher);
    let c = lower_in_bracket;
    push(
        b,
        flag(
            c && !(p.absolute_imbalance()
                && o.absolute_imbalance()
                && p.preference == o.preference),
        ),
    );
    let repeated_ok = if p.imbalance == o.imbalance {
        p.repeated.is_none() || p.repeated != o.repeated
    } else {
        let less = if p.imbalance > o.imbalance { o } else { p };
        less.repeated != p.preference.map(|x| x.opposite())
    };
    push(
        b,
        flag(c && (!p.absolute() || !o.absolute() || p.preference != o.preference || repeated_ok)),
    );
    push(b, flag(c && preferences_fit(p.preference, o.preference)));
    push(
        b,
        flag(
            c && ((!p.strong && !p.absolute())
                || (!o.strong && !o.absolute())
                || (p.absolute() && o.absolute())
                || p.preference != o.preference),
        ),
    );

    // C14–C17: repeated floats, counted.
    let higher_resident = higher.score <= lower.score;
    for back in 0..layout.float_rounds as usize {
        let down = u64::from(lower.floats[back] == Float::Down)
            + u64::from(higher_resident && higher.floats[back] == Float::Down);
        push(b, if c { W::small(down) } else { W::ZERO });
        let up_again = higher.score > lower.score && lower.floats[back] == Float::Up;
        push(b, flag(c && !up_again));
    }
    // C18–C21: the scores of repeated floaters.
    for back in 0..layout.float_rounds as usize {
        let mut down = W::ZERO;
        if c {
            if lower.floats[back] == Float::Down {
                down = down.add(bit_at(layout.shift(lower.score)));
            }
            if higher.floats[back] == Float::Down {
                down = down.add(bit_at(layout.shift(higher.score)));
            }
        }
        push(s, down);
        let up_again = lower.floats[back] == Float::Up && higher.score > lower.score;
        push(
            s,
            if c && !up_again {
                bit_at(layout.shift(higher.score))
            } else {
                W::ZERO
            },
        );
    }

    // Room for the bracket procedure (C.04.3 D).
    push(layout.procedure_bits(), W::ZERO);
    w
}

/// The weight of the first matching when the number of players is odd: complete the pairing,
/// give the bye to an eligible player of the lowest possible score, and pair as many of the
/// top score group among themselves as possible.
pub(super) fn bye_search_weight<W: Wide>(
    ctx: &EdgeContext<'_>,
    higher: &Facts,
    lower: &Facts,
    top_score: i64,
) -> W {
    if !compatible(ctx.field, ctx.forbidden, higher, lower) {
        return W::ZERO;
    }
    let layout = ctx.layout;
    let top = 1 + u64::from(!higher.bye_eligible) + u64::from(!lower.bye_eligible);
    let shifts = u64::from(layout.shift(higher.score)) + u64::from(layout.shift(lower.score));
    W::small(top)
        .shl(layout.groups_bits)
        .add(W::small(shifts))
        .shl(layout.count_bits)
        .add(W::small(u64::from(lower.score >= top_score)))
}
