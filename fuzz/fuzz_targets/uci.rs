//! UCI move reading never panics. Input: an optional FEN line, then the move. A move that
//! reads is legal, and writes back (in either castling encoding) to a move that reads back.
#![no_main]

use arbiter_rules::{CastlingMode, Position, UciMove};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (pos, uci) = match text.split_once('\n') {
        Some((fen, uci)) => match Position::from_fen(fen, CastlingMode::Chess960) {
            Ok(pos) => (pos, uci),
            Err(_) => return,
        },
        None => (Position::new(), text),
    };
    if let Ok(u) = uci.parse::<UciMove>() {
        assert_eq!(u.to_string().parse::<UciMove>(), Ok(u));
    }
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let mut pos = pos;
        pos.set_mode(mode);
        if let Ok(m) = pos.parse_uci(uci) {
            assert!(pos.is_legal(m), "{uci} read as illegal {m:?}");
            for written in [CastlingMode::Standard, CastlingMode::Chess960] {
                let w = pos.uci_with(m, written).to_string();
                assert_eq!(pos.parse_uci(&w), Ok(m), "{w}");
            }
        }
    }
});
