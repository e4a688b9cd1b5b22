//! Who plays whom: the quick-pairing pools' rating ranges and pairing, and whether a player may
//! accept a seek. Pure functions of ratings and waiting times, so they are tested alone.

/// A player's range in a pool starts at ± this many points…
pub const POOL_RANGE_START: i64 = 100;
/// … and widens by this many a second of waiting…
pub const POOL_RANGE_PER_SECOND: i64 = 50;
/// … up to ± this; a player who has waited longer plays anyone.
pub const POOL_RANGE_MAX: i64 = 500;

/// The rating range (±) of a pool member who has waited `waited_ms`; `None`: anyone.
pub fn pool_range(waited_ms: i64) -> Option<i64> {
    let width = POOL_RANGE_START + POOL_RANGE_PER_SECOND * (waited_ms.max(0) / 1000);
    (width <= POOL_RANGE_MAX).then_some(width)
}

/// A player waiting in a pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// The player's rating in the pool's category.
    pub rating: i64,
    /// When the player joined (ms, any clock).
    pub joined_ms: i64,
}

/// Pair the waiting players at time `now_ms`: repeatedly the two of nearest rating whose
/// difference is within both players' ranges (ties: the pair that has waited longer first).
/// Returns pairs of indices into `members`; the others keep waiting.
pub fn pair(members: &[Waiting], now_ms: i64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by_key(|&i| (members[i].rating, members[i].joined_ms));
    let fits = |a: usize, b: usize| {
        let diff = (members[a].rating - members[b].rating).abs();
        let within = |i: usize| pool_range(now_ms - members[i].joined_ms).is_none_or(|r| diff <= r);
        within(a) && within(b)
    };
    let mut pairs = Vec::new();
    loop {
        // Among neighbours in rating order (the nearest ratings), the closest pair that fits.
        let best = order
            .windows(2)
            .enumerate()
            .filter(|(_, w)| fits(w[0], w[1]))
            .min_by_key(|(_, w)| {
                let (a, b) = (&members[w[0]], &members[w[1]]);
                ((a.rating - b.rating).abs(), a.joined_ms.min(b.joined_ms))
            })
            .map(|(k, _)| k);
        let Some(k) = best else { break };
        pairs.push((order[k], order[k + 1]));
        order.drain(k..k + 2);
    }
    pairs
}

/// May a player rated `rating` accept a seek limited to `[min, max]`?
pub fn in_range(rating: i64, min: Option<i64>, max: Option<i64>) -> bool {
    min.is_none_or(|m| rating >= m) && max.is_none_or(|m| rating <= m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(rating: i64, joined_ms: i64) -> Waiting {
        Waiting { rating, joined_ms }
    }

    #[test]
    fn the_range_widens_with_waiting_then_opens() {
        assert_eq!(pool_range(0), Some(100));
        assert_eq!(pool_range(999), Some(100));
        assert_eq!(pool_range(1_000), Some(150));
        assert_eq!(pool_range(8_000), Some(500));
        assert_eq!(pool_range(9_000), None);
    }

    #[test]
    fn nearest_ratings_are_paired_first() {
        // 1500 and 1520 are nearest; 1800 and 1850 next; 2400 waits.
        let m = [w(1800, 0), w(1500, 0), w(2400, 0), w(1520, 0), w(1850, 0)];
        let mut pairs = pair(&m, 0);
        pairs.iter_mut().for_each(|p| {
            if p.0 > p.1 {
                *p = (p.1, p.0);
            }
        });
        pairs.sort();
        assert_eq!(pairs, vec![(0, 4), (1, 3)]);
    }

    #[test]
    fn players_too_far_apart_wait_until_their_ranges_widen() {
        let m = [w(1500, 0), w(1800, 0)];
        assert!(pair(&m, 0).is_empty(), "300 apart, ranges ±100");
        assert!(pair(&m, 3_999).is_empty(), "±250 after 3 s");
        assert_eq!(pair(&m, 4_000).len(), 1, "±300 after 4 s");
        // Both ranges must hold: a newcomer's narrow range keeps the pair apart.
        let m = [w(1500, 0), w(1800, 4_000)];
        assert!(pair(&m, 4_000).is_empty());
        // After the widest range, anyone.
        let m = [w(800, 0), w(2800, 0)];
        assert_eq!(pair(&m, 9_000).len(), 1);
    }

    #[test]
    fn every_player_is_paired_at_most_once() {
        let m: Vec<Waiting> = (0..101).map(|i| w(1000 + (i * 37) % 1000, i)).collect();
        let pairs = pair(&m, 60_000);
        assert_eq!(pairs.len(), 50, "101 players: 50 games, one waits");
        let mut seen: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 100);
    }

    #[test]
    fn seeks_accept_ratings_within_their_bounds() {
        assert!(in_range(1500, None, None));
        assert!(in_range(1500, Some(1400), Some(1500)));
        assert!(!in_range(1501, Some(1400), Some(1500)));
        assert!(!in_range(1399, Some(1400), None));
    }
}
