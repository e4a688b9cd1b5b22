//! `arbiter pair --berger N [--double] [--json]`: the round-robin pairings of the Berger
//! tables (FIDE C.05 Annex 1).

use anyhow::{bail, Result};
use arbiter_tournament::berger::{self, BergerBoard, Cycles};
use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `arbiter pair`.
#[derive(Parser)]
pub struct Args {
    /// Print the Berger tables for N players (N odd: the highest number of the next table is
    /// the bye).
    #[arg(long, value_name = "N")]
    berger: u32,
    /// A double round robin: the second cycle with colours reversed, the last two rounds of
    /// the first cycle swapped.
    #[arg(long)]
    double: bool,
    /// Print `[[[white, black], …], …]`, one list of boards per round, `[player, 0]` for a bye.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    if !(2..=1000).contains(&args.berger) {
        bail!("--berger needs 2 to 1000 players, not {}", args.berger);
    }
    let cycles = if args.double {
        Cycles::Double
    } else {
        Cycles::Single
    };
    let rounds = berger::rounds(args.berger, cycles);
    let mut out = std::io::stdout().lock();
    if args.json {
        let json: Vec<Vec<[u32; 2]>> = rounds
            .iter()
            .map(|boards| boards.iter().map(|b| pair(*b)).collect())
            .collect();
        writeln!(out, "{}", serde_json::to_string(&json)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = rounds.len().to_string().len();
    for (r, boards) in rounds.iter().enumerate() {
        let boards: Vec<String> = boards.iter().map(BergerBoard::to_string).collect();
        writeln!(out, "Round {:>width$}: {}", r + 1, boards.join("  "))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn pair(board: BergerBoard) -> [u32; 2] {
    match board {
        BergerBoard::Game(white, black) => [white.0, black.0],
        BergerBoard::Bye(player) => [player.0, 0],
    }
}
