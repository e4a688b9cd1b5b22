//! "Play the computer": a seat the server plays itself.
//!
//! A computer seat is a seat like any other — its token hash is stored, so the seat counts as
//! taken, but nobody holds the token — played by a [`ComputerPlayer`]. When it is the
//! computer's turn, the game's actor takes a snapshot of the game and hands it, with the
//! player, to [`think`]: the search runs on a blocking thread (`spawn_blocking`, never on an
//! async worker), at most [`Engines::permits`] of them at once in the whole server (a
//! semaphore), and the chosen move comes back to the actor, which plays it through the same
//! path as a person's move, timed by the same server clock (the game time at the moment the
//! player answered). A stop flag makes a search answer at once when the game ends meanwhile.
//!
//! Two kinds of player plug in through [`ComputerKind`] (stored with the game) and the
//! [`ComputerPlayer`] trait (what the actor runs): the built-in engine at a level 1–8, and an
//! external UCI engine the operator configured by name ([`UciEngineConfig`], never a path
//! from a player). An external engine is started lazily, on the engine thread of its first
//! search (under the same semaphore), kept for the game's later moves, and replaced by a
//! fresh process after an error (crash, timeout, illegal move) at most
//! [`MAX_ENGINE_RESTARTS`] times in a row; after that the computer does not move and its
//! clock runs.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::external::UciPlayer;
use arbiter_engine::play::EnginePlayer;
use arbiter_engine::Level;
use arbiter_game::{Game, Millis};
use arbiter_rules::Move;
use serde::{Deserialize, Serialize};
use tokio::sync::{watch, Semaphore};
use tokio::time::Instant;

use super::wire::{ComputerRequest, ComputerView, Seat};
use crate::error::{ApiResult, AppError};

/// A computer opponent as the game's actor drives it: it chooses a move for the side to move,
/// thinking as the clock allows, and answers at once when `stop` is set. It runs on a blocking
/// thread, one search at a time.
pub trait ComputerPlayer: Send {
    /// A move for the side to move of `game` at game time `now` (`Ok(None)`: no legal move).
    ///
    /// # Errors
    /// The player could not choose (an external engine crashed, timed out, answered an
    /// illegal move, or could not be started); the message is for the log.
    fn choose(
        &mut self,
        game: &Game,
        now: Millis,
        stop: &AtomicBool,
    ) -> Result<Option<Move>, String>;
}

impl ComputerPlayer for EnginePlayer {
    fn choose(
        &mut self,
        game: &Game,
        now: Millis,
        stop: &AtomicBool,
    ) -> Result<Option<Move>, String> {
        Ok(EnginePlayer::choose(self, game, now, stop))
    }
}

/// How many times in a row an external engine that failed is replaced by a fresh process
/// before the computer gives up moving (its clock then runs until its flag falls).
pub const MAX_ENGINE_RESTARTS: u32 = 3;

/// An external UCI engine the operator configured (`arbiter serve --uci-engine NAME=PATH`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciEngineConfig {
    /// The name players choose it by (`stockfish`).
    pub name: String,
    /// The program, run directly (no shell, no arguments).
    pub path: PathBuf,
    /// UCI options set at every start (`UCI_Elo` = `1500`); the engine must advertise them.
    pub options: Vec<(String, String)>,
}

/// A configured external engine, checked at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalEngine {
    /// The configuration.
    pub config: UciEngineConfig,
    /// The engine's `id name` (`Stockfish 15.1`).
    pub id_name: String,
    /// Whether it plays Chess960 (it advertises `UCI_Chess960`).
    pub chess960: bool,
}

/// Starts the configured engine once (a blocking call: run it on a blocking thread), reads
/// its `id name` and quits it.
///
/// # Errors
/// The program is missing, cannot be started, does not speak UCI, or lacks an option.
pub fn check_engine(config: UciEngineConfig) -> Result<ExternalEngine, String> {
    let mut p = UciPlayer::start(&config.path, &config.options).map_err(|e| e.to_string())?;
    let id_name = p.name().to_owned();
    let chess960 = p.engine().has_option("UCI_Chess960");
    drop(p);
    Ok(ExternalEngine {
        config,
        id_name,
        chess960,
    })
}

