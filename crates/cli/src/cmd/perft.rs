//! `arbiter perft DEPTH [--fen FEN] [--divide] [--json] [--chess960]`

use anyhow::Result;
use clap::Parser;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `arbiter perft`.
#[derive(Parser)]
pub struct Args {
    /// Depth in plies.
    depth: u32,
    /// Start from this FEN instead of the standard starting position.
    #[arg(long)]
    fen: Option<String>,
    /// First print `UCI: count` for every root move.
    #[arg(long)]
    divide: bool,
    /// Print one JSON line `{"nodes":N,"seconds":S,"nps":X}`.
    #[arg(long)]
    json: bool,
    /// Chess960: X-FEN/Shredder-FEN castling fields, castling written king-takes-rook.
    #[arg(long)]
    chess960: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let pos = super::start_position(args.fen.as_deref(), args.chess960)?;
    let start = Instant::now();
    let nodes = if args.divide && args.depth > 0 {
        let mut rows: Vec<(String, u64)> = pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos;
                child.play_unchecked(m);
                (pos.uci(m), child.perft(args.depth - 1))
            })
            .collect();
        rows.sort();
        for (uci, n) in &rows {
            println!("{uci}: {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        pos.perft(args.depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    if args.json {
        println!(
            "{}",
            serde_json::json!({"nodes": nodes, "seconds": seconds, "nps": nps.round()})
        );
    } else {
        if args.divide {
            println!();
        }
        println!("nodes {nodes}");
        eprintln!("{seconds:.3} s, {:.1} Mnps", nps / 1e6);
    }
    Ok(ExitCode::SUCCESS)
}
