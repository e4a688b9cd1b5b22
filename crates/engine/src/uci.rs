//! The Universal Chess Interface: reads commands (`uci`, `isready`, `ucinewgame`, `position`,
//! `go`, `stop`, `setoption`, `quit`) and answers (`id`, `option`, `uciok`, `readyok`,
//! `info`, `bestmove`). The search runs on its own thread so that `stop` and `isready` are
//! answered while it thinks.
//!
//! Strength: `Skill Level` 1–8 picks a [`Level`]; with `UCI_LimitStrength` true, `UCI_Elo`
//! picks the level whose measured Elo is nearest ([`Level::from_elo`], which documents the
//! measurements and their uncertainty) and `Skill Level` is ignored. With
//! `UCI_LimitStrength` false (the default) `UCI_Elo` is ignored: the engine plays at
//! `Skill Level`, which is full strength unless set lower.

use crate::{ClockState, Engine, Info, Level, Limits, Score};
use arbiter_rules::{CastlingMode, Color, Move, Position};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The engine's name as it introduces itself.
pub const NAME: &str = concat!("Arbiter ", env!("CARGO_PKG_VERSION"));

/// The most lines `MultiPV` may ask for.
pub const MAX_MULTI_PV: usize = 8;

type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed output (the GUI went away) is not an error worth stopping the search for.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

struct Running {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
}

struct State<W: Write + Send + 'static> {
    out: Out<W>,
    engine: Option<Engine>,
    running: Option<Running>,
    start: Position,
    moves: Vec<Move>,
    chess960: bool,
    /// `Skill Level`.
    skill: Level,
    /// `UCI_LimitStrength`: play at `UCI_Elo` rather than at `Skill Level`.
    limit_strength: bool,
    /// `UCI_Elo`.
    elo: i32,
    /// `MultiPV`: how many best lines to report.
    multi_pv: usize,
}