/// An external engine as a computer player: the process starts on the first search (on the
/// engine thread), and is dropped there after an error so that the next search starts a
/// fresh one, at most [`MAX_ENGINE_RESTARTS`] times in a row.
struct ExternalPlayer {
    /// `None`: the engine is no longer configured (the server restarted without it).
    engine: Option<Arc<ExternalEngine>>,
    name: String,
    max_think: Duration,
    player: Option<UciPlayer>,
    /// Failures since the last move played.
    failures: u32,
}

impl ComputerPlayer for ExternalPlayer {
    fn choose(
        &mut self,
        game: &Game,
        now: Millis,
        stop: &AtomicBool,
    ) -> Result<Option<Move>, String> {
        if self.failures > MAX_ENGINE_RESTARTS {
            return Err(format!(
                "engine '{}' failed {} times in a row; not restarted",
                self.name, self.failures
            ));
        }
        let r = match (&mut self.player, &self.engine) {
            (Some(p), _) => p.choose(game, now, stop).map_err(|e| e.to_string()),
            (None, None) => Err(format!("engine '{}' is not configured", self.name)),
            (None, Some(e)) => match UciPlayer::start(&e.config.path, &e.config.options) {
                Ok(mut p) => {
                    p.set_max_think(Some(self.max_think));
                    let r = p.choose(game, now, stop).map_err(|e| e.to_string());
                    self.player = Some(p);
                    r
                }
                Err(e) => Err(e.to_string()),
            },
        };
        match r {
            Ok(m) => {
                self.failures = 0;
                Ok(Some(m))
            }
            Err(_) if game.position().legal_moves().is_empty() => Ok(None),
            Err(e) => {
                // Quit the engine here, on the engine thread (it may take a moment).
                self.player = None;
                self.failures += 1;
                Err(e)
            }
        }
    }
}

/// What plays a computer seat, as stored with the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComputerKind {
    /// The built-in engine (`arbiter-engine`) at a level from 1 to 8.
    Engine {
        /// 1 (a beginner) to 8 (full strength).
        level: u8,
    },
    /// An external UCI engine configured by the operator.
    External {
        /// The configured name (`stockfish`).
        name: String,
        /// Its `id name` when the game was created (the name in the PGN).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id_name: Option<String>,
    },
}

impl ComputerKind {
    /// The player asked for at creation: a level or one of the configured `engines`.
    ///
    /// # Errors
    /// 400 `bad_computer_level` for a level outside 1–8, `unknown_engine` for an engine
    /// name not configured, `invalid_request` for neither or both.
    pub fn from_request(req: &ComputerRequest, engines: &Engines) -> ApiResult<Self> {
        match (req.level, req.engine.as_deref()) {
            (Some(level), None) => match Level::new(level) {
                Some(_) => Ok(Self::Engine { level }),
                None => Err(AppError::bad_request(
                    "bad_computer_level",
                    format!(
                        "computer level {level} is not in 1..=8 (1 plays like a beginner, 8 at full strength)"
                    ),
                )),
            },
            (None, Some(name)) => match engines.external(name) {
                Some(e) => Ok(Self::External {
                    name: name.to_owned(),
                    id_name: Some(e.id_name.clone()),
                }),
                None => Err(AppError::bad_request(
                    "unknown_engine",
                    format!("no engine named '{name}' is configured (see GET /api/engines)"),
                )),
            },
            _ => Err(AppError::bad_request(
                "invalid_request",
                "computer: give exactly one of `level` and `engine`",
            )),
        }
    }

