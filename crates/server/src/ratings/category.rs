//! The rating category of a game (placeholder until the full version lands).

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
