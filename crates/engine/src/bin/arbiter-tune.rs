//! `arbiter-tune`: fits the classical evaluation's weights to game results, optionally blended
//! with an oracle engine's evaluations (Texel tuning, see `arbiter_engine::tuning`), and writes
//! them as Rust source; trains the evaluation network (`arbiter_engine::nnue`) on the same kind
//! of data; and makes self-play positions for both.
//!
//! ```text
//! arbiter-tune extract [--skip PLIES] GAMES.pgn...  > positions.txt
//! arbiter-tune play [--games N] [--nodes K] [--seed S]  > positions.txt
//! arbiter-tune fit [--epochs N] [--lr CP] [--lambda L] [--k K] [--out FILE] [--note TEXT] positions.txt...
//! arbiter-tune nnue [--residual] [--epochs N] [--lr R] [--decay D] [--batch B] [--lambda L] [--k K] [--seed S] [--out FILE] positions.txt...
//! ```
//! `play` has the engine play itself (`--nodes` a move, after 8–11 random plies from the
//! start, seeded by `--seed`) and writes the quiet positions of those games like `extract`.
//! `extract` writes one quiet position a line, `FEN;result;game` (result 1, 0.5 or 0 for
//! White; each position once). `fit` reads such lines, optionally with a fourth field, an
//! oracle's evaluation in centipawns from White's side (`scripts/label-positions.py` adds it);
//! the target is then `lambda * result + (1 - lambda) * expected score of the evaluation`.
//! The logistic curve's scale `k` is fitted to the game results under the current weights
//! unless given (keep it when refitting, so the targets stay the same).
//! The positions of every tenth game are held out; their loss is reported beside the
//! training loss, and the weights written are those of the epoch with the lowest held-out loss.
//! `nnue` trains the network on the same lines and targets (`k` default 1.2377, the classical
//! evaluation's); `--residual` trains it on what the classical evaluation misses (its output is
//! added to that evaluation, so a residual network belongs to the classical weights it was
//! trained with); `--decay` is AdamW's weight decay; `--batch` the positions per step (default
//! 16,384); every twentieth game is held out and the
//! network of the best epoch is written (default `network.bin`).

use arbiter_engine::nnue::train::Random;
use arbiter_engine::tuning::{self, Sample, Tuner};
use arbiter_rules::{CastlingMode, Position};
use std::collections::HashSet;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: arbiter-tune extract [--skip PLIES] GAMES.pgn...\n       \
    arbiter-tune play [--games N] [--nodes K] [--seed S]\n       \
    arbiter-tune fit [--epochs N] [--lr CP] [--lambda L] [--k K] [--out FILE] [--note TEXT] POSITIONS...\n       \
    arbiter-tune nnue [--residual] [--epochs N] [--lr R] [--decay D] [--batch B] [--lambda L] [--k K] [--seed S] [--out FILE] POSITIONS...";

