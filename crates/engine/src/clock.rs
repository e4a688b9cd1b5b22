//! The clock of the side to move as the time manager needs it (time left, increment, free
//! delay, moves to the next period, a time-per-move cap), read from a game or from plain
//! figures. Shared by the built-in player and the external UCI player, which must not depend
//! on each other.

use crate::ClockState;
use arbiter_game::{DelayKind, Game, Millis, Period, TimeControl};
use std::time::Duration;

/// The clock of the side to move in `game` at `now`, as the time manager needs it: time left,
/// Fischer increment, delay still free (Art. 6.3.2, both Bronstein and simple), moves until
/// the next period (Art. 6.3.1) and the limit of a "time per move" control. `None` for an
/// untimed game.
pub fn clock_state(game: &Game, now: Millis) -> Option<ClockState> {
    let color = game.turn();
    let clocks = game.clocks(now)?;
    let tc = game.time_control();
    let delay_used = match tc {
        TimeControl::Periods(_) => {
            match current_period(tc, game.moves_made(color)).and_then(|p| p.delay) {
                // Simple delay: the clock shows the delay still to run.
                Some(d) if d.kind == DelayKind::Simple => d.ms.saturating_sub(clocks.delay_ms),
                // Bronstein: the clock shows what will be given back so far.
                Some(_) => clocks.delay_ms,
                None => 0,
            }
        }
        _ => 0,
    };
    clock_for(tc, clocks.of(color), game.moves_made(color), delay_used)
}

/// The period in force for a player who has completed `moves_made` moves (Art. 6.3.1).
fn current_period(tc: &TimeControl, moves_made: u32) -> Option<&Period> {
    let TimeControl::Periods(periods) = tc else {
        return None;
    };
    let mut start = 0u32;
    for (i, p) in periods.iter().enumerate() {
        match p.moves {
            Some(m) if i + 1 < periods.len() && moves_made >= start + m => start += m,
            _ => return Some(p),
        }
    }
    periods.last()
}

/// The clock facts for the time manager from plain inputs (for a host that has a game's view
/// rather than the [`Game`]): the time control, the player's time left, the moves the player
/// has completed, and how much of this move's delay has already been used.
pub fn clock_for(
    tc: &TimeControl,
    remaining_ms: Millis,
    moves_made: u32,
    delay_used_ms: Millis,
) -> Option<ClockState> {
    let remaining = Duration::from_millis(remaining_ms);
    match tc {
        TimeControl::Periods(periods) if !periods.is_empty() => {
            let current = current_period(tc, moves_made)?;
            // Moves left before the next period's time is added (Art. 6.3.1).
            let mut start = 0u32;
            let mut moves_to_go = None;
            for (i, p) in periods.iter().enumerate() {
                match p.moves {
                    Some(m) if i + 1 < periods.len() => {
                        if moves_made < start + m {
                            moves_to_go = Some(start + m - moves_made);
                            break;
                        }
                        start += m;
                    }
                    Some(m) => {
                        // The last period repeats every `m` moves.
                        let m = m.max(1);
                        moves_to_go = Some(m - moves_made.saturating_sub(start) % m);
                        break;
                    }
                    None => break,
                }
            }
            let delay = current
                .delay
                .map_or(0, |d| d.ms.saturating_sub(delay_used_ms));
            Some(ClockState {
                remaining,
                increment: Duration::from_millis(current.increment_ms),
                delay: Duration::from_millis(delay),
                moves_to_go,
                max_per_move: None,
            })
        }
        TimeControl::PerMove(ms) => Some(ClockState {
            remaining,
            moves_to_go: Some(1),
            max_per_move: Some(Duration::from_millis(*ms)),
            ..ClockState::default()
        }),
        TimeControl::Hourglass(_) => Some(ClockState {
            remaining,
            ..ClockState::default()
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_game::{Delay, MoveOptions};

    #[test]
    fn art_6_3_1_move_counter_gives_moves_to_go() {
        // 40 moves in 90 minutes, then 30 minutes with 30 s increment.
        let tc = TimeControl::Periods(vec![
            Period {
                moves: Some(40),
                time_ms: 5_400_000,
                increment_ms: 0,
                delay: None,
            },
            Period::new(1_800_000, 30_000),
        ]);
        let mut game = Game::standard(tc);
        game.start(0).unwrap();
        let c = clock_state(&game, 1_000).unwrap();
        assert_eq!(c.moves_to_go, Some(40));
        assert_eq!(c.remaining, Duration::from_millis(5_399_000));
        game.play_uci(
            arbiter_rules::Color::White,
            "e2e4",
            2_000,
            MoveOptions::default(),
        )
        .unwrap();
        game.play_uci(
            arbiter_rules::Color::Black,
            "e7e5",
            3_000,
            MoveOptions::default(),
        )
        .unwrap();
        let c = clock_state(&game, 3_000).unwrap();
        assert_eq!(c.moves_to_go, Some(39));
    }

    #[test]
    fn art_6_3_2_simple_delay_is_free_time() {
        let tc = TimeControl::Periods(vec![Period {
            moves: None,
            time_ms: 300_000,
            increment_ms: 0,
            delay: Some(Delay {
                kind: DelayKind::Simple,
                ms: 5_000,
            }),
        }]);
        let mut game = Game::standard(tc);
        game.start(0).unwrap();
        let c = clock_state(&game, 2_000).unwrap();
        assert_eq!(c.delay, Duration::from_millis(3_000));
        assert_eq!(c.remaining, Duration::from_millis(300_000));
    }

    #[test]
    fn art_6_3_1_last_period_with_a_move_count_repeats() {
        // 40/7200 repeating: after 45 moves, 35 to go.
        let tc = TimeControl::Periods(vec![Period {
            moves: Some(40),
            time_ms: 7_200_000,
            increment_ms: 0,
            delay: None,
        }]);
        let c = clock_for(&tc, 1_000_000, 45, 0).unwrap();
        assert_eq!(c.moves_to_go, Some(35));
        assert!(clock_for(&TimeControl::Untimed, 0, 0, 0).is_none());
    }

    #[test]
    fn time_per_move_control_caps_the_move() {
        let mut game = Game::standard(TimeControl::PerMove(2_000));
        game.start(0).unwrap();
        let c = clock_state(&game, 0).unwrap();
        assert_eq!(c.max_per_move, Some(Duration::from_millis(2_000)));
    }
}
