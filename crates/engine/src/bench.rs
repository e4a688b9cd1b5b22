//! The bench: a fixed-depth search of a fixed set of positions with a fresh engine. Its total
//! node count is the engine's regression signature (any change to search or evaluation
//! changes it); its speed is the engine's nodes per second.

use crate::time::Instant;
use crate::{Engine, Limits};
use arbiter_rules::{CastlingMode, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The positions searched: openings, middlegames with tactics, and endgames.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "2rq1rk1/pb2bppp/1p2pn2/n2p4/2PP4/P1N1PN2/1BQ2PPP/R3KB1R w KQ - 1 12",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/1p1k4/p2p4/P2P1K2/1P6/8/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/3k4/8/8/8/8/3PK3/8 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - - 0 23",
];

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 12;

/// What a bench run measured.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    /// Total nodes over all positions (deterministic for a given depth and hash size).
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// CPU time of the searching thread, where the system tells it (Linux), so that other
    /// processes on a shared machine do not count.
    pub cpu_time: Option<Duration>,
}

impl BenchResult {
    /// Nodes per second of CPU time (of wall time where CPU time is unknown).
    pub fn nps(&self) -> u64 {
        let t = self.cpu_time.unwrap_or(self.time);
        (self.nodes as f64 / t.as_secs_f64().max(1e-9)) as u64
    }
}

/// CPU time of the current thread (Linux `/proc/thread-self/schedstat`, first field in ns).
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Searches every bench position to `depth` with a fresh 16 MB engine per position and calls
/// `each` with the position and its node count.
pub fn run(depth: u32, mut each: impl FnMut(&str, u64)) -> BenchResult {
    let start = Instant::now();
    let cpu_start = thread_cpu_time();
    let mut total = 0;
    for fen in POSITIONS {
        let pos = Position::from_fen(fen, CastlingMode::Standard).expect("bench FEN is valid");
        let mut engine = Engine::with_hash(16);
        engine.set_seed(Some(0));
        let stop = AtomicBool::new(false);
        let r = engine.search(&pos, &[], &Limits::depth(depth), &stop, &mut |_| {});
        total += r.nodes;
        each(fen, r.nodes);
    }
    let cpu_time = match (cpu_start, thread_cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    BenchResult {
        nodes: total,
        time: start.elapsed(),
        cpu_time,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn bench_node_count_is_deterministic() {
        let a = super::run(5, |_, _| {});
        let b = super::run(5, |_, _| {});
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 1_000);
    }
}
