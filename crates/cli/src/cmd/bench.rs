//! `arbiter bench [DEPTH] [--json]`: the engine's regression signature (a deterministic node
//! count over a fixed position set) and its speed.

use anyhow::Result;
use clap::Parser;
use std::process::ExitCode;

/// Arguments of `arbiter bench`.
#[derive(Parser)]
pub struct Args {
    /// Search depth per position.
    #[arg(default_value_t = arbiter_engine::bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Print one JSON line `{"depth":D,"nodes":N,"seconds":S,"cpu_seconds":C,"nps":X}` instead of
    /// text (nodes per second of CPU time where known).
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let json = args.json;
    let result = arbiter_engine::bench::run(args.depth, |fen, nodes| {
        if !json {
            println!("{nodes:>10}  {fen}");
        }
    });
    if json {
        println!(
            "{}",
            serde_json::json!({
                "depth": args.depth,
                "nodes": result.nodes,
                "seconds": result.time.as_secs_f64(),
                "cpu_seconds": result.cpu_time.map(|t| t.as_secs_f64()),
                "nps": result.nps(),
            })
        );
    } else {
        println!("===========================");
        println!("Total time (ms) : {}", result.time.as_millis());
        if let Some(cpu) = result.cpu_time {
            println!("CPU time (ms)   : {}", cpu.as_millis());
        }
        println!("Nodes searched  : {}", result.nodes);
        println!("Nodes/second    : {}", result.nps());
    }
    Ok(ExitCode::SUCCESS)
}
