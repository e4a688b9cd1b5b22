//! A fixed-width unsigned integer wider than `u128`, for the Dutch system's weights.

use core::cmp::Ordering;
use core::fmt;
use core::ops::{Add, Sub};

use super::weight::Weight;

/// An unsigned integer of `LIMBS` × 64 bits, exact and `Copy`, for edge weights that do not
/// fit in `u128` (the Dutch pairing weights pack one field per criterion and grow with the
/// number of players).
///
/// Arithmetic is checked (`checked_add`, `checked_sub`, `checked_mul_u64`, `checked_shl`);
/// the `+` and `-` operators panic on overflow whatever the build profile.
///
/// ```
/// use arbiter_tournament::matching::FixedUint;
///
/// let big = FixedUint::<4>::power_of_two(200).unwrap();
/// let sum = big + FixedUint::from(1u64);
/// assert_eq!(sum.bits(), 201);
/// assert_eq!(sum - big, FixedUint::from(1u64));
/// assert_eq!(FixedUint::<2>::from(12345u128).to_string(), "12345");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FixedUint<const LIMBS: usize> {
    /// Least significant limb first.
    limbs: [u64; LIMBS],
}

impl<const LIMBS: usize> FixedUint<LIMBS> {
    /// Zero.
    pub const ZERO: Self = Self { limbs: [0; LIMBS] };
    /// The largest value, 2^(64 × LIMBS) − 1.
    pub const MAX: Self = Self {
        limbs: [u64::MAX; LIMBS],
    };
    /// The number of bits.
    pub const BITS: u32 = 64 * LIMBS as u32;

    /// The value whose limbs, least significant first, are `limbs`.
    pub const fn from_limbs(limbs: [u64; LIMBS]) -> Self {
        Self { limbs }
    }

    /// The limbs, least significant first.
    pub const fn limbs(&self) -> [u64; LIMBS] {
        self.limbs
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.limbs.iter().all(|&limb| limb == 0)
    }

    /// The number of significant bits (0 for zero).
    pub fn bits(&self) -> u32 {
        match self.limbs.iter().rposition(|&limb| limb != 0) {
            Some(index) => 64 * index as u32 + (64 - self.limbs[index].leading_zeros()),
            None => 0,
        }
    }

    /// 2^`exponent`, or `None` if it does not fit.
    pub fn power_of_two(exponent: u32) -> Option<Self> {
        let index = (exponent / 64) as usize;
        let mut limbs = [0; LIMBS];
        *limbs.get_mut(index)? = 1 << (exponent % 64);
        Some(Self { limbs })
    }

    /// `self + other`, or `None` on overflow.
    #[inline]
    pub fn checked_add(self, other: Self) -> Option<Self> {
        let mut limbs = [0; LIMBS];
        let mut carry = false;
        for (sum, (a, b)) in limbs
            .iter_mut()
            .zip(self.limbs.iter().zip(other.limbs.iter()))
        {
            let (partial, carry_a) = a.overflowing_add(*b);
            let (total, carry_b) = partial.overflowing_add(u64::from(carry));
            *sum = total;
            carry = carry_a | carry_b;
        }
        (!carry).then_some(Self { limbs })
    }

    /// `self − other`, or `None` if `other > self`.
    #[inline]
    pub fn checked_sub(self, other: Self) -> Option<Self> {
        let mut limbs = [0; LIMBS];
        let mut borrow = false;
        for (difference, (a, b)) in limbs
            .iter_mut()
            .zip(self.limbs.iter().zip(other.limbs.iter()))
        {
            let (partial, borrow_a) = a.overflowing_sub(*b);
            let (total, borrow_b) = partial.overflowing_sub(u64::from(borrow));
            *difference = total;
            borrow = borrow_a | borrow_b;
        }
        (!borrow).then_some(Self { limbs })
    }

    /// `self × factor`, or `None` on overflow.
    pub fn checked_mul_u64(self, factor: u64) -> Option<Self> {
        let mut limbs = [0; LIMBS];
        let mut carry = 0u64;
        for (product, limb) in limbs.iter_mut().zip(self.limbs.iter()) {
            let wide = u128::from(*limb) * u128::from(factor) + u128::from(carry);
            *product = wide as u64;
            carry = (wide >> 64) as u64;
        }
        (carry == 0).then_some(Self { limbs })
    }

