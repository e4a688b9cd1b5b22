//! Property tests (proptest) of invariants that must hold in every reachable position.
//!
//! Positions come from random games: a start (the standard position or one of the 960
//! Chess960 starts, Guideline II) and a list of numbers, each choosing the next move among
//! the legal ones. So every tested position is legal and reachable, with castling rights,
//! en passant squares and promotions occurring naturally.

use arbiter_rules::chess960;
use arbiter_rules::{
    CastlingMode, Color, History, Lang, Move, Position, Role, Square, UciMove, MAX_MOVES,
};
use proptest::prelude::*;
use std::collections::HashSet;

/// A start position: `n < 960` is Chess960 start `n`, anything else the standard position.
fn start(n: u16) -> Position {
    Position::chess960(n).unwrap_or_default()
}

/// The positions of a random game (the start included), each with the move played from it.
fn game(n: u16, choices: &[u16]) -> Vec<(Position, Option<Move>)> {
    let mut pos = start(n);
    let mut out = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer the rare moves now and then, so they are tested often.
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_castling(m) || pos.is_en_passant(m) || m.promotion.is_some())
            .collect();
        let m = if !special.is_empty() && c % 3 == 0 {
            special[(c as usize / 3) % special.len()]
        } else {
            moves[c as usize % moves.len()]
        };
        out.push((pos, Some(m)));
        pos.play_unchecked(m);
    }
    out.push((pos, None));
    out
}

/// The standard start a third of the time, else a Chess960 start.
fn starts() -> impl Strategy<Value = u16> {
    prop_oneof![Just(960u16), 0u16..960, 0u16..960]
}

fn choices(max: usize) -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 0..max)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// FEN written for a position reads back to the same position (the en passant square is
    /// written only when a capture is legal, so the comparison uses the repetition identity of
    /// Art. 9.2.2 plus the counters).
    #[test]
    fn fen_round_trip(n in starts(), cs in choices(120)) {
        for (pos, _) in game(n, &cs) {
            for fen in [pos.fen(), pos.fen_shredder()] {
                let again = Position::from_fen(&fen, pos.mode()).expect("own FEN reads back");
                prop_assert_eq!(again.fen(), pos.fen());
                prop_assert_eq!(again.repetition_key(), pos.repetition_key());
                prop_assert_eq!(again.halfmoves(), pos.halfmoves());
                prop_assert_eq!(again.fullmoves(), pos.fullmoves());
                prop_assert_eq!(again.legal_moves().len(), pos.legal_moves().len());
            }
            // A setup made from the position gives it back.
            let again = Position::from_setup(pos.to_setup(), pos.mode()).expect("own setup");
            prop_assert_eq!(again.fen(), pos.fen());
        }
    }

    /// Every legal move written in SAN in every supported language (and figurines) reads back
    /// to the same move (Appendix C).
    #[test]
    fn san_round_trip_every_lang(n in starts(), cs in choices(80)) {
        for (pos, _) in game(n, &cs) {
            for &m in pos.legal_moves().iter() {
                for lang in Lang::ALL {
                    let san = pos.san_lang(m, lang);
                    prop_assert_eq!(pos.parse_san_lang(&san, lang), Ok(m), "{} {}", lang, san);
                    let bare = pos.san_without_suffix(m, lang);
                    prop_assert_eq!(pos.parse_san_lang(&bare, lang), Ok(m), "{} {}", lang, bare);
                }
            }
        }
    }

    /// The Zobrist hash kept up to date move by move equals the one computed from scratch.
    #[test]
    fn incremental_zobrist_equals_compute_hash(n in starts(), cs in choices(200)) {
        for (pos, _) in game(n, &cs) {
            prop_assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
        }
    }

    /// A move is generated exactly when `is_legal` accepts it: every (from, to, promotion)
    /// triple is tried against the generated list, which has no duplicates.
    #[test]
    fn generated_exactly_when_legal(n in starts(), cs in choices(120)) {
        let (pos, _) = *game(n, &cs).last().expect("at least the start");
        let list = pos.legal_moves();
        let set: HashSet<Move> = list.iter().copied().collect();
        prop_assert_eq!(set.len(), list.len(), "duplicates in {:?}", list);
        prop_assert_eq!(pos.count_legal_moves(), list.len());
        prop_assert!(list.len() <= MAX_MOVES);
        let promotions = [None, Some(Role::Queen), Some(Role::Rook), Some(Role::Bishop),
                          Some(Role::Knight), Some(Role::King), Some(Role::Pawn)];
        for from in Square::all() {
            for to in Square::all() {
                for promotion in promotions {
                    let m = Move { from, to, promotion };
                    prop_assert_eq!(pos.is_legal(m), set.contains(&m), "{:?} in {}", m, pos.fen());
                }
            }
        }
        // play() accepts exactly the legal moves and hands an illegal one back untouched.
        for &m in list.iter() {
            prop_assert!(pos.play(m).is_ok());
        }
        let bogus = Move::new(Square::all().next().unwrap(), Square::all().last().unwrap());
        if !set.contains(&bogus) {
            let err = pos.play(bogus).expect_err("illegal");
            prop_assert_eq!(err.position, pos);
        }
    }

    /// UCI round trip in both castling encodings: king two squares (standard) and king takes
    /// rook (Chess960); `parse_uci` accepts both in either mode.
    #[test]
    fn uci_round_trip_both_castling_modes(n in starts(), cs in choices(80)) {
        for (pos, _) in game(n, &cs) {
            for &m in pos.legal_moves().iter() {
                for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                    let u = pos.uci_with(m, mode);
                    let text = u.to_string();
                    prop_assert_eq!(text.parse::<UciMove>(), Ok(u));
                    prop_assert_eq!(pos.parse_uci(&text), Ok(m), "{} in {}", text, pos.fen());
                    let mut moded = pos;
                    moded.set_mode(mode);
                    prop_assert_eq!(moded.uci(m), text.clone());
                    prop_assert_eq!(moded.parse_uci(&text), Ok(m));
                }
            }
        }
    }

    /// History counts repetitions like a plain recount over the positions of the game
    /// (Art. 9.2.2), and `pop` takes back exactly one move.
    #[test]
    fn history_repetitions_match_recount(n in starts(), cs in prop::collection::vec(0u16..4, 0..60)) {
        let plies = game(n, &cs);
        let mut history = History::new(plies[0].0);
        let mut keys = vec![plies[0].0.repetition_key()];
        for (pos, m) in &plies {
            prop_assert_eq!(history.position().fen(), pos.fen());
            let count = keys.iter().filter(|k| **k == *keys.last().unwrap()).count();
            prop_assert_eq!(history.repetitions(), count);
            if let Some(m) = m {
                history.push(*m).expect("legal");
                keys.push(history.position().repetition_key());
            }
        }
        if !history.moves().is_empty() {
            let before = plies[plies.len() - 2].0;
            history.pop();
            prop_assert_eq!(history.position().fen(), before.fen());
        }
    }
}

