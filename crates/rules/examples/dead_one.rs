//! Runs `dead::can_checkmate` on one position and prints the verdict, the line and the time.
//!
//! ```text
//! cargo run --release -p arbiter-rules --example dead_one -- "FEN" white|black [budget]
//! ```

use arbiter_rules::dead::{can_checkmate, Mode, Verdict};
use arbiter_rules::{CastlingMode, Color, Position};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pos = Position::from_fen(&args[0], CastlingMode::Standard).expect("FEN");
    let side = if args[1] == "white" {
        Color::White
    } else {
        Color::Black
    };
    let mode = args
        .get(2)
        .map(|b| Mode::Budget(b.parse().expect("budget")))
        .unwrap_or(Mode::Full);
    let t = Instant::now();
    let v = can_checkmate(&pos, side, mode);
    let dt = t.elapsed();
    let mut line = String::new();
    if let Verdict::Yes(moves) = &v {
        let mut p = pos;
        for &m in moves {
            line.push_str(&p.san(m));
            line.push(' ');
            p.play_unchecked(m);
        }
    }
    println!("{} in {:.1} µs: {line}", v.name(), dt.as_secs_f64() * 1e6);
}
