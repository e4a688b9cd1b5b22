//! The dead-position analysis (Art. 5.2.2, 6.9) never panics on any position FEN reading
//! accepts, its `Yes` lines are legal and end in mate, and quick mode never contradicts a
//! search: a quick `No` stays `No`, a quick `Yes` is a position already mated; the shorter
//! line shown to readers is a legal mate too.
#![no_main]

use arbiter_rules::dead::{can_checkmate, shorter_line, Mode, Verdict};
use arbiter_rules::{CastlingMode, Color, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(text, CastlingMode::Chess960) else {
        return;
    };
    for side in [Color::White, Color::Black] {
        let quick = can_checkmate(&pos, side, Mode::Quick);
        let searched = can_checkmate(&pos, side, Mode::Budget(2_000));
        if quick == Verdict::No {
            assert_eq!(searched, Verdict::No, "{text} {side:?}");
        }
        if let Verdict::Yes(line) = &searched {
            let mut p = pos;
            for &m in line {
                p = p
                    .play(m)
                    .unwrap_or_else(|_| panic!("illegal move in the line: {text}"));
            }
            assert!(p.is_checkmate() && p.turn() != side, "{text}: no mate");
            // The line shown to readers: no longer, and still a legal mate.
            let short = shorter_line(&pos, side, line, 2_000);
            assert!(short.len() <= line.len(), "{text}: longer");
            let mut p = pos;
            for &m in &short {
                p = p
                    .play(m)
                    .unwrap_or_else(|_| panic!("illegal move in the shorter line: {text}"));
            }
            assert!(p.is_checkmate() && p.turn() != side, "{text}: shorter, no mate");
        }
        if searched == Verdict::No {
            assert!(!matches!(quick, Verdict::Yes(_)), "{text}");
        }
    }
});