/// Guideline II: start 518 is the standard arrangement, and the 960 numbers give 960
/// different legal starts with bishops on opposite colours and the king between the rooks.
#[test]
fn chess960_start_numbering_518_is_standard() {
    let standard = Position::new();
    let p518 = Position::chess960(518).expect("518 exists");
    assert_eq!(p518.board(), standard.board());
    assert_eq!(p518.castles(), standard.castles());
    assert_eq!(p518.fen(), standard.fen());
    assert_eq!(
        chess960::back_rank(518),
        Some([
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook
        ])
    );
    assert!(Position::chess960(960).is_none());
    assert!(chess960::back_rank(960).is_none());

    let mut seen = HashSet::new();
    for n in 0..960u16 {
        let rank = chess960::back_rank(n).expect("n < 960");
        assert_eq!(chess960::number_of(&rank), Some(n));
        assert!(seen.insert(rank), "start {n} repeats an arrangement");
        let files = |role| {
            rank.iter()
                .enumerate()
                .filter(move |(_, r)| **r == role)
                .map(|(i, _)| i)
        };
        let bishops: Vec<usize> = files(Role::Bishop).collect();
        assert_eq!(bishops.len(), 2);
        assert_ne!(
            bishops[0] % 2,
            bishops[1] % 2,
            "start {n}: bishops on one colour"
        );
        let rooks: Vec<usize> = files(Role::Rook).collect();
        let king: Vec<usize> = files(Role::King).collect();
        assert!(rooks[0] < king[0] && king[0] < rooks[1], "start {n}");
        let pos = Position::chess960(n).expect("n < 960");
        assert_eq!(pos.turn(), Color::White);
        assert_eq!(pos.legal_moves().len(), pos.perft(1) as usize);
        // Shredder-FEN names the rook files; it reads back to the same start.
        let again = Position::from_fen(&pos.fen_shredder(), CastlingMode::Chess960).unwrap();
        assert_eq!(again.castles(), pos.castles());
    }
    // Well-known numbers (the Chess960 numbering scheme's table): 0 = BBQNNRKR.
    let n0: String = chess960::back_rank(0)
        .unwrap()
        .iter()
        .map(|r| r.char().to_ascii_uppercase())
        .collect();
    assert_eq!(n0, "BBQNNRKR");
}
