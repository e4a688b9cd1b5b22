//! `arbiter-match`: a small match runner speaking UCI to two engines (in the spirit of
//! cutechess-cli), used to measure the engine's strength. `arbiter-match uci` runs the
//! Arbiter engine itself over UCI, so the runner can play against itself without the CLI;
//! `arbiter-match bench [DEPTH]` runs the same bench as `arbiter bench`.
//!
//! ```text
//! arbiter-match --e1 "target/release/arbiter-match uci" --o1 "Skill Level=8" \
//!               --e2 /usr/games/stockfish --o2 UCI_LimitStrength=true --o2 UCI_Elo=2000 \
//!               --games 40 --tc 10+0.1 --pgn games.pgn
//! ```
//!
//! Every game starts from one of a fixed list of openings, played twice with colours swapped;
//! `--openings FILE` takes the starting positions from a file instead, one FEN a line (for
//! longer self-play matches than the built-in 50 lines allow when `--nodes` makes games
//! repeat).
//! The clock is kept by the runner: the time between `go` and `bestmove` is charged to the
//! engine to move, an engine that runs out of time loses (Art. 6.9), and an illegal move loses.

use arbiter_engine::external::UciEngine;
use arbiter_engine::Score;
use arbiter_rules::{Color, History, Move, Position, Termination};
use std::io::Write;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Opening lines in SAN (varied: open, semi-open, closed, flank games).
const OPENINGS: &[&str] = &[
    "e4 e5 Nf3 Nc6 Bb5 a6",
    "e4 e5 Nf3 Nc6 Bc4 Bc5",
    "e4 e5 Nf3 Nc6 d4 exd4",
    "e4 e5 Nf3 Nf6 Nxe5 d6",
    "e4 e5 Nc3 Nf6 f4 d5",
    "e4 c5 Nf3 d6 d4 cxd4",
    "e4 c5 Nf3 Nc6 d4 cxd4",
    "e4 c5 Nf3 e6 d4 cxd4",
    "e4 c5 Nc3 Nc6 g3 g6",
    "e4 c5 c3 Nf6 e5 Nd5",
    "e4 e6 d4 d5 Nc3 Bb4",
    "e4 e6 d4 d5 e5 c5",
    "e4 c6 d4 d5 e5 Bf5",
    "e4 c6 d4 d5 Nc3 dxe4",
    "e4 d6 d4 Nf6 Nc3 g6",
    "e4 d5 exd5 Qxd5 Nc3 Qa5",
    "e4 Nf6 e5 Nd5 d4 d6",
    "e4 g6 d4 Bg7 Nc3 d6",
    "d4 d5 c4 e6 Nc3 Nf6",
    "d4 d5 c4 c6 Nf3 Nf6",
    "d4 d5 c4 dxc4 Nf3 Nf6",
    "d4 Nf6 c4 e6 Nc3 Bb4",
    "d4 Nf6 c4 e6 Nf3 b6",
    "d4 Nf6 c4 g6 Nc3 Bg7",
    "d4 Nf6 c4 g6 Nc3 d5",
    "d4 Nf6 c4 c5 d5 e6",
    "d4 Nf6 c4 c5 d5 b5",
    "d4 f5 g3 Nf6 Bg2 g6",
    "d4 d5 Nf3 Nf6 Bf4 c5",
    "d4 Nf6 Bg5 e6 e4 h6",
    "c4 e5 Nc3 Nf6 Nf3 Nc6",
    "c4 c5 Nc3 Nc6 g3 g6",
    "c4 Nf6 Nc3 e6 e4 d5",
    "Nf3 d5 g3 Nf6 Bg2 c6",
    "Nf3 Nf6 c4 b6 g3 Bb7",
    "g3 d5 Bg2 Nf6 Nf3 c6",
    "b3 e5 Bb2 Nc6 e3 Nf6",
    "f4 d5 Nf3 Nf6 e3 g6",
    "e4 e5 f4 exf4 Nf3 g5",
    "e4 e5 d4 exd4 Qxd4 Nc6",
    "d4 e6 c4 Bb4+ Bd2 Qe7",
    "e4 c5 Nf3 d6 Bb5+ Bd7",
    "e4 b6 d4 Bb7 Bd3 e6",
    "d4 c5 d5 e5 e4 d6",
    "e4 e5 Nf3 d6 d4 Nf6",
    "c4 e6 Nc3 d5 d4 c6",
    "e4 c5 Nf3 g6 d4 Bg7",
    "d4 Nf6 Nf3 e6 e3 c5",
    "e4 e5 Nf3 Nc6 Nc3 Nf6",
    "e4 d6 d4 Nf6 Nc3 e5",
];

