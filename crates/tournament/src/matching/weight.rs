//! What the matching needs from a number that weighs an edge.

use core::fmt::Debug;

/// An exact integer that can weigh an edge.
///
/// The algorithm only ever adds non-negative values, subtracts a value from a larger one and
/// halves even values, so a weight needs no sign: the unsigned types work as well as the
/// signed ones (whose negative values are refused as weights). `plus` and `minus` report a
/// result that does not fit, or would be negative, as `None`; the algorithm treats that as a
/// bug, and the bound checked on entry (see [`crate::matching`]) keeps every intermediate
/// value in range.
///
/// Implemented for the primitive integers and for [`super::FixedUint`], a fixed-width
/// unsigned integer of any number of 64-bit limbs for weights wider than `u128`.
pub trait Weight: Copy + Ord + Debug {
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// `self + other`, or `None` if the sum does not fit.
    fn plus(self, other: Self) -> Option<Self>;
    /// `self − other`, or `None` if the difference would be negative (or does not fit).
    fn minus(self, other: Self) -> Option<Self>;
    /// `⌊self / 2⌋`, for a non-negative `self`.
    fn half(self) -> Self;
}

macro_rules! primitive_weight {
    ($($t:ty),*) => {$(
        impl Weight for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline]
            fn plus(self, other: Self) -> Option<Self> {
                self.checked_add(other)
            }
            #[inline]
            fn minus(self, other: Self) -> Option<Self> {
                if other > self {
                    None
                } else {
                    self.checked_sub(other)
                }
            }
            #[inline]
            fn half(self) -> Self {
                self >> 1
            }
        }
    )*};
}

primitive_weight!(i32, i64, i128, u32, u64, u128);

/// `weight × factor`, or `None` if it does not fit (binary multiplication by doubling).
pub(super) fn times<W: Weight>(weight: W, factor: usize) -> Option<W> {
    let mut product = W::ZERO;
    let mut power = weight; // weight × 2^bit
    let mut rest = factor;
    while rest > 0 {
        if rest & 1 == 1 {
            product = product.plus(power)?;
        }
        rest >>= 1;
        if rest > 0 {
            power = power.plus(power)?;
        }
    }
    Some(product)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minus_refuses_negative_differences_for_signed_and_unsigned_types() {
        assert_eq!(5i64.minus(7), None);
        assert_eq!(7i64.minus(5), Some(2));
        assert_eq!(5u128.minus(7), None);
        assert_eq!(i64::MIN.minus(1), None);
    }

    #[test]
    fn times_multiplies_and_reports_overflow() {
        assert_eq!(times(7u32, 0), Some(0));
        assert_eq!(times(7u32, 13), Some(91));
        assert_eq!(times(u32::MAX / 3, 3), Some(u32::MAX / 3 * 3));
        assert_eq!(times(u32::MAX / 3 + 1, 3), None);
        assert_eq!(times(i64::MAX / 6 + 1, 6), None);
    }
}
