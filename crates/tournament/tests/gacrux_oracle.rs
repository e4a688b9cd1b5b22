//! The tie-breaks of the 120 random Swiss tournaments in the shared data
//! (`tournaments/dutch/tNNNN.trf`) against the values FIDE's checker Gacrux computed for them
//! under the 2026 regulations (`tNNNN.tb2026.tsv`; how they were made: PROVENANCE.md there).
//!
//! Needs `ARBITER_DATA` (the shared data folder):
//! `ARBITER_DATA=/work/shared/data cargo test -p arbiter-tournament --test gacrux_oracle -- --ignored --nocapture`

use std::path::PathBuf;

use arbiter_tournament::model::{Points, StartNo};
use arbiter_tournament::tiebreak::{standings, Rules, StandingsConfig, TieBreak};
use arbiter_tournament::trf;

/// One expected value that differs from ours.
struct Mismatch {
    file: String,
    start_no: u32,
    column: String,
    expected: String,
    ours: String,
}

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
    let mut compared = 0usize;
    let mut players = 0usize;
    let mut mismatches = Vec::new();
    for path in &files {
        let read = trf::read_bytes(&std::fs::read(path).unwrap());
        assert!(
            read.diagnostics.is_empty(),
            "{}: {:?}",
            path.display(),
            read.diagnostics
        );
        let tsv = std::fs::read_to_string(path.with_extension("tb2026.tsv")).unwrap();
        let mut lines = tsv.lines();
        let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
        let tie_breaks: Vec<TieBreak> = header[2..].iter().map(|h| h.parse().unwrap()).collect();
        let config = StandingsConfig {
            rules: Rules::Fide2026,
            tie_breaks: tie_breaks.clone(),
            ..StandingsConfig::default()
        };
        let table = standings(&read.tournament, &config);
        for line in lines {
            let fields: Vec<&str> = line.split('\t').collect();
            let start_no: u32 = fields[0].parse().unwrap();
            let row = table.row(StartNo(start_no)).unwrap();
            players += 1;
            let mut check = |column: &str, expected: &str, ours: Option<Points>| {
                compared += 1;
                let equal = match (expected.parse::<Points>(), ours) {
                    (Ok(e), Some(o)) => e == o,
                    (Err(_), None) => expected.trim().is_empty(),
                    _ => false,
                };
                if !equal {
                    mismatches.push(Mismatch {
                        file: path.file_name().unwrap().to_string_lossy().into_owned(),
                        start_no,
                        column: column.to_string(),
                        expected: expected.to_string(),
                        ours: ours.map(|o| o.to_string()).unwrap_or_default(),
                    });
                }
            };
            check(
                "Rank",
                fields[1],
                Some(Points::from_int(i64::from(row.rank))),
            );
            for (i, tie_break) in tie_breaks.iter().enumerate() {
                check(&tie_break.to_string(), fields[i + 2], row.values[i]);
            }
        }
    }
    println!(
        "{} files, {players} players, {compared} values compared (rank + {} tie-breaks), {} equal, {} differ",
        files.len(),
        16,
        compared - mismatches.len(),
        mismatches.len()
    );
    let mut by_column = std::collections::BTreeMap::<String, usize>::new();
    for m in &mismatches {
        *by_column.entry(m.column.clone()).or_default() += 1;
    }
    println!("differences by column: {by_column:?}");
    for m in mismatches.iter().take(40) {
        println!(
            "{} player {} {}: Gacrux {} ours {}",
            m.file, m.start_no, m.column, m.expected, m.ours
        );
    }
    assert!(mismatches.is_empty());
}
