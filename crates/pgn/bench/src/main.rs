//! arbiter-pgn beside pgn-reader on the same input, both validating every main-line move
//! (SAN resolved against the position and played; FEN tags honoured). Prints games/s and MB/s
//! from the thread's CPU time (wall time with `PGN_BENCH_WALL=1`).
//!
//! Usage: `cargo run --release -- [--repeat N] [--runs N] [FILE.pgn]...` (default: the two 1 MB files of
//! `$ARBITER_DATA/pgn/pgn-reader-benches`, each repeated 20× in memory).

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

// ------------------------------------------------------------------ arbiter-pgn

struct ArbiterCount {
    games: u64,
    moves: u64,
    errors: u64,
}

impl arbiter_pgn::Visitor for ArbiterCount {
    type Output = ();
    fn begin_game(&mut self, _game: u64) {
        self.games += 1;
    }
    fn mv(&mut self, _before: &arbiter_rules::Position, _mv: arbiter_rules::Move) {
        self.moves += 1;
    }
    fn begin_variation(&mut self) -> arbiter_pgn::Control {
        arbiter_pgn::Control::Skip
    }
    fn wants_comments(&self) -> bool {
        false
    }
    fn wants_tags(&self) -> bool {
        false
    }
    fn error(&mut self, _error: arbiter_pgn::ReadError) {
        self.errors += 1;
    }
    fn end_game(&mut self) {}
}

fn arbiter(data: &[u8]) -> (u64, u64, u64) {
    let mut reader = arbiter_pgn::Reader::new(data);
    let mut v = ArbiterCount {
        games: 0,
        moves: 0,
        errors: 0,
    };
    while reader.read_game(&mut v).unwrap().is_some() {}
    (v.games, v.moves, v.errors)
}

// ------------------------------------------------------------------ pgn-reader + shakmaty

use pgn_reader::{RawTag, SanPlus, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

struct PgnReaderCount {
    games: u64,
    moves: u64,
    errors: u64,
}

impl Visitor for PgnReaderCount {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            match pos {
                Some(p) => *tags = Some(p),
                None => {
                    self.errors += 1;
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<(), Chess> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }

    fn san(&mut self, pos: &mut Chess, san_plus: SanPlus) -> ControlFlow<()> {
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.moves += 1;
                ControlFlow::Continue(())
            }
            Err(_) => {
                self.errors += 1;
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self, _pos: Chess) {}
}

fn pgn_reader(data: &[u8]) -> (u64, u64, u64) {
    let mut reader = pgn_reader::Reader::new(data);
    let mut v = PgnReaderCount {
        games: 0,
        moves: 0,
        errors: 0,
    };
    while reader.read_game(&mut v).unwrap().is_some() {}
    (v.games, v.moves, v.errors)
}

// ------------------------------------------------------------------ harness

/// Runs `f` and measures it: CPU time of this thread (so that other processes on a busy
/// machine count less), or wall time with `PGN_BENCH_WALL=1`.
fn best_of(runs: usize, f: impl Fn() -> (u64, u64, u64)) -> (Duration, (u64, u64, u64)) {
    let wall = std::env::var_os("PGN_BENCH_WALL").is_some();
    let mut best = Duration::MAX;
    let mut out = (0, 0, 0);
    for _ in 0..runs {
        let cpu = cpu_time::ThreadTime::now();
        let t = Instant::now();
        out = std::hint::black_box(f());
        let elapsed = if wall { t.elapsed() } else { cpu.elapsed() };
        best = best.min(elapsed);
    }
    (best, out)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 20;
    let mut runs = 9;
    if let Some(i) = args.iter().position(|a| a == "--runs") {
        runs = args[i + 1].parse().expect("--runs N");
        args.drain(i..i + 2);
    }
    if let Some(i) = args.iter().position(|a| a == "--repeat") {
        repeat = args[i + 1].parse().expect("--repeat N");
        args.drain(i..i + 2);
    }
    if args.is_empty() {
        let data =
            std::env::var("ARBITER_DATA").unwrap_or_else(|_| "../../../../shared/data".into());
        for f in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
            args.push(format!("{data}/pgn/pgn-reader-benches/{f}"));
        }
    }
    println!(
        "| input | reader | games | moves | errors | best time | games/s | MB/s | speed (best) | speed (median of pairs) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for path in &args {
        let one = std::fs::read(path).expect("read input");
        let mut data = Vec::with_capacity(one.len() * repeat);
        for _ in 0..repeat {
            data.extend_from_slice(&one);
            data.extend_from_slice(b"\n\n");
        }
        let mb = data.len() as f64 / 1e6;
        let name = std::path::Path::new(path)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // Alternate the two readers so that both see the same machine load; keep the best
        // of `runs` for each. PGN_BENCH_ONLY=arbiter (for profiling) runs one side only.
        let only = std::env::var("PGN_BENCH_ONLY").unwrap_or_default();
        let (mut t_pr, mut r_pr) = (Duration::MAX, (0, 0, 0));
        let (mut t_ar, mut r_ar) = (Duration::MAX, (0, 0, 0));
        let mut ratios = Vec::new();
        for _ in 0..runs {
            let mut t_this = Duration::ZERO;
            if only != "arbiter" {
                let (t, r) = best_of(1, || pgn_reader(&data));
                t_pr = t_pr.min(t);
                r_pr = r;
                t_this = t;
            }
            let (t, r) = best_of(1, || arbiter(&data));
            t_ar = t_ar.min(t);
            r_ar = r;
            ratios.push(t_this.as_secs_f64() / t.as_secs_f64());
        }
        ratios.sort_by(f64::total_cmp);
        let median_ratio = ratios[ratios.len() / 2];
        for (label, t, r, ratio) in [
            ("pgn-reader 0.29 + shakmaty 0.30", t_pr, r_pr, 1.0),
            (
                "arbiter-pgn",
                t_ar,
                r_ar,
                t_pr.as_secs_f64() / t_ar.as_secs_f64(),
            ),
        ] {
            let median = if label == "arbiter-pgn" {
                format!("{median_ratio:.2}×")
            } else {
                "1.00×".to_owned()
            };
            let s = t.as_secs_f64();
            println!(
                "| {name} ×{repeat} ({mb:.1} MB) | {label} | {} | {} | {} | {:.1} ms | {:.0} | {:.1} | {ratio:.2}× | {median} |",
                r.0,
                r.1,
                r.2,
                s * 1e3,
                r.0 as f64 / s,
                mb / s
            );
        }
    }
}
