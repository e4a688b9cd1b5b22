//! `arbiter`: the FIDE Laws of Chess as software — one binary for every part of Arbiter.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;

/// Arbiter: the FIDE Laws of Chess (2018) as software.
#[derive(Parser)]
#[command(name = "arbiter", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play online: the HTTP + WebSocket server with the web UI (SQLite or PostgreSQL).
    Serve(Box<cmd::serve::Args>),
    /// Count the leaf nodes of the legal move tree (perft).
    Perft(cmd::perft::Args),
    /// Describe a position (after optional moves) as JSON: legal moves, check, outcome, claims.
    Inspect(cmd::inspect::Args),
    /// Can a side still checkmate? Dead-position analysis (Art. 5.2.2, 6.9).
    Dead(cmd::dead::Args),
    /// Run the Arbiter engine over UCI (for Arena, cutechess-cli and other chess GUIs).
    Uci(cmd::uci::Args),
    /// Search a fixed position set: deterministic node count (regression signature) and nodes/s.
    Bench(cmd::bench::Args),
    /// Check PGN files move by move, or write them again in export format (Art. 8, Appendix C).
    Pgn(cmd::pgn::Args),
    /// Computer analysis of the games of a PGN file: evaluations, marks, `[%eval]` comments.
    Analyse(cmd::analyse::Args),
    /// Final standings of a tournament (TRF) with the C.07 tie-breaks.
    Standings(cmd::standings::Args),
    /// Pairings: the round-robin Berger tables (C.05 Annex 1), or the next round of a Swiss by
    /// the FIDE Dutch system (C.04.3) with the command line of bbpPairings and JaVaFo.
    Pair(cmd::pair::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => cmd::serve::run(*args),
        Command::Perft(args) => cmd::perft::run(args),
        Command::Inspect(args) => cmd::inspect::run(args),
        Command::Dead(args) => cmd::dead::run(args),
        Command::Uci(args) => cmd::uci::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Pgn(args) => cmd::pgn::run(args),
        Command::Analyse(args) => cmd::analyse::run(args),
        Command::Standings(args) => cmd::standings::run(args),
        Command::Pair(args) => cmd::pair::run(args),
    };
    match result {
        Ok(code) => code,
        // The reader went away (`arbiter pair --berger 20 | head`): nothing more to say.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arbiter: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether `e` comes from writing to a pipe whose reader has closed it.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