    /// A fresh player of this kind (the built-in engine: its own engine and transposition
    /// table; an external engine: started at its first search). Every search is capped at
    /// the engines' `max_think`, whatever the clock would allow (days per move, long
    /// controls). An external engine no longer configured gives a player that never moves.
    ///
    /// # Errors
    /// A stored kind that can no longer be built (a corrupt level).
    pub fn build(&self, engines: &Engines) -> ApiResult<Box<dyn ComputerPlayer>> {
        match self {
            Self::Engine { level } => {
                let level = Level::new(*level).ok_or_else(|| {
                    AppError::Internal(format!("stored computer level {level} is not in 1..=8"))
                })?;
                let mut p = EnginePlayer::new(level);
                p.set_max_think(Some(engines.max_think));
                Ok(Box::new(p))
            }
            Self::External { name, .. } => Ok(Box::new(ExternalPlayer {
                engine: engines.external(name).cloned(),
                name: name.clone(),
                max_think: engines.max_think,
                player: None,
                failures: 0,
            })),
        }
    }

    /// The level, for the built-in engine.
    pub fn level(&self) -> Option<u8> {
        match self {
            Self::Engine { level } => Some(*level),
            Self::External { .. } => None,
        }
    }

    /// The configured name, for an external engine.
    pub fn engine(&self) -> Option<&str> {
        match self {
            Self::Engine { .. } => None,
            Self::External { name, .. } => Some(name),
        }
    }

    /// A name for the PGN and the API (`Arbiter level 5`, or the external engine's `id name`).
    pub fn name(&self) -> String {
        match self {
            Self::Engine { level } => format!("Arbiter level {level}"),
            Self::External { name, id_name } => id_name.clone().unwrap_or_else(|| name.clone()),
        }
    }
}

/// The computer seat of a game, stored as JSON in the `computer` column of `games`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComputerSeat {
    /// The seat the server plays.
    pub seat: Seat,
    /// Who plays it.
    pub player: ComputerKind,
}

impl ComputerSeat {
    /// The public description.
    pub fn view(&self) -> ComputerView {
        ComputerView {
            seat: self.seat,
            level: self.player.level(),
            engine: self.player.engine().map(str::to_owned),
            name: self.player.name(),
        }
    }
}

/// The server's engine threads: a semaphore bounding how many searches run at once, and
/// counters to watch it.
#[derive(Debug)]
pub struct Engines {
    permits: usize,
    max_think: Duration,
    sem: Arc<Semaphore>,
    active: AtomicUsize,
    peak: AtomicUsize,
    searches: AtomicU64,
    external: Vec<Arc<ExternalEngine>>,
}

/// Counters of [`Engines`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineStats {
    /// Searches allowed at once.
    pub permits: usize,
    /// Searches running now (each on its own blocking thread).
    pub active: usize,
    /// The most searches that ever ran at once.
    pub peak: usize,
    /// Searches started so far.
    pub searches: u64,
}

/// The default number of engine threads: the machine's CPUs.
pub fn default_engine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The default cap on one search (long controls and days per move think no longer).
pub const DEFAULT_MAX_THINK: Duration = Duration::from_secs(30);

impl Engines {
    /// At most `permits` searches at once (at least one), each at most `max_think` long.
    pub fn new(permits: usize, max_think: Duration) -> Arc<Self> {
        Self::with_external(permits, max_think, Vec::new())
    }

    /// As [`Engines::new`], with the configured external engines (checked at start-up).
    pub fn with_external(
        permits: usize,
        max_think: Duration,
        external: Vec<ExternalEngine>,
    ) -> Arc<Self> {
        let permits = permits.max(1);
        Arc::new(Self {
            permits,
            max_think,
            sem: Arc::new(Semaphore::new(permits)),
            active: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            searches: AtomicU64::new(0),
            external: external.into_iter().map(Arc::new).collect(),
        })
    }

    /// The configured external engine named `name`.
    pub fn external(&self, name: &str) -> Option<&Arc<ExternalEngine>> {
        self.external.iter().find(|e| e.config.name == name)
    }

    /// The configured external engines, in configuration order.
    pub fn externals(&self) -> impl Iterator<Item = &ExternalEngine> {
        self.external.iter().map(|e| &**e)
    }

    /// Searches allowed at once.
    pub fn permits(&self) -> usize {
        self.permits
    }

