//! C.07 tie-breaks on vectors kept in the repository: three tournaments checked by FIDE's
//! checker Gacrux (2026 rules), FIDE's published tie-break exercise (2024 rules, and the one
//! value the 2026 rules change), and small crosstables worked out by hand.

mod common;

use std::path::Path;

use arbiter_tournament::model::{
    Colour, GameResult, Player, Points, RoundEntry, ScoringSystem, StartNo, Tournament,
};
use arbiter_tournament::tiebreak::{standings, Cut, Rules, StandingsConfig, TieBreak};
use arbiter_tournament::trf;

fn data(name: &str) -> Tournament {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let read = trf::read_bytes(&std::fs::read(path).unwrap());
    assert!(
        read.diagnostics.is_empty(),
        "{name}: {:?}",
        read.diagnostics
    );
    read.tournament
}

fn read_ok(text: &str) -> Tournament {
    let read = trf::read(text);
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    read.tournament
}

fn value(tournament: &Tournament, rules: Rules, tie_break: &str, player: u32) -> String {
    let tie_break: TieBreak = tie_break.parse().unwrap();
    let config = StandingsConfig {
        rules,
        tie_breaks: vec![tie_break],
        ..StandingsConfig::default()
    };
    standings(tournament, &config)
        .value(StartNo(player), tie_break)
        .map(|v| tie_break.format_value(v))
        .unwrap_or_default()
}

#[test]
fn c07_2026_gacrux_vectors_in_the_repository() {
    for name in ["t0019", "t0102", "t0109"] {
        let tournament = data(&format!("{name}.trf"));
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(format!("{name}.tb2026.tsv"));
        let tsv = std::fs::read_to_string(path).unwrap();
        let comparison = common::compare_with_gacrux(&tournament, &tsv, Rules::Fide2026);
        assert!(comparison.compared > 100, "{name}");
        assert!(
            comparison.mismatches.is_empty(),
            "{name}: {:#?}",
            comparison.mismatches
        );
    }
}

/// FIDE's tie-break exercise (tec.fide.com, 18 March 2024), answers published for the 2024
/// rules: Buchholz and Buchholz Cut-1.
#[test]
fn c07_2024_fide_exercise_buchholz_and_cut_1() {
    let t = data("fide-exercise-2024.trf");
    for (player, bh) in [
        (1, "12.5"),
        (2, "13.0"),
        (3, "15.5"),
        (5, "8.5"),
        (8, "13.5"),
        (11, "13.5"),
        (16, "12.5"),
    ] {
        assert_eq!(
            value(&t, Rules::Fide2024, "BH", player),
            bh,
            "BH of {player}"
        );
    }
    for (player, cut_1) in [(5, "7.5"), (8, "12.0"), (11, "12.0")] {
        assert_eq!(
            value(&t, Rules::Fide2024, "BH/C1", player),
            cut_1,
            "BH/C1 of {player}"
        );
    }
}

/// The same exercise under the 2026 rules: player 11's round-4 forfeit win against player 9
/// (1.5 points) was worth 11's own 2.5 points; §16.4.1 caps it at the forfeiting opponent's
/// score, so 11's Buchholz falls from 13.5 to 12.5.
#[test]
fn c07_2026_16_4_1_forfeit_win_capped_at_the_opponents_score() {
    let t = data("fide-exercise-2024.trf");
    assert_eq!(value(&t, Rules::Fide2026, "BH", 11), "12.5");
    // Players without unplayed rounds keep their Buchholz.
    assert_eq!(value(&t, Rules::Fide2026, "BH", 3), "15.5");
}

/// §16.3.2: a withdrawn player's rounds after their last game count as draws for their
/// opponents' Buchholz; rounds before it count as scored.
#[test]
fn c07_16_3_2_a_withdrawn_opponent_counts_draws_after_leaving() {
    // Round 1: 1 beats 4, 2 draws 3. Round 2: 1 beats 2, 3 has the bye, 4 has withdrawn.
    // Round 3: 3 draws 1, 2 has the bye.
    let text = "092 Swiss
001    1      A                                 2000                             2.5    1     4 w 1     2 w 1     3 b =
001    2      B                                 2000                             1.5    3     3 w =     1 b 0  0000 - U
001    3      C                                 2000                             2.0    2     2 b =  0000 - U     1 w =
001    4      D                                 2000                             0.0    4     1 b 0
";
    let t = read_ok(text);
    // 4 scored 0, but counts 0 + ½ + ½ for the others: 1's Buchholz is 1 + 1.5 + 2.
    assert_eq!(value(&t, Rules::Fide2026, "BH", 1), "4.5");
    // 4's own two absences count its own score, 0, under either rules.
    assert_eq!(value(&t, Rules::Fide2024, "BH", 4), "2.5");
    // GE: 4 elected to play one round; 3's bye is not voluntary.
    assert_eq!(value(&t, Rules::Fide2026, "GE", 4), "1");
    assert_eq!(value(&t, Rules::Fide2026, "GE", 3), "3");
    // WIN counts the bye, WON does not.
    assert_eq!(value(&t, Rules::Fide2026, "WIN", 3), "1");
    assert_eq!(value(&t, Rules::Fide2026, "WON", 3), "0");
}

