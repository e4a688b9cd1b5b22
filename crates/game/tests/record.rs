//! Art. 8 / Appendix C: the record of the game as PGN, and a game rebuilt from it.

use arbiter_game::{
    ClaimOutcome, Game, GameConfig, GameResult, IllegalMovePolicy, MoveOptions, Rules, Status,
    Termination, TimeControl,
};
use arbiter_rules::Color::{Black, White};
use arbiter_rules::Position;

const S: u64 = 1_000;

fn mv(g: &mut Game, san: &str, at: u64, offer_draw: bool) {
    let c = g.turn();
    g.play_san(
        c,
        san,
        at,
        MoveOptions {
            offer_draw,
            lag_credit_ms: 0,
        },
    )
    .unwrap_or_else(|e| panic!("{san}: {e}"));
}

#[test]
fn art_8_1_5_record_has_time_control_termination_clocks_and_offers() {
    let mut g = Game::standard("3+2".parse().unwrap());
    g.start(0).unwrap();
    mv(&mut g, "e4", 9 * S, false);
    mv(&mut g, "e5", 10 * S, false);
    mv(&mut g, "Nf3", 12_500, true);
    g.resign(Black, 20 * S).unwrap();
    let pgn = g.to_pgn();
    assert!(pgn.contains("[TimeControl \"180+2\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(
        pgn.contains("[ArbiterTermination \"resignation\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(
        pgn.contains("1. e4 {[%clk 0:02:53] [%emt 0:00:09]}"),
        "{pgn}"
    );
    assert!(pgn.contains("[%clk 0:02:52.5]"), "{pgn}");
    assert!(pgn.contains("(=)"), "{pgn}");
    assert!(pgn.contains("resignation, Art. 5.1.2"), "{pgn}");
    assert!(pgn.trim_end().ends_with("1-0"), "{pgn}");
}

#[test]
fn guideline_ii_chess960_record_has_variant_setup_and_fen() {
    let start = Position::chess960(0).unwrap();
    let mut g = Game::new(GameConfig {
        start_fen: Some(start.fen()),
        chess960: true,
        time_control: "5+0".parse().unwrap(),
        rules: Rules::default(),
    })
    .unwrap();
    g.start(0).unwrap();
    let pgn = g.to_pgn();
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{}\"]", start.fen())), "{pgn}");
    let back = Game::from_pgn(&pgn, Rules::default()).unwrap();
    assert!(back.config().chess960);
    assert_eq!(back.position(), g.position());
}

#[test]
fn art_8_rebuilt_game_continues_with_the_same_position_and_clocks() {
    let mut g = Game::standard("90/40+30, 30+30".parse().unwrap());
    g.start(0).unwrap();
    mv(&mut g, "d4", 60 * S, false);
    mv(&mut g, "Nf6", 200 * S, false);
    g.add_time(White, 7 * S, 250 * S).unwrap();
    mv(&mut g, "c4", 400 * S, false);
    mv(&mut g, "e6", 401 * S, true);
    let pgn = g.to_pgn();
    let mut back = Game::from_pgn(&pgn, Rules::default()).unwrap();
    assert_eq!(back.status(), Status::Running);
    assert_eq!(back.position(), g.position());
    assert_eq!(back.draw_offer(), Some(Black));
    let clocks = |g: &Game| g.moves().iter().map(|m| m.clock_ms).collect::<Vec<_>>();
    assert_eq!(clocks(&back), clocks(&g));
    let t = back.last_event_at().unwrap();
    assert_eq!(back.remaining_ms(White, t), g.remaining_ms(White, 401 * S));
    assert_eq!(back.remaining_ms(Black, t), g.remaining_ms(Black, 401 * S));
    // Play goes on.
    mv(&mut back, "Nc3", t + 5 * S, false);
    assert_eq!(back.draw_offer(), None);
    assert_eq!(back.moves().len(), 5);
}

