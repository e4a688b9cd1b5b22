//! Perft speed of arbiter-rules side by side with cozy-chess 0.3 and shakmaty 0.30, in one
//! process, on the positions of the Chess Programming Wiki "Perft Results" page.
//!
//! ```text
//! cargo run --release -p arbiter-bench            # the four positions, best of 3 runs
//! cargo run --release -p arbiter-bench -- --reps 5
//! cargo run --release -p arbiter-bench -- --quick # one depth less, for a smoke test
//! cargo run --release -p arbiter-bench -- --lib arbiter  # one library only (profiling)
//! ```
//!
//! Times are the thread's CPU time where Linux reports it (so other processes on a shared
//! machine do not inflate them), else wall time.
//!
//! Each library uses its own fastest idiomatic perft with bulk counting at depth 1:
//! [`arbiter_rules::Position::perft`], a `generate_moves` callback summing `moves.len()` for
//! cozy-chess (as in its own perft example), and [`shakmaty::perft`]. The node counts of the
//! three must agree with each other and with the published counts, or the program fails.

use std::hint::black_box;
use std::time::Instant;

/// Seconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`), so that other
/// processes on a busy machine do not count; `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// A stopwatch on the thread's CPU time when the OS reports it, else on wall time.
struct Stopwatch {
    wall: Instant,
    cpu: Option<f64>,
}

impl Stopwatch {
    fn start() -> Stopwatch {
        Stopwatch {
            cpu: cpu_seconds(),
            wall: Instant::now(),
        }
    }

    fn seconds(&self) -> f64 {
        match (self.cpu, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// A benchmark position.
struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    nodes: u64,
}

const CASES: [Case; 4] = [
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
        nodes: 119_060_324,
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
        nodes: 193_690_690,
    },
    Case {
        name: "cpw-pos3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        depth: 7,
        nodes: 178_633_661,
    },
    Case {
        name: "cpw-pos4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        depth: 6,
        nodes: 706_045_033,
    },
];

/// Node counts of the same depths one ply shallower (`--quick`).
const QUICK_NODES: [u64; 4] = [4_865_609, 4_085_603, 11_030_083, 15_833_292];

fn arbiter_perft(fen: &str, depth: u32) -> u64 {
    let pos = arbiter_rules::Position::from_fen(fen, arbiter_rules::CastlingMode::Standard)
        .expect("benchmark FEN");
    black_box(&pos).perft(depth)
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

fn cozy(fen: &str, depth: u32) -> u64 {
    let board = cozy_chess::Board::from_fen(fen, false).expect("benchmark FEN");
    cozy_perft(black_box(&board), depth)
}

fn shakmaty(fen: &str, depth: u32) -> u64 {
    use shakmaty::{fen::Fen, CastlingMode, Chess};
    let pos: Chess = fen
        .parse::<Fen>()
        .expect("benchmark FEN")
        .into_position(CastlingMode::Standard)
        .expect("legal position");
    shakmaty::perft(black_box(&pos), depth)
}

/// A perft function: FEN and depth to node count.
type Perft = fn(&str, u32) -> u64;

/// The libraries compared, in table order.
const LIBS: [(&str, Perft); 3] = [
    ("arbiter-rules", arbiter_perft),
    ("cozy-chess 0.3", cozy),
    ("shakmaty 0.30", shakmaty),
];

fn main() {
    let mut reps = 3;
    let mut quick = false;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--reps" => {
                reps = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| fail("--reps needs a positive number"));
            }
            "--quick" => quick = true,
            "--lib" => only = Some(args.next().unwrap_or_else(|| fail("--lib needs a name"))),
            "-h" | "--help" => {
                println!("usage: arbiter-bench [--reps N] [--quick] [--lib arbiter|cozy|shakmaty]");
                return;
            }
            other => fail(&format!("unknown argument '{other}' (try --help)")),
        }
    }
    if cfg!(debug_assertions) {
        eprintln!("warning: debug build; run with --release for meaningful figures");
    }

    let libs: Vec<(&str, Perft)> = LIBS
        .iter()
        .copied()
        .filter(|(name, _)| only.as_ref().is_none_or(|o| name.starts_with(o.as_str())))
        .collect();
    if libs.is_empty() {
        fail("--lib matches no library (arbiter, cozy, shakmaty)");
    }
    println!(
        "| position | depth | nodes | {} |",
        libs.iter()
            .map(|(name, _)| format!("{name} s | {name} Mnps"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|---:|---:|{}", "---:|".repeat(2 * libs.len()));
    let mut ok = true;
    let mut slower = Vec::new();
    for (i, case) in CASES.iter().enumerate() {
        let (depth, expected) = if quick {
            (case.depth - 1, QUICK_NODES[i])
        } else {
            (case.depth, case.nodes)
        };
        let mut cells = Vec::new();
        let mut secs = Vec::new();
        for &(name, perft) in &libs {
            let mut best = f64::INFINITY;
            for _ in 0..reps {
                let watch = Stopwatch::start();
                let nodes = perft(black_box(case.fen), black_box(depth));
                let elapsed = watch.seconds();
                if nodes != expected {
                    eprintln!(
                        "MISMATCH: {name} {} depth {depth}: {nodes} nodes, expected {expected}",
                        case.name
                    );
                    ok = false;
                }
                best = best.min(elapsed);
            }
            secs.push(best);
            cells.push(format!("{best:.3} | {:.1}", expected as f64 / best / 1e6));
        }
        if libs.len() == LIBS.len() && secs[0] > secs[1] {
            slower.push(case.name);
        }
        println!(
            "| {} | {depth} | {expected} | {} |",
            case.name,
            cells.join(" | ")
        );
    }
    println!();
    let clock = if cpu_seconds().is_some() {
        "thread CPU time"
    } else {
        "wall time"
    };
    println!("best of {reps} runs per cell ({clock}); all three libraries agree on every node count: {ok}");
    if libs.len() < LIBS.len() {
        // One library only (profiling): no comparison.
    } else if slower.is_empty() {
        println!("arbiter-rules is at or above cozy-chess on every position");
    } else {
        println!(
            "arbiter-rules is slower than cozy-chess on: {}",
            slower.join(", ")
        );
    }
    if !ok {
        std::process::exit(1);
    }
}

fn fail(message: &str) -> ! {
    eprintln!("arbiter-bench: {message}");
    std::process::exit(2);
}
