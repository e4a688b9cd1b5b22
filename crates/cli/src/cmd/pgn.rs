//! `arbiter pgn check FILE… [--json]` and `arbiter pgn format FILE [--lang LANG]`: the game
//! record (Art. 8, Appendix C) read and written as PGN.

use anyhow::{Context, Result};
use arbiter_pgn::{Control, GameBuilder, ReadError, Reader, Visitor, Writer};
use arbiter_rules::{Lang, Move, Position};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

/// Arguments of `arbiter pgn`.
#[derive(Parser)]
pub struct Args {
    #[command(subcommand)]
    command: PgnCommand,
}

#[derive(Subcommand)]
enum PgnCommand {
    /// Check every move of every game against the Laws; exit status 1 if any game has an error.
    Check {
        /// PGN files (`-` for standard input).
        #[arg(required = true)]
        files: Vec<String>,
        /// Print `{"games":N,"moves":M,"errors":[{"game":g,"line":l,"column":c,"message":"…"}]}`.
        /// Games are numbered across all inputs; `moves` counts main-line plies.
        #[arg(long)]
        json: bool,
    },
    /// Write the games again in PGN export format (or, with `--lang`, in national notation for
    /// reading by people).
    Format {
        /// A PGN file (`-` for standard input).
        file: String,
        /// Piece letters: en, cs, sk, de, fr, es, it, nl, pl, ru, pt, hu, sv, or figurine.
        #[arg(long)]
        lang: Option<Lang>,
    },
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        PgnCommand::Check { files, json } => check(&files, json),
        PgnCommand::Format { file, lang } => format(&file, lang),
    }
}

fn open(path: &str) -> Result<(Box<dyn Read>, Option<u64>)> {
    if path == "-" {
        return Ok((Box::new(std::io::stdin().lock()), None));
    }
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
    let len = f.metadata().ok().map(|m| m.len());
    Ok((Box::new(f), len))
}

/// Counts main-line plies; the reader checks every move, variations included.
#[derive(Default)]
struct Checker {
    depth: usize,
    moves: u64,
    error: Option<ReadError>,
}

impl Visitor for Checker {
    type Output = Option<ReadError>;
    fn begin_game(&mut self, _game: u64) {
        self.depth = 0;
    }
    fn mv(&mut self, _before: &Position, _mv: Move) {
        if self.depth == 0 {
            self.moves += 1;
        }
    }
    fn wants_comments(&self) -> bool {
        false
    }
    fn wants_tags(&self) -> bool {
        false
    }
    fn begin_variation(&mut self) -> Control {
        self.depth += 1;
        Control::Continue
    }
    fn end_variation(&mut self) {
        self.depth -= 1;
    }
    fn error(&mut self, error: ReadError) {
        self.error = Some(error);
    }
    fn end_game(&mut self) -> Option<ReadError> {
        self.error.take()
    }
}

#[derive(Serialize)]
struct JsonError {
    game: u64,
    line: u64,
    column: u64,
    message: String,
}

#[derive(Serialize)]
struct JsonReport {
    games: u64,
    moves: u64,
    errors: Vec<JsonError>,
}

/// Inputs at least this large get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 4 << 20;

fn check(files: &[String], json: bool) -> Result<ExitCode> {
    let mut report = JsonReport {
        games: 0,
        moves: 0,
        errors: Vec::new(),
    };
    let mut v = Checker::default();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for path in files {
        let (input, len) = open(path)?;
        let bar = (std::io::stderr().is_terminal()
            && !matches!(len, Some(l) if l < PROGRESS_MIN_BYTES))
        .then(|| progress_bar(path, len));
        let mut reader = Reader::new(input);
        let first_game = report.games;
        while let Some(error) = reader
            .read_game(&mut v)
            .with_context(|| format!("reading {path}"))?
        {
            report.games += 1;
            if let Some(e) = error {
                let game = first_game + e.game();
                if !json {
                    writeln!(
                        out,
                        "{path}:{}:{}: game {game}: {}",
                        e.line(),
                        e.column(),
                        e.kind
                    )?;
                }
                report.errors.push(JsonError {
                    game,
                    line: e.line(),
                    column: e.column(),
                    message: e.kind.to_string(),
                });
            }
            if let Some(bar) = &bar {
                if report.games % 256 == 0 {
                    bar.set_position(reader.bytes_read());
                }
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
    }
    report.moves = v.moves;
    if json {
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "games: {}, moves: {}, errors: {}",
            report.games,
            report.moves,
            report.errors.len()
        )?;
    }
    Ok(if report.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn progress_bar(path: &str, len: Option<u64>) -> ProgressBar {
    match len {
        Some(len) => {
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template(
                    "{msg} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar.set_message(path.to_owned());
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} {bytes} ({bytes_per_sec})")
                    .expect("valid template"),
            );
            bar.set_message(path.to_owned());
            bar
        }
    }
}

fn format(path: &str, lang: Option<Lang>) -> Result<ExitCode> {
    let writer = match lang {
        Some(l) => Writer::display(l),
        None => Writer::export(),
    };
    let (input, _) = open(path)?;
    let mut reader = Reader::new(input);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut builder = GameBuilder::new();
    let mut failed = false;
    let mut first = true;
    while let Some(game) = reader
        .read_game(&mut builder)
        .with_context(|| format!("reading {path}"))?
    {
        match game {
            Ok(record) => {
                let text = writer.write(&record)?;
                if !first {
                    writeln!(out)?;
                }
                first = false;
                out.write_all(text.as_bytes())?;
            }
            Err(e) => {
                failed = true;
                eprintln!(
                    "{path}:{}:{}: game {}: {}",
                    e.line(),
                    e.column(),
                    e.game(),
                    e.kind
                );
            }
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_counts_main_line_plies_and_reports_errors_as_json() {
        let pgn = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n\n1. e4 e5 2. Ke3 *\n";
        let mut reader = Reader::new(pgn.as_bytes());
        let mut v = Checker::default();
        let mut report = JsonReport {
            games: 0,
            moves: 0,
            errors: Vec::new(),
        };
        while let Some(error) = reader.read_game(&mut v).unwrap() {
            report.games += 1;
            if let Some(e) = error {
                report.errors.push(JsonError {
                    game: e.game(),
                    line: e.line(),
                    column: e.column(),
                    message: e.kind.to_string(),
                });
            }
        }
        report.moves = v.moves;
        assert_eq!(
            serde_json::to_string(&report).unwrap(),
            "{\"games\":2,\"moves\":5,\"errors\":[{\"game\":2,\"line\":3,\"column\":13,\
             \"message\":\"illegal move 'Ke3': expected a legal move for White (move 2.)\"}]}"
        );
    }
}
