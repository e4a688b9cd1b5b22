//! Property tests over random games with random thinking times.

use arbiter_game::{
    ClockLedger, Game, GameConfig, GameError, IllegalMovePolicy, MoveOptions, Rules, Status,
    TimeControl,
};
use arbiter_rules::Color::{self, Black, White};
use proptest::prelude::*;

const CONTROLS: [&str; 9] = [
    "1+0",
    "3+2",
    "2/3+1, 1+1",
    "1 d2",
    "1 sd2",
    "20s/move",
    "hourglass 1",
    "untimed",
    "10s+1",
];

/// initial + periods + increments + refunds + added + received + resets + corrections − used
/// − lapsed,
/// computed without saturation.
fn balance(l: &ClockLedger) -> i128 {
    [
        l.initial_ms,
        l.periods_ms,
        l.increments_ms,
        l.delay_refunds_ms,
        l.added_ms,
        l.received_ms,
        l.resets_ms,
        l.corrected_up_ms,
    ]
    .iter()
    .map(|&x| i128::from(x))
    .sum::<i128>()
        - i128::from(l.used_ms)
        - i128::from(l.corrected_down_ms)
        - i128::from(l.lapsed_ms)
}

#[derive(Debug, Clone)]
enum Step {
    Adjourn {
        pick: u16,
        think: u32,
        away: u32,
    },
    Move {
        pick: u16,
        think: u32,
        lag: u16,
        offer: bool,
    },
    Accept,
    Decline,
    Claim {
        think: u32,
    },
    AddTime {
        white: bool,
        ms: u16,
    },
    Illegal {
        think: u32,
    },
    Wait {
        think: u32,
    },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        30 => (any::<u16>(), 0u32..8_000, 0u16..400, prop::bool::weighted(0.1))
            .prop_map(|(pick, think, lag, offer)| Step::Move { pick, think, lag, offer }),
        1 => Just(Step::Accept),
        1 => Just(Step::Decline),
        1 => (0u32..3_000).prop_map(|think| Step::Claim { think }),
        1 => (any::<bool>(), 0u16..5_000).prop_map(|(white, ms)| Step::AddTime { white, ms }),
        1 => (0u32..3_000).prop_map(|think| Step::Illegal { think }),
        1 => (0u32..90_000).prop_map(|think| Step::Wait { think }),
        1 => (any::<u16>(), 0u32..5_000, 0u32..1_000_000)
            .prop_map(|(pick, think, away)| Step::Adjourn { pick, think, away }),
    ]
}

