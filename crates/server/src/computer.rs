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
//! Two kinds of player can plug in through [`ComputerKind`] (stored with the game) and the
//! [`ComputerPlayer`] trait (what the actor runs): today the built-in engine at a level 1–8;
//! an external UCI engine would be a second variant and a second implementation.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::play::EnginePlayer;
use arbiter_engine::Level;
use arbiter_game::{Game, Millis};
use arbiter_rules::Move;
use serde::{Deserialize, Serialize};
use tokio::sync::{watch, Semaphore};
use tokio::time::Instant;

use crate::api::{ComputerRequest, ComputerView, Seat};
use crate::error::{ApiResult, AppError};

/// A computer opponent as the game's actor drives it: it chooses a move for the side to move,
/// thinking as the clock allows, and answers at once when `stop` is set. It runs on a blocking
/// thread, one search at a time.
pub trait ComputerPlayer: Send {
    /// A move for the side to move of `game` at game time `now` (`None`: no legal move).
    fn choose(&mut self, game: &Game, now: Millis, stop: &AtomicBool) -> Option<Move>;
}

impl ComputerPlayer for EnginePlayer {
    fn choose(&mut self, game: &Game, now: Millis, stop: &AtomicBool) -> Option<Move> {
        EnginePlayer::choose(self, game, now, stop)
    }
}

/// What plays a computer seat, as stored with the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComputerKind {
    /// The built-in engine (`arbiter-engine`) at a level from 1 to 8.
    Engine {
        /// 1 (a beginner) to 8 (full strength).
        level: u8,
    },
}

impl ComputerKind {
    /// The player asked for at creation.
    ///
    /// # Errors
    /// 400 `bad_computer_level` for a level outside 1–8.
    pub fn from_request(req: &ComputerRequest) -> ApiResult<Self> {
        match Level::new(req.level) {
            Some(_) => Ok(Self::Engine { level: req.level }),
            None => Err(AppError::bad_request(
                "bad_computer_level",
                format!(
                    "computer level {} is not in 1..=8 (1 plays like a beginner, 8 at full strength)",
                    req.level
                ),
            )),
        }
    }

    /// A fresh player of this kind (its own engine and transposition table). Every search is
    /// capped at `max_think`, whatever the clock would allow (days per move, long controls).
    ///
    /// # Errors
    /// A stored kind that can no longer be built (a corrupt level).
    pub fn build(&self, max_think: Duration) -> ApiResult<Box<dyn ComputerPlayer>> {
        match *self {
            Self::Engine { level } => {
                let level = Level::new(level).ok_or_else(|| {
                    AppError::Internal(format!("stored computer level {level} is not in 1..=8"))
                })?;
                let mut p = EnginePlayer::new(level);
                p.set_max_think(Some(max_think));
                Ok(Box::new(p))
            }
        }
    }

    /// The level, for the built-in engine.
    pub fn level(&self) -> Option<u8> {
        match *self {
            Self::Engine { level } => Some(level),
        }
    }

    /// A name for the PGN and the API (`Arbiter level 5`).
    pub fn name(&self) -> String {
        match *self {
            Self::Engine { level } => format!("Arbiter level {level}"),
        }
    }
}

/// The computer seat of a game, stored as JSON in the `computer` column of `games`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
        let permits = permits.max(1);
        Arc::new(Self {
            permits,
            max_think,
            sem: Arc::new(Semaphore::new(permits)),
            active: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            searches: AtomicU64::new(0),
        })
    }

    /// Searches allowed at once.
    pub fn permits(&self) -> usize {
        self.permits
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
            None
        } else {
            let now = clock.now_t();
            player
                .choose(&game, now, &stop2)
                .map(|m| game.position().uci(m))
        };
        Answer {
            uci,
            t: clock.now_t(),
            player,
        }
    });
    tokio::select! {
        r = search => match r {
            Ok(a) => Outcome::Answer(a),
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
        for bad in [0u8, 9, 255] {
            let e = ComputerKind::from_request(&ComputerRequest { level: bad }).unwrap_err();
            assert_eq!(e.code(), "bad_computer_level");
        }
        assert_eq!(
            ComputerKind::from_request(&ComputerRequest { level: 8 }).unwrap(),
            ComputerKind::Engine { level: 8 }
        );
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
        fn choose(&mut self, game: &Game, _now: Millis, stop: &AtomicBool) -> Option<Move> {
            let until = std::time::Instant::now() + self.0;
            while std::time::Instant::now() < until && !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
            }
            game.position().legal_moves().first().copied()
        }
    }

    struct Broken;

    impl ComputerPlayer for Broken {
        fn choose(&mut self, _game: &Game, _now: Millis, _stop: &AtomicBool) -> Option<Move> {
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