/// One engine of the match: the UCI client of `arbiter_engine::external`, started through
/// `sh -c "exec CMD"` so that a command line with arguments can be given.
struct Engine {
    name: String,
    uci: UciEngine,
}

impl Engine {
    fn start(cmd: &str, options: &[(String, String)]) -> Result<Engine, String> {
        let mut command = Command::new("sh");
        command.arg("-c").arg(format!("exec {cmd}"));
        let uci = UciEngine::spawn(command, options, Duration::from_secs(30))
            .map_err(|e| format!("cannot start '{cmd}': {e}"))?;
        Ok(Engine {
            name: uci.id_name().unwrap_or(cmd).to_string(),
            uci,
        })
    }

    fn send(&mut self, s: &str) -> Result<(), String> {
        self.uci.send(s).map_err(|e| e.to_string())
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.uci
            .new_game(Duration::from_secs(30))
            .map_err(|e| e.to_string())
    }

    /// Sends `go` and waits for `bestmove`, returning it, the last reported score (cp, from
    /// the engine's side) and the time taken.
    fn go(
        &mut self,
        go: &str,
        timeout: Duration,
    ) -> Result<(String, Option<i32>, Duration), String> {
        let best = self
            .uci
            .go(go, None, timeout, &AtomicBool::new(false))
            .map_err(|e| e.to_string())?;
        let score = best.score.map(|s| match s {
            Score::Cp(v) => v,
            Score::Mate(v) if v > 0 => 30_000 - v,
            Score::Mate(v) => -30_000 - v,
        });
        Ok((best.text, score, best.elapsed))
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum GameEnd {
    Rules(Termination),
    Flag,
    Illegal,
    AdjudicatedWin,
    AdjudicatedDraw,
    MoveLimit,
}

struct Config {
    e: [String; 2],
    o: [Vec<(String, String)>; 2],
    games: usize,
    base: Duration,
    inc: Duration,
    nodes: Option<u64>,
    pgn: Option<String>,
    first_opening: usize,
    names: [Option<String>; 2],
    /// Starting positions from `--openings FILE` (empty: the built-in lines).
    start_fens: Vec<Position>,
}

fn parse_args() -> Result<Config, String> {
    let mut c = Config {
        e: [String::new(), String::new()],
        o: [Vec::new(), Vec::new()],
        games: 2,
        base: Duration::from_secs(10),
        inc: Duration::from_millis(100),
        nodes: None,
        pgn: None,
        first_opening: 0,
        names: [None, None],
        start_fens: Vec::new(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let val = |i: usize| {
        args.get(i + 1)
            .cloned()
            .ok_or(format!("{} needs a value", args[i]))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--e1" => c.e[0] = val(i)?,
            "--e2" => c.e[1] = val(i)?,
            "--o1" | "--o2" => {
                let v = val(i)?;
                let (k, v) = v.split_once('=').ok_or("option must be NAME=VALUE")?;
                let side = if args[i] == "--o1" { 0 } else { 1 };
                c.o[side].push((k.to_string(), v.to_string()));
            }
            "--games" => c.games = val(i)?.parse().map_err(|_| "bad --games")?,
            "--tc" => {
                let v = val(i)?;
                let (b, inc) = v.split_once('+').unwrap_or((&v, "0"));
                let b: f64 = b.parse().map_err(|_| "bad --tc")?;
                let inc: f64 = inc.parse().map_err(|_| "bad --tc")?;
                c.base = Duration::from_secs_f64(b);
                c.inc = Duration::from_secs_f64(inc);
            }
            "--nodes" => c.nodes = Some(val(i)?.parse().map_err(|_| "bad --nodes")?),
            "--pgn" => c.pgn = Some(val(i)?),
            "--n1" => c.names[0] = Some(val(i)?),
            "--n2" => c.names[1] = Some(val(i)?),
            "--opening" => c.first_opening = val(i)?.parse().map_err(|_| "bad --opening")?,
            "--openings" => {
                let path = val(i)?;
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
                for (n, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let pos = Position::from_fen(line, Default::default())
                        .map_err(|e| format!("{path}:{}: {e}", n + 1))?;
                    c.start_fens.push(pos);
                }
                if c.start_fens.is_empty() {
                    return Err(format!("{path}: no FEN"));
                }
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
        i += 2;
    }
    if c.e[0].is_empty() || c.e[1].is_empty() {
        return Err(
            "usage: arbiter-match --e1 CMD --e2 CMD [--o1 K=V]... [--o2 K=V]... \
                    [--n1 NAME] [--n2 NAME] [--games N] [--tc SECONDS+INC | --nodes N] [--pgn FILE] [--opening I] [--openings FEN_FILE]\n       \
                    arbiter-match uci"
                .into(),
        );
    }
    Ok(c)
}

/// The start of game pair `i`: a position and the moves played from it.
fn opening(cfg: &Config, i: usize) -> (Position, Vec<Move>) {
    if !cfg.start_fens.is_empty() {
        return (cfg.start_fens[i % cfg.start_fens.len()], Vec::new());
    }
    let mut pos = Position::new();
    let mut out = Vec::new();
    for san in OPENINGS[i % OPENINGS.len()].split_whitespace() {
        let m = pos.parse_san(san).expect("opening lines are legal");
        pos.play_unchecked(m);
        out.push(m);
    }
    (Position::new(), out)
}

/// How an engine used its clock over a match (timed games only).
#[derive(Default, Clone, Copy)]
struct TimeUse {
    moves: u32,
    used: Duration,
    /// Sum over games of the clock left after the engine's last move.
    left_at_end: Duration,
    games: u32,
}

/// Plays one game; `white` is the index of the engine with White. Returns the winner (as an
/// engine index), how it ended and the moves; adds each engine's time to `time_use`.
fn play_game(
    engines: &mut [Engine; 2],
    white: usize,
    (start, opening_moves): &(Position, Vec<Move>),
    cfg: &Config,
    time_use: &mut [TimeUse; 2],
) -> Result<(Option<usize>, GameEnd, History), String> {
    let mut clock = [cfg.base, cfg.base]; // by colour: White, Black
    let r = play_moves(
        engines,
        white,
        (start, opening_moves),
        cfg,
        &mut clock,
        time_use,
    );
    if cfg.nodes.is_none() {
        for (engine, colour) in [(white, 0), (1 - white, 1)] {
            time_use[engine].left_at_end += clock[colour];
            time_use[engine].games += 1;
        }
    }
    r
}

/// The moves of [`play_game`], on `clock`.
fn play_moves(
    engines: &mut [Engine; 2],
    white: usize,
    (start, opening_moves): (&Position, &Vec<Move>),
    cfg: &Config,
    clock: &mut [Duration; 2],
    time_use: &mut [TimeUse; 2],
) -> Result<(Option<usize>, GameEnd, History), String> {
    let mut game = History::new(*start);
    for &m in opening_moves {
        game.push_unchecked(m);
    }
    for e in engines.iter_mut() {
        e.new_game()?;
    }
    let mut scores: Vec<i32> = Vec::new(); // White's point of view, per ply
    loop {
        if let Some(o) = game.outcome() {
            let winner = o
                .winner
                .map(|c| if c == Color::White { white } else { 1 - white });
            return Ok((winner, GameEnd::Rules(o.termination), game));
        }
        // Art. 9.2 / 9.3: the runner claims the draw as soon as it may.
        if game.is_threefold_repetition() {
            return Ok((None, GameEnd::Rules(Termination::ThreefoldRepetition), game));
        }
        if game.is_fifty_moves() {
            return Ok((None, GameEnd::Rules(Termination::FiftyMoves), game));
        }
        if game.moves().len() >= 600 {
            return Ok((None, GameEnd::MoveLimit, game));
        }
        let pos = *game.position();
        let turn = pos.turn();
        let mover = if turn == Color::White {
            white
        } else {
            1 - white
        };
        let mut cmd = if *start == Position::new() {
            String::from("position startpos moves")
        } else {
            format!("position fen {} moves", start.fen())
        };
        let mut p = *start;
        for &m in game.moves() {
            cmd.push(' ');
            cmd.push_str(&p.uci(m));
            p.play_unchecked(m);
        }
        let e = &mut engines[mover];
        e.send(&cmd)?;
        let go = match cfg.nodes {
            Some(n) => format!("go nodes {n}"),
            None => format!(
                "go wtime {} btime {} winc {} binc {}",
                clock[0].as_millis(),
                clock[1].as_millis(),
                cfg.inc.as_millis(),
                cfg.inc.as_millis()
            ),
        };
        let limit = match cfg.nodes {
            Some(_) => Duration::from_secs(60),
            None => clock[turn.index()] + Duration::from_secs(5),
        };
        let (text, score, used) = e.go(&go, limit)?;
        if cfg.nodes.is_none() {
            // Art. 6.9: the flag falls.
            if used > clock[turn.index()] {
                eprintln!(
                    "flag: {} used {used:?} with {:?} left at ply {}",
                    engines[mover].name,
                    clock[turn.index()],
                    game.moves().len()
                );
                return Ok((Some(1 - mover), GameEnd::Flag, game));
            }
            clock[turn.index()] = clock[turn.index()] - used + cfg.inc;
            time_use[mover].moves += 1;
            time_use[mover].used += used;
        }
        let Ok(m) = pos.parse_uci(&text) else {
            eprintln!(
                "illegal move {text} by {} in {}",
                engines[mover].name,
                pos.fen()
            );
            return Ok((Some(1 - mover), GameEnd::Illegal, game));
        };
        game.push_unchecked(m);
        if let Some(s) = score {
            scores.push(if turn == Color::White { s } else { -s });
        } else {
            scores.push(0);
        }
        // Adjudication: both engines agree the game is decided, or dead equal for long.
        let n = scores.len();
        if n >= 8 {
            let last = &scores[n - 8..];
            if last.iter().all(|&s| s >= 1000) {
                return Ok((Some(white), GameEnd::AdjudicatedWin, game));
            }
            if last.iter().all(|&s| s <= -1000) {
                return Ok((Some(1 - white), GameEnd::AdjudicatedWin, game));
            }
        }
        if game.moves().len() >= 100 && n >= 20 && scores[n - 20..].iter().all(|&s| s.abs() <= 10) {
            return Ok((None, GameEnd::AdjudicatedDraw, game));
        }
    }
}

fn pgn(game: &History, names: [&str; 2], result: &str, end: GameEnd, round: usize) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "[Event \"arbiter-match\"]\n[Round \"{round}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n[Termination \"{end:?}\"]\n",
        names[0], names[1]
    ));
    let mut pos = *game.start();
    if pos != Position::new() {
        out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", pos.fen()));
    }
    out.push('\n');
    let first_black = pos.turn() == Color::Black;
    for (i, &m) in game.moves().iter().enumerate() {
        let ply = i + first_black as usize;
        if ply % 2 == 0 {
            out.push_str(&format!("{}. ", pos.fullmoves()));
        } else if i == 0 {
            out.push_str(&format!("{}... ", pos.fullmoves()));
        }
        out.push_str(&pos.san(m).to_string());
        out.push(' ');
        pos.play_unchecked(m);
    }
    out.push_str(result);
    out.push_str("\n\n");
    out
}

fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("uci") {
        let stdin = std::io::stdin();
        if let Err(e) = arbiter_engine::uci::run(stdin.lock(), std::io::stdout()) {
            eprintln!("arbiter-match: {e}");
            std::process::exit(1);
        }
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("bench") {
        // The same bench as `arbiter bench`, without building the whole CLI.
        let depth = std::env::args()
            .nth(2)
            .and_then(|d| d.parse().ok())
            .unwrap_or(arbiter_engine::bench::DEFAULT_DEPTH);
        let r = arbiter_engine::bench::run(depth, |fen, n| println!("{n:>10}  {fen}"));
        println!(
            "depth {depth}: {} nodes, {:.3} s wall, {:.3} s CPU, {} nodes/s",
            r.nodes,
            r.time.as_secs_f64(),
            r.cpu_time.unwrap_or(r.time).as_secs_f64(),
            r.nps()
        );
        return;
    }
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let start = |i: usize| match Engine::start(&cfg.e[i], &cfg.o[i]) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut engines = [start(0), start(1)];
    let names = [
        cfg.names[0].clone().unwrap_or(engines[0].name.clone()),
        cfg.names[1].clone().unwrap_or(engines[1].name.clone()),
    ];
    let mut pgn_out = cfg.pgn.as_ref().map(|p| {
        std::fs::File::create(p).unwrap_or_else(|e| {
            eprintln!("cannot write {p}: {e}");
            std::process::exit(1)
        })
    });
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    let mut flags = [0u32; 2];
    let mut illegal = [0u32; 2];
    let mut adjudicated = 0;
    let mut time_use = [TimeUse::default(); 2];
    for g in 0..cfg.games {
        let op = opening(&cfg, cfg.first_opening + g / 2);
        let white = g % 2;
        let (winner, end, game) = match play_game(&mut engines, white, &op, &cfg, &mut time_use) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("game {}: {e}; restarting engines", g + 1);
                engines = [start(0), start(1)];
                continue;
            }
        };
        match winner {
            Some(0) => w += 1,
            Some(_) => l += 1,
            None => d += 1,
        }
        match end {
            GameEnd::Flag => flags[1 - winner.unwrap_or(0)] += 1,
            GameEnd::Illegal => illegal[1 - winner.unwrap_or(0)] += 1,
            GameEnd::AdjudicatedWin | GameEnd::AdjudicatedDraw => adjudicated += 1,
            _ => {}
        }
        let result = match winner.map(|x| x == white) {
            Some(true) => "1-0",
            Some(false) => "0-1",
            None => "1/2-1/2",
        };
        let n = (w + d + l) as f64;
        let s = (w as f64 + 0.5 * d as f64) / n;
        println!(
            "game {:>3}: {} vs {}: {result} ({end:?}, {} plies)   score {w}-{l}-{d} ({:.1}%)",
            g + 1,
            names[white],
            names[1 - white],
            game.moves().len(),
            100.0 * s
        );
        if let Some(f) = pgn_out.as_mut() {
            let pair = [names[white].as_str(), names[1 - white].as_str()];
            let _ = f.write_all(pgn(&game, pair, result, end, g + 1).as_bytes());
        }
    }
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return;
    }
    let s = (w as f64 + 0.5 * d as f64) / n;
    let var =
        (w as f64 * (1.0 - s).powi(2) + d as f64 * (0.5 - s).powi(2) + l as f64 * s.powi(2)) / n;
    let se = (var / n).sqrt();
    println!(
        "{} vs {}: {} games, +{w} -{l} ={d}, score {:.1}% (95% CI {:.1}%..{:.1}%)",
        names[0],
        names[1],
        n,
        100.0 * s,
        100.0 * (s - 1.96 * se).max(0.0),
        100.0 * (s + 1.96 * se).min(1.0)
    );
    println!(
        "Elo difference: {:+.0} (95% CI {:+.0} .. {:+.0}); flags {}/{}; illegal moves {}/{}; adjudicated {}",
        elo(s),
        elo(s - 1.96 * se),
        elo(s + 1.96 * se),
        flags[0],
        flags[1],
        illegal[0],
        illegal[1],
        adjudicated
    );
    for (name, t) in names.iter().zip(time_use) {
        if t.moves > 0 && t.games > 0 {
            println!(
                "{name}: {:.0} ms a move on average, {:.2} s left on the clock at the end of a game on average",
                t.used.as_secs_f64() * 1000.0 / t.moves as f64,
                t.left_at_end.as_secs_f64() / t.games as f64
            );
        }
    }
}
