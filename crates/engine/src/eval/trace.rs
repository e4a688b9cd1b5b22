//! Recording what the evaluation counted, for the tuner. The engine evaluates with
//! [`NoTrace`], which compiles to nothing.

use super::features::COUNT;
use arbiter_rules::Color;

/// Receives every feature count the evaluation applies.
pub trait Trace {
    /// `count` occurrences of `feature` for `us`.
    fn add(&mut self, feature: usize, us: Color, count: i32);
}

/// The engine's trace: records nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: Color, _: i32) {}
}

/// The evaluation of one position as a linear function of the weights: White's counts minus
/// Black's for every feature, the phase that blends middlegame and endgame, and the scale
/// applied afterwards.
#[derive(Clone, Debug)]
pub struct Coefficients {
    /// (feature, White's count minus Black's), for the features with a non-zero difference.
    pub counts: Vec<(u16, i16)>,
    /// Game phase, 0 (pawn ending) to 24.
    pub phase: i32,
    /// Factor applied to the blended score (drawish endings are scaled down).
    pub scale: f32,
    /// Whether a term outside the linear model was added (mop-up of a bare king).
    pub nonlinear: bool,
}

/// Dense accumulator behind [`Coefficients`].
pub(super) struct Dense(pub Box<[i32; COUNT]>);

impl Trace for Dense {
    fn add(&mut self, feature: usize, us: Color, count: i32) {
        self.0[feature] += if us == Color::White { count } else { -count };
    }
}
