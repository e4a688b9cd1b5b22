//! The tie-breaks of C.07 by their abbreviations, their modifiers, and the regulations'
//! versions.

use std::fmt;
use std::str::FromStr;

use crate::model::Points;

/// Which edition of the tie-break regulations (C.07) applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rules {
    /// The regulations in force before 1 March 2026 (approved by the FIDE Council in 2023,
    /// applied to all FIDE-rated events from 2024): a participant's own unplayed rounds count
    /// their own final score (§16.4).
    Fide2024,
    /// The regulations in force from 1 March 2026: the value of an own unplayed round is
    /// capped (§16.4.1: at the forfeiting opponent's score; §16.4.2: at half the maximum).
    #[default]
    Fide2026,
}

impl FromStr for Rules {
    type Err = String;
    fn from_str(text: &str) -> Result<Rules, String> {
        match text.trim() {
            "2024" => Ok(Rules::Fide2024),
            "2026" => Ok(Rules::Fide2026),
            other => Err(format!(
                "unknown tie-break rules {other:?} (expected 2024 or 2026)"
            )),
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rules::Fide2024 => "2024",
            Rules::Fide2026 => "2026",
        })
    }
}

/// Values left out before summing (C.07 §14.1–14.4): `low` least significant, `high` most
/// significant. `C1` is `{low: 1, high: 0}` (Cut-1, §14.1), `M1` is `{low: 1, high: 1}`
/// (Median-1, §14.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cut {
    /// How many of the lowest values are left out.
    pub low: u8,
    /// How many of the highest values are left out.
    pub high: u8,
}

impl Cut {
    /// No cut.
    pub const NONE: Cut = Cut { low: 0, high: 0 };

    /// Cut-`n`: the `n` lowest values left out.
    pub const fn lowest(n: u8) -> Cut {
        Cut { low: n, high: 0 }
    }

    /// Median-`n`: the `n` lowest and the `n` highest left out.
    pub const fn median(n: u8) -> Cut {
        Cut { low: n, high: n }
    }
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.low, self.high) {
            (0, 0) => Ok(()),
            (low, 0) => write!(f, "/C{low}"),
            (low, high) if low == high => write!(f, "/M{low}"),
            (low, high) => write!(f, "/C{low}/H{high}"),
        }
    }
}

/// A tie-break of C.07, named by its abbreviation (`BH/C1`, `SB`, `DE`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TieBreak {
    /// `PTS`: points (the score itself).
    Points,
    /// `BH`: Buchholz, the sum of the opponents' scores (§8.1), with cuts.
    Buchholz(Cut),
    /// `SB`: Sonneborn-Berger, the opponents' scores times the results against them (§9.1).
    SonnebornBerger(Cut),
    /// `DE`: direct encounter among the tied players (§6).
    DirectEncounter,
    /// `WIN`: rounds with the points of a win, played or not (§7.1).
    Wins,
    /// `WON`: games won over the board (§7.2).
    GamesWon,
    /// `BPG`: games played with Black (§7.3).
    BlackGames,
    /// `BWG`: games won with Black (§7.4).
    BlackWins,
    /// `GE`: games elected to play (`REP`, rounds elected to play, in the 2026 text), the
    /// rounds that were not voluntarily unplayed (§7.6).
    GamesElected,
    /// `ARO`: average rating of the opponents (§10.1), with cuts.
    AverageRatingOfOpponents(Cut),
    /// `TPR`: tournament performance rating (§10.2).
    PerformanceRating,
    /// `PTP`: perfect tournament performance (§10.3).
    PerfectPerformance,
    /// `KS`: the Koya system, for round robins (§9.2): points against the opponents who scored
    /// at least half the maximum.
    Koya,
}

impl TieBreak {
    /// The tie-breaks `arbiter standings` shows when none are chosen, in this order:
    /// `PTS BH BH/C1 BH/C2 BH/M1 SB DE WIN WON BPG BWG GE ARO TPR PTP`.
    pub fn all() -> Vec<TieBreak> {
        vec![
            TieBreak::Points,
            TieBreak::Buchholz(Cut::NONE),
            TieBreak::Buchholz(Cut::lowest(1)),
            TieBreak::Buchholz(Cut::lowest(2)),
            TieBreak::Buchholz(Cut::median(1)),
            TieBreak::SonnebornBerger(Cut::NONE),
            TieBreak::DirectEncounter,
            TieBreak::Wins,
            TieBreak::GamesWon,
            TieBreak::BlackGames,
            TieBreak::BlackWins,
            TieBreak::GamesElected,
            TieBreak::AverageRatingOfOpponents(Cut::NONE),
            TieBreak::PerformanceRating,
            TieBreak::PerfectPerformance,
        ]
    }

