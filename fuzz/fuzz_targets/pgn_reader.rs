//! The PGN reader on arbitrary bytes: no panic, bounded memory, and every game it accepts is
//! written in export format and read back to the same record.
#![no_main]

use arbiter_pgn::{GameBuilder, GameRecord, Reader, Writer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut reader = Reader::new(data);
    let mut builder = GameBuilder::new();
    let mut games = 0;
    while let Some(game) = reader.read_game(&mut builder).expect("reading memory cannot fail") {
        games += 1;
        assert!(games <= data.len() + 1, "more games than bytes");
        let Ok(game) = game else { continue };
        let text = Writer::export().write(&game).expect("a game read is writable");
        for line in text.lines() {
            // Lines are shorter than 80 characters unless one token is longer.
            if line.chars().count() > 79 {
                assert!(!line.contains(' ') || line.starts_with('[') || line.contains(';'), "long line: {line}");
            }
        }
        let back = GameRecord::from_pgn(&text).expect("written game reads back");
        assert_eq!(back.moves, game.moves, "{text}");
        assert_eq!(back.effective_result(), game.effective_result(), "{text}");
    }
});
