//! The rating category of a game: its speed by the estimated time for 60 moves (base + 60 ×
//! increment; Appendix A.1 rapid, Appendix B.1 blitz), with lichess's bullet line at 3 minutes
//! inside blitz; a day or more per move is correspondence; every Chess960 game shares one
//! category; an untimed game has none and cannot be rated.

use std::fmt;
use std::str::FromStr;

use arbiter_game::{Speed, TimeControl};
use serde::{Deserialize, Serialize};

/// A rating category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Under 3 minutes for 60 moves.
    Bullet,
    /// Appendix B.1.
    Blitz,
    /// Appendix A.1.
    Rapid,
    /// Standard play.
    Standard,
    /// A day or more per move.
    Correspondence,
    /// Every Chess960 game.
    Chess960,
}

impl Category {
    /// Every category.
    pub const ALL: [Category; 6] = [
        Category::Bullet,
        Category::Blitz,
        Category::Rapid,
        Category::Standard,
        Category::Correspondence,
        Category::Chess960,
    ];

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Standard => "standard",
            Category::Correspondence => "correspondence",
            Category::Chess960 => "chess960",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Category {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Category::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown rating category {s:?}"))
    }
}

/// The category of a game.
pub fn of(tc: &TimeControl, chess960: bool) -> Option<Category> {
    let speed = tc.speed();
    if speed == Speed::Untimed {
        return None;
    }
    if chess960 {
        return Some(Category::Chess960);
    }
    Some(match speed {
        Speed::Blitz if tc.estimated_ms_for_60_moves()? < 180_000 => Category::Bullet,
        Speed::Blitz => Category::Blitz,
        Speed::Rapid => Category::Rapid,
        Speed::Standard => Category::Standard,
        Speed::Correspondence => Category::Correspondence,
        Speed::Untimed => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cat(tc: &str, chess960: bool) -> Option<Category> {
        of(&tc.parse().expect(tc), chess960)
    }

    #[test]
    fn speed_bands_by_the_time_for_60_moves_appendix_a1_b1() {
        use Category::*;
        for (tc, want) in [
            ("1+0", Bullet),
            ("2+0", Bullet),
            ("1+1", Bullet), // 1 + 1 = 2 minutes for 60 moves
            ("2+1", Blitz),  // exactly 3 minutes: not under the bullet line
            ("3+0", Blitz),
            ("5+3", Blitz),  // 8 minutes
            ("10+0", Blitz), // B.1: 10 minutes or less is blitz
            ("5+5", Blitz),  // exactly 10 minutes
            ("10+5", Rapid), // 15 minutes: A.1, more than 10
            ("15+10", Rapid),
            ("30+0", Rapid),
            ("45+14", Rapid),    // 59 minutes
            ("45+15", Standard), // 60 minutes: A.1 rapid is less than 60
            ("90+30", Standard),
            ("1d", Standard), // a day for the whole game: not per move
            ("1d/move", Correspondence),
            ("3d/move", Correspondence),
            ("30s/move", Rapid), // 30 minutes for 60 moves
            ("10s/move", Blitz),
        ] {
            assert_eq!(cat(tc, false), Some(want), "{tc}");
        }
    }

    #[test]
    fn chess960_is_one_category_and_untimed_games_have_none() {
        assert_eq!(cat("1+0", true), Some(Category::Chess960));
        assert_eq!(cat("90+30", true), Some(Category::Chess960));
        assert_eq!(cat("untimed", false), None);
        assert_eq!(cat("untimed", true), None);
    }

    #[test]
    fn names_read_back() {
        for c in Category::ALL {
            assert_eq!(c.name().parse::<Category>(), Ok(c));
            assert_eq!(serde_json::to_value(c).unwrap(), c.name());
        }
        assert!("classical".parse::<Category>().is_err());
    }
}
