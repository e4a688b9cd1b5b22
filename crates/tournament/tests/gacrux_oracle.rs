//! The tie-breaks of the 120 random Swiss tournaments in the shared data
//! (`tournaments/dutch/tNNNN.trf`) against the values FIDE's checker Gacrux computed for them
//! under the 2026 regulations (`tNNNN.tb2026.tsv`; how they were made: PROVENANCE.md there):
//! the rank and 15 tie-breaks of every player.
//!
//! Needs `ARBITER_DATA` (the shared data folder):
//! `ARBITER_DATA=/work/shared/data cargo test -p arbiter-tournament --test gacrux_oracle -- --ignored --nocapture`

mod common;

use std::path::PathBuf;

use arbiter_tournament::tiebreak::Rules;
use arbiter_tournament::trf;

#[test]
#[ignore = "needs ARBITER_DATA (the shared test data folder)"]
fn c07_2026_every_tie_break_of_120_tournaments_equals_gacrux() {
    let dir = PathBuf::from(std::env::var("ARBITER_DATA").expect("ARBITER_DATA"))
        .join("tournaments/dutch");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 120, "{}", dir.display());
    let (mut players, mut compared, mut mismatches) = (0, 0, Vec::new());
    for path in &files {
        let read = trf::read_bytes(&std::fs::read(path).unwrap());
        assert!(
            read.diagnostics.is_empty(),
            "{}: {:?}",
            path.display(),
            read.diagnostics
        );
        let tsv = std::fs::read_to_string(path.with_extension("tb2026.tsv")).unwrap();
        let comparison = common::compare_with_gacrux(&read.tournament, &tsv, Rules::Fide2026);
        players += comparison.players;
        compared += comparison.compared;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        mismatches.extend(
            comparison
                .mismatches
                .into_iter()
                .map(|m| format!("{name} {m}")),
        );
    }
    println!(
        "{} tournaments, {players} players, {compared} values (rank and 15 tie-breaks each): {} equal, {} differ",
        files.len(),
        compared - mismatches.len(),
        mismatches.len()
    );
    for m in mismatches.iter().take(40) {
        println!("{m}");
    }
    assert!(mismatches.is_empty());
}