#[test]
fn art_8_rebuilt_game_keeps_result_and_termination() {
    // A flag fall.
    let mut g = Game::standard("1+0".parse().unwrap());
    g.start(0).unwrap();
    mv(&mut g, "e4", 5 * S, false);
    assert!(g.check_time(70 * S));
    let back = Game::from_pgn(&g.to_pgn(), Rules::default()).unwrap();
    assert_eq!(back.result(), GameResult::WhiteWins);
    assert_eq!(back.termination(), Some(Termination::Timeout));
    assert_eq!(back.remaining_ms(Black, 1_000 * S), Some(0));

    // A correct claim.
    let mut g = Game::standard("5+0".parse().unwrap());
    g.start(0).unwrap();
    for (i, san) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
        .iter()
        .enumerate()
    {
        mv(&mut g, san, (i as u64 + 1) * S, false);
    }
    assert_eq!(
        g.claim_draw(White, None, 10 * S),
        Ok(ClaimOutcome::Correct(Termination::ThreefoldRepetition))
    );
    let pgn = g.to_pgn();
    assert!(pgn.contains("claim is correct (Art. 9.2, 9.5.2)"), "{pgn}");
    let back = Game::from_pgn(&pgn, Rules::default()).unwrap();
    assert_eq!(back.result(), GameResult::Draw);
    assert_eq!(back.termination(), Some(Termination::ThreefoldRepetition));

    // A forfeit.
    let mut g = Game::standard("5+0".parse().unwrap());
    g.declare_result(GameResult::DoubleForfeit, Termination::Forfeit, 0)
        .unwrap();
    let back = Game::from_pgn(&g.to_pgn(), Rules::default()).unwrap();
    assert_eq!(back.result(), GameResult::DoubleForfeit);
}

#[test]
fn art_7_5_5_penalty_time_survives_the_record() {
    let rules = Rules {
        illegal_moves: IllegalMovePolicy::FidePenalties,
        ..Rules::default()
    };
    let mut g = Game::new(GameConfig {
        rules: rules.clone(),
        ..GameConfig::new("60+0".parse().unwrap())
    })
    .unwrap();
    g.start(0).unwrap();
    mv(&mut g, "e4", S, false);
    g.play_uci(Black, "e8e6", 2 * S, MoveOptions::default())
        .unwrap();
    mv(&mut g, "e5", 3 * S, false);
    let pgn = g.to_pgn();
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Black completed the illegal move e8e6"),
        "{pgn}"
    );
    assert!(flat.contains("White receives 120 s (Art. 7.5.5)"), "{pgn}");
    let back = Game::from_pgn(&pgn, rules).unwrap();
    let t = back.last_event_at().unwrap();
    assert_eq!(back.remaining_ms(White, t), g.remaining_ms(White, 3 * S));
    assert_eq!(back.remaining_ms(Black, t), g.remaining_ms(Black, 3 * S));
}

#[test]
fn pgn_time_control_tag_without_clock_comments_rebuilds_untimed_and_unknown() {
    let pgn = "[Event \"?\"]\n[TimeControl \"-\"]\n\n1. e4 e5 *\n";
    let g = Game::from_pgn(pgn, Rules::default()).unwrap();
    assert_eq!(g.time_control(), &TimeControl::Untimed);
    assert_eq!(g.moves().len(), 2);
    let g = Game::from_pgn("1. e4 1-0\n", Rules::default()).unwrap();
    assert_eq!(g.time_control(), &TimeControl::Unknown);
    assert_eq!(g.termination(), Some(Termination::Resignation));
}

#[test]
fn guideline_ii_chess960_castling_survives_record_and_replay() {
    let mut g = Game::new(GameConfig {
        chess960: true,
        ..GameConfig::new("5+0".parse().unwrap())
    })
    .unwrap();
    g.start(0).unwrap();
    for (i, san) in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]
        .iter()
        .enumerate()
    {
        mv(&mut g, san, (i as u64 + 1) * S, false);
    }
    assert_eq!(g.moves()[6].uci, "e1h1", "king takes rook in Chess960");
    let pgn = g.to_pgn();
    assert!(pgn.contains("4. O-O"), "{pgn}");
    let back = Game::from_pgn(&pgn, Rules::default()).unwrap();
    assert_eq!(back.position(), g.position());
    let replayed = Game::from_record(&g.record()).unwrap();
    assert_eq!(replayed.position(), g.position());
    assert_eq!(replayed.moves(), g.moves());
}