fn check_clocks(g: &Game, now: u64) -> Result<(), TestCaseError> {
    let Some(clocks) = g.clocks(now) else {
        return Ok(());
    };
    for c in [White, Black] {
        let ledger = g.ledger(c).unwrap();
        if clocks.running != Some(c) && !matches!(g.time_control(), TimeControl::Hourglass(_)) {
            prop_assert_eq!(
                i128::from(clocks.of(c)),
                balance(&ledger),
                "{:?}: ledger of {}",
                g.time_control(),
                c
            );
        }
        prop_assert!(balance(&ledger) >= 0, "never below zero");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_games_keep_clock_invariants_and_rebuild_from_record_and_pgn(
        control in 0usize..CONTROLS.len(),
        penalties in any::<bool>(),
        steps in prop::collection::vec(step(), 1..120),
    ) {
        let rules = Rules {
            illegal_moves: if penalties { IllegalMovePolicy::FidePenalties } else { IllegalMovePolicy::Reject },
            illegal_moves_to_lose: 3,
            ..Rules::default()
        };
        let tc: TimeControl = CONTROLS[control].parse().unwrap();
        let mut g = Game::new(GameConfig { rules: rules.clone(), ..GameConfig::new(tc) }).unwrap();
        g.start(0).unwrap();
        let mut now = 0u64;
        for s in steps {
            if g.status() != Status::Running {
                break;
            }
            let turn = g.turn();
            match s {
                Step::Move { pick, think, lag, offer } => {
                    now += u64::from(think);
                    let moves = g.position().legal_moves();
                    let m = moves[usize::from(pick) % moves.len()];
                    let opts = MoveOptions { offer_draw: offer, lag_credit_ms: u64::from(lag) };
                    match g.play(turn, m, now, opts) {
                        Ok(_) => {
                            let rec = g.moves().last().unwrap();
                            if let Some(clk) = rec.clock_ms {
                                prop_assert!(clk > 0, "a clock pressed in time shows time left");
                            }
                        }
                        Err(GameError::DrawTooEarly | GameError::DrawOffersNotAllowed) => {}
                        Err(GameError::GameOver) => {
                            prop_assert_eq!(g.remaining_ms(turn, now), Some(0), "flag: zero");
                        }
                        Err(e) => prop_assert!(false, "unexpected {e}"),
                    }
                }
                Step::Accept => { let _ = g.accept_draw(turn, now); }
                Step::Decline => { let _ = g.decline_draw(turn, now); }
                Step::Claim { think } => {
                    now += u64::from(think);
                    let _ = g.claim_draw(turn, None, now);
                }
                Step::AddTime { white, ms } => {
                    let _ = g.add_time(if white { White } else { Black }, u64::from(ms), now);
                }
                Step::Illegal { think } => {
                    now += u64::from(think);
                    let _ = g.play_uci(turn, "a1a8", now, MoveOptions::default());
                }
                Step::Adjourn { pick, think, away } => {
                    now += u64::from(think);
                    let moves = g.position().legal_moves();
                    let san = g.position().san(moves[usize::from(pick) % moves.len()]);
                    if g.adjourn(turn, &san, now).is_ok() {
                        now += u64::from(away);
                        g.resume(now).unwrap();
                        prop_assert_eq!(&g.moves().last().unwrap().san, &san);
                    }
                }
                Step::Wait { think } => {
                    now += u64::from(think);
                    if g.check_time(now) {
                        let loser: Color = g.turn();
                        prop_assert_eq!(g.remaining_ms(loser, now), Some(0));
                    }
                }
            }
            check_clocks(&g, now)?;
            if g.status() == Status::Running {
                if let (Some(deadline), Some(c)) = (g.next_deadline(), g.clocks(now)) {
                    let running = c.running.unwrap();
                    // The reading at the deadline is zero, and just before it is not.
                    prop_assert_eq!(g.remaining_ms(running, deadline), Some(0));
                    prop_assert!(deadline > now || g.remaining_ms(running, now) == Some(0));
                }
            }
        }

        // The stored record replays to the same game.
        let json = serde_json::to_string(&g.record()).unwrap();
        let back = Game::from_record(&serde_json::from_str(&json).unwrap()).unwrap();
        prop_assert_eq!(back.moves(), g.moves());
        prop_assert_eq!(back.result(), g.result());
        prop_assert_eq!(back.termination(), g.termination());
        prop_assert_eq!(back.clocks(now + 1), g.clocks(now + 1));

        // The PGN rebuilds the same moves, result and clocks.
        let pgn = g.to_pgn();
        let rebuilt = Game::from_pgn(&pgn, rules).unwrap();
        let sans = |g: &Game| g.moves().iter().map(|m| (m.san.clone(), m.clock_ms, m.draw_offer)).collect::<Vec<_>>();
        prop_assert_eq!(sans(&rebuilt), sans(&g), "{}", pgn);
        prop_assert_eq!(rebuilt.result(), g.result(), "{}", pgn);
        prop_assert_eq!(rebuilt.termination(), g.termination(), "{}", pgn);
        prop_assert_eq!(rebuilt.position(), g.position());
    }
}

proptest! {
    #[test]
    fn time_control_text_never_panics_and_round_trips(s in "[0-9a-z?*:/+ .,-]{0,24}") {
        if let Ok(t) = s.parse::<TimeControl>() {
            prop_assert_eq!(t.to_string().parse::<TimeControl>().unwrap(), t.clone(), "{}", s);
            prop_assert_eq!(TimeControl::from_pgn(&t.to_pgn()).unwrap(), t.clone(), "{}", s);
            let _ = t.speed();
        }
        if let Ok(t) = TimeControl::from_pgn(&s) {
            prop_assert_eq!(TimeControl::from_pgn(&t.to_pgn()).unwrap(), t.clone(), "{}", s);
            prop_assert_eq!(t.to_string().parse::<TimeControl>().unwrap(), t, "{}", s);
        }
    }

    #[test]
    fn structured_time_controls_round_trip(
        base in 1u64..10_000_000,
        inc in 0u64..100_000,
        moves in 1u32..100,
        second in 0u64..10_000_000,
        delay in 0u8..3,
    ) {
        use arbiter_game::{Delay, DelayKind, Period};
        let d = match delay {
            0 => None,
            1 => Some(Delay { kind: DelayKind::Bronstein, ms: inc }),
            _ => Some(Delay { kind: DelayKind::Simple, ms: inc }),
        };
        let first = Period { moves: Some(moves), time_ms: base, increment_ms: if d.is_some() { 0 } else { inc }, delay: d };
let rest = Period { moves: None, time_ms: second, ..first };
        let t = TimeControl::Periods(vec![first, rest]);
        prop_assert_eq!(t.to_string().parse::<TimeControl>().unwrap(), t.clone());
        prop_assert_eq!(TimeControl::from_pgn(&t.to_pgn()).unwrap(), t);
    }
}
