//! External UCI engines (e.g. Debian's `/usr/games/stockfish`) as opponents.
//!
//! Two layers:
//! - [`UciEngine`]: a UCI client for one engine process — spawn, handshake (`uci`/`uciok`),
//!   options, `isready`/`readyok`, `go` until `bestmove` with a stop deadline and a hard
//!   timeout. The match runner `arbiter-match` uses it directly.
//! - [`UciPlayer`]: a computer opponent for a hosted [`Game`], parallel to
//!   the built-in `play::EnginePlayer`: it sends the game's moves and clock,
//!   honours a stop flag, and returns only a move that is legal in the game's position.
//!
//! The program is started directly (no shell) with its standard input and output piped and
//! standard error discarded. Every wait is bounded: an engine that does not answer in time or
//! exits is killed, and the player (or engine) answers every later call with
//! [`ExternalError::Crashed`]. Dropping either kills the process if it does not quit at once.
//!
//! Which program may be run is the host's decision (a path from the operator's
//! configuration, never from a player).
//!
//! ```no_run
//! use arbiter_engine::external::UciPlayer;
//! use arbiter_game::{Game, TimeControl};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut game = Game::standard(TimeControl::fischer(60_000, 1_000));
//! game.start(0).unwrap();
//! let mut sf = UciPlayer::start(
//!     "/usr/games/stockfish",
//!     &[("UCI_LimitStrength", "true"), ("UCI_Elo", "1500")],
//! )
//! .unwrap();
//! let m = sf.choose(&game, 0, &AtomicBool::new(false)).unwrap();
//! assert!(game.position().is_legal(m));
//! ```

