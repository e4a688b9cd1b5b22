//! The written result against the board (Art. 5.1.1, 5.2.1) over the `pioz-chess` corpus,
//! whose games are sorted into folders by how they end (an outside label: see the corpus's
//! PROVENANCE.md). Needs `ARBITER_DATA` (the shared data folder), hence ignored by default:
//!
//! ```text
//! ARBITER_DATA=/work/shared/data cargo test -p arbiter-pgn --test result_check -- --include-ignored
//! ```

use arbiter_pgn::{board_result, BoardEnding, GameRecord, GameResult, ResultConflict};
use std::path::PathBuf;

/// The games of a folder the reader accepts, and how many it refused.
fn games(folder: &str) -> (Vec<(String, GameRecord)>, usize) {
    let data = PathBuf::from(std::env::var("ARBITER_DATA").expect("ARBITER_DATA"));
    let dir = data.join("pgn/pioz-chess").join(folder);
    let (mut out, mut refused) = (Vec::new(), 0);
    for entry in std::fs::read_dir(&dir).expect("folder") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        for record in arbiter_pgn::read_all(&text) {
            match record {
                Ok(record) => out.push((path.display().to_string(), record)),
                Err(_) => refused += 1,
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    (out, refused)
}

#[test]
#[ignore = "needs ARBITER_DATA"]
fn art_5_1_1_and_5_2_1_the_board_result_is_the_folder_label() {
    let labels = [
        (
            "checkmate/white_won",
            GameResult::WhiteWins,
            BoardEnding::Checkmate,
        ),
        (
            "checkmate/black_won",
            GameResult::BlackWins,
            BoardEnding::Checkmate,
        ),
        ("stalemate", GameResult::Draw, BoardEnding::Stalemate),
    ];
    let mut conflicts = 0;
    for (folder, label, ending) in labels {
        let (games, refused) = games(folder);
        assert_eq!(refused, 0, "{folder}");
        assert!(games.len() >= 8, "{folder}: {} games", games.len());
        for (name, record) in &games {
            let end = record.end_position().expect("replays");
            assert_eq!(board_result(&end), Some((label, ending)), "{name}");
            // The corpus writes `1/2-1/2` on its checkmate games: that is what must be found.
            match record.result_conflict() {
                None => assert_eq!(record.effective_result(), label, "{name}"),
                Some(ResultConflict::Board { board, written, .. }) => {
                    assert_eq!(board, label, "{name}");
                    assert_ne!(written, label, "{name}");
                    conflicts += 1;
                }
                Some(other) => panic!("{name}: {other}"),
            }
        }
    }
    assert!(conflicts > 0);
}

#[test]
#[ignore = "needs ARBITER_DATA"]
fn master_games_have_no_contradicted_result() {
    // `valid/0020.pgn` writes a promotion without its piece (`c1`), which strict SAN refuses
    // (PROVENANCE.md).
    let (games, refused) = games("valid");
    assert!(
        refused <= 1 && games.len() >= 900,
        "{} games, {refused} refused",
        games.len()
    );
    for (name, record) in &games {
        assert_eq!(record.result_conflict(), None, "{name}");
    }
}
