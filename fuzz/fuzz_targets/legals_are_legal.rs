//! For any position read from FEN: a move is generated exactly when `is_legal` says it is
//! legal, playing it keeps the Zobrist hash right and gives a position whose FEN reads back,
//! and the move counts agree.
#![no_main]

use arbiter_rules::{CastlingMode, Move, Position, Role, Square, MAX_MOVES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let Ok(pos) = Position::from_fen(text, mode) else {
            continue;
        };
        let legal = pos.legal_moves();
        let count = pos.count_legal_moves();
        if count <= MAX_MOVES {
            assert_eq!(legal.len(), count, "{text}");
        }
        assert_eq!(pos.has_legal_move(), count > 0);
        for &m in legal.iter() {
            assert!(pos.is_legal(m), "{m:?} generated but not legal in {text}");
            let after = pos.play(m).expect("generated move plays");
            assert_eq!(after.hash(), after.compute_hash(), "{m:?} in {text}");
            let fen = after.fen();
            let again = Position::from_fen(&fen, mode)
                .unwrap_or_else(|e| panic!("{fen} after {m:?} rejected: {e}"));
            assert_eq!(again.board(), after.board());
        }
        // Nothing is legal that is not generated.
        for from in Square::all() {
            for to in Square::all() {
                for promotion in [
                    None,
                    Some(Role::Queen),
                    Some(Role::Knight),
                    Some(Role::King),
                ] {
                    let m = Move {
                        from,
                        to,
                        promotion,
                    };
                    if pos.is_legal(m) && count <= MAX_MOVES {
                        assert!(
                            legal.contains(&m),
                            "{m:?} legal but not generated in {text}"
                        );
                    }
                }
            }
        }
    }
});
