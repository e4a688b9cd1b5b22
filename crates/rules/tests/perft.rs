//! Perft (leaf counts of the legal move tree) against data files.
//!
//! The compact vectors in `tests/vectors` always run. The full public suites run when
//! `ARBITER_DATA` points at the shared data folder (see `.ci/run`): `cargo test -- --ignored`.

use arbiter_rules::{CastlingMode, Position};
use std::path::{Path, PathBuf};

/// One position and its expected counts.
struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

/// Reads the `.perft` format (`id`/`epd`/`perft DEPTH NODES` blocks).
fn read_perft_file(text: &str) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    let mut id = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("epd ") {
            out.push(Case {
                id: id.clone(),
                fen: rest.to_string(),
                counts: vec![],
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let d = it.next().unwrap().parse().unwrap();
            let n = it.next().unwrap().parse().unwrap();
            out.last_mut().unwrap().counts.push((d, n));
        }
    }
    out
}

/// Reads the `FEN ;D1 n ;D2 n` EPD formats (Ethereal, pychess, Chess-EPDs, ferdy).
fn read_epd_file(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // Some files end lines with NUL bytes or CRLF.
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let mut counts = vec![];
        for p in parts {
            let p = p.trim();
            if let Some(rest) = p.strip_prefix('D') {
                let mut it = rest.split_whitespace();
                if let (Some(d), Some(n)) = (it.next(), it.next()) {
                    counts.push((d.parse().unwrap(), n.parse().unwrap()));
                }
            }
        }
        out.push(Case {
            id: format!("line {}", i + 1),
            fen,
            counts,
        });
    }
    out
}

/// Reads the LastEmperor C initialiser lines `{"FEN", {1, d1, ..., d6}},`.
fn read_lastemperor(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(start) = line.find('"') else {
            continue;
        };
        let rest = &line[start + 1..];
        let Some(end) = rest.find('"') else { continue };
        let fen = rest[..end].to_string();
        let nums: Vec<u64> = rest[end + 1..]
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let counts = nums
            .iter()
            .enumerate()
            .skip(1)
            .map(|(d, &n)| (d as u32, n))
            .collect();
        out.push(Case {
            id: format!("SP line {}", i + 1),
            fen,
            counts,
        });
    }
    out
}

/// Runs every case up to `max_nodes` per count; returns the number of counts checked.
fn run(cases: &[Case], mode: CastlingMode, max_nodes: u64, source: &str) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases {
        let pos = match Position::from_fen(&case.fen, mode) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!(
                    "{source} {}: {}: FEN rejected: {e}",
                    case.id, case.fen
                ));
                continue;
            }
        };
        for &(depth, expected) in &case.counts {
            if expected > max_nodes {
                continue;
            }
            let got = pos.perft(depth);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{source} {}: {} depth {depth}: expected {expected}, got {got}",
                    case.id, case.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    checked
}

#[test]
fn perft_compact_vectors() {
    let text = include_str!("vectors/perft.perft");
    let cases = read_perft_file(text);
    let (c960, std): (Vec<Case>, Vec<Case>) = cases
        .into_iter()
        .partition(|c| c.id.starts_with("chess960"));
    assert!(run(&std, CastlingMode::Standard, u64::MAX, "vectors") >= 30);
    assert!(run(&c960, CastlingMode::Chess960, u64::MAX, "vectors") >= 5);
}

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("ARBITER_DATA").map(PathBuf::from)?;
    dir.join("perft").is_dir().then_some(dir)
}

fn max_nodes() -> u64 {
    std::env::var("ARBITER_PERFT_MAX_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000)
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
#[ignore = "needs ARBITER_DATA (the shared perft suites)"]
fn perft_shared_suites() {
    let dir = data_dir().expect("set ARBITER_DATA to the shared data folder");
    let max = max_nodes();
    let mut total = 0;
    for (rel, mode) in [
        ("perft/shakmaty/tricky.perft", CastlingMode::Chess960),
        ("perft/python-chess/tricky.perft", CastlingMode::Chess960),
        ("perft/shakmaty/random.perft", CastlingMode::Standard),
        ("perft/shakmaty/chess960.perft", CastlingMode::Chess960),
        (
            "perft/chess960-startpos/chess960-startpos.perft",
            CastlingMode::Chess960,
        ),
    ] {
        total += run(&read_perft_file(&read(&dir, rel)), mode, max, rel);
    }
    for rel in [
        "perft/ethereal/standard.epd",
        "perft/pychess/perftsuite.epd",
        "perft/pychess/perftsuite2.epd",
        "perft/chess-epds/perft.epd",
        "perft/chess-epds/ferdy_perft_double_checks.epd",
        "perft/chess-epds/ferdy_perft_enpassant_1.epd",
    ] {
        total += run(
            &read_epd_file(&read(&dir, rel)),
            CastlingMode::Standard,
            max,
            rel,
        );
    }
    for rel in [
        "perft/ethereal/fischer.epd",
        "perft/pychess/frc_perftsuite.epd",
    ] {
        total += run(
            &read_epd_file(&read(&dir, rel)),
            CastlingMode::Chess960,
            max,
            rel,
        );
    }
    for i in 1..=19 {
        let rel = format!("perft/chess-epds/ferdy_perft_single_check_{i}.epd");
        total += run(
            &read_epd_file(&read(&dir, &rel)),
            CastlingMode::Standard,
            max,
            &rel,
        );
    }
    for rel in [
        "perft/chess960-startpos/lastemperor_all960pos.txt",
        "perft/chess960-startpos/lastemperor_perft_960_starting_pos.txt",
    ] {
        total += run(
            &read_lastemperor(&read(&dir, rel)),
            CastlingMode::Chess960,
            max,
            rel,
        );
    }
    eprintln!("perft: {total} counts checked (node cap {max})");
    assert!(total > 100_000);
}

/// Regression: `MoveList` used to hold at most 256 moves and silently dropped the rest, though
/// FEN can describe positions with more (this one, with far more material than a game can
/// reach, has 270).
#[test]
fn move_list_holds_more_than_256_moves() {
    let pos = Position::from_fen(
        "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
        CastlingMode::Standard,
    )
    .unwrap();
    assert_eq!(pos.count_legal_moves(), 270);
    assert_eq!(pos.legal_moves().len(), 270);
}
