//! Measures `dead::can_checkmate` in full mode over the CHA test vectors (or any file in their
//! `LABEL FEN` format) and prints the verdict counts and the time per position.
//!
//! ```text
//! cargo run --release -p arbiter-rules --example dead_vectors -- \
//!     ../shared/data/positions/cha-unwinnability/test-vector.txt [--budget N] [--slowest K] [--verbose]
//! ```
//!
//! With `--short N`, every `Yes` line is also passed to `dead::shorter_line` with a budget of
//! `N` nodes (as `arbiter dead` does), and the lines' lengths and that step's time are
//! reported (outside the verdicts' time).
//!
//! With `--lines`, every verdict is printed with its mating line in UCI (to compare two builds
//! line by line).
//!
//! With `--unlabelled`, lines are `FEN [anything]` (e.g. `lichess-30K-games.txt`): both sides
//! are analysed and the verdicts counted, with nothing to compare against.

use arbiter_rules::dead::{can_checkmate, Mode, Verdict};
use arbiter_rules::{CastlingMode, Color, Position};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .expect("usage: dead_vectors FILE [--budget N] [--slowest K]");
    let mut mode = Mode::Full;
    let mut slowest = 15usize;
    let mut verbose = false;
    let mut unlabelled = false;
    let mut lines = false;
    let mut short: Option<u64> = None;
    let (mut yes_lines, mut plies_before, mut plies_after) = (0usize, 0usize, 0usize);
    let mut short_time = Duration::ZERO;
    let mut short_worst = Duration::ZERO;
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--budget" => {
                mode = Mode::Budget(args[i + 1].parse().expect("budget"));
                i += 1;
            }
            "--slowest" => {
                slowest = args[i + 1].parse().expect("count");
                i += 1;
            }
            "--verbose" => verbose = true,
            "--unlabelled" => unlabelled = true,
            "--lines" => lines = true,
            "--short" => {
                short = Some(args[i + 1].parse().expect("budget"));
                i += 1;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    let text = std::fs::read_to_string(path).expect("read file");
    let cpu_start = cpu_seconds();
    let mut rows: Vec<(Duration, String, &'static str, bool)> = Vec::new();
    let (mut right, mut unknown, mut wrong) = (0usize, 0usize, 0usize);
    let mut counts = std::collections::BTreeMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (label, fen) = if unlabelled {
            let fen: Vec<&str> = line.split_whitespace().take(6).collect();
            (None, fen.join(" "))
        } else {
            let (label, fen) = line.split_at(2);
            (Some(label.as_bytes().to_vec()), fen.trim().to_string())
        };
        let p = Position::from_fen(&fen, CastlingMode::Standard).expect("FEN");
        for side in [Color::White, Color::Black] {
            let expected = label.as_ref().map(|l| match side {
                Color::White => l[0] == b'W',
                Color::Black => l[1] == b'B',
            });
            let t = Instant::now();
            let v = can_checkmate(&p, side, mode);
            let dt = t.elapsed();
            match (&v, expected) {
                (Verdict::Unknown, _) => unknown += 1,
                (_, None) => {
                    *counts.entry(v.name()).or_insert(0usize) += 1;
                }
                (Verdict::Yes(_), Some(true)) | (Verdict::No, Some(false)) => right += 1,
                _ => {
                    wrong += 1;
                    eprintln!("WRONG {} {side}: {}", p.fen(), v.name());
                }
            }
            let can = expected.unwrap_or(false);
            if let (Some(budget), Verdict::Yes(line)) = (short, &v) {
                let t = Instant::now();
                let shorter = arbiter_rules::dead::shorter_line(&p, side, line, budget);
                let dt = t.elapsed();
                short_time += dt;
                short_worst = short_worst.max(dt);
                let mut q = p;
                for &m in &shorter {
                    q = q.play(m).expect("the shorter line is legal");
                }
                assert!(q.is_checkmate() && q.turn() != side, "{} {side}", p.fen());
                assert!(shorter.len() <= line.len());
                yes_lines += 1;
                plies_before += line.len();
                plies_after += shorter.len();
            }
            if lines {
                let mut p2 = p;
                let ucis: Vec<String> = match &v {
                    Verdict::Yes(line) => line
                        .iter()
                        .map(|&m| {
                            let u = p2.uci(m);
                            p2.play_unchecked(m);
                            u
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                println!("{} {side} {} {}", p.fen(), v.name(), ucis.join(" "));
            }
            if verbose {
                println!(
                    "{:>10.1} µs {:<7} {:<5} {} {side}",
                    dt.as_secs_f64() * 1e6,
                    v.name(),
                    can,
                    p.fen()
                );
            }
            rows.push((dt, format!("{} {side}", p.fen()), v.name(), can));
        }
    }
    let n = rows.len();
    if let (Some(a), Some(b)) = (cpu_start, cpu_seconds()) {
        println!(
            "thread CPU time: {:.2} s in all, {:.1} µs per verdict",
            b - a,
            (b - a) * 1e6 / n as f64
        );
    }
    let total: Duration = rows.iter().map(|r| r.0).sum();
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    let pct = |q: f64| rows[((n as f64) * (1.0 - q)) as usize].0.as_secs_f64() * 1e6;
    println!(
        "{n} verdicts: {right} right, {unknown} unknown, {wrong} wrong; mean {:.1} µs, median {:.1} µs, p90 {:.1} µs, p99 {:.1} µs, worst {:.2} ms",
        total.as_secs_f64() * 1e6 / n as f64,
        pct(0.5),
        pct(0.9),
        pct(0.99),
        rows[0].0.as_secs_f64() * 1e3
    );
    if unlabelled {
        println!("verdicts without labels: {counts:?}");
    }
    if yes_lines > 0 {
        println!(
            "shorter lines: {yes_lines} yes lines, {:.1} -> {:.1} plies on average; {:.1} µs mean, {:.2} ms worst",
            plies_before as f64 / yes_lines as f64,
            plies_after as f64 / yes_lines as f64,
            short_time.as_secs_f64() * 1e6 / yes_lines as f64,
            short_worst.as_secs_f64() * 1e3
        );
    }
    for (dt, what, verdict, can) in rows.iter().take(slowest) {
        println!(
            "{:>10.2} ms {verdict:<7} expected-can={can:<5} {what}",
            dt.as_secs_f64() * 1e3
        );
    }
}

/// Seconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`), so that other
/// processes on a shared machine do not count.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}
