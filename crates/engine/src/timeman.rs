//! Time management: how long to think about one move, from plain clock facts.
//!
//! The inputs are deliberately plain (time left, increment, delay, moves to go, a cap per move)
//! so that any clock can be mapped onto them: UCI's `wtime/winc/movestogo/movetime`, or a game
//! clock with Fischer increment, Bronstein or simple (US) delay and move-counter controls
//! (Art. 6 and the Guidelines on time controls).

use core::time::Duration;

/// What the clock says for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockState {
    /// Time left on the clock now, not counting the delay of this move.
    pub remaining: Duration,
    /// Fischer increment added after each move.
    pub increment: Duration,
    /// Delay per move: with a simple (US) delay the clock starts only after it; with a
    /// Bronstein delay the time used, up to the delay, is given back. Either way that much
    /// thinking is free.
    pub delay: Duration,
    /// Moves to make before the next time control adds time, if the control has a move
    /// counter (e.g. 40 moves in 90 minutes).
    pub moves_to_go: Option<u32>,
    /// A hard cap per move (a "time per move" control, or UCI `movetime`).
    pub max_per_move: Option<Duration>,
}

/// How long to think: the target (an iteration is not started after it) and the hard limit
/// (the search is stopped at it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Aim to finish by this time.
    pub soft: Duration,
    /// Never think longer than this.
    pub hard: Duration,
}

/// Time kept back on every move for the moves' transmission and process scheduling.
pub const DEFAULT_OVERHEAD: Duration = Duration::from_millis(50);

/// Computes the budget for one move.
///
/// The budget never exceeds the time left minus `overhead` (plus the free delay), so the
/// engine does not lose on time as long as the overhead covers the latency of its surroundings.
pub fn budget(clock: &ClockState, overhead: Duration) -> Budget {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let remaining = ms(clock.remaining);
    let inc = ms(clock.increment);
    let delay = ms(clock.delay);
    let overhead = ms(overhead);

    // Time that can be spent without any risk of flagging.
    let usable = (remaining - overhead).max(0.0);
    // Without a move count, plan as if 22 moves remained: games at 10+0.1 ended with 4.5–5 s
    // of the 10 unused with 36, about 3 s with 26 and 2.2 s with 22 (arbiter-match's time
    // figures), time the moves could have had.
    let mtg = match clock.moves_to_go {
        Some(n) => n.clamp(1, 50) as f64,
        None => 22.0,
    };
    // Keep a reserve for the remaining moves unless this is the last move before the control.
    // A busy machine can stall a process for a while: the less time is left, the larger the
    // share of it kept back.
    let reserve_share = if clock.moves_to_go == Some(1) {
        0.85
    } else if usable < 1_000.0 {
        0.25
    } else {
        0.4
    };
    let mut soft = usable / mtg + inc * 0.75 + delay * 0.9;
    let mut hard = (soft * 3.0).min(usable * reserve_share + delay * 0.9);
    soft = soft.min(hard);
    if let Some(cap) = clock.max_per_move {
        let cap = (ms(cap) - overhead).max(1.0);
        hard = hard.min(cap);
        soft = soft.min(cap);
    }
    let hard = hard.max(1.0);
    let soft = soft.clamp(1.0, hard);
    Budget {
        soft: Duration::from_micros((soft * 1000.0) as u64),
        hard: Duration::from_micros((hard * 1000.0) as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budget_never_exceeds_time_left() {
        for remaining in [5, 50, 200, 1_000, 10_000, 600_000] {
            for inc in [0, 100, 2_000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let c = ClockState {
                        remaining: ms(remaining),
                        increment: ms(inc),
                        moves_to_go: mtg,
                        ..ClockState::default()
                    };
                    let b = budget(&c, DEFAULT_OVERHEAD);
                    assert!(b.soft <= b.hard);
                    assert!(
                        b.hard <= ms(remaining.saturating_sub(50)).max(ms(1)),
                        "{c:?} -> {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn delay_is_free_thinking_time() {
        let no_delay = budget(
            &ClockState {
                remaining: ms(10),
                ..ClockState::default()
            },
            Duration::ZERO,
        );
        let delay = budget(
            &ClockState {
                remaining: ms(10),
                delay: ms(5_000),
                ..ClockState::default()
            },
            Duration::ZERO,
        );
        assert!(delay.soft > ms(4_000), "{delay:?}");
        assert!(delay.hard < ms(4_600) + ms(10));
        assert!(no_delay.hard < ms(10));
    }

    #[test]
    fn time_per_move_cap_is_respected() {
        let b = budget(
            &ClockState {
                remaining: ms(3_600_000),
                max_per_move: Some(ms(1_000)),
                ..ClockState::default()
            },
            ms(30),
        );
        assert_eq!(b.hard, ms(970));
    }

    #[test]
    fn last_move_before_control_may_use_most_of_the_time() {
        let b = budget(
            &ClockState {
                remaining: ms(60_000),
                moves_to_go: Some(1),
                ..ClockState::default()
            },
            ms(30),
        );
        assert!(b.soft > ms(40_000), "{b:?}");
    }
}