impl<W: Write + Send + 'static> State<W> {
    fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            if let Ok(engine) = r.handle.join() {
                self.engine = Some(engine);
            } else {
                // The search thread panicked: start again with a fresh engine.
                self.engine = Some(Engine::new());
            }
        }
    }

    fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
        self.wait();
    }

    fn engine(&mut self) -> &mut Engine {
        self.wait();
        self.engine.get_or_insert_with(Engine::new)
    }

    /// The level the options ask for: from `UCI_Elo` when `UCI_LimitStrength` is on,
    /// otherwise `Skill Level` (8, full strength, unless set lower).
    fn level(&self) -> Level {
        if self.limit_strength {
            Level::from_elo(self.elo)
        } else {
            self.skill
        }
    }

    fn apply_level(&mut self) {
        let level = self.level();
        self.engine().set_level(level);
    }

    fn mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    fn info_string(&self, msg: &str) {
        say(&self.out, &format!("info string {msg}"));
    }

    fn uci(&self) {
        say(&self.out, &format!("id name {NAME}"));
        say(&self.out, "id author the Arbiter authors");
        say(
            &self.out,
            &format!(
                "option name Hash type spin default {} min 1 max 4096",
                crate::DEFAULT_HASH_MB
            ),
        );
        say(
            &self.out,
            "option name Skill Level type spin default 8 min 1 max 8",
        );
        say(
            &self.out,
            "option name Move Overhead type spin default 50 min 0 max 5000",
        );
        say(
            &self.out,
            "option name UCI_LimitStrength type check default false",
        );
        say(
            &self.out,
            &format!(
                "option name UCI_Elo type spin default {} min {} max {}",
                Level::MAX.elo(),
                Level::MIN_ELO,
                Level::MAX.elo()
            ),
        );
        say(
            &self.out,
            "option name UCI_Chess960 type check default false",
        );
        say(
            &self.out,
            &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"),
        );
        say(&self.out, "uciok");
    }

    fn setoption(&mut self, args: &str) {
        // setoption name <id> [value <x>]
        let Some(rest) = args.trim().strip_prefix("name") else {
            self.info_string("setoption: expected 'name'");
            return;
        };
        let (name, value) = match rest.find(" value ") {
            Some(i) => (rest[..i].trim(), rest[i + 7..].trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) => self.engine().set_hash_mb(mb.clamp(1, 4096)),
                Err(_) => self.info_string(&format!("Hash: bad value '{value}'")),
            },
            "skill level" => match value.parse::<u8>().ok().and_then(Level::new) {
                Some(level) => {
                    self.skill = level;
                    self.apply_level();
                }
                None => self.info_string(&format!("Skill Level: expected 1 to 8, got '{value}'")),
            },
            "uci_limitstrength" => match value.to_ascii_lowercase().as_str() {
                "true" | "false" => {
                    self.limit_strength = value.eq_ignore_ascii_case("true");
                    self.apply_level();
                    if self.limit_strength {
                        self.report_elo_level();
                    }
                }
                _ => self.info_string(&format!(
                    "UCI_LimitStrength: expected true or false, got '{value}'"
                )),
            },
            "uci_elo" => match value.parse::<i32>() {
                Ok(elo) => {
                    let (min, max) = (Level::MIN_ELO, Level::MAX.elo());
                    if !(min..=max).contains(&elo) {
                        self.info_string(&format!(
                            "UCI_Elo: {elo} is outside {min} to {max}; using {}",
                            elo.clamp(min, max)
                        ));
                    }
                    self.elo = elo.clamp(min, max);
                    self.apply_level();
                    if self.limit_strength {
                        self.report_elo_level();
                    }
                }
                Err(_) => self.info_string(&format!("UCI_Elo: bad value '{value}'")),
            },
            "move overhead" => match value.parse::<u64>() {
                Ok(ms) => self.engine().set_move_overhead(Duration::from_millis(ms)),
                Err(_) => self.info_string(&format!("Move Overhead: bad value '{value}'")),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_MULTI_PV).contains(&n) => self.multi_pv = n,
                _ => self.info_string(&format!(
                    "MultiPV: expected 1 to {MAX_MULTI_PV}, got '{value}'"
                )),
            },
            "uci_chess960" => {
                self.chess960 = value.eq_ignore_ascii_case("true");
                self.start.set_mode(self.mode());
            }
            _ => self.info_string(&format!("unknown option '{name}'")),
        }
    }

    /// Says which level plays for the `UCI_Elo` asked (the mapping is coarse: see
    /// [`Level::from_elo`]).
    fn report_elo_level(&self) {
        let level = Level::from_elo(self.elo);
        self.info_string(&format!(
            "UCI_Elo {} plays as Skill Level {} (estimated Elo {})",
            self.elo,
            level.get(),
            level.elo()
        ));
    }

    fn position(&mut self, args: &str) {
        let mut tokens = args.split_whitespace().peekable();
        let start = match tokens.next() {
            Some("startpos") => {
                let mut p = Position::new();
                p.set_mode(self.mode());
                p
            }
            Some("fen") => {
                let mut fen = Vec::new();
                while let Some(t) = tokens.peek() {
                    if *t == "moves" {
                        break;
                    }
                    fen.push(*t);
                    tokens.next();
                }
                match Position::from_fen(&fen.join(" "), self.mode()) {
                    Ok(p) => p,
                    Err(e) => {
                        self.info_string(&format!("bad FEN: {e}"));
                        return;
                    }
                }
            }
            _ => {
                self.info_string("position: expected 'startpos' or 'fen'");
                return;
            }
        };
        let mut moves = Vec::new();
        if tokens.next() == Some("moves") {
            let mut pos = start;
            for text in tokens {
                match pos.parse_uci(text) {
                    Ok(m) => {
                        pos.play_unchecked(m);
                        moves.push(m);
                    }
                    Err(e) => {
                        self.info_string(&format!("position: {e}; ignoring the rest"));
                        break;
                    }
                }
            }
        }
        self.start = start;
        self.moves = moves;
    }

    fn go(&mut self, args: &str) {
        self.wait();
        let mut pos = self.start;
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        let mut limits = Limits {
            multi_pv: self.multi_pv,
            ..Limits::default()
        };
        let mut clock = [None::<u64>; 4]; // wtime btime winc binc
        let mut movestogo = None;
        let mut infinite = false;
        let mut tokens = args.split_whitespace();
        while let Some(t) = tokens.next() {
            let mut num = || tokens.next().and_then(|v| v.parse::<i64>().ok());
            match t {
                "wtime" => clock[0] = num().map(|v| v.max(0) as u64),
                "btime" => clock[1] = num().map(|v| v.max(0) as u64),
                "winc" => clock[2] = num().map(|v| v.max(0) as u64),
                "binc" => clock[3] = num().map(|v| v.max(0) as u64),
                "movestogo" => movestogo = num().map(|v| v.max(1) as u32),
                "depth" => limits.depth = num().map(|v| v.max(1) as u32),
                "nodes" => limits.nodes = num().map(|v| v.max(1) as u64),
                "movetime" => {
                    limits.movetime = num().map(|v| Duration::from_millis(v.max(1) as u64))
                }
                "infinite" => infinite = true,
                "ponder" => infinite = true,
                _ => {}
            }
        }
        let (time, inc) = match pos.turn() {
            Color::White => (clock[0], clock[2]),
            Color::Black => (clock[1], clock[3]),
        };
        if let Some(time) = time {
            limits.clock = Some(ClockState {
                remaining: Duration::from_millis(time),
                increment: Duration::from_millis(inc.unwrap_or(0)),
                moves_to_go: movestogo,
                ..ClockState::default()
            });
        }
        let mut engine = self.engine.take().unwrap_or_default();
        // Also after a fresh engine replaced one whose search thread panicked.
        engine.set_level(self.level());
        let stop = Arc::new(AtomicBool::new(false));
        let out = Arc::clone(&self.out);
        let start = self.start;
        let moves = self.moves.clone();
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let mut on_info = |info: &Info| say(&out, &info_line(&pos, info));
            let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                engine.search(&start, &moves, &limits, &flag, &mut on_info)
            }));
            // A failed search still answers (a GUI waits for `bestmove`): with the first
            // legal move, from a fresh engine.
            let best = match searched {
                Ok(result) => result.best.map(|m| (m, result.ponder)),
                Err(_) => {
                    say(
                        &out,
                        "info string the search failed; playing the first legal move",
                    );
                    engine = Engine::new();
                    pos.legal_moves().first().map(|&m| (m, None))
                }
            };
            // UCI: after `go infinite` the best move is sent only once `stop` arrives.
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let line = match best {
                None => "bestmove 0000".to_string(),
                Some((m, ponder)) => {
                    let mut text = format!("bestmove {}", pos.uci(m));
                    if let Some(p) = ponder {
                        let mut after = pos;
                        after.play_unchecked(m);
                        if after.is_legal(p) {
                            text.push_str(&format!(" ponder {}", after.uci(p)));
                        }
                    }
                    text
                }
            };
            say(&out, &line);
            engine
        });
        self.running = Some(Running { handle, stop });
    }
}

