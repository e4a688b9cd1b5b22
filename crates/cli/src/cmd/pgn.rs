//! `arbiter pgn check FILE… [--json]` and `arbiter pgn format FILE [--lang LANG]`: the game
//! record (Art. 8, Appendix C) read and written as PGN.

use anyhow::{Context, Result};
use arbiter_pgn::{
    check_result, Control, GameBuilder, GameResult, Location, ReadError, Reader, ResultConflict,
    Visitor, Writer,
};
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
    /// Check every move of every game against the Laws, and each written result against the
    /// board (Art. 5.1.1, 5.2.1); exit status 1 if any game has an error.
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

/// Counts main-line plies; the reader checks every move, variations included. Also checks
/// the written result against the board (Art. 5.1.1, 5.2.1), which the reader leaves alone.
#[derive(Default)]
struct Checker {
    depth: usize,
    moves: u64,
    error: Option<ReadError>,
    /// The `Result` tag.
    tag: Option<GameResult>,
    /// The termination marker.
    marker: Option<GameResult>,
    /// The main line's last move and the position it was played in.
    last: Option<(Position, Move)>,
    start: Option<Position>,
}

/// What is wrong with a game.
enum Problem {
    /// The reader's error (a move, the FEN, the variant).
    Read(ReadError),
    /// The written result contradicts the record.
    Result(ResultConflict),
}

impl Visitor for Checker {
    type Output = Option<Problem>;
    fn begin_game(&mut self, _game: u64) {
        self.depth = 0;
        self.tag = None;
        self.marker = None;
        self.last = None;
        self.start = None;
    }
    fn tag(&mut self, name: &str, value: &str) {
        if name == "Result" {
            self.tag = value.parse().ok();
        }
    }
    fn begin_movetext(&mut self, start: &Position) -> Control {
        self.start = Some(*start);
        Control::Continue
    }
    fn mv(&mut self, before: &Position, mv: Move) {
        if self.depth == 0 {
            self.moves += 1;
            self.last = Some((*before, mv));
        }
    }
    fn wants_comments(&self) -> bool {
        false
    }
    fn begin_variation(&mut self) -> Control {
        self.depth += 1;
        Control::Continue
    }
    fn end_variation(&mut self) {
        self.depth -= 1;
    }
    fn result(&mut self, result: GameResult) {
        self.marker = Some(result);
    }
    fn error(&mut self, error: ReadError) {
        self.error = Some(error);
    }
    fn end_game(&mut self) -> Option<Problem> {
        if let Some(e) = self.error.take() {
            return Some(Problem::Read(e));
        }
        let end = match self.last.take() {
            Some((before, mv)) => before.play(mv).ok()?,
            None => self.start.take()?,
        };
        check_result(self.tag, self.marker, &end).map(Problem::Result)
    }
}

/// A problem's place (game, line, column) and message. A result conflict is placed at the
/// termination marker, or at the `Result` tag when the game has no marker.
fn place<R: Read>(problem: &Problem, reader: &Reader<R>) -> (Location, String) {
    match problem {
        Problem::Read(e) => (e.location, e.kind.to_string()),
        Problem::Result(conflict) => (
            reader.result_location().unwrap_or(Location {
                game: reader.games_read(),
                ..Location::default()
            }),
            conflict.to_string(),
        ),
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
            if let Some(problem) = error {
                let (at, message) = place(&problem, &reader);
                let game = first_game + at.game;
                if !json {
                    writeln!(
                        out,
                        "{path}:{}:{}: game {game}: {message}",
                        at.line, at.column
                    )?;
                }
                report.errors.push(JsonError {
                    game,
                    line: at.line,
                    column: at.column,
                    message,
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

    fn problems(pgn: &str) -> Vec<(u64, u64, u64, String)> {
        let mut reader = Reader::new(pgn.as_bytes());
        let mut v = Checker::default();
        let mut out = Vec::new();
        while let Some(problem) = reader.read_game(&mut v).unwrap() {
            if let Some(p) = problem {
                let (at, message) = place(&p, &reader);
                out.push((at.game, at.line, at.column, message));
            }
        }
        out
    }

    #[test]
    fn art_5_1_1_check_names_a_result_the_board_contradicts() {
        let mate = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#";
        let pgn = format!(
            "[Result \"1-0\"]\n\n{mate} 1-0\n\n[Result \"0-1\"]\n\n{mate} 0-1\n\n\
             [Result \"*\"]\n\n{mate} *\n\n[Result \"1/2-1/2\"]\n\n{mate}\n\n\
             [Result \"1-0\"]\n\n1. e4 0-1\n"
        );
        let found = problems(&pgn);
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!((found[0].0, found[0].1, found[0].2), (2, 7, 41));
        assert!(found[0].3.contains("so the game ended 1-0 (Art. 5.1.1)"));
        // No marker: placed at its Result tag.
        assert_eq!((found[1].0, found[1].1, found[1].2), (4, 13, 1));
        assert!(found[1].3.contains("result 1/2-1/2 contradicts"));
        assert_eq!((found[2].0, found[2].1, found[2].2), (5, 19, 7));
        assert!(found[2]
            .3
            .contains("Result tag says 1-0 but the moves end with 0-1"));
    }

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
            if let Some(problem) = error {
                let (at, message) = place(&problem, &reader);
                report.errors.push(JsonError {
                    game: at.game,
                    line: at.line,
                    column: at.column,
                    message,
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
