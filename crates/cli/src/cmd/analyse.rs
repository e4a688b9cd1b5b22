//! `arbiter analyse FILE [--nodes N | --depth N] [--evals] [--games N] [--json]`: the computer
//! analysis of the server (issue 17) over the games of a PGN file — every position evaluated by
//! the built-in engine, every move judged. Prints the games annotated (`[%eval]`, NAGs, "Mistake.
//! Nf3 was best.") with `--evals`, and the time per position on standard error.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result};
use arbiter_engine::review::{self, Thresholds};
use arbiter_engine::Limits;
use arbiter_pgn::Writer;
use clap::Parser;
use serde::Serialize;

/// Arguments of `arbiter analyse`.
#[derive(Parser)]
pub struct Args {
    /// A PGN file (`-` for standard input).
    file: String,
    /// Nodes searched per position (default: the server's, 400000, unless --depth is given).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Search depth per position.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Print each game in PGN with the analysis written in.
    #[arg(long)]
    evals: bool,
    /// Analyse at most this many games (the first ones without a reading error).
    #[arg(long, value_name = "N")]
    games: Option<usize>,
    /// Print the figures as one JSON line on standard output.
    #[arg(long)]
    json: bool,
}

/// The figures of a run.
#[derive(Serialize)]
struct Figures {
    games: usize,
    positions: usize,
    moves: usize,
    seconds: f64,
    ms_per_position: f64,
    nodes_per_position: f64,
    nps: f64,
    depth: Option<u32>,
    nodes: Option<u64>,
    marks: [u32; 3],
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let text = if args.file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)?;
        s
    } else {
        let bytes =
            std::fs::read(&args.file).with_context(|| format!("cannot open {}", args.file))?;
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let limits = Limits {
        depth: args.depth,
        nodes: match (args.nodes, args.depth) {
            (None, None) => Some(arbiter_server::analysis::DEFAULT_NODES),
            (n, _) => n,
        },
        ..Limits::default()
    };
    let thresholds = Thresholds::default();
    let stop = AtomicBool::new(false);
    let mut f = Figures {
        games: 0,
        positions: 0,
        moves: 0,
        seconds: 0.0,
        ms_per_position: 0.0,
        nodes_per_position: 0.0,
        nps: 0.0,
        depth: limits.depth,
        nodes: limits.nodes,
        marks: [0; 3],
    };
    let mut total_nodes = 0u64;
    let mut errors = 0;
    for (i, game) in arbiter_pgn::read_all(&text).into_iter().enumerate() {
        if args.games.is_some_and(|n| f.games >= n) {
            break;
        }
        let mut record = match game {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{}: game {}: {e}", args.file, i + 1);
                errors += 1;
                continue;
            }
        };
        let Ok(start) = record.start_position() else {
            continue;
        };
        let moves: Vec<_> = record.moves.moves().collect();
        let mut engine = review::analysis_engine();
        let t = Instant::now();
        let positions: Vec<_> = (0..=moves.len())
            .map(|ply| review::analyse_position(&mut engine, &start, &moves[..ply], &limits, &stop))
            .collect();
        f.seconds += t.elapsed().as_secs_f64();
        total_nodes += positions.iter().map(|p| p.nodes).sum::<u64>();
        f.games += 1;
        f.positions += positions.len();
        f.moves += moves.len();
        let judged = review::judge(&start, &moves, &positions, &thresholds);
        for m in &judged.moves {
            if let Some(k) = m.mark {
                f.marks[k as usize] += 1;
            }
        }
        if args.evals {
            review::annotate(&mut record, &positions, &judged);
            println!("{}", Writer::export().write(&record)?);
        }
    }
    if f.positions > 0 {
        f.ms_per_position = f.seconds * 1000.0 / f.positions as f64;
        f.nodes_per_position = total_nodes as f64 / f.positions as f64;
        f.nps = total_nodes as f64 / f.seconds.max(1e-9);
    }
    if args.json {
        println!("{}", serde_json::to_string(&f)?);
    }
    eprintln!(
        "games: {}, positions: {}, {:.1} s, {:.0} ms per position, {:.0} nodes per position, \
         {:.0} nodes/s; inaccuracies {}, mistakes {}, blunders {}",
        f.games,
        f.positions,
        f.seconds,
        f.ms_per_position,
        f.nodes_per_position,
        f.nps,
        f.marks[0],
        f.marks[1],
        f.marks[2]
    );
    Ok(if errors > 0 && f.games == 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