/// A four-player round robin from the Berger table (C.05 Annex 1), worked out by hand.
/// Round 1: 1–4 1-0, 2–3 ½. Round 2: 4–3 0-1, 1–2 ½. Round 3: 2–4 1-0, 3–1 0-1.
fn round_robin() -> Tournament {
    let text = "092 Round robin
001    1      A                                 2400                             2.5    1     4 w 1     2 w =     3 b 1
001    2      B                                 2300                             2.0    2     3 w =     1 b =     4 w 1
001    3      C                                 2200                             1.5    3     2 b =     4 b 1     1 w 0
001    4      D                                 2100                             0.0    4     1 b 0     3 w 0     2 b 0
";
    read_ok(text)
}

#[test]
fn c07_8_2_sonneborn_berger_in_a_round_robin() {
    let t = round_robin();
    // 1: beat 4 (0) + drew 2 (½ × 2) + beat 3 (1.5).
    assert_eq!(value(&t, Rules::Fide2026, "SB", 1), "2.5");
    assert_eq!(value(&t, Rules::Fide2026, "SB", 2), "2.0");
    assert_eq!(value(&t, Rules::Fide2026, "SB", 3), "1.0");
    assert_eq!(value(&t, Rules::Fide2026, "SB", 4), "0.0");
}

#[test]
fn c07_9_koya_counts_points_against_the_upper_half() {
    let t = round_robin();
    // Half the maximum is 1.5: players 1, 2 and 3 reach it.
    assert_eq!(value(&t, Rules::Fide2026, "KS", 1), "1.5");
    assert_eq!(value(&t, Rules::Fide2026, "KS", 2), "1.0");
    assert_eq!(value(&t, Rules::Fide2026, "KS", 3), "0.5");
    assert_eq!(value(&t, Rules::Fide2026, "KS", 4), "0.0");
}

/// Records a game of `round` in both players' rows.
fn game(t: &mut Tournament, round: u32, white: u32, black: u32, white_result: GameResult) {
    let entry = |opponent: u32, colour: Colour, result: GameResult| RoundEntry::Game {
        opponent: StartNo(opponent),
        colour,
        result,
        rated: true,
    };
    t.player_mut(StartNo(white))
        .unwrap()
        .set_entry(round, entry(black, Colour::White, white_result));
    t.player_mut(StartNo(black))
        .unwrap()
        .set_entry(round, entry(white, Colour::Black, white_result.reversed()));
}

#[test]
fn c07_6_direct_encounter_orders_tied_players_who_met() {
    // A four-player round robin (Berger: 1–4 2–3 | 4–3 1–2 | 2–4 3–1) where 1 and 2 finish on
    // 2 points and 2 beat 1.
    let mut t = Tournament {
        system: "Round robin".into(),
        players: (1..=4).map(|n| Player::new(n, format!("P{n}"))).collect(),
        ..Tournament::default()
    };
    game(&mut t, 1, 1, 4, GameResult::Win);
    game(&mut t, 1, 2, 3, GameResult::Win);
    game(&mut t, 2, 4, 3, GameResult::Draw);
    game(&mut t, 2, 1, 2, GameResult::Loss);
    game(&mut t, 3, 2, 4, GameResult::Loss);
    game(&mut t, 3, 3, 1, GameResult::Loss);
    assert!(t.check().is_empty());
    let config = StandingsConfig {
        tie_breaks: vec![TieBreak::DirectEncounter],
        ..StandingsConfig::default()
    };
    let table = standings(&t, &config);
    let order: Vec<u32> = table.rows.iter().map(|r| r.start_no.0).collect();
    assert_eq!(order, [2, 1, 4, 3]);
    let de = |n| table.value(StartNo(n), TieBreak::DirectEncounter).unwrap();
    assert_eq!((de(2), de(1)), (Points::from_int(1), Points::from_int(2)));
    // 3 and 4 are not tied with anyone: DE separates nobody there.
    assert_eq!((de(3), de(4)), (Points::ZERO, Points::ZERO));
    let ranks: Vec<u32> = table.rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, [1, 2, 3, 4]);
}

#[test]
fn scoring_3_1_0_scales_points_and_sonneborn_berger() {
    let mut t = round_robin();
    t.scoring = ScoringSystem::three_one_zero();
    assert_eq!(value(&t, Rules::Fide2026, "PTS", 1), "7.0");
    // 2 has 1 + 1 + 3 = 5 points, 3 has 1 + 3 + 0 = 4; 1 beat 4 (0 × 3), drew 2 (5 × 1) and beat
    // 3 (4 × 3).
    assert_eq!(value(&t, Rules::Fide2026, "SB", 1), "17.0");
}

#[test]
fn cuts_leave_out_the_lowest_and_highest() {
    let t = data("fide-exercise-2024.trf");
    let bh = |tb: &str| value(&t, Rules::Fide2024, tb, 1).parse::<Points>().unwrap();

    assert!(bh("BH/C2") < bh("BH/C1") && bh("BH/C1") < bh("BH"));
    assert!(bh("BH/M1") <= bh("BH/C1"));
    assert_eq!(
        TieBreak::Buchholz(Cut::median(1)).to_string(),
        "BH/M1",
        "C.07 abbreviation"
    );
}

#[test]
fn rating_tie_breaks_of_a_round_robin() {
    let t = round_robin();
    // 1 met 2300, 2200, 2100: ARO 2200; 2.5 of 3 is 83 %, dp 273 (B.02 table 8.1(a)).
    assert_eq!(value(&t, Rules::Fide2026, "ARO", 1), "2200");
    assert_eq!(value(&t, Rules::Fide2026, "TPR", 1), "2473");
    // 4 scored nothing: PTP is the lowest opponent's rating − 800.
    assert_eq!(value(&t, Rules::Fide2026, "PTP", 4), "1400");
}