/// Formats an `info` line, writing the PV in the position's castling notation.
pub fn info_line(root: &Position, info: &Info) -> String {
    let score = match info.score {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv",
        info.depth,
        info.seldepth,
        info.multipv,
        score,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis()
    );
    let mut pos = *root;
    for &m in &info.pv {
        if !pos.is_legal(m) {
            break;
        }
        line.push(' ');
        line.push_str(&pos.uci(m));
        pos.play_unchecked(m);
    }
    line
}

/// Runs the UCI protocol until `quit` or the end of `input`.
///
/// # Errors
/// Reading `input` fails.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<()> {
    let mut state = State {
        out: Arc::new(Mutex::new(output)),
        engine: Some(Engine::new()),
        running: None,
        start: Position::new(),
        moves: Vec::new(),
        chess960: false,
        skill: Level::MAX,
        limit_strength: false,
        elo: Level::MAX.elo(),
        multi_pv: 1,
    };
    for line in input.lines() {
        let line = line?;
        let line = line.trim();
        let (cmd, args) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "uci" => state.uci(),
            "isready" => say(&state.out, "readyok"),
            "ucinewgame" => state.engine().new_game(),
            "setoption" => state.setoption(args),
            "position" => state.position(args),
            "go" => state.go(args),
            "stop" => state.stop(),
            "ponderhit" => state.stop(),
            "quit" => break,
            "d" => {
                let mut pos = state.start;
                for &m in &state.moves {
                    pos.play_unchecked(m);
                }
                say(&state.out, &format!("info string fen {}", pos.fen()));
            }
            "debug" | "register" => {}
            other => state.info_string(&format!("unknown command '{other}'")),
        }
    }
    state.stop();
    Ok(())
}
