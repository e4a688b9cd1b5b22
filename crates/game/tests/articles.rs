//! One scenario per clause of the Laws this crate applies, with exact timestamps (ms).

use arbiter_game::{
    ClaimOutcome, DelayKind, DrawOffers, Game, GameConfig, GameError, GameResult,
    IllegalMovePolicy, MoveOptions, MoveOutcome, OfferOutcome, Points, Rules, Scoring, Speed,
    Status, Termination, TimeControl,
};
use arbiter_rules::Color::{self, Black, White};

const S: u64 = 1_000;
const MIN: u64 = 60 * S;

fn tc(s: &str) -> TimeControl {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn started(control: &str) -> Game {
    let mut g = Game::standard(tc(control));
    g.start(0).unwrap();
    g
}

fn with(control: &str, fen: Option<&str>, rules: Rules) -> Game {
    let mut g = Game::new(GameConfig {
        start_fen: fen.map(str::to_string),
        chess960: false,
        time_control: tc(control),
        rules,
    })
    .unwrap();
    g.start(0).unwrap();
    g
}

fn mv(g: &mut Game, san: &str, at: u64) {
    let c = g.turn();
    g.play_san(c, san, at, MoveOptions::default())
        .unwrap_or_else(|e| panic!("{san} at {at}: {e}"));
}

fn offer() -> MoveOptions {
    MoveOptions {
        offer_draw: true,
        lag_credit_ms: 0,
    }
}

fn clock(g: &Game, c: Color, at: u64) -> u64 {
    g.remaining_ms(c, at).unwrap()
}

// ----- time controls: text forms and classification ----------------------------------

#[test]
fn art_6_3_human_time_control_forms_read_and_print() {
    for (text, canonical) in [
        ("5+3", "5+3"),
        ("45s+0", "45s+0"),
        ("90/40+30, 30+30", "90/40+30, 30+30"),
        ("90/40+30,30+30", "90/40+30, 30+30"),
        ("5 d3", "5 d3"),
        ("5 sd3", "5 sd3"),
        ("30s/move", "30s/move"),
        ("3d/move", "3d/move"),
        ("hourglass 3", "hourglass 3"),
        ("untimed", "untimed"),
        ("1h+30s", "60+30"),
        ("1.5+0", "90s+0"),
        ("2m+1m", "2+1m"),
        ("5 + 3", "5+3"),
        ("90 / 40 + 30 , 30 + 30 ", "90/40+30, 30+30"),
        ("?", "?"),
        ("UNTIMED", "untimed"),
    ] {
        let t = tc(text);
        assert_eq!(t.to_string(), canonical, "{text}");
        assert_eq!(tc(canonical), t, "{canonical} reads back");
    }
    match tc("5 d3") {
        TimeControl::Periods(p) => {
            assert_eq!(p[0].time_ms, 5 * MIN);
            let d = p[0].delay.unwrap();
            assert_eq!((d.kind, d.ms), (DelayKind::Bronstein, 3 * S));
        }
        other => panic!("{other:?}"),
    }
    match tc("90/40+30, 30+30") {
        TimeControl::Periods(p) => {
            assert_eq!(p.len(), 2);
            assert_eq!(
                (p[0].moves, p[0].time_ms, p[0].increment_ms),
                (Some(40), 90 * MIN, 30 * S)
            );
            assert_eq!(
                (p[1].moves, p[1].time_ms, p[1].increment_ms),
                (None, 30 * MIN, 30 * S)
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(tc("3d/move"), TimeControl::PerMove(3 * 24 * 60 * MIN));
    assert_eq!(tc("hourglass 3"), TimeControl::Hourglass(3 * MIN));
}

#[test]
fn art_6_3_pgn_time_control_forms_round_trip() {
    for text in [
        "?",
        "-",
        "40/5400",
        "300",
        "300+2",
        "*180",
        "40/5400+30:1800+30",
        "300d3",
        "300sd3",
        "30/move",
        "0.5+0.1",
    ] {
        let t = TimeControl::from_pgn(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(t.to_pgn(), text);
    }
    assert_eq!(tc("90/40+30, 30+30").to_pgn(), "40/5400+30:1800+30");
    assert_eq!(tc("5+3").to_pgn(), "300+3");
    assert_eq!(TimeControl::from_pgn("300+2").unwrap(), tc("5+2"));
    assert_eq!(TimeControl::from_pgn("?").unwrap(), TimeControl::Unknown);
    assert_eq!(TimeControl::from_pgn("-").unwrap(), TimeControl::Untimed);
}

#[test]
fn time_control_errors_say_what_is_wrong() {
    for (text, needle) in [
        ("", "empty"),
        ("5+", "duration is missing"),
        ("abc", "unknown unit"),
        ("5x+3", "unknown unit"),
        ("90/0+30", "out of range"),
        ("5+3 d2", "either an increment or a delay"),
        ("30+30, 90/40", "only the last period"),
        ("5 q3", "expected a delay"),
        ("0+0", "gives no time"),
        ("1.0005s+0", "whole number of milliseconds"),
    ] {
        let err = text.parse::<TimeControl>().unwrap_err();
        assert!(err.to_string().contains(needle), "{text:?}: {err}");
    }
    for text in ["", "40/", "abc", "300+", "*", "30+2:60", "*0"] {
        assert!(TimeControl::from_pgn(text).is_err(), "{text:?}");
    }
}

#[test]
fn appendix_a_1_b_1_classification() {
    for (text, speed) in [
        ("3+2", Speed::Blitz),
        ("5+3", Speed::Blitz),
        ("10+0", Speed::Blitz),
        ("3+7", Speed::Blitz),
        ("10+1", Speed::Rapid),
        ("2+12", Speed::Rapid),
        ("15+10", Speed::Rapid),
        ("59+0", Speed::Rapid),
        ("60+0", Speed::Standard),
        ("45+15", Speed::Standard),
        ("90/40+30, 30+30", Speed::Standard),
        ("30s/move", Speed::Rapid),
        ("3d/move", Speed::Correspondence),
        ("untimed", Speed::Untimed),
    ] {
        assert_eq!(tc(text).speed(), speed, "{text}");
    }
}

// ----- clock -------------------------------------------------------------------------

#[test]
fn art_6_6_clock_of_the_side_to_move_starts_when_the_game_starts() {
    let mut g = Game::standard(tc("5+0"));
    assert_eq!(g.status(), Status::Created);
    assert_eq!(g.next_deadline(), None);
    assert_eq!(
        g.play_san(White, "e4", 10, MoveOptions::default()),
        Err(GameError::NotStarted)
    );
    g.start(1_000).unwrap();
    assert_eq!(g.next_deadline(), Some(1_000 + 5 * MIN));
    assert_eq!(g.clocks(4_000).unwrap().running, Some(White));
    assert_eq!(clock(&g, White, 4_000), 5 * MIN - 3 * S);
    assert_eq!(clock(&g, Black, 4_000), 5 * MIN);
}

#[test]
fn art_6_3_1_fischer_increment_is_added_after_each_move() {
    let mut g = started("3+2");
    mv(&mut g, "e4", 10 * S);
    assert_eq!(g.moves()[0].clock_ms, Some(180 * S - 10 * S + 2 * S));
    assert_eq!(g.moves()[0].time_used_ms, 10 * S);
    mv(&mut g, "e5", 15 * S);
    assert_eq!(g.moves()[1].clock_ms, Some(180 * S - 5 * S + 2 * S));
    assert_eq!(g.next_deadline(), Some(15 * S + 172 * S));
}

#[test]
fn art_6_3_2_simple_delay_main_time_waits_for_the_delay() {
    let mut g = started("5 sd3");
    assert_eq!(g.next_deadline(), Some(3 * S + 5 * MIN));
    assert_eq!(
        clock(&g, White, 2 * S),
        5 * MIN,
        "within the delay nothing moves"
    );
    mv(&mut g, "e4", 2 * S);
    assert_eq!(g.moves()[0].clock_ms, Some(5 * MIN));
    mv(&mut g, "e5", 2 * S + 8 * S);
    assert_eq!(g.moves()[1].clock_ms, Some(5 * MIN - 5 * S));
}

#[test]
fn art_6_3_2_bronstein_delay_gives_back_the_unused_part() {
    let mut g = started("5 d3");
    assert_eq!(g.next_deadline(), Some(5 * MIN));
    assert_eq!(
        clock(&g, White, 2 * S),
        5 * MIN - 2 * S,
        "main time runs at once"
    );
    mv(&mut g, "e4", 2 * S);
    assert_eq!(g.moves()[0].clock_ms, Some(5 * MIN));
    mv(&mut g, "e5", 2 * S + 8 * S);
    assert_eq!(g.moves()[1].clock_ms, Some(5 * MIN - 5 * S));
}

#[test]
fn art_6_3_2_next_period_is_added_at_the_move_counter_and_unused_time_carries_over() {
    // 2 minutes for 2 moves, then 1 minute for the rest.
    let mut g = started("2/2+0, 1");
    mv(&mut g, "e4", 10 * S);
    mv(&mut g, "e5", 20 * S);
    assert_eq!(g.moves()[0].clock_ms, Some(110 * S));
    mv(&mut g, "Nf3", 40 * S); // White's 2nd move completes the period: +60 s.
    assert_eq!(
        g.moves()[2].clock_ms,
        Some(120 * S - 10 * S - 20 * S + 60 * S)
    );
    assert_eq!(g.ledger(White).unwrap().periods_ms, 60 * S);
    assert_eq!(g.ledger(Black).unwrap().periods_ms, 0);
}

#[test]
fn art_6_3_1_a_last_period_with_a_move_count_repeats() {
    let mut g = Game::standard(TimeControl::from_pgn("2/60").unwrap());
    g.start(0).unwrap();
    let sans = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6"];
    for (i, san) in sans.iter().enumerate() {
        mv(&mut g, san, (i as u64 + 1) * S);
    }
    assert_eq!(g.ledger(White).unwrap().periods_ms, 2 * 60 * S);
    assert_eq!(g.moves()[6].clock_ms, Some(180 * S - 4 * S));
}

#[test]
fn seed_004_maximum_time_per_move_is_reset_every_move() {
    let mut g = started("30s/move");
    mv(&mut g, "e4", 20 * S);
    assert_eq!(g.moves()[0].clock_ms, Some(30 * S));
    assert_eq!(clock(&g, White, 25 * S), 30 * S);
    assert_eq!(g.next_deadline(), Some(50 * S));
    mv(&mut g, "e5", 49 * S);
    assert_eq!(g.next_deadline(), Some(79 * S));
    assert!(!g.check_time(78_999));
    assert!(g.check_time(79 * S));
    assert_eq!(g.result(), GameResult::BlackWins);
}

#[test]
fn seed_004_days_per_move_for_correspondence() {
    let day = 24 * 60 * MIN;
    let mut g = started("3d/move");
    assert_eq!(g.speed(), Speed::Correspondence);
    mv(&mut g, "d4", 2 * day);
    assert_eq!(g.next_deadline(), Some(5 * day));
}

#[test]
fn hourglass_time_one_player_uses_is_added_to_the_other() {
    let mut g = started("hourglass 1");
    assert_eq!(
        clock(&g, Black, 10 * S),
        70 * S,
        "the sand runs over while White thinks"
    );
    mv(&mut g, "e4", 10 * S);
    assert_eq!(clock(&g, White, 10 * S), 50 * S);
    assert_eq!(clock(&g, Black, 10 * S), 70 * S);
    assert_eq!(g.next_deadline(), Some(80 * S));
}

#[test]
fn untimed_game_has_no_clock_and_no_flag() {
    let mut g = started("untimed");
    mv(&mut g, "e4", 1_000_000_000);
    assert_eq!(g.clocks(2_000_000_000), None);
    assert_eq!(g.next_deadline(), None);
    assert!(!g.check_time(u64::MAX / 2));
    assert_eq!(g.status(), Status::Running);
    assert_eq!(g.add_time(White, 1, 2_000_000_000), Err(GameError::Untimed));
}

#[test]
fn art_6_9_flag_fall_loses() {
    let mut g = started("1+0");
    mv(&mut g, "e4", 5 * S);
    assert_eq!(g.next_deadline(), Some(65 * S));
    assert!(!g.check_time(64_999));
    assert_eq!(g.status(), Status::Running);
    assert!(g.check_time(70 * S));
    assert_eq!(g.result(), GameResult::WhiteWins);
    assert_eq!(g.termination(), Some(Termination::Timeout));
    assert_eq!(
        g.ended_at(),
        Some(65 * S),
        "the flag fell at the deadline, not when seen"
    );
    assert_eq!(clock(&g, Black, 99 * S), 0);
    assert_eq!(clock(&g, White, 99 * S), 55 * S);
    assert_eq!(
        g.play_san(Black, "e5", 71 * S, MoveOptions::default()),
        Err(GameError::GameOver)
    );
}

#[test]
fn art_6_9_flag_fall_draws_when_the_opponent_cannot_checkmate() {
    // Black (rook) to move; White has a bare king and cannot mate.
    let fen = "4k3/8/8/8/8/8/r7/4K3 b - - 0 1";
    let mut g = with("1+0", Some(fen), Rules::default());
    assert!(g.check_time(60 * S));
    assert_eq!(g.result(), GameResult::Draw);
    assert_eq!(
        g.termination(),
        Some(Termination::TimeoutVsInsufficientMaterial)
    );
    // White's flag with the same material: Black can mate, Black wins.
    let fen = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1";
    let mut g = with("1+0", Some(fen), Rules::default());
    assert!(g.check_time(60 * S));
    assert_eq!(g.result(), GameResult::BlackWins);
    assert_eq!(g.termination(), Some(Termination::Timeout));
}

#[test]
fn art_6_9_move_after_the_deadline_is_in_time_only_with_lag_credit() {
    let mut g = started("1+0");
    let late = MoveOptions {
        offer_draw: false,
        lag_credit_ms: 300,
    };
    // Arrived 100 ms after the deadline, 300 ms of lag credited: 59.8 s used.
    assert!(matches!(
        g.play_san(White, "e4", 60_100, late),
        Ok(MoveOutcome::Played { ply: 0 })
    ));
    assert_eq!(g.moves()[0].time_used_ms, 59_800);
    assert_eq!(g.moves()[0].clock_ms, Some(200));
    // Without credit the same delay loses.
    let mut g = started("1+0");
    assert_eq!(
        g.play_san(White, "e4", 60_100, MoveOptions::default()),
        Err(GameError::GameOver)
    );
    assert_eq!(g.termination(), Some(Termination::Timeout));
    assert!(g.moves().is_empty());
}

#[test]
fn art_6_8_an_event_after_the_deadline_finds_the_flag_fallen_first() {
    let mut g = started("1+0");
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    // White's flag falls at 61 s; Black's resignation at 70 s comes too late.
    assert_eq!(g.resign(Black, 70 * S), Err(GameError::GameOver));
    assert_eq!(g.result(), GameResult::BlackWins);
    assert_eq!(g.termination(), Some(Termination::Timeout));
}

#[test]
fn art_6_10_2_time_added_by_the_arbiter() {
    let mut g = started("1+0");
    g.add_time(Black, 30 * S, 5 * S).unwrap();
    assert_eq!(clock(&g, Black, 5 * S), 90 * S);
    assert_eq!(g.ledger(Black).unwrap().added_ms, 30 * S);
}

#[test]
fn timestamps_must_not_go_backwards() {
    let mut g = started("1+0");
    mv(&mut g, "e4", 5 * S);
    assert_eq!(
        g.play_san(Black, "e5", 4 * S, MoveOptions::default()),
        Err(GameError::TimeWentBackwards {
            last: 5 * S,
            now: 4 * S
        })
    );
}

// ----- draw offers (Art. 9.1) ----------------------------------------------------------

#[test]
fn art_9_1_2_1_offer_lapses_when_opponent_moves() {
    let mut g = started("5+0");
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    g.play_san(White, "Nf3", 3 * S, offer()).unwrap();
    assert_eq!(g.draw_offer(), Some(White));
    mv(&mut g, "Nc6", 4 * S);
    assert_eq!(g.draw_offer(), None);
    assert_eq!(g.accept_draw(Black, 5 * S), Err(GameError::NoDrawOffer));
}

#[test]
fn art_9_1_2_1_offer_with_a_move_can_be_accepted_and_ends_the_game() {
    let mut g = started("5+0");
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    g.play_san(White, "Nf3", 3 * S, offer()).unwrap();
    g.accept_draw(Black, 4 * S).unwrap();
    assert_eq!(g.result(), GameResult::Draw);
    assert_eq!(g.termination(), Some(Termination::Agreement));
    assert_eq!(g.termination().unwrap().article(), "5.2.3");
    assert_eq!(g.clocks(9 * S).unwrap().running, None);
}

#[test]
fn art_9_1_2_1_offer_cannot_be_withdrawn_and_stands_until_declined() {
    let mut g = started("5+0");
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    assert_eq!(g.offer_draw(Black, 3 * S), Ok(OfferOutcome::Offered));
    assert_eq!(g.offer_draw(Black, 3 * S), Err(GameError::DrawOfferPending));
    // The offerer's clock keeps nothing; the offer stands while White thinks.
    assert_eq!(g.draw_offer(), Some(Black));
    g.decline_draw(White, 4 * S).unwrap();
    assert_eq!(g.draw_offer(), None);
    // Two offers are agreement.
    g.offer_draw(White, 5 * S).unwrap();
    assert_eq!(g.offer_draw(Black, 6 * S), Ok(OfferOutcome::Agreed));
    assert_eq!(g.termination(), Some(Termination::Agreement));
}

#[test]
fn art_9_1_2_2_offer_is_recorded_with_the_move() {
    let mut g = started("5+0");
    mv(&mut g, "e4", S);
    g.play_san(Black, "e5", 2 * S, offer()).unwrap();
    assert!(g.moves()[1].draw_offer);
    assert!(!g.moves()[0].draw_offer);
}

#[test]
fn art_5_2_3_agreement_needs_a_move_by_each_player() {
    let mut g = started("5+0");
    assert_eq!(g.offer_draw(White, S), Err(GameError::DrawTooEarly));
    assert_eq!(
        g.play_san(White, "e4", 2 * S, offer()),
        Err(GameError::DrawTooEarly)
    );
    assert!(
        g.moves().is_empty(),
        "a refused move-with-offer changes nothing"
    );
    mv(&mut g, "e4", 3 * S);
    // Black's first move with an offer: both have moved when White answers.
    g.play_san(Black, "e5", 4 * S, offer()).unwrap();
    g.accept_draw(White, 5 * S).unwrap();
    assert_eq!(g.result(), GameResult::Draw);
}

#[test]
fn art_9_1_1_competition_may_forbid_offers_before_move_n_or_at_all() {
    let rules = Rules {
        draw_offers: DrawOffers::NotBeforeMove(2),
        ..Rules::default()
    };
    let mut g = with("5+0", None, rules);
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    assert_eq!(
        g.offer_draw(White, 3 * S),
        Err(GameError::DrawOffersNotAllowed)
    );
    assert_eq!(
        g.play_san(White, "Nf3", 3 * S, offer()),
        Err(GameError::DrawOffersNotAllowed)
    );
    mv(&mut g, "Nf3", 3 * S);
    g.play_san(Black, "Nc6", 4 * S, offer()).unwrap();
    g.accept_draw(White, 5 * S).unwrap();

    let rules = Rules {
        draw_offers: DrawOffers::Never,
        ..Rules::default()
    };
    let mut g = with("5+0", None, rules);
    for (i, san) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
        mv(&mut g, san, i as u64 * S);
    }
    assert_eq!(
        g.offer_draw(White, 5 * S),
        Err(GameError::DrawOffersNotAllowed)
    );
}

// ----- claims (Art. 9.2, 9.3, 9.5) -------------------------------------------------------

fn shuffle(g: &mut Game, plies: usize, t0: u64) -> u64 {
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut t = t0;
    for i in 0..plies {
        t += S;
        mv(g, cycle[i % 4], t);
    }
    t
}

#[test]
fn art_9_2_1_2_correct_threefold_claim_draws_at_once() {
    let mut g = started("5+0");
    let t = shuffle(&mut g, 8, 0);
    assert!(g.claimable().threefold);
    assert_eq!(
        g.claim_draw(White, None, t + S),
        Ok(ClaimOutcome::Correct(Termination::ThreefoldRepetition))
    );
    assert_eq!(g.result(), GameResult::Draw);
    assert_eq!(g.termination().unwrap().article(), "9.2");
}

#[test]
fn art_9_2_1_1_claim_with_an_intended_move_writes_it_without_playing_it() {
    let mut g = started("5+0");
    let t = shuffle(&mut g, 7, 0);
    assert!(g.claimable().threefold);
    let ng8 = g.position().parse_san("Ng8").unwrap();
    assert_eq!(
        g.claim_draw(Black, Some(ng8), t + S),
        Ok(ClaimOutcome::Correct(Termination::ThreefoldRepetition))
    );
    assert_eq!(g.moves().len(), 7, "the intended move is not played");
}

#[test]
fn art_9_3_fifty_move_claim_now_and_with_intended_move() {
    let mut g = with(
        "5+0",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 100 80"),
        Rules::default(),
    );
    assert!(g.claimable().fifty_moves);
    assert_eq!(
        g.claim_draw(White, None, S),
        Ok(ClaimOutcome::Correct(Termination::FiftyMoves))
    );
    let mut g = with(
        "5+0",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"),
        Rules::default(),
    );
    let ra2 = g.position().parse_san("Ra2").unwrap();
    assert_eq!(
        g.claim_draw(White, Some(ra2), S),
        Ok(ClaimOutcome::Correct(Termination::FiftyMoves))
    );
}

#[test]
fn art_9_5_3_incorrect_claim_gives_the_opponent_two_minutes_and_the_intended_move_is_played() {
    let mut g = started("60+0");
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    let nf3 = g.position().parse_san("Nf3").unwrap();
    let out = g.claim_draw(White, Some(nf3), 5 * S).unwrap();
    assert_eq!(
        out,
        ClaimOutcome::Incorrect {
            opponent_bonus_ms: 2 * MIN,
            played: Some(2)
        }
    );
    assert_eq!(g.moves()[2].san, "Nf3");
    assert_eq!(clock(&g, Black, 5 * S), 60 * MIN - S + 2 * MIN);
    // Art. 9.1.2.3: the claim is also an offer, standing after the claimant's own move.
    assert_eq!(g.draw_offer(), Some(White));
    assert_eq!(g.status(), Status::Running);
}

#[test]
fn appendix_b_2_incorrect_claim_in_blitz_gives_one_minute() {
    let mut g = started("5+0");
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    let out = g.claim_draw(White, None, 3 * S).unwrap();
    assert_eq!(
        out,
        ClaimOutcome::Incorrect {
            opponent_bonus_ms: MIN,
            played: None
        }
    );
    assert_eq!(g.turn(), White);
    // The claim as an offer can be accepted at once.
    g.accept_draw(Black, 4 * S).unwrap();
    assert_eq!(g.termination(), Some(Termination::Agreement));
}

#[test]
fn art_9_2_only_the_player_to_move_may_claim() {
    let mut g = started("5+0");
    let t = shuffle(&mut g, 8, 0);
    assert_eq!(g.claim_draw(Black, None, t), Err(GameError::NotYourTurn));
    let illegal = arbiter_rules::Move::new(arbiter_rules::Square::E2, arbiter_rules::Square::E5);
    assert!(matches!(
        g.claim_draw(White, Some(illegal), t),
        Err(GameError::IllegalMove(_))
    ));
}

// ----- automatic ends ------------------------------------------------------------------

#[test]
fn art_5_1_1_checkmate_ends_the_game() {
    let mut g = started("5+0");
    for (i, san) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
        mv(&mut g, san, (i as u64 + 1) * S);
    }
    assert_eq!(g.result(), GameResult::BlackWins);
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.next_deadline(), None);
    assert_eq!(g.ended_at(), Some(4 * S));
}

#[test]
fn art_5_2_1_stalemate_ends_the_game() {
    let mut g = with(
        "5+0",
        Some("k7/8/8/2Q5/8/8/8/4K3 w - - 0 1"),
        Rules::default(),
    );
    mv(&mut g, "Qb6", S);
    assert_eq!(g.termination(), Some(Termination::Stalemate));
    assert_eq!(g.result(), GameResult::Draw);
}

#[test]
fn art_5_2_2_dead_position_ends_the_game() {
    let mut g = with(
        "5+0",
        Some("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"),
        Rules::default(),
    );
    mv(&mut g, "Kxd2", S);
    assert_eq!(g.termination(), Some(Termination::DeadPosition));
    assert_eq!(g.result(), GameResult::Draw);
}

#[test]
fn art_9_6_1_fivefold_repetition_draws_automatically() {
    let mut g = started("5+0");
    let t = shuffle(&mut g, 12, 0);
    shuffle(&mut g, 3, t);
    assert_eq!(g.status(), Status::Running);
    mv(&mut g, "Ng8", 100 * S);
    // The start position with White to move: initial + 4 returns = 5 times.
    assert_eq!(g.moves().len(), 16);
    assert_eq!(g.termination(), Some(Termination::FivefoldRepetition));
}

#[test]
fn art_9_6_2_seventyfive_moves_draw_automatically() {
    let mut g = with(
        "5+0",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 149 100"),
        Rules::default(),
    );
    mv(&mut g, "Ra2", S);
    assert_eq!(g.termination(), Some(Termination::SeventyFiveMoves));
}

#[test]
fn art_9_6_2_checkmate_on_the_75th_move_stands() {
    let mut g = with(
        "5+0",
        Some("k7/8/1K6/8/8/8/8/7R w - - 149 100"),
        Rules::default(),
    );
    mv(&mut g, "Rh8#", S);
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.result(), GameResult::WhiteWins);
}

#[test]
fn art_5_1_2_either_player_may_resign_at_any_time() {
    let mut g = started("5+0");
    mv(&mut g, "e4", S);
    g.resign(White, 2 * S).unwrap(); // not White's turn
    assert_eq!(g.result(), GameResult::BlackWins);
    assert_eq!(g.termination(), Some(Termination::Resignation));
    assert_eq!(
        clock(&g, Black, 50 * S),
        5 * MIN - S,
        "the clock stopped at resignation"
    );
}

#[test]
fn online_convention_abort_only_before_both_players_have_moved() {
    let mut g = started("5+0");
    mv(&mut g, "e4", S);
    g.abort(Black, 2 * S).unwrap();
    assert_eq!(g.termination(), Some(Termination::Aborted));
    assert_eq!(g.result(), GameResult::Unfinished);
    assert_eq!(g.points(White), None);
    let mut g = started("5+0");
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    assert_eq!(g.abort(White, 3 * S), Err(GameError::CannotAbort));
}

// ----- illegal moves (Art. 7.5) ----------------------------------------------------------

fn penalties() -> Rules {
    Rules {
        illegal_moves: IllegalMovePolicy::FidePenalties,
        ..Rules::default()
    }
}

#[test]
fn art_7_5_illegal_moves_are_rejected_by_default_online() {
    let mut g = started("5+0");
    assert!(matches!(
        g.play_uci(White, "e2e5", S, MoveOptions::default()),
        Err(GameError::IllegalMove(_))
    ));
    assert!(g.moves().is_empty());
    assert_eq!(g.illegal_moves(White), 0);
    assert!(g.events().len() == 1, "only the start is logged");
}

#[test]
fn art_7_5_5_first_completed_illegal_move_gives_the_opponent_two_minutes() {
    let mut g = with("60+0", None, penalties());
    let before = *g.position();
    let out = g
        .play_uci(White, "e2e5", 10 * S, MoveOptions::default())
        .unwrap();
    assert_eq!(
        out,
        MoveOutcome::IllegalMovePenalised {
            count: 1,
            opponent_bonus_ms: 2 * MIN
        }
    );
    assert_eq!(
        *g.position(),
        before,
        "Art. 7.5.1: the position before it is restored"
    );
    assert_eq!(g.turn(), White);
    assert_eq!(clock(&g, Black, 10 * S), 62 * MIN);
    assert_eq!(
        clock(&g, White, 10 * S),
        60 * MIN - 10 * S,
        "White's clock kept running"
    );
    mv(&mut g, "e4", 12 * S);
    assert_eq!(g.moves()[0].time_used_ms, 12 * S);
}

#[test]
fn appendix_b_2_illegal_move_in_blitz_gives_one_minute() {
    let mut g = with("3+2", None, penalties());
    let out = g
        .play_uci(White, "e1e3", S, MoveOptions::default())
        .unwrap();
    assert_eq!(
        out,
        MoveOutcome::IllegalMovePenalised {
            count: 1,
            opponent_bonus_ms: MIN
        }
    );
}

#[test]
fn art_7_5_5_second_completed_illegal_move_loses() {
    let mut g = with("60+0", None, penalties());
    g.play_uci(White, "e2e5", S, MoveOptions::default())
        .unwrap();
    mv(&mut g, "e4", 2 * S);
    g.play_uci(Black, "d8d4", 3 * S, MoveOptions::default())
        .unwrap();
    assert_eq!(g.status(), Status::Running, "one each");
    g.play_uci(White, "a1a5", 4 * S, MoveOptions::default())
        .unwrap_err();
    mv(&mut g, "d5", 5 * S);
    let out = g
        .play_uci(White, "a1a5", 6 * S, MoveOptions::default())
        .unwrap();
    assert_eq!(
        out,
        MoveOutcome::IllegalMovePenalised {
            count: 2,
            opponent_bonus_ms: 0
        }
    );
    assert_eq!(g.result(), GameResult::BlackWins);
    assert_eq!(g.termination(), Some(Termination::IllegalMoves));
}

#[test]
fn art_7_5_5_second_illegal_move_draws_when_the_opponent_cannot_checkmate() {
    // Black has a bare king: White's second illegal move draws.
    let mut g = with("60+0", Some("4k3/8/8/8/8/8/R7/4K3 w - - 0 1"), penalties());
    g.play_uci(White, "a2b3", S, MoveOptions::default())
        .unwrap();
    g.play_uci(White, "a2b3", 2 * S, MoveOptions::default())
        .unwrap();
    assert_eq!(g.result(), GameResult::Draw);
    assert_eq!(
        g.termination(),
        Some(Termination::IllegalMovesVsInsufficientMaterial)
    );
}

// ----- adjournment (Guideline I) ----------------------------------------------------------

#[test]
fn guideline_i_1_sealed_move_is_hidden_clocks_stop_and_it_is_played_on_resumption() {
    let mut g = started("90/40+30, 30+30");
    mv(&mut g, "e4", 10 * S);
    mv(&mut g, "e5", 20 * S);
    g.adjourn(White, "Nf3", 50 * S).unwrap();
    assert_eq!(g.status(), Status::Adjourned);
    assert_eq!(g.moves().len(), 2, "the sealed move is not played");
    assert_eq!(g.next_deadline(), None);
    let white = clock(&g, White, 50 * S);
    assert_eq!(white, 90 * MIN - 10 * S + 30 * S - 30 * S);
    assert_eq!(
        clock(&g, White, 10_000 * S),
        white,
        "clocks stopped (I.1.1)"
    );
    assert_eq!(
        g.play_san(White, "Nf3", 60 * S, MoveOptions::default()),
        Err(GameError::Adjourned)
    );
    g.resume(100_000 * S).unwrap();
    assert_eq!(g.status(), Status::Running);
    assert_eq!(g.moves()[2].san, "Nf3");
    assert_eq!(g.moves()[2].time_used_ms, 30 * S);
    // I.9.1: the responding player's clock starts at resumption.
    assert_eq!(g.clocks(100_000 * S).unwrap().running, Some(Black));
    assert_eq!(
        g.next_deadline(),
        Some(100_000 * S + 90 * MIN - 10 * S + 30 * S)
    );
}

#[test]
fn guideline_i_8_an_illegal_or_ambiguous_sealed_move_loses() {
    let mut g = started("60+0");
    g.adjourn(White, "Qh5", S).unwrap();
    g.resume(2 * S).unwrap();
    assert_eq!(g.result(), GameResult::BlackWins);
    assert_eq!(g.termination(), Some(Termination::InvalidSealedMove));

    let mut g = started("60+0");
    for (i, san) in ["d4", "d5", "Nf3", "Nf6"].iter().enumerate() {
        mv(&mut g, san, i as u64 * S);
    }
    g.adjourn(White, "Nd2", 10 * S).unwrap(); // Nb1-d2 or Nf3-d2?
    g.resume(20 * S).unwrap();
    assert_eq!(g.termination(), Some(Termination::InvalidSealedMove));
}

#[test]
fn guideline_i_4_i_6_offers_and_resignation_while_adjourned() {
    let mut g = started("60+0");
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    g.adjourn(White, "Nf3", 3 * S).unwrap();
    g.offer_draw(Black, 100 * S).unwrap();
    g.accept_draw(White, 200 * S).unwrap();
    assert_eq!(g.termination(), Some(Termination::Agreement));

    let mut g = started("60+0");
    mv(&mut g, "e4", S);
    mv(&mut g, "e5", 2 * S);
    g.adjourn(White, "Nf3", 3 * S).unwrap();
    g.offer_draw(Black, 100 * S).unwrap();
    g.resume(200 * S).unwrap();
    assert_eq!(g.draw_offer(), Some(Black), "I.4: stands until answered");
    g.resign(Black, 300 * S).unwrap();
    assert_eq!(g.result(), GameResult::WhiteWins);
}

// ----- results and scoring (Art. 10) ---------------------------------------------------------

#[test]
fn art_10_1_points_for_win_draw_loss_and_competition_scoring() {
    let mut g = started("5+0");
    g.resign(Black, S).unwrap();
    assert_eq!(g.points(White), Some(Points::whole(1)));
    assert_eq!(g.points(Black), Some(Points(0)));
    let mut g = started("5+0");
    mv(&mut g, "e4", S);
    g.play_san(Black, "e5", 2 * S, offer()).unwrap();
    g.accept_draw(White, 3 * S).unwrap();
    assert_eq!(g.points(White).unwrap().to_string(), "½");
    let rules = Rules {
        scoring: Scoring::THREE_ONE_ZERO,
        ..Rules::default()
    };
    let mut g = with("5+0", None, rules);
    g.resign(White, S).unwrap();
    assert_eq!(g.points(Black).unwrap().to_string(), "3");
    assert_eq!(g.points(White).unwrap().to_string(), "0");
}

#[test]
fn art_10_forfeit_results_and_their_points() {
    for (result, text, w, b) in [
        (GameResult::WhiteWinsByForfeit, "+/-", 2, 0),
        (GameResult::BlackWinsByForfeit, "-/+", 0, 2),
        (GameResult::DoubleForfeit, "-/-", 0, 0),
    ] {
        let mut g = Game::standard(tc("5+0"));
        g.declare_result(result, Termination::Forfeit, 0).unwrap();
        assert_eq!(g.result().to_string(), text);
        assert_eq!(text.parse::<GameResult>().unwrap(), result);
        assert_eq!(g.points(White), Some(Points(w)));
        assert_eq!(g.points(Black), Some(Points(b)));
    }
    assert_eq!(GameResult::DoubleForfeit.pgn(), "*");
}

#[test]
fn every_termination_cites_its_article() {
    for t in Termination::ALL {
        assert_eq!(t.name().parse::<Termination>().unwrap(), t);
        if t != Termination::Aborted {
            assert!(!t.article().is_empty(), "{t}");
        }
    }
    assert_eq!(Termination::Timeout.article(), "6.9");
    assert_eq!(Termination::IllegalMoves.article(), "7.5.5");
    assert_eq!(Scoring::FIDE, Scoring::default());
}

// ----- the event log ------------------------------------------------------------------------

#[test]
fn a_stored_record_replays_to_the_same_game() {
    let mut g = with("5 d3", None, penalties());
    mv(&mut g, "e4", 2 * S);
    g.play_uci(Black, "e7e4", 3 * S, MoveOptions::default())
        .unwrap();
    g.play_san(Black, "e5", 9 * S, offer()).unwrap();
    g.decline_draw(White, 10 * S).unwrap();
    g.add_time(White, 5 * S, 11 * S).unwrap();
    mv(&mut g, "Nf3", 12 * S);
    let nc6 = g.position().parse_san("Nc6").unwrap();
    g.claim_draw(Black, Some(nc6), 15 * S).unwrap();
    g.adjourn(White, "Bb5", 20 * S).unwrap();
    g.resume(1_000 * S).unwrap();
    assert!(g.check_time(2_000 * S));

    let json = serde_json::to_string(&g.record()).unwrap();
    let record: arbiter_game::GameRecord = serde_json::from_str(&json).unwrap();
    let back = Game::from_record(&record).unwrap();
    assert_eq!(back.moves(), g.moves());
    assert_eq!(back.result(), g.result());
    assert_eq!(back.termination(), g.termination());
    assert_eq!(back.clocks(3_000 * S), g.clocks(3_000 * S));
    assert_eq!(back.events(), g.events());
    assert_eq!(back.notes(), g.notes());
    assert_eq!(back.illegal_moves(Black), 1);
    assert!(json.contains("\"type\":\"claim_draw\""), "{json}");
    assert!(json.contains("\"time_control\":\"5 d3\""), "{json}");
}

#[test]
fn guideline_iii_4_five_seconds_per_move_on_request_with_two_minutes_for_the_opponent() {
    let rules = Rules {
        guideline_iii: true,
        ..Rules::default()
    };
    let mut g = with("15+0", None, rules.clone());
    mv(&mut g, "e4", MIN);
    mv(&mut g, "e5", 2 * MIN);
    // White has 14 minutes: too early.
    assert_eq!(
        g.request_increment(White, 3 * MIN),
        Err(GameError::QuickplayNotApplicable)
    );
    // White thinks until less than 2 minutes remain.
    let t = 2 * MIN + 13 * MIN;
    g.request_increment(White, t).unwrap();
    assert_eq!(
        g.draw_offer(),
        Some(White),
        "the request is also a draw offer"
    );
    assert_eq!(clock(&g, Black, t), 14 * MIN + 2 * MIN);
    mv(&mut g, "Nf3", t + S);
    assert_eq!(g.moves()[2].clock_ms, Some(MIN - S + 5 * S));
    // Not in blitz, not with increment, not unless announced.
    let mut g = with("5+0", None, rules.clone());
    assert_eq!(
        g.request_increment(White, 4 * MIN),
        Err(GameError::QuickplayNotApplicable)
    );
    let mut g = with("15+10", None, rules);
    assert_eq!(
        g.request_increment(White, 14 * MIN),
        Err(GameError::QuickplayNotApplicable)
    );
    let mut g = started("15+0");
    assert_eq!(
        g.request_increment(White, 14 * MIN),
        Err(GameError::QuickplayNotApplicable)
    );
}

#[test]
fn art_5_2_2_a_locked_pawn_wall_is_dead_although_material_remains() {
    // All pawns blocked, every gap guarded by pawns, White's bishop on the light squares the
    // white pawns fill on rank 4: no piece can ever cross, nobody can mate.
    let fen = "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/KB6 w - - 0 1";
    let config = GameConfig {
        start_fen: Some(fen.into()),
        ..GameConfig::new(tc("5+0"))
    };
    let mut g = Game::new(config.clone()).unwrap();
    g.start(0).unwrap();
    assert_eq!(g.termination(), Some(Termination::DeadPosition));
    // The material-only analysis does not see it.
    let mut g = Game::new(config).unwrap();
    g.set_analysis(std::sync::Arc::new(arbiter_game::MaterialAnalysis));
    g.start(0).unwrap();
    assert_eq!(g.status(), Status::Running);
}

#[test]
fn guideline_i_1_sealing_a_move_lets_the_opponents_earlier_offer_lapse() {
    let mut g = started("60+0");
    mv(&mut g, "e4", S);
    g.play_san(Black, "e5", 2 * S, offer()).unwrap();
    g.adjourn(White, "Nf3", 3 * S).unwrap();
    assert_eq!(g.draw_offer(), None);
    assert_eq!(g.accept_draw(White, 4 * S), Err(GameError::NoDrawOffer));
}

#[test]
fn art_7_5_2_unpromoted_pawn_becomes_a_queen_and_is_penalised() {
    let mut g = with("60+0", Some("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"), penalties());
    let out = g
        .play_uci(White, "e7e8", 5 * S, MoveOptions::default())
        .unwrap();
    assert_eq!(
        out,
        MoveOutcome::UnpromotedPawnPenalised {
            ply: 0,
            count: 1,
            opponent_bonus_ms: 2 * MIN
        }
    );
    assert_eq!(g.moves()[0].san, "e8=Q");
    assert_eq!(g.turn(), Black);
    assert_eq!(clock(&g, Black, 5 * S), 62 * MIN);
    // Rejected outright online.
    let mut g = with(
        "60+0",
        Some("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"),
        Rules::default(),
    );
    assert!(g
        .play_uci(White, "e7e8", S, MoveOptions::default())
        .is_err());
}