struct Config {
    epochs: usize,
    lr: f64,
    skip: usize,
    lambda: f64,
    k: Option<f64>,
    out: Option<String>,
    note: String,
    games: u64,
    nodes: u64,
    seed: u64,
    residual: bool,
    decay: f64,
    batch: usize,
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
        games: 1000,
        nodes: 5000,
        seed: 1,
        residual: false,
        decay: 0.0,
        batch: 16_384,
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
            "--games" => c.games = val(i)?.parse().map_err(|_| "bad --games")?,
            "--nodes" => c.nodes = val(i)?.parse().map_err(|_| "bad --nodes")?,
            "--decay" => c.decay = val(i)?.parse().map_err(|_| "bad --decay")?,
            "--batch" => {
                c.batch = val(i)?.parse().map_err(|_| "bad --batch")?;
                if c.batch < 2 {
                    return Err("bad --batch: at least 2".into());
                }
            }
            "--seed" => c.seed = val(i)?.parse().map_err(|_| "bad --seed")?,
            "--residual" => {
                c.residual = true;
                i += 1;
                continue;
            }
            f if !f.starts_with("--") => {
                c.files.push(f.to_string());
                i += 1;
                continue;
            }
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
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

/// Self-play games for training data: random opening plies for variety, then the engine at a
/// fixed node count for both sides; a game ends by the rules, by a claimable draw, when both
/// sides' scores agree on a decisive edge for 6 plies, or as a draw after 400 plies.
fn play(cfg: &Config) -> Result<(), String> {
    use arbiter_engine::{search::Score, Engine, Limits};
    use arbiter_rules::{Color, History};
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut rng = Random(cfg.seed.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut engine = Engine::new();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut written = 0usize;
    for g in 0..cfg.games {
        let game = (cfg.seed * 1_000_000 + g) as usize;
        let mut history = History::new(Position::new());
        let random_plies = 8 + rng.below(4);
        for _ in 0..random_plies {
            let moves = history.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            history.push_unchecked(moves[rng.below(moves.len())]);
        }
        if history.outcome().is_some() {
            continue;
        }
        engine.new_game();
        let mut quiet = Vec::new();
        let mut decisive = (None, 0);
        let result = loop {
            if let Some(o) = history.outcome() {
                break match o.winner {
                    Some(Color::White) => 1.0,
                    Some(Color::Black) => 0.0,
                    None => 0.5,
                };
            }
            if history.can_claim_threefold()
                || history.can_claim_fifty_moves()
                || history.moves().len() >= 400
            {
                break 0.5;
            }
            let found = engine.search_history(&history, &limits, &stop, &mut |_| {});
            let Some(m) = found.best else { break 0.5 };
            let pos = *history.position();
            let white = pos.turn() == Color::White;
            let cp = match found.score {
                Score::Cp(c) => c,
                Score::Mate(n) if n > 0 => 10_000,
                Score::Mate(_) => -10_000,
            };
            let white_cp = if white { cp } else { -cp };
            let leader = (white_cp.abs() >= 1000).then_some(white_cp > 0);
            decisive = match (leader, decisive) {
                (Some(l), (Some(p), n)) if l == p => (Some(l), n + 1),
                (Some(l), _) => (Some(l), 1),
                (None, _) => (None, 0),
            };
            if decisive.1 >= 6 {
                break if decisive.0 == Some(true) { 1.0 } else { 0.0 };
            }
            if !pos.is_capture(m) && m.promotion.is_none() && tuning::is_quiet(&pos) {
                quiet.push(pos.fen());
            }
            history.push_unchecked(m);
        };
        for fen in quiet {
            writeln!(out, "{fen};{result};{game}").map_err(|e| e.to_string())?;
            written += 1;
        }
        if g % 100 == 99 {
            eprintln!("{} games, {written} positions", g + 1);
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(())
}

/// Trains the network (`arbiter_engine::nnue`) on labelled positions; the positions of every
/// twentieth game are held out and the network of the epoch with the lowest held-out loss is
/// written (`--out`, default `network.bin`).
fn nnue(cfg: &Config) -> Result<(), String> {
    use arbiter_engine::nnue::train::{Sample, Trainer};
    let k = cfg.k.unwrap_or(1.2377);
    let (mut train, mut hold) = (Vec::new(), Vec::new());
    for file in &cfg.files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let (pos, result, game, cp) =
                parse_line(line).ok_or(format!("{file}:{}: bad line", n + 1))?;
            let target = match cp {
                Some(cp) => {
                    cfg.lambda * result as f64 + (1.0 - cfg.lambda) * tuning::expected_score(cp, k)
                }
                None => result as f64,
            };
            let base = if cfg.residual {
                arbiter_engine::eval::evaluate(&pos)
            } else {
                0
            };
            if let Some(s) = Sample::new(&pos, target as f32, base) {
                if game % 20 == 0 {
                    hold.push(s);
                } else {
                    train.push(s);
                }
            }
        }
    }
    // A fixed shuffle, so that batches mix games.
    let mut rng = Random(cfg.seed);
    for i in (1..train.len()).rev() {
        train.swap(i, rng.below(i + 1));
    }
    let mut trainer = Trainer::new(cfg.seed, k as f32, if cfg.residual { 0.01 } else { 0.06 });
    trainer.decay = cfg.decay as f32;
    eprintln!(
        "{} training positions, {} held out; held-out loss before {:.6}",
        train.len(),
        hold.len(),
        trainer.loss(&hold)
    );
    let lr = cfg.lr as f32;
    let mut best = (f64::MAX, 0);
    let out = cfg.out.clone().unwrap_or("network.bin".into());
    for epoch in 1..=cfg.epochs {
        // The rate falls tenfold over the last third.
        let rate = if epoch * 3 > cfg.epochs * 2 {
            lr / 10.0
        } else {
            lr
        };
        let loss = trainer.epoch(&train, cfg.batch, rate);
        let held = trainer.loss(&hold);
        eprintln!("epoch {epoch}: training {loss:.6}, held out {held:.6}");
        if held < best.0 {
            best = (held, epoch);
            std::fs::write(&out, trainer.quantised().to_bytes())
                .map_err(|e| format!("{out}: {e}"))?;
        }
    }
    eprintln!("best held-out loss {:.6} at epoch {}", best.0, best.1);
    let (mean, max) = trainer.quantisation_error(&hold);
    eprintln!(
        "integer network against the float one, held out: mean {mean:.2} cp, max {max:.1} cp"
    );
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
        Some((c, r)) if matches!(c.as_str(), "extract" | "fit" | "play" | "nnue") => {
            (c.clone(), r.to_vec())
        }
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
    if cmd != "play" && cfg.files.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    let done = match cmd.as_str() {
        "extract" => extract(&cfg),
        "play" => play(&cfg),
        "nnue" => nnue(&cfg),
        _ => fit(&cfg),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