    /// `self × 2^shift`, or `None` if a set bit would be shifted out.
    pub fn checked_shl(self, shift: u32) -> Option<Self> {
        if self.is_zero() {
            return Some(self);
        }
        if shift >= Self::BITS || self.bits() > Self::BITS - shift {
            return None;
        }
        let (whole, part) = ((shift / 64) as usize, shift % 64);
        let mut limbs = [0; LIMBS];
        for index in (whole..LIMBS).rev() {
            let source = index - whole;
            let mut limb = self.limbs[source] << part;
            if part > 0 && source > 0 {
                limb |= self.limbs[source - 1] >> (64 - part);
            }
            limbs[index] = limb;
        }
        Some(Self { limbs })
    }

    /// `⌊self / 2⌋`.
    #[inline]
    pub fn half(self) -> Self {
        let mut limbs = [0; LIMBS];
        for (index, halved) in limbs.iter_mut().enumerate() {
            let high = self.limbs.get(index + 1).map_or(0, |next| next << 63);
            *halved = (self.limbs[index] >> 1) | high;
        }
        Self { limbs }
    }

    /// The quotient and remainder by a small divisor (for printing in decimal).
    fn div_rem_u64(self, divisor: u64) -> (Self, u64) {
        let mut limbs = [0; LIMBS];
        let mut remainder = 0u64;
        for index in (0..LIMBS).rev() {
            let wide = (u128::from(remainder) << 64) | u128::from(self.limbs[index]);
            limbs[index] = (wide / u128::from(divisor)) as u64;
            remainder = (wide % u128::from(divisor)) as u64;
        }
        (Self { limbs }, remainder)
    }
}

impl<const LIMBS: usize> Default for FixedUint<LIMBS> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const LIMBS: usize> Ord for FixedUint<LIMBS> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Most significant limb first.
        self.limbs.iter().rev().cmp(other.limbs.iter().rev())
    }
}

impl<const LIMBS: usize> PartialOrd for FixedUint<LIMBS> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const LIMBS: usize> From<u64> for FixedUint<LIMBS> {
    /// # Panics
    /// If `LIMBS` is 0 and the value is not zero.
    fn from(value: u64) -> Self {
        let mut limbs = [0; LIMBS];
        match limbs.first_mut() {
            Some(low) => *low = value,
            None => assert_eq!(value, 0, "FixedUint<0> holds only zero"),
        }
        Self { limbs }
    }
}

impl<const LIMBS: usize> From<u128> for FixedUint<LIMBS> {
    /// # Panics
    /// If the value does not fit (`LIMBS` < 2 and the value is too large).
    fn from(value: u128) -> Self {
        let mut limbs = [0; LIMBS];
        for (index, part) in [value as u64, (value >> 64) as u64].into_iter().enumerate() {
            match limbs.get_mut(index) {
                Some(limb) => *limb = part,
                None => assert_eq!(part, 0, "{value} does not fit in FixedUint<{LIMBS}>"),
            }
        }
        Self { limbs }
    }
}

/// The value did not fit in the target type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoesNotFit;

impl fmt::Display for DoesNotFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the value does not fit in the target type")
    }
}

impl std::error::Error for DoesNotFit {}

impl<const LIMBS: usize> TryFrom<FixedUint<LIMBS>> for u128 {
    type Error = DoesNotFit;

    fn try_from(value: FixedUint<LIMBS>) -> Result<Self, DoesNotFit> {
        if value.bits() > 128 {
            return Err(DoesNotFit);
        }
        let low = value.limbs.first().copied().unwrap_or(0);
        let high = value.limbs.get(1).copied().unwrap_or(0);
        Ok((u128::from(high) << 64) | u128::from(low))
    }
}

impl<const LIMBS: usize> Add for FixedUint<LIMBS> {
    type Output = Self;

    /// # Panics
    /// On overflow.
    fn add(self, other: Self) -> Self {
        self.checked_add(other)
            .expect("FixedUint addition overflowed")
    }
}