    /// Whether a lower value ranks higher. Only DE, whose values are places among the tied
    /// players (1 first; 0 when it separates nobody).
    pub fn lower_is_better(self) -> bool {
        self == TieBreak::DirectEncounter
    }

    /// Whether the values are whole numbers by nature (counts, ratings, places) rather than
    /// points.
    pub fn is_whole_number(self) -> bool {
        !matches!(
            self,
            TieBreak::Points
                | TieBreak::Buchholz(_)
                | TieBreak::SonnebornBerger(_)
                | TieBreak::Koya
        )
    }

    /// A value as people read it: counts, ratings and places as whole numbers (`7`, `2386`),
    /// points with the decimals they need and at least one (`6.5`, `32.0`, `29.75`).
    pub fn format_value(self, value: Points) -> String {
        if self.is_whole_number() {
            value.format(0)
        } else {
            value.to_string()
        }
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TieBreak::Points => f.write_str("PTS"),
            TieBreak::Buchholz(cut) => write!(f, "BH{cut}"),
            TieBreak::SonnebornBerger(cut) => write!(f, "SB{cut}"),
            TieBreak::DirectEncounter => f.write_str("DE"),
            TieBreak::Wins => f.write_str("WIN"),
            TieBreak::GamesWon => f.write_str("WON"),
            TieBreak::BlackGames => f.write_str("BPG"),
            TieBreak::BlackWins => f.write_str("BWG"),
            TieBreak::GamesElected => f.write_str("GE"),
            TieBreak::AverageRatingOfOpponents(cut) => write!(f, "ARO{cut}"),
            TieBreak::PerformanceRating => f.write_str("TPR"),
            TieBreak::PerfectPerformance => f.write_str("PTP"),
            TieBreak::Koya => f.write_str("KS"),
        }
    }
}

/// A tie-break abbreviation that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTieBreakError(pub String);

impl fmt::Display for ParseTieBreakError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown tie-break {:?} (C.07 abbreviations: PTS, BH, BH/C1, BH/C2, BH/M1, SB, DE, WIN, WON, BPG, BWG, GE, ARO, TPR, PTP, KS)", self.0)
    }
}

impl std::error::Error for ParseTieBreakError {}

impl FromStr for TieBreak {
    type Err = ParseTieBreakError;

    /// Reads an abbreviation with its modifiers: `BH/C1`, `BH/M1`, `SB/C1`, `ARO/C1`, `KS`
    /// (also `KOYA`), case-insensitive.
    fn from_str(text: &str) -> Result<TieBreak, ParseTieBreakError> {
        let error = || ParseTieBreakError(text.to_string());
        let upper = text.trim().to_ascii_uppercase();
        let mut parts = upper.split('/');
        let name = parts.next().unwrap_or_default();
        let mut cut = Cut::NONE;
        for modifier in parts {
            let (kind, count) = modifier.split_at(modifier.len().min(1));
            let n: u8 = count.parse().map_err(|_| error())?;
            match kind {
                "C" => cut.low = n,
                "M" => {
                    cut.low = n;
                    cut.high = n;
                }
                "H" => cut.high = n,
                _ => return Err(error()),
            }
        }
        let plain = |tie_break: TieBreak| {
            if cut == Cut::NONE {
                Ok(tie_break)
            } else {
                Err(error())
            }
        };
        match name {
            "PTS" => plain(TieBreak::Points),
            "BH" => Ok(TieBreak::Buchholz(cut)),
            "SB" => Ok(TieBreak::SonnebornBerger(cut)),
            "DE" => plain(TieBreak::DirectEncounter),
            "WIN" => plain(TieBreak::Wins),
            "WON" => plain(TieBreak::GamesWon),
            "BPG" => plain(TieBreak::BlackGames),
            "BWG" => plain(TieBreak::BlackWins),
            "GE" | "REP" => plain(TieBreak::GamesElected),
            "ARO" => Ok(TieBreak::AverageRatingOfOpponents(cut)),
            "TPR" => plain(TieBreak::PerformanceRating),
            "PTP" => plain(TieBreak::PerfectPerformance),
            "KS" | "KOYA" => plain(TieBreak::Koya),
            _ => Err(error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviations_round_trip() {
        for tie_break in TieBreak::all().into_iter().chain([TieBreak::Koya]) {
            let text = tie_break.to_string();
            assert_eq!(text.parse::<TieBreak>().unwrap(), tie_break, "{text}");
        }
        assert_eq!(
            "bh/c1".parse::<TieBreak>().unwrap(),
            TieBreak::Buchholz(Cut::lowest(1))
        );
        for bad in ["", "XYZ", "BH/X1", "DE/C1", "BH/C"] {
            assert!(bad.parse::<TieBreak>().is_err(), "{bad}");
        }
    }
}
