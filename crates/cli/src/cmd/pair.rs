//! `arbiter pair --berger N [--double] [--json]`: the round-robin pairings of the Berger
//! tables (FIDE C.05 Annex 1); `arbiter pair --dutch IN.trf -p [OUT.txt] | -c [--explain]`:
//! the next round of a Swiss by the FIDE Dutch system (C.04.3), with the command line and
//! output of bbpPairings and JaVaFo ([`super::pair_dutch`]).

use anyhow::{bail, Result};
use arbiter_tournament::berger::{self, BergerBoard, Cycles};
use clap::{ArgGroup, Parser};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::pair_dutch::{self, Mode};

/// Arguments of `arbiter pair`.
#[derive(Parser)]
#[command(group(ArgGroup::new("system").required(true).args(["berger", "dutch"])))]
pub struct Args {
    /// Print the Berger tables for N players (N odd: the highest number of the next table is
    /// the bye).
    #[arg(long, value_name = "N")]
    berger: Option<u32>,
    /// A double round robin: the second cycle with colours reversed, the last two rounds of
    /// the first cycle swapped.
    #[arg(long, conflicts_with = "dutch")]
    double: bool,
    /// Print `[[[white, black], …], …]`, one list of boards per round, `[player, 0]` for a bye.
    #[arg(long, conflicts_with = "dutch")]
    json: bool,
    /// Pair the next round of the Swiss tournament in this TRF file by the FIDE Dutch system
    /// (C.04.3). The number of rounds is read from `XXR`, the top player's colour in round 1
    /// from `XXC white1|black1` (else from the first round played).
    #[arg(long, value_name = "IN.trf")]
    dutch: Option<PathBuf>,
    /// Write the pairing of the next round as bbpPairings and JaVaFo do: the number of pairs,
    /// then `white black` per board and `player 0` for the pairing-allocated bye — to OUT.txt,
    /// or to standard output without it. The default with --dutch.
    #[arg(
        short = 'p',
        value_name = "OUT.txt",
        num_args = 0..=1,
        conflicts_with_all = ["berger", "check"]
    )]
    pairings: Option<Option<PathBuf>>,
    /// Check the file: pair every round again from the rounds before it and list the rounds
    /// that differ (exit status 1 if any does).
    #[arg(short = 'c', conflicts_with = "berger")]
    check: bool,
    /// Also print how the pairing was made (score groups, floaters, the bye); with -c, for
    /// every round that differs.
    #[arg(long, conflicts_with = "berger")]
    explain: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    if let Some(input) = args.dutch {
        let mode = if args.check {
            Mode::Check
        } else {
            Mode::Pair(args.pairings.flatten())
        };
        return pair_dutch::run(&input, mode, args.explain);
    }
    let players = args.berger.expect("clap requires --berger or --dutch");
    if !(2..=1000).contains(&players) {
        bail!("--berger needs 2 to 1000 players, not {players}");
    }
    let cycles = if args.double {
        Cycles::Double
    } else {
        Cycles::Single
    };
    let rounds = berger::rounds(players, cycles);
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
