//! Multi-PV: the best N lines of a search, each starting with a different move.

use arbiter_engine::{Engine, Info, Limits, Score};
use arbiter_rules::{CastlingMode, Move, Position};
use std::sync::atomic::AtomicBool;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Standard).unwrap()
}

/// Searches `fen` to `depth` with `lines` lines; returns every report and the result's move.
fn search(fen: &str, depth: u32, lines: usize) -> (Vec<Info>, Option<Move>) {
    let p = pos(fen);
    let mut engine = Engine::new();
    let limits = Limits {
        depth: Some(depth),
        multi_pv: lines,
        ..Limits::default()
    };
    let mut infos = Vec::new();
    let r = engine.search(&p, &[], &limits, &AtomicBool::new(false), &mut |i| {
        infos.push(i.clone())
    });
    (infos, r.best)
}

/// Scores comparable across lines: mates beyond any centipawn score.
fn order_key(s: Score) -> i64 {
    match s {
        Score::Cp(c) => c as i64,
        Score::Mate(m) if m > 0 => 1_000_000 - m as i64,
        Score::Mate(m) => -1_000_000 - m as i64,
    }
}

const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

#[test]
fn multi_pv_reports_every_line_of_every_iteration_best_first_with_distinct_first_moves() {
    let (infos, best) = search(MIDDLEGAME, 7, 4);
    assert_eq!(infos.len(), 7 * 4, "4 lines for each of 7 iterations");
    for (d, iteration) in infos.chunks(4).enumerate() {
        let ranks: Vec<usize> = iteration.iter().map(|i| i.multipv).collect();
        assert_eq!(ranks, [1, 2, 3, 4]);
        assert!(iteration.iter().all(|i| i.depth == d as u32 + 1));
        let mut firsts: Vec<Move> = iteration.iter().map(|i| i.pv[0]).collect();
        let p = pos(MIDDLEGAME);
        assert!(firsts.iter().all(|&m| p.is_legal(m)));
        firsts.sort_by_key(|m| (m.from.idx(), m.to.idx()));
        firsts.dedup();
        assert_eq!(firsts.len(), 4, "distinct first moves at depth {}", d + 1);
        for pair in iteration.windows(2) {
            assert!(order_key(pair[0].score) >= order_key(pair[1].score));
        }
    }
    // The move played is the first line's.
    assert_eq!(best, Some(infos[infos.len() - 4].pv[0]));
}

#[test]
fn multi_pv_first_line_is_the_single_pv_best_move_in_a_clear_position() {
    // White wins the queen with Nxd5; after any other move the queen escapes and Black is
    // a queen against a knight ahead.
    let fen = "7k/8/8/3q4/8/2N5/P7/4K3 w - - 0 1";
    let (single, single_best) = search(fen, 6, 1);
    let (multi, multi_best) = search(fen, 6, 3);
    assert!(single.iter().all(|i| i.multipv == 1));
    let last_single = single.last().unwrap();
    let last_multi = &multi[multi.len() - 3..];
    assert_eq!(single_best, multi_best);
    assert_eq!(last_multi[0].pv[0], last_single.pv[0]);
    // The other lines' searches leave other entries in the table and the histories, so the
    // first line's score may differ a little from the single search's; both win the queen.
    let gap = (order_key(last_multi[0].score) - order_key(last_single.score)).abs();
    assert!(
        gap < 60,
        "{:?} {:?}",
        last_multi[0].score,
        last_single.score
    );
    let p = pos(fen);
    assert_eq!(p.uci(last_multi[0].pv[0]), "c3d5");
    // The next lines do not win the queen: far below the first.
    assert!(order_key(last_multi[1].score) < order_key(last_multi[0].score) - 500);
}

#[test]
fn multi_pv_second_line_after_the_only_mate_is_not_a_mate() {
    // Ra8# is the only mate in one.
    let (infos, _) = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 4, 2);
    let last = &infos[infos.len() - 2..];
    assert_eq!(last[0].score, Score::Mate(1));
    assert!(matches!(last[1].score, Score::Cp(_)), "{:?}", last[1].score);
}

#[test]
fn multi_pv_asking_more_lines_than_legal_moves_reports_each_move_once() {
    // Black's king in the corner has exactly two legal moves (a7 and b8; b7 is attacked).
    let fen = "k7/8/2K5/8/8/8/8/7R b - - 0 1";
    let p = pos(fen);
    assert_eq!(p.legal_moves().len(), 2);
    let (infos, _) = search(fen, 3, 8);
    assert_eq!(infos.len(), 3 * 2);
    assert_eq!(infos[4].multipv, 1);
    assert_eq!(infos[5].multipv, 2);
    assert_ne!(infos[4].pv[0], infos[5].pv[0]);
}

#[test]
fn multi_pv_zero_counts_as_one_line() {
    let (infos, _) = search(MIDDLEGAME, 3, 0);
    assert_eq!(infos.len(), 3);
    assert!(infos.iter().all(|i| i.multipv == 1));
}
