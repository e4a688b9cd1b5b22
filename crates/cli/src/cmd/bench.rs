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
    /// Print one JSON line `{"depth":D,"nodes":N,"seconds":S,"nps":X}` instead of text.
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
                "nps": result.nps(),
            })
        );
    } else {
        println!("===========================");
        println!("Total time (ms) : {}", result.time.as_millis());
        println!("Nodes searched  : {}", result.nodes);
        println!("Nodes/second    : {}", result.nps());
    }
    Ok(ExitCode::SUCCESS)
}
