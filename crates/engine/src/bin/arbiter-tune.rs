//! `arbiter-tune`: fits the evaluation's weights to game results, optionally blended with an
//! oracle engine's evaluations (Texel tuning, see `arbiter_engine::tuning`), and writes them as
//! Rust source.
//!
//! ```text
//! arbiter-tune extract [--skip PLIES] GAMES.pgn...  > positions.txt
//! arbiter-tune fit [--epochs N] [--lr CP] [--lambda L] [--k K] [--out FILE] [--note TEXT] positions.txt...
//! ```
//! `extract` writes one quiet position a line, `FEN;result;game` (result 1, 0.5 or 0 for
//! White; each position once). `fit` reads such lines, optionally with a fourth field, an
//! oracle's evaluation in centipawns from White's side (`scripts/label-positions.py` adds it);
//! the target is then `lambda * result + (1 - lambda) * expected score of the evaluation`.
//! The logistic curve's scale `k` is fitted to the game results under the current weights
//! unless given (keep it when refitting, so the targets stay the same).
//! The positions of every tenth game are held out; their loss is reported beside the
//! training loss, and the weights written are those of the epoch with the lowest held-out loss.

use arbiter_engine::tuning::{self, Sample, Tuner};
use arbiter_rules::{CastlingMode, Position};
use std::collections::HashSet;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: arbiter-tune extract [--skip PLIES] GAMES.pgn...\n       \
    arbiter-tune fit [--epochs N] [--lr CP] [--lambda L] [--k K] [--out FILE] [--note TEXT] POSITIONS...";

struct Config {
    epochs: usize,
    lr: f64,
    skip: usize,
    lambda: f64,
    k: Option<f64>,
    out: Option<String>,
    note: String,
    files: Vec<String>,
}

fn parse(args: &[String]) -> Result<Config, String> {
    let mut c = Config {
        epochs: 2000,
        lr: 1.0,
        skip: 10,
        lambda: 1.0,
        k: None,
        out: None,
        note: String::new(),
        files: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let val = |i: usize| {
            args.get(i + 1)
                .cloned()
                .ok_or(format!("{} needs a value", args[i]))
        };
        match args[i].as_str() {
            "--epochs" => c.epochs = val(i)?.parse().map_err(|_| "bad --epochs")?,
            "--lr" => c.lr = val(i)?.parse().map_err(|_| "bad --lr")?,
            "--skip" => c.skip = val(i)?.parse().map_err(|_| "bad --skip")?,
            "--lambda" => c.lambda = val(i)?.parse().map_err(|_| "bad --lambda")?,
            "--k" => c.k = Some(val(i)?.parse().map_err(|_| "bad --k")?),
            "--out" => c.out = Some(val(i)?),
            "--note" => c.note = val(i)?,
            f if !f.starts_with("--") => {
                c.files.push(f.to_string());
                i += 1;
                continue;
            }
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
    }
    if c.files.is_empty() {
        return Err(USAGE.into());
    }
    Ok(c)
}

fn extract(cfg: &Config) -> Result<(), String> {
    let mut seen = HashSet::new();
    let mut game = 0usize;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for file in &cfg.files {
        // Old PGN files are often Latin-1; only the moves matter here.
        let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        for record in arbiter_pgn::read_all(&text).into_iter().flatten() {
            let positions = tuning::quiet_positions(&record, cfg.skip);
            if positions.is_empty() {
                continue;
            }
            game += 1;
            for (pos, result) in positions {
                let fen = pos.fen();
                // The same placement, side, castling and en passant square once.
                let key: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
                if seen.insert(key) {
                    writeln!(out, "{fen};{result};{game}").map_err(|e| e.to_string())?;
                }
            }
        }
    }
    eprintln!("{game} games, {} positions", seen.len());
    Ok(())
}

/// One line of a positions file: the position, its result, its game and the oracle's
/// evaluation if labelled.
fn parse_line(line: &str) -> Option<(Position, f32, usize, Option<f64>)> {
    let mut f = line.split(';');
    let fen = f.next()?;
    let pos = Position::from_fen(fen, CastlingMode::Standard)
        .or_else(|_| Position::from_fen(fen, CastlingMode::Chess960))
        .ok()?;
    let result = f.next()?.parse().ok()?;
    let game = f.next()?.parse().ok()?;
    let cp = f.next().and_then(|c| c.parse().ok());
    Some((pos, result, game, cp))
}

fn fit(cfg: &Config) -> Result<(), String> {
    let mut rows = Vec::new();
    for file in &cfg.files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let row = parse_line(line).ok_or(format!("{file}:{}: bad line", n + 1))?;
            rows.push(row);
        }
    }
    // The curve's scale from the game results alone, then the blended targets on that curve.
    let mut tuner = Tuner::from_current();
    let by_result: Vec<Sample> = rows
        .iter()
        .filter_map(|(pos, r, _, _)| tuning::sample(pos, *r))
        .collect();
    match cfg.k {
        Some(k) => tuner.k = k,
        None => tuner.fit_k(&by_result),
    }
    let k = tuner.k;
    let (mut train, mut hold): (Vec<Sample>, Vec<Sample>) = (Vec::new(), Vec::new());
    for (pos, result, game, cp) in &rows {
        let target = match cp {
            Some(cp) => {
                cfg.lambda * *result as f64 + (1.0 - cfg.lambda) * tuning::expected_score(*cp, k)
            }
            None => *result as f64,
        };
        if let Some(s) = tuning::sample(pos, target as f32) {
            if game % 10 == 0 {
                hold.push(s);
            } else {
                train.push(s);
            }
        }
    }
    eprintln!(
        "{} training positions, {} held out; k = {k:.4}; loss before: training {:.6}, held out {:.6}",
        train.len(),
        hold.len(),
        tuner.loss(&train),
        tuner.loss(&hold)
    );
    // Early stopping: the weights with the lowest held-out loss are the ones written.
    let mut best = (tuner.loss(&hold), tuner.rounded(), 0);
    for epoch in 1..=cfg.epochs {
        let loss = tuner.step(&train, cfg.lr);
        if epoch % 10 == 0 {
            let held = tuner.loss(&hold);
            if held < best.0 {
                best = (held, tuner.rounded(), epoch);
            }
            if epoch % 100 == 0 {
                eprintln!("epoch {epoch}: training {loss:.6}, held out {held:.6}");
            }
        }
    }
    eprintln!("best held-out loss {:.6} at epoch {}", best.0, best.2);
    let text = tuning::render_weights(&best.1, &cfg.note);
    match &cfg.out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?,
        None => print!("{text}"),
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) if c == "extract" || c == "fit" => (c.clone(), r.to_vec()),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let cfg = match parse(&rest) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let done = if cmd == "extract" {
        extract(&cfg)
    } else {
        fit(&cfg)
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