impl<const LIMBS: usize> Sub for FixedUint<LIMBS> {
    type Output = Self;

    /// # Panics
    /// If `other > self`.
    fn sub(self, other: Self) -> Self {
        self.checked_sub(other)
            .expect("FixedUint subtraction went below zero")
    }
}

impl<const LIMBS: usize> fmt::Display for FixedUint<LIMBS> {
    /// Decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19, the largest power of ten in a u64
        let mut chunks = Vec::new();
        let mut rest = *self;
        loop {
            let (quotient, remainder) = rest.div_rem_u64(CHUNK);
            chunks.push(remainder);
            rest = quotient;
            if rest.is_zero() {
                break;
            }
        }
        let mut text = chunks.pop().unwrap_or(0).to_string();
        for chunk in chunks.iter().rev() {
            text.push_str(&format!("{chunk:019}"));
        }
        f.pad_integral(true, "", &text)
    }
}

impl<const LIMBS: usize> fmt::Debug for FixedUint<LIMBS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<const LIMBS: usize> Weight for FixedUint<LIMBS> {
    const ZERO: Self = Self::ZERO;
    const ONE: Self = {
        let mut limbs = [0; LIMBS];
        limbs[0] = 1;
        Self { limbs }
    };

    #[inline]
    fn plus(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }

    #[inline]
    fn minus(self, other: Self) -> Option<Self> {
        self.checked_sub(other)
    }

    #[inline]
    fn half(self) -> Self {
        FixedUint::half(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type U256 = FixedUint<4>;

    #[test]
    fn carries_and_borrows_cross_limbs() {
        let low_max = U256::from(u64::MAX);
        let sum = low_max.checked_add(U256::from(1u64)).unwrap();
        assert_eq!(sum.limbs(), [0, 1, 0, 0]);
        assert_eq!(sum.checked_sub(U256::from(1u64)), Some(low_max));
        assert_eq!(U256::MAX.checked_add(U256::from(1u64)), None);
        assert_eq!(U256::ZERO.checked_sub(U256::from(1u64)), None);
    }

    #[test]
    fn order_is_by_the_most_significant_limb_first() {
        let high = U256::from_limbs([0, 0, 0, 1]);
        let low = U256::from_limbs([u64::MAX, u64::MAX, u64::MAX, 0]);
        assert!(high > low);
        assert_eq!(low.checked_add(U256::from(1u64)), Some(high));
    }

    #[test]
    fn shifts_halves_and_powers_of_two() {
        let one = U256::from(1u64);
        assert_eq!(one.checked_shl(255), U256::power_of_two(255));
        assert_eq!(one.checked_shl(256), None);
        assert_eq!(U256::power_of_two(256), None);
        let value = U256::from(0xdead_beef_u64).checked_shl(100).unwrap();
        assert_eq!(value.bits(), 132);
        assert_eq!(value.half().checked_shl(1), Some(value));
        assert_eq!(U256::from(7u64).half(), U256::from(3u64));
        assert_eq!(
            U256::power_of_two(64).unwrap().half(),
            U256::power_of_two(63).unwrap()
        );
    }

    #[test]
    fn prints_in_decimal() {
        assert_eq!(U256::ZERO.to_string(), "0");
        assert_eq!(U256::from(u128::MAX).to_string(), u128::MAX.to_string());
        assert_eq!(
            U256::power_of_two(200).unwrap().to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
        assert_eq!(format!("{:>5}", U256::from(42u64)), "   42");
    }

    #[test]
    fn multiplies_by_a_small_factor() {
        let value = U256::from(u128::MAX);
        let product = value.checked_mul_u64(3).unwrap();
        assert_eq!(
            product.checked_sub(value).unwrap().checked_sub(value),
            Some(value)
        );
        assert_eq!(U256::MAX.checked_mul_u64(2), None);
    }

    #[test]
    fn converts_to_and_from_u128() {
        assert_eq!(u128::try_from(U256::from(u128::MAX)), Ok(u128::MAX));
        assert_eq!(
            u128::try_from(U256::power_of_two(128).unwrap()),
            Err(DoesNotFit)
        );
        assert_eq!(u128::try_from(FixedUint::<1>::from(5u64)), Ok(5));
    }
}
