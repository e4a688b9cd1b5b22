//! FEN reading never panics, and whatever it accepts writes back to a FEN that reads back to
//! the same position.
#![no_main]

use arbiter_rules::{CastlingMode, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let Ok(pos) = Position::from_fen(text, mode) else {
            continue;
        };
        for fen in [pos.fen(), pos.fen_shredder()] {
            let again = Position::from_fen(&fen, mode)
                .unwrap_or_else(|e| panic!("own FEN {fen} rejected: {e}"));
            assert_eq!(again.fen(), pos.fen(), "{text}");
            assert_eq!(again.board(), pos.board());
            assert_eq!(again.castles(), pos.castles());
            assert_eq!(again.legal_ep_square(), pos.legal_ep_square());
            assert_eq!(again.compute_hash(), again.hash());
        }
        assert_eq!(pos.compute_hash(), pos.hash());
        let _ = pos.epd();
        let _ = pos.to_setup();
    }
});
