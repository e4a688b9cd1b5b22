//! The rating-based tie-breaks (C.07 §10): average rating of opponents, tournament
//! performance rating and perfect tournament performance, with the conversion tables of the
//! FIDE Rating Regulations (B.02 §8.1).

use super::crosstable::Crosstable;
use super::kind::Cut;
use crate::model::{GameResult, Points};

/// B.02 table 8.1(a): the rating difference `dp` for a percentage score `p`, for p = 51 … 100
/// (the table is symmetric: dp(100 − p) = −dp(p), dp(50) = 0).
const DP_ABOVE_HALF: [i64; 50] = [
    7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166,
    175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383,
    401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// B.02 table 8.1(b): the higher-rated player's expected score in hundredths (`pd`) for a
/// rating difference up to and including the first number; 100 beyond the last row.
const PD_BY_DIFFERENCE: [(i64, i64); 50] = [
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
];

/// `dp` for a percentage score from 0 to 100.
pub(crate) fn rating_difference(percent: i64) -> i64 {
    match percent.clamp(0, 100) {
        50 => 0,
        p if p > 50 => DP_ABOVE_HALF[(p - 51) as usize],
        p => -DP_ABOVE_HALF[(49 - p) as usize],
    }
}

/// The expected score, in hundredths, of a player rated `rating` against `opponent`.
pub(crate) fn expected_hundredths(rating: i64, opponent: i64) -> i64 {
    let difference = rating - opponent;
    let pd = PD_BY_DIFFERENCE
        .iter()
        .find(|(upto, _)| difference.abs() <= *upto)
        .map_or(100, |(_, pd)| *pd);
    if difference >= 0 {
        pd
    } else {
        100 - pd
    }
}

/// The games a player's rating tie-breaks are computed from: the opponents' ratings and the
/// result in rating points (1, ½, 0, whatever the tournament's scoring), in half points.
struct RatedGames {
    ratings: Vec<i64>,
    half_points: i64,
}

/// Played games against rated opponents (or opponents given `unrated` as their rating),
/// after cutting the lowest- and highest-rated opponents as `cut` says.
fn rated_games(table: &Crosstable, player: usize, cut: Cut, unrated: Option<u16>) -> RatedGames {
    let mut games: Vec<(i64, i64)> = table.rows[player]
        .cells
        .iter()
        .filter(|c| c.played)
        .filter_map(|c| {
            let opponent = &table.rows[c.opponent?];
            let rating = opponent.rating.or(unrated)?;
            let half_points = match c.result? {
                GameResult::Win => 2,
                GameResult::Draw => 1,
                GameResult::Loss => 0,
            };
            Some((i64::from(rating), half_points))
        })
        .collect();
    games.sort_by_key(|g| g.0);
    let low = (cut.low as usize).min(games.len());
    games.drain(..low);
    let high = (cut.high as usize).min(games.len());
    games.truncate(games.len() - high);
    RatedGames {
        ratings: games.iter().map(|g| g.0).collect(),
        half_points: games.iter().map(|g| g.1).sum(),
    }
}

/// `numerator / denominator` rounded to the nearest whole number, halves up (positive
/// denominators).
fn divide_rounding_half_up(numerator: i64, denominator: i64) -> i64 {
    (2 * numerator + denominator).div_euclid(2 * denominator)
}

fn average(ratings: &[i64]) -> Option<i64> {
    if ratings.is_empty() {
        return None;
    }
    Some(divide_rounding_half_up(
        ratings.iter().sum(),
        ratings.len() as i64,
    ))
}

/// ARO (§10.1): the average rating of the opponents met over the board, rounded to the
/// nearest whole number (halves up); `None` without rated opponents.
pub(crate) fn average_rating_of_opponents(
    table: &Crosstable,
    cut: Cut,
    unrated: Option<u16>,
) -> Vec<Option<Points>> {
    (0..table.rows.len())
        .map(|p| average(&rated_games(table, p, cut, unrated).ratings).map(Points::from_int))
        .collect()
}

/// TPR (§10.2): ARO plus the rating difference for the percentage scored in those games
/// (rounded to a whole percentage, halves up).
pub(crate) fn performance_rating(table: &Crosstable, unrated: Option<u16>) -> Vec<Option<Points>> {
    (0..table.rows.len())
        .map(|p| {
            let games = rated_games(table, p, Cut::NONE, unrated);
            let aro = average(&games.ratings)?;
            let n = games.ratings.len() as i64;
            let percent = divide_rounding_half_up(games.half_points * 50, n);
            Some(Points::from_int(aro + rating_difference(percent)))
        })
        .collect()
}

/// PTP (§10.3): the lowest rating whose expected score against the same opponents (table
/// 8.1(b)) reaches the score made; with no points, the lowest opponent's rating − 800.
pub(crate) fn perfect_performance(table: &Crosstable, unrated: Option<u16>) -> Vec<Option<Points>> {
    (0..table.rows.len())
        .map(|p| {
            let games = rated_games(table, p, Cut::NONE, unrated);
            let lowest = *games.ratings.iter().min()?;
            let highest = *games.ratings.iter().max()?;
            if games.half_points == 0 {
                return Some(Points::from_int(lowest - 800));
            }
            // In hundredths of a point: the score, and the expected score at rating r.
            let target = games.half_points * 50;
            let expected = |r: i64| -> i64 {
                games
                    .ratings
                    .iter()
                    .map(|&o| expected_hundredths(r, o))
                    .sum()
            };
            // The expected score grows with r; at highest + 736 every game is expected won.
            let (mut low, mut high) = (lowest - 801, highest + 736);
            while high - low > 1 {
                let middle = (low + high) / 2;
                if expected(middle) >= target {
                    high = middle;
                } else {
                    low = middle;
                }
            }
            Some(Points::from_int(high))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b02_tables_read_as_published() {
        assert_eq!(rating_difference(100), 800);
        assert_eq!(rating_difference(99), 677);
        assert_eq!(rating_difference(75), 193);
        assert_eq!(rating_difference(50), 0);
        assert_eq!(rating_difference(25), -193);
        assert_eq!(rating_difference(0), -800);
        assert_eq!(expected_hundredths(2000, 2000), 50);
        assert_eq!(expected_hundredths(2004, 2000), 51);
        assert_eq!(expected_hundredths(2000, 2400), 8);
        assert_eq!(expected_hundredths(2736, 2000), 100);
        assert_eq!(expected_hundredths(2735, 2000), 99);
    }
}