use crate::clock::{clock_for, clock_state};
use crate::Score;
use arbiter_game::{Game, Millis, TimeControl};
use arbiter_rules::{CastlingMode, Color, Move, Position};
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` with `uciok` (and `isready` with `readyok`)
/// unless told otherwise.
pub const DEFAULT_ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// Why an external engine could not be used.
#[derive(Debug)]
pub enum ExternalError {
    /// The program does not exist.
    NotFound(PathBuf),
    /// The program exists but could not be started (e.g. it is not executable).
    Spawn {
        /// The program.
        program: String,
        /// The operating system's reason.
        source: io::Error,
    },
    /// The program does not speak UCI: it did not answer `uci` with `uciok` in time, or it
    /// exited before doing so.
    NotUci {
        /// The program.
        program: String,
        /// What happened instead.
        reason: String,
    },
    /// The engine does not advertise an option it was asked to set, or cannot play the game
    /// (Chess960 without `UCI_Chess960`).
    Unsupported {
        /// The engine's name.
        engine: String,
        /// What it lacks.
        what: String,
    },
    /// The engine did not answer in time; it has been killed.
    TimedOut {
        /// The engine's name.
        engine: String,
        /// The answer awaited (`readyok`, `bestmove`).
        waiting_for: &'static str,
        /// How long it was awaited.
        after: Duration,
    },
    /// The engine exited or closed its output, or was killed after an earlier error.
    Crashed {
        /// The engine's name.
        engine: String,
        /// Exit status or the earlier error.
        detail: String,
    },
    /// The engine's `bestmove` is not a legal move in the position (or not UCI at all). The
    /// move is never played.
    IllegalMove {
        /// The engine's name.
        engine: String,
        /// The text after `bestmove`.
        bestmove: String,
        /// The position, as FEN.
        fen: String,
    },
    /// The side to move has no legal move: the game is over.
    NoLegalMove,
}

impl fmt::Display for ExternalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExternalError::NotFound(p) => write!(f, "engine '{}' not found", p.display()),
            ExternalError::Spawn { program, source } => {
                write!(f, "cannot start engine '{program}': {source}")
            }
            ExternalError::NotUci { program, reason } => {
                write!(f, "'{program}' is not a UCI engine: {reason}")
            }
            ExternalError::Unsupported { engine, what } => {
                write!(f, "{engine} does not support {what}")
            }
            ExternalError::TimedOut {
                engine,
                waiting_for,
                after,
            } => write!(
                f,
                "{engine} did not send '{waiting_for}' within {:.1} s",
                after.as_secs_f64()
            ),
            ExternalError::Crashed { engine, detail } => write!(f, "{engine} stopped: {detail}"),
            ExternalError::IllegalMove {
                engine,
                bestmove,
                fen,
            } => write!(f, "{engine} chose '{bestmove}', not a legal move in {fen}"),
            ExternalError::NoLegalMove => write!(f, "no legal move: the game is over"),
        }
    }
}

impl std::error::Error for ExternalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExternalError::Spawn { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move as the engine wrote it (not yet checked).
    pub text: String,
    /// The move it expects in reply, if it said.
    pub ponder: Option<String>,
    /// The last exact score of its `info` lines, from its own point of view.
    pub score: Option<Score>,
    /// Time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// A running UCI engine process: a plain UCI client.
pub struct UciEngine {
    program: String,
    name: String,
    id_name: Option<String>,
    options: Vec<String>,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Why the engine was given up (killed), if it was.
    dead: Option<String>,
}

/// How often a wait checks the stop flag.
const POLL: Duration = Duration::from_millis(5);
/// Longest line read from an engine; longer lines are cut.
const MAX_LINE: u64 = 64 * 1024;

impl UciEngine {
    /// Starts `command` (its stdin and stdout are piped, stderr discarded), sends `uci` and
    /// waits up to `timeout` for `uciok`, sets `options` (each must be advertised by the
    /// engine, compared case-insensitively as UCI does), then waits for `readyok`.
    ///
    /// # Errors
    /// [`ExternalError::NotFound`], [`ExternalError::Spawn`], [`ExternalError::NotUci`] during
    /// the handshake; [`ExternalError::Unsupported`] for an option the engine lacks;
    /// [`ExternalError::TimedOut`] or [`ExternalError::Crashed`] afterwards.
    pub fn spawn<S: AsRef<str>>(
        mut command: Command,
        options: &[(S, S)],
        timeout: Duration,
    ) -> Result<UciEngine, ExternalError> {
        let program = command.get_program().to_string_lossy().into_owned();
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut attempt = 0;
        let mut child = loop {
            match command.spawn() {
                Ok(child) => break child,
                // A program file just written may still be open for writing in a process
                // forked meanwhile by another thread (until that process's exec): retry.
                Err(e) if e.kind() == io::ErrorKind::ExecutableFileBusy && attempt < 20 => {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    return Err(ExternalError::NotFound(PathBuf::from(&program)))
                }
                Err(e) => {
                    return Err(ExternalError::Spawn {
                        program: program.clone(),
                        source: e,
                    })
                }
            }
        };
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        // A bounded channel: a program that floods its output is held back, not buffered.
        let (tx, rx) = sync_channel(256);
        if let Some(stdout) = stdout {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        }
        let short = Path::new(&program)
            .file_name()
            .map_or(program.clone(), |n| n.to_string_lossy().into_owned());
        let mut e = UciEngine {
            program: program.clone(),
            name: short,
            id_name: None,
            options: Vec::new(),
            child,
            stdin,
            lines: rx,
            dead: None,
        };
        e.handshake(timeout)?;
        for (k, v) in options {
            e.set_option(k.as_ref(), v.as_ref())?;
        }
        e.sync(timeout)?;
        Ok(e)
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), ExternalError> {
        let not_uci = |e: &mut UciEngine, reason: String| {
            e.kill(&reason);
            ExternalError::NotUci {
                program: e.program.clone(),
                reason,
            }
        };
        if self.write_line("uci").is_err() {
            let status = self.exit_status();
            return Err(not_uci(self, format!("exited at once ({status})")));
        }
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let mut words = line.split_whitespace();
                    match (words.next(), words.next()) {
                        (Some("uciok"), _) => return Ok(()),
                        (Some("id"), Some("name")) => {
                            let name = line.trim_start()[2..].trim_start()[4..].trim();
                            if !name.is_empty() {
                                self.name = name.to_string();
                                self.id_name = Some(name.to_string());
                            }
                        }
                        (Some("option"), Some("name")) => {
                            if let Some(name) = option_name(&line) {
                                self.options.push(name);
                            }
                        }
                        _ => {}
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let reason =
                        format!("no 'uciok' within {:.1} s of 'uci'", timeout.as_secs_f64());
                    return Err(not_uci(self, reason));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.exit_status();
                    return Err(not_uci(self, format!("exited before 'uciok' ({status})")));
                }
            }
        }
    }

    /// The engine's name (`id name`, or the program's file name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name the engine gave itself (`id name`), if it did.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Whether the engine advertised this option (case-insensitive).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Sends `setoption name <name> value <value>`.
    ///
    /// # Errors
    /// [`ExternalError::Unsupported`] if the engine did not advertise the option;
    /// [`ExternalError::Crashed`] if it is gone.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ExternalError> {
        if !self.has_option(name) {
            return Err(ExternalError::Unsupported {
                engine: self.name.clone(),
                what: format!("the option '{name}'"),
            });
        }
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// Sends one command line.
    ///
    /// # Errors
    /// [`ExternalError::Crashed`] if the engine is gone.
    pub fn send(&mut self, line: &str) -> Result<(), ExternalError> {
        self.check_alive()?;
        self.write_line(line).map_err(|_| self.crashed())
    }

    fn write_line(&mut self, line: &str) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
        writeln!(stdin, "{line}")?;
        stdin.flush()
    }

    fn check_alive(&self) -> Result<(), ExternalError> {
        match &self.dead {
            Some(why) => Err(ExternalError::Crashed {
                engine: self.name.clone(),
                detail: format!("given up earlier: {why}"),
            }),
            None => Ok(()),
        }
    }

    /// The exit status if the process has ended (waiting briefly for it), for messages.
    fn exit_status(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return s.to_string(),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => return "output closed".to_string(),
                Err(e) => return e.to_string(),
            }
        }
    }

    /// Marks the engine as given up and kills it.
    fn kill(&mut self, why: &str) {
        if self.dead.is_none() {
            self.dead = Some(why.to_string());
        }
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn crashed(&mut self) -> ExternalError {
        let detail = self.exit_status();
        self.kill(&format!("exited ({detail})"));
        ExternalError::Crashed {
            engine: self.name.clone(),
            detail,
        }
    }

    fn timed_out(&mut self, waiting_for: &'static str, after: Duration) -> ExternalError {
        self.kill(&format!("no '{waiting_for}' within {after:?}"));
        ExternalError::TimedOut {
            engine: self.name.clone(),
            waiting_for,
            after,
        }
    }

    /// Sends `isready` and waits for `readyok`, discarding anything else (such as the late
    /// `bestmove` of a stopped search).
    ///
    /// # Errors
    /// [`ExternalError::TimedOut`] (the engine is then killed) or [`ExternalError::Crashed`].
    pub fn sync(&mut self, timeout: Duration) -> Result<(), ExternalError> {
        self.send("isready")?;
        let start = Instant::now();
        loop {
            match self
                .lines
                .recv_timeout(timeout.saturating_sub(start.elapsed()))
            {
                Ok(line) if line == "readyok" => return Ok(()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(self.timed_out("readyok", timeout)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
        }
    }

    /// Sends `ucinewgame` and waits for `readyok`.
    ///
    /// # Errors
    /// As [`UciEngine::sync`].
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), ExternalError> {
        self.send("ucinewgame")?;
        self.sync(timeout)
    }

    /// Sends `go` (the whole command, e.g. `go wtime 1000 btime 1000`) and waits for
    /// `bestmove`. `stop` is sent when the `stop` flag is set or `stop_after` has passed since
    /// `go`; after `timeout` (also from `go`) the engine is killed.
    ///
    /// # Errors
    /// [`ExternalError::TimedOut`] or [`ExternalError::Crashed`].
    pub fn go(
        &mut self,
        go: &str,
        stop_after: Option<Duration>,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<BestMove, ExternalError> {
        let start = Instant::now();
        self.send(go)?;
        let mut stopped = false;
        let mut score = None;
        loop {
            let elapsed = start.elapsed();
            if !stopped
                && (stop.load(Ordering::Relaxed) || stop_after.is_some_and(|s| elapsed >= s))
            {
                self.send("stop")?;
                stopped = true;
            }
            if elapsed >= timeout {
                return Err(self.timed_out("bestmove", timeout));
            }
            let mut wait = timeout - elapsed;
            if !stopped {
                wait = wait.min(POLL);
            }
            let line = match self.lines.recv_timeout(wait) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    if let Some(s) = info_score(&line) {
                        score = Some(s);
                    }
                }
                Some("bestmove") => {
                    let text = words.next().unwrap_or("").to_string();
                    let ponder = match (words.next(), words.next()) {
                        (Some("ponder"), Some(p)) => Some(p.to_string()),
                        _ => None,
                    };
                    return Ok(BestMove {
                        text,
                        ponder,
                        score,
                        elapsed: start.elapsed(),
                    });
                }
                _ => {}
            }
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if self.dead.is_some() {
            return;
        }
        let _ = self.write_line("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(250);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The name in `option name <name> type ...` (names may contain spaces).
fn option_name(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix("option")?.trim_start();
    let rest = rest.strip_prefix("name")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    let name = rest[..end].trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// The exact score of an `info` line (bounds are skipped).
fn info_score(line: &str) -> Option<Score> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score")?;
    if words
        .iter()
        .any(|w| *w == "lowerbound" || *w == "upperbound")
    {
        return None;
    }
    let v = words.get(i + 2)?.parse::<i32>().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(Score::Cp(v)),
        "mate" => Some(Score::Mate(v)),
        _ => None,
    }
}

/// What to send for one move, and when to insist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoPlan {
    /// The `go` command.
    pub command: String,
    /// When to send `stop` if the engine has not answered (the time it has before its flag
    /// falls, less the move overhead; or the thinking cap).
    pub stop_after: Duration,
}

/// A computer opponent that is an external UCI engine.
///
/// Parallel to the built-in `play::EnginePlayer`: the host runs
/// [`UciPlayer::choose`] on a blocking thread and plays the move it returns with the clock
/// reading of that moment. The engine keeps running between moves; use one player per game
/// (or call [`UciPlayer::new_game`] between games).
pub struct UciPlayer {
    engine: UciEngine,
    overhead: Duration,
    untimed: Duration,
    max_think: Option<Duration>,
    answer_timeout: Duration,
    stop_grace: Duration,
    chess960: Option<bool>,
}

impl UciPlayer {
    /// Starts the engine at `path` (run directly, no shell, no arguments) and sets `options`
    /// (`(name, value)` pairs, e.g. `("UCI_Elo", "1500")`); waits at most
    /// [`DEFAULT_ANSWER_TIMEOUT`] for each answer of the handshake.
    ///
    /// # Errors
    /// As [`UciEngine::spawn`].
    pub fn start<S: AsRef<str>>(
        path: impl AsRef<Path>,
        options: &[(S, S)],
    ) -> Result<UciPlayer, ExternalError> {
        UciPlayer::from_command(Command::new(path.as_ref()), options, DEFAULT_ANSWER_TIMEOUT)
    }

    /// Starts an engine from a prepared command (program, arguments, working directory,
    /// environment), waiting at most `timeout` for each answer of the handshake.
    ///
    /// # Errors
    /// As [`UciEngine::spawn`].
    pub fn from_command<S: AsRef<str>>(
        command: Command,
        options: &[(S, S)],
        timeout: Duration,
    ) -> Result<UciPlayer, ExternalError> {
        let mut engine = UciEngine::spawn(command, options, timeout)?;
        engine.new_game(timeout)?;
        Ok(UciPlayer {
            engine,
            overhead: Duration::from_millis(100),
            untimed: Duration::from_millis(1_000),
            max_think: None,
            answer_timeout: timeout,
            stop_grace: Duration::from_secs(2),
            chess960: None,
        })
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        self.engine.name()
    }

    /// The UCI client underneath.
    pub fn engine(&mut self) -> &mut UciEngine {
        &mut self.engine
    }

    /// Time kept back from the clock on every move for the host's own latency (default
    /// 100 ms): the engine is told it has that much less, and is stopped that long before
    /// its flag would fall.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.overhead = overhead;
    }

    /// Thinking time per move in untimed games (default 1 s).
    pub fn set_untimed_think(&mut self, t: Duration) {
        self.untimed = t;
    }

    /// A cap on thinking per move whatever the clock allows: the engine is stopped then.
    pub fn set_max_think(&mut self, t: Option<Duration>) {
        self.max_think = t;
    }

    /// How long the engine may take, after being told to stop, to send its move before it is
    /// given up (default 2 s).
    pub fn set_stop_grace(&mut self, t: Duration) {
        self.stop_grace = t;
    }

    /// Tells the engine a new game starts (`ucinewgame`).
    ///
    /// # Errors
    /// As [`UciEngine::sync`].
    pub fn new_game(&mut self) -> Result<(), ExternalError> {
        self.engine.new_game(self.answer_timeout)
    }

    /// The `go` command for the side to move in `game` at `now`, from the game's clock:
    /// - a chess clock (Art. 6.3): `wtime btime winc binc [movestogo]`, the side to move's
    ///   time less the move overhead; a delay (Art. 6.3.2, simple or Bronstein) is sent as
    ///   increment, since UCI has no delay and both give at least that much thinking time
    ///   per move without using the clock;
    /// - an hourglass: `wtime btime`;
    /// - time per move: `movetime`, the time left for this move less the overhead;
    /// - untimed: `movetime` of the untimed thinking time.
    pub fn go_plan(&self, game: &Game, now: Millis) -> GoPlan {
        let turn = game.turn();
        let ms = |d: Duration| d.as_millis() as u64;
        let cap = |t: Duration| self.max_think.map_or(t, |c| c.min(t));
        let Some(own) = clock_state(game, now) else {
            let t = cap(self.untimed).max(Duration::from_millis(1));
            return GoPlan {
                command: format!("go movetime {}", ms(t)),
                stop_after: cap(self.untimed + Duration::from_secs(1)),
            };
        };
        // The time before the flag falls (Art. 6.9), less the host's latency.
        let available = (own.remaining + own.delay)
            .saturating_sub(self.overhead)
            .max(Duration::from_millis(1));
        if let (TimeControl::PerMove(_), Some(per_move)) = (game.time_control(), own.max_per_move) {
            let t = cap(per_move.min(available)).max(Duration::from_millis(1));
            return GoPlan {
                command: format!("go movetime {}", ms(t)),
                stop_after: cap(available),
            };
        }
        // The other side's clock, as UCI wants both.
        let other = !turn;
        let tc = game.time_control();
        let other_remaining = game.remaining_ms(other, now).unwrap_or(0);
        let theirs = clock_for(tc, other_remaining, game.moves_made(other), 0);
        let own_time = ms(own.remaining.saturating_sub(self.overhead)).max(1);
        let own_inc = ms(own.increment + own.delay);
        let (their_time, their_inc) = theirs.map_or((other_remaining, 0), |c| {
            (ms(c.remaining), ms(c.increment + c.delay))
        });
        let (wtime, btime, winc, binc) = match turn {
            Color::White => (own_time, their_time, own_inc, their_inc),
            Color::Black => (their_time, own_time, their_inc, own_inc),
        };
        let mut command = format!("go wtime {wtime} btime {btime} winc {winc} binc {binc}");
        if let Some(n) = own.moves_to_go {
            command.push_str(&format!(" movestogo {n}"));
        }
        GoPlan {
            command,
            stop_after: cap(available),
        }
    }

    /// The `position` command for the game's current position: `startpos` or the start FEN
    /// (X-FEN castling in Chess960), then the moves, castling written as the game's mode
    /// wants (king takes rook in Chess960, `UCI_Chess960`).
    pub fn position_command(game: &Game) -> String {
        let start = game.start_position();
        let mut standard = Position::new();
        standard.set_mode(start.mode());
        let mut cmd = if *start == standard && start.mode() == CastlingMode::Standard {
            "position startpos".to_string()
        } else {
            format!("position fen {}", start.fen())
        };
        let moves = game.history().moves();
        if !moves.is_empty() {
            cmd.push_str(" moves");
            let mut pos = *start;
            for &m in moves {
                cmd.push(' ');
                cmd.push_str(&pos.uci(m));
                pos.play_unchecked(m);
            }
        }
        cmd
    }

    /// Chooses a move for the side to move in `game`, letting the engine think as the clock
    /// at `now` allows (`now` on the game's clock, read right before the call: time spent
    /// waiting for a thread before it is not known to the engine). Setting `stop` makes the engine answer at once (`stop`), and the move
    /// it then gives is returned. The move is always legal in `game.position()`.
    ///
    /// # Errors
    /// [`ExternalError::NoLegalMove`] if the game is over; [`ExternalError::IllegalMove`] if
    /// the engine's move is not legal (it is not played); [`ExternalError::Unsupported`] for a
    /// Chess960 game and an engine without `UCI_Chess960`; [`ExternalError::TimedOut`] or
    /// [`ExternalError::Crashed`] if the engine failed (it is then killed, and every later
    /// call fails too).
    pub fn choose(
        &mut self,
        game: &Game,
        now: Millis,
        stop: &AtomicBool,
    ) -> Result<Move, ExternalError> {
        let pos = *game.position();
        if pos.legal_moves().is_empty() {
            return Err(ExternalError::NoLegalMove);
        }
        // Guideline II: Chess960 castling is sent and read as king takes rook.
        let chess960 = game.start_position().mode() == CastlingMode::Chess960;
        if self.chess960 != Some(chess960) {
            if self.engine.has_option("UCI_Chess960") {
                self.engine
                    .set_option("UCI_Chess960", if chess960 { "true" } else { "false" })?;
            } else if chess960 {
                return Err(ExternalError::Unsupported {
                    engine: self.engine.name().to_string(),
                    what: "Chess960 (no UCI_Chess960 option)".to_string(),
                });
            }
            self.chess960 = Some(chess960);
        }
        let plan = self.go_plan(game, now);
        self.engine.send(&UciPlayer::position_command(game))?;
        let best = self.engine.go(
            &plan.command,
            Some(plan.stop_after),
            plan.stop_after + self.stop_grace,
            stop,
        )?;
        pos.parse_uci(&best.text)
            .map_err(|_| ExternalError::IllegalMove {
                engine: self.engine.name().to_string(),
                bestmove: best.text.clone(),
                fen: pos.fen(),
            })
    }
}
