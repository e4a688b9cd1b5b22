//! SAN reading never panics, in any language. Input: an optional FEN line, then the move.
//! A move that reads is legal; the SAN written for every legal move reads back to that move.
#![no_main]

use arbiter_rules::{CastlingMode, Lang, Position, SanPlus};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (pos, san) = match text.split_once('\n') {
        Some((fen, san)) => match Position::from_fen(fen, CastlingMode::Chess960) {
            Ok(pos) => (pos, san),
            Err(_) => return,
        },
        None => (Position::new(), text),
    };
    for lang in Lang::ALL {
        let _ = SanPlus::parse_lang(san, lang);
        if let Ok(m) = pos.parse_san_lang(san, lang) {
            assert!(pos.is_legal(m), "{san} ({lang}) read as illegal {m:?}");
            // Written in the same language, it reads back to the same move.
            let written = pos.san_lang(m, lang);
            assert_eq!(pos.parse_san_lang(&written, lang), Ok(m), "{written}");
        }
    }
    // Every legal move of a fuzzed position round-trips in English and figurines.
    if text.contains('\n') {
        for &m in pos.legal_moves().iter() {
            for lang in [Lang::English, Lang::Figurine] {
                let written = pos.san_lang(m, lang);
                assert_eq!(pos.parse_san_lang(&written, lang), Ok(m), "{written}");
            }
        }
    }
});
