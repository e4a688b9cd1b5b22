//! Points as exact decimals: scores, byes' values and tie-break values without floating-point
//! drift, so that two players with equal Buchholz compare equal.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub};
use std::str::FromStr;

/// An exact decimal number of points with four decimal places (`1.0`, `0.5`, `29.75`, `3`).
///
/// Scoring values have at most two decimals in practice (`0.5`, `1.5`), so the product of two
/// of them (Sonneborn-Berger multiplies an opponent's score by a result) is still exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "f64", try_from = "f64"))]
pub struct Points(i64);

/// Units in one point.
const SCALE: i64 = 10_000;

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);
    /// Half a point (a draw in the 1-½-0 system).
    pub const HALF: Points = Points(SCALE / 2);
    /// One point (a win in the 1-½-0 system).
    pub const ONE: Points = Points(SCALE);

    /// `n` whole points.
    pub const fn from_int(n: i64) -> Points {
        Points(n * SCALE)
    }

    /// `n` half points (`from_halves(3)` is 1.5).
    pub const fn from_halves(n: i64) -> Points {
        Points(n * SCALE / 2)
    }

    /// `n` hundredths of a point.
    pub const fn from_hundredths(n: i64) -> Points {
        Points(n * (SCALE / 100))
    }

    /// The value in ten-thousandths of a point (the exact representation).
    pub const fn ten_thousandths(self) -> i64 {
        self.0
    }

    /// The nearest `f64` (for JSON and display).
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / SCALE as f64
    }

    /// The exact product of two values (Sonneborn-Berger: an opponent's score times the
    /// result against them). Exact when both have at most two decimals.
    pub const fn times(self, other: Points) -> Points {
        Points(self.0 * other.0 / SCALE)
    }

    /// This value multiplied by a whole number.
    pub const fn times_int(self, n: i64) -> Points {
        Points(self.0 * n)
    }

    /// The quotient by a whole number, rounded toward zero to four decimals.
    ///
    /// # Panics
    /// When `n` is zero.
    pub const fn div_int(self, n: i64) -> Points {
        Points(self.0 / n)
    }

    /// Rounded to the nearest whole number, halves away from zero (`2385.5` → `2386`).
    pub const fn round_half_up(self) -> i64 {
        if self.0 >= 0 {
            (self.0 + SCALE / 2) / SCALE
        } else {
            -((-self.0 + SCALE / 2) / SCALE)
        }
    }

    /// The text with exactly `decimals` decimals (rounded half up when fewer than four).
    pub fn format(self, decimals: usize) -> String {
        let decimals = decimals.min(4);
        let unit = 10i64.pow(4 - decimals as u32);
        let magnitude = (self.0.abs() + unit / 2) / unit;
        let sign = if self.0 < 0 && magnitude != 0 {
            "-"
        } else {
            ""
        };
        if decimals == 0 {
            return format!("{sign}{magnitude}");
        }
        let base = 10i64.pow(decimals as u32);
        format!(
            "{sign}{}.{:0width$}",
            magnitude / base,
            magnitude % base,
            width = decimals
        )
    }

    /// How many decimals the value needs (0 to 4).
    pub fn decimals(self) -> usize {
        let mut fraction = self.0.abs() % SCALE;
        if fraction == 0 {
            return 0;
        }
        let mut decimals = 4;
        while fraction % 10 == 0 {
            fraction /= 10;
            decimals -= 1;
        }
        decimals
    }
}

impl fmt::Display for Points {
    /// The shortest exact form with at least one decimal: `6.5`, `32.0`, `29.75`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.format(self.decimals().max(1)))
    }
}

/// A number of points that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePointsError(pub String);

impl fmt::Display for ParsePointsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a number of points: {:?}", self.0)
    }
}

impl std::error::Error for ParsePointsError {}

impl FromStr for Points {
    type Err = ParsePointsError;

    /// Reads `6.5`, `10`, `-0.5`, `.5`, `1,5` (a decimal comma, as some national programs
    /// write), with up to four decimals.
    fn from_str(text: &str) -> Result<Points, ParsePointsError> {
        let error = || ParsePointsError(text.to_string());
        let trimmed = text.trim();
        let (negative, digits) = match trimmed.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
        };
        let (whole, fraction) = match digits.split_once(['.', ',']) {
            Some((whole, fraction)) => (whole, fraction),
            None => (digits, ""),
        };
        if (whole.is_empty() && fraction.is_empty())
            || fraction.len() > 4
            || whole.len() > 12
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || !fraction.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(error());
        }
        let whole: i64 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| error())?
        };
        let mut units = 0i64;
        for (i, digit) in fraction.bytes().enumerate() {
            units += i64::from(digit - b'0') * 10i64.pow(3 - i as u32);
        }
        let value = whole * SCALE + units;
        Ok(Points(if negative { -value } else { value }))
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, other: Points) -> Points {
        Points(self.0 - other.0)
    }
}

impl Neg for Points {
    type Output = Points;
    fn neg(self) -> Points {
        Points(-self.0)
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

impl From<Points> for f64 {
    fn from(points: Points) -> f64 {
        points.to_f64()
    }
}

impl TryFrom<f64> for Points {
    type Error = ParsePointsError;

    /// The nearest value with four decimals; NaN and infinities are refused.
    fn try_from(value: f64) -> Result<Points, ParsePointsError> {
        let scaled = (value * SCALE as f64).round();
        if scaled.is_finite() && scaled.abs() < 1e15 {
            Ok(Points(scaled as i64))
        } else {
            Err(ParsePointsError(value.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_decimals() {
        for (text, shown) in [
            ("6.5", "6.5"),
            ("10", "10.0"),
            ("29.75", "29.75"),
            (".5", "0.5"),
            ("1,5", "1.5"),
            ("-0.5", "-0.5"),
        ] {
            let points: Points = text.parse().unwrap();
            assert_eq!(points.to_string(), shown, "{text}");
        }
        for bad in ["", ".", "x", "1.23456", "1..2", "--1"] {
            assert!(bad.parse::<Points>().is_err(), "{bad}");
        }
    }

    #[test]
    fn products_of_halves_are_exact() {
        assert_eq!(
            Points::HALF.times(Points::from_halves(11)).to_string(),
            "2.75"
        );
        assert_eq!(
            Points::from_int(3).times(Points::from_int(7)),
            Points::from_int(21)
        );
    }

    #[test]
    fn rounding_is_half_up() {
        assert_eq!("2385.5".parse::<Points>().unwrap().round_half_up(), 2386);
        assert_eq!("2385.4999".parse::<Points>().unwrap().round_half_up(), 2385);
        assert_eq!(Points::from_halves(13).format(0), "7");
        assert_eq!(Points::from_halves(13).format(2), "6.50");
    }
}