    /// Waits for an engine permit, for engine work other than a computer player's move (the
    /// queued computer analysis): held while the work runs on a blocking thread, so that all
    /// engine work together never exceeds [`Engines::permits`]. `None` once closed.
    pub async fn acquire(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.sem.clone().acquire_owned().await.ok()
    }

    /// The cap on one search.
    pub fn max_think(&self) -> Duration {
        self.max_think
    }

    /// The counters.
    pub fn stats(&self) -> EngineStats {
        EngineStats {
            permits: self.permits,
            active: self.active.load(Ordering::SeqCst),
            peak: self.peak.load(Ordering::SeqCst),
            searches: self.searches.load(Ordering::SeqCst),
        }
    }
}

/// Counts a running search while alive.
struct Running<'a>(&'a Engines);

impl<'a> Running<'a> {
    fn enter(e: &'a Engines) -> Self {
        let n = e.active.fetch_add(1, Ordering::SeqCst) + 1;
        e.peak.fetch_max(n, Ordering::SeqCst);
        e.searches.fetch_add(1, Ordering::SeqCst);
        Running(e)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A game's time, as its actor keeps it: game time `base_t` at the instant `base`.
#[derive(Debug, Clone, Copy)]
pub struct GameClock {
    /// Game time at `base`, ms.
    pub base_t: u64,
    /// The instant of `base_t`.
    pub base: Instant,
}

impl GameClock {
    /// The game time now.
    pub fn now_t(&self) -> u64 {
        self.base_t + u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX / 2)
    }
}

/// What a search answered.
pub struct Answer {
    /// The move in UCI (as the game writes it), `None` if the player found none.
    pub uci: Option<String>,
    /// The game time at which the player answered: the move's time on the clock.
    pub t: u64,
    /// The player, back for the next move.
    pub player: Box<dyn ComputerPlayer>,
}

/// How a search ended.
pub enum Outcome {
    /// The player answered.
    Answer(Answer),
    /// The player failed (panicked); it is lost with its thread.
    Failed,
    /// The player could not choose (an external engine's error, logged); it is back for the
    /// next attempt.
    Error(Box<dyn ComputerPlayer>),
    /// The server is shutting down; the search was stopped and its answer dropped.
    Closed,
}

/// Think about `game` (a snapshot; the side to move is the computer's): wait for an engine
/// permit, then search on a blocking thread. The clock is read when the search starts, so the
/// engine knows the time really left (waiting for a permit runs the computer's clock, like any
/// player's thinking).
pub async fn think(
    engines: Arc<Engines>,
    mut player: Box<dyn ComputerPlayer>,
    game: Game,
    clock: GameClock,
    stop: Arc<AtomicBool>,
    mut closing: watch::Receiver<bool>,
) -> Outcome {
    let closed = async move {
        // A dropped sender (the hub is gone) means closing too.
        let _ = closing.wait_for(|c| *c).await;
    };
    tokio::pin!(closed);
    let permit = tokio::select! {
        p = engines.sem.clone().acquire_owned() => match p {
            Ok(p) => p,
            Err(_) => return Outcome::Closed,
        },
        () = &mut closed => return Outcome::Closed,
    };
    let engines2 = engines.clone();
    let stop2 = stop.clone();
    let search = tokio::task::spawn_blocking(move || {
        // The permit lives as long as the search thread: never more searches than permits.
        let _permit = permit;
        let _running = Running::enter(&engines2);
        let uci = if stop2.load(Ordering::SeqCst) {
            Ok(None)
        } else {
            let now = clock.now_t();
            player
                .choose(&game, now, &stop2)
                .map(|m| m.map(|m| game.position().uci(m)))
        };
        match uci {
            Ok(uci) => Ok(Answer {
                uci,
                t: clock.now_t(),
                player,
            }),
            Err(e) => Err((e, player)),
        }
    });
    tokio::select! {
        r = search => match r {
            Ok(Ok(a)) => Outcome::Answer(a),
            Ok(Err((e, player))) => {
                tracing::error!(error = %e, "computer player could not choose a move");
                Outcome::Error(player)
            }
            Err(e) => {
                tracing::error!(error = %e, "computer player failed");
                Outcome::Failed
            }
        },
        () = &mut closed => {
            stop.store(true, Ordering::SeqCst);
            Outcome::Closed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_game::TimeControl;

    #[test]
    fn level_outside_1_to_8_is_refused_with_its_code() {
        let engines = Engines::new(1, DEFAULT_MAX_THINK);
        let req = |level: Option<u8>, engine: Option<&str>| ComputerRequest {
            level,
            engine: engine.map(str::to_owned),
        };
        for bad in [0u8, 9, 255] {
            let e = ComputerKind::from_request(&req(Some(bad), None), &engines).unwrap_err();
            assert_eq!(e.code(), "bad_computer_level");
        }
        assert_eq!(
            ComputerKind::from_request(&req(Some(8), None), &engines).unwrap(),
            ComputerKind::Engine { level: 8 }
        );
        let e = ComputerKind::from_request(&req(None, Some("stockfish")), &engines).unwrap_err();
        assert_eq!(e.code(), "unknown_engine");
        for (l, n) in [(None, None), (Some(3), Some("stockfish"))] {
            let e = ComputerKind::from_request(&req(l, n), &engines).unwrap_err();
            assert_eq!(e.code(), "invalid_request");
        }
    }

    #[test]
    fn external_engine_seat_is_stored_by_name_and_shows_its_id_name() {
        let s = ComputerSeat {
            seat: Seat::White,
            player: ComputerKind::External {
                name: "sf".into(),
                id_name: Some("Stockfish 15.1".into()),
            },
        };
        let j = serde_json::to_string(&s).unwrap();
        assert_eq!(
            j,
            r#"{"seat":"white","player":{"external":{"name":"sf","id_name":"Stockfish 15.1"}}}"#
        );
        assert_eq!(serde_json::from_str::<ComputerSeat>(&j).unwrap(), s);
        let v = s.view();
        assert_eq!(
            (v.level, v.engine.as_deref(), v.name.as_str()),
            (None, Some("sf"), "Stockfish 15.1")
        );
        // Without the id name (not required in the column), the configured name is shown.
        let old: ComputerSeat =
            serde_json::from_str(r#"{"seat":"black","player":{"external":{"name":"sf"}}}"#)
                .unwrap();
        assert_eq!(old.view().name, "sf");
    }

    #[test]
    fn an_engine_no_longer_configured_gives_up_after_the_restarts() {
        let engines = Engines::new(1, DEFAULT_MAX_THINK);
        let kind = ComputerKind::External {
            name: "gone".into(),
            id_name: None,
        };
        let mut p = kind.build(&engines).unwrap();
        let game = started();
        let stop = AtomicBool::new(false);
        for _ in 0..=MAX_ENGINE_RESTARTS {
            let e = p.choose(&game, 0, &stop).unwrap_err();
            assert!(e.contains("not configured"), "{e}");
        }
        let e = p.choose(&game, 0, &stop).unwrap_err();
        assert!(e.contains("not restarted"), "{e}");
    }

    #[test]
    fn computer_seat_is_stored_as_named_json() {
        let s = ComputerSeat {
            seat: Seat::Black,
            player: ComputerKind::Engine { level: 5 },
        };
        let j = serde_json::to_string(&s).unwrap();
        assert_eq!(j, r#"{"seat":"black","player":{"engine":{"level":5}}}"#);
        assert_eq!(serde_json::from_str::<ComputerSeat>(&j).unwrap(), s);
        assert_eq!(s.view().name, "Arbiter level 5");
    }

    /// A player that thinks for a fixed time (or until stopped) and counts how many think
    /// at once.
    struct Sleeper(Duration);

    impl ComputerPlayer for Sleeper {
        fn choose(
            &mut self,
            game: &Game,
            _now: Millis,
            stop: &AtomicBool,
        ) -> Result<Option<Move>, String> {
            let until = std::time::Instant::now() + self.0;
            while std::time::Instant::now() < until && !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
            }
            Ok(game.position().legal_moves().first().copied())
        }
    }

    struct Broken;

    impl ComputerPlayer for Broken {
        fn choose(
            &mut self,
            _game: &Game,
            _now: Millis,
            _stop: &AtomicBool,
        ) -> Result<Option<Move>, String> {
            panic!("a broken player");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_player_that_panics_is_reported_and_frees_its_thread() {
        let engines = Engines::new(1, DEFAULT_MAX_THINK);
        let closing = watch::channel(false);
        let clock = GameClock {
            base_t: 0,
            base: Instant::now(),
        };
        let r = think(
            engines.clone(),
            Box::new(Broken),
            started(),
            clock,
            Arc::new(AtomicBool::new(false)),
            closing.0.subscribe(),
        )
        .await;
        assert!(matches!(r, Outcome::Failed));
        let s = engines.stats();
        assert_eq!((s.active, s.searches), (0, 1));
        // The permit came back: the next search runs.
        let r = think(
            engines.clone(),
            Box::new(Sleeper(Duration::ZERO)),
            started(),
            clock,
            Arc::new(AtomicBool::new(false)),
            closing.0.subscribe(),
        )
        .await;
        assert!(matches!(r, Outcome::Answer(_)));
    }

    fn started() -> Game {
        let mut g = Game::standard(TimeControl::Untimed);
        g.start(0).unwrap();
        g
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn searches_never_exceed_the_permits() {
        let engines = Engines::new(1, DEFAULT_MAX_THINK);
        let closing = watch::channel(false);
        let clock = GameClock {
            base_t: 0,
            base: Instant::now(),
        };
        let t0 = std::time::Instant::now();
        let tasks: Vec<_> = (0..3)
            .map(|_| {
                tokio::spawn(think(
                    engines.clone(),
                    Box::new(Sleeper(Duration::from_millis(150))),
                    started(),
                    clock,
                    Arc::new(AtomicBool::new(false)),
                    closing.0.subscribe(),
                ))
            })
            .collect();
        let mut answers = Vec::new();
        for t in tasks {
            match t.await.unwrap() {
                Outcome::Answer(a) => answers.push(a),
                _ => panic!("an answer expected"),
            }
        }
        let s = engines.stats();
        assert_eq!((s.peak, s.active, s.searches), (1, 0, 3));
        // One after the other: three searches of 150 ms take at least 450 ms.
        assert!(
            t0.elapsed() >= Duration::from_millis(440),
            "{:?}",
            t0.elapsed()
        );
        let mut ts: Vec<u64> = answers.iter().map(|a| a.t).collect();
        ts.sort_unstable();
        assert!(ts[2] >= ts[0] + 280, "answers at {ts:?}");
        assert!(answers.iter().all(|a| a.uci.is_some()));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn stop_flag_ends_a_search_at_once_and_shutdown_drops_it() {
        let engines = Engines::new(2, DEFAULT_MAX_THINK);
        let (close, closing) = watch::channel(false);
        let clock = GameClock {
            base_t: 0,
            base: Instant::now(),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let t0 = std::time::Instant::now();
        let task = tokio::spawn(think(
            engines.clone(),
            Box::new(Sleeper(Duration::from_secs(30))),
            started(),
            clock,
            stop.clone(),
            closing.clone(),
        ));
        tokio::time::sleep(Duration::from_millis(50)).await;
        stop.store(true, Ordering::SeqCst);
        assert!(matches!(task.await.unwrap(), Outcome::Answer(_)));
        assert!(t0.elapsed() < Duration::from_secs(2));
        // Shutdown: no answer, and the search stops.
        let stop = Arc::new(AtomicBool::new(false));
        let task = tokio::spawn(think(
            engines.clone(),
            Box::new(Sleeper(Duration::from_secs(30))),
            started(),
            clock,
            stop.clone(),
            closing,
        ));
        tokio::time::sleep(Duration::from_millis(50)).await;
        close.send(true).unwrap();
        assert!(matches!(task.await.unwrap(), Outcome::Closed));
        assert!(stop.load(Ordering::SeqCst));
        for _ in 0..200 {
            if engines.stats().active == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(engines.stats().active, 0);
    }
}
