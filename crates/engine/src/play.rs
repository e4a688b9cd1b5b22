//! Playing against people: the seam between a game host (the server) and the engine.
//!
//! The host keeps the game (an [`arbiter_game::Game`]) and its one clock. When it is the
//! computer's turn, it takes a snapshot, runs [`EnginePlayer::choose`] on a blocking thread
//! (never on an async worker; bound the number of such threads, e.g. with a semaphore), and
//! plays the returned move on the live game with the clock reading of the moment the engine
//! answered, like any other player's move:
//!
//! ```
//! use arbiter_engine::play::EnginePlayer;
//! use arbiter_engine::Level;
//! use arbiter_game::{Game, MoveOptions, TimeControl};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut game = Game::standard(TimeControl::fischer(60_000, 1_000));
//! game.start(0).unwrap();
//! let mut computer = EnginePlayer::new(Level::new(3).unwrap());
//! let stop = AtomicBool::new(false);
//! let m = computer.choose(&game, 0, &stop).unwrap();
//! let uci = game.position().uci(m);
//! game.play_uci(game.turn(), &uci, 250, MoveOptions::default()).unwrap();
//! ```
//!
//! ## Either kind of computer: [`Opponent`]
//!
//! A host that offers both the built-in engine and an external UCI engine (e.g. Debian's
//! `/usr/games/stockfish`, see [`crate::external`]) holds an [`Opponent`], an enum of the
//! two players with the same `choose` and a `name`. An enum rather than a trait object:
//! there are exactly two kinds, it is `Send` without boxing, and the host can still reach
//! the player inside (e.g. its level). [`Opponent::choose`] returns `Ok(None)` when the game
//! is over, like [`EnginePlayer::choose`], and an error only when an external engine failed
//! (not found, not UCI, timed out, crashed, or an illegal move, which is never played):
//!
//! ```
//! use arbiter_engine::play::{EnginePlayer, Opponent};
//! use arbiter_engine::Level;
//! use arbiter_game::{Game, TimeControl};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut game = Game::standard(TimeControl::fischer(60_000, 1_000));
//! game.start(0).unwrap();
//! // Or: Opponent::External(UciPlayer::start("/usr/games/stockfish", &[("UCI_Elo", "1500")])?)
//! let mut computer = Opponent::Builtin(EnginePlayer::new(Level::new(2).unwrap()));
//! assert_eq!(computer.name(), "Arbiter level 2");
//! let m = computer.choose(&game, 0, &AtomicBool::new(false)).unwrap().unwrap();
//! assert!(game.position().is_legal(m));
//! ```

use crate::clock::clock_state;
use crate::external::{ExternalError, UciPlayer};
use crate::{Engine, Level, Limits};
use arbiter_game::{Game, Millis};
use arbiter_rules::Move;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A computer opponent at a given level, with its own engine (transposition table included).
pub struct EnginePlayer {
    engine: Engine,
    untimed: Duration,
    max_think: Option<Duration>,
}

impl EnginePlayer {
    /// A player at `level` with an 8 MB transposition table.
    pub fn new(level: Level) -> EnginePlayer {
        let mut engine = Engine::with_hash(8);
        engine.set_level(level);
        // A server's moves reach the clock within milliseconds; keep a little margin for
        // thread scheduling on a busy machine.
        engine.set_move_overhead(Duration::from_millis(100));
        EnginePlayer {
            engine,
            untimed: Duration::from_millis(1_000),
            max_think: None,
        }
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.engine.level()
    }

    /// A name for people: `Arbiter level N`.
    pub fn name(&self) -> String {
        format!("Arbiter level {}", self.level().get())
    }

    /// Thinking time per move in untimed games (default 1 s).
    pub fn set_untimed_think(&mut self, t: Duration) {
        self.untimed = t;
    }

    /// A cap on thinking per move whatever the clock allows (e.g. to share the machine).
    pub fn set_max_think(&mut self, t: Option<Duration>) {
        self.max_think = t;
    }

    /// The limits for the position of `game` at `now`.
    pub fn limits(&self, game: &Game, now: Millis) -> Limits {
        let mut limits = match clock_state(game, now) {
            Some(c) => Limits::clock(c),
            None => Limits::movetime(self.untimed),
        };
        if let Some(cap) = self.max_think {
            limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
        }
        limits
    }

    /// Chooses a move for the side to move in `game`, thinking as the clock at `now` allows.
    /// `None` if the side to move has no legal move. Set `stop` to make it answer at once
    /// (e.g. the game ended meanwhile).
    pub fn choose(&mut self, game: &Game, now: Millis, stop: &AtomicBool) -> Option<Move> {
        let limits = self.limits(game, now);
        self.engine
            .search_history(game.history(), &limits, stop, &mut |_| {})
            .best
    }
}

/// A computer opponent of either kind: the built-in engine or an external UCI engine.
pub enum Opponent {
    /// The Arbiter engine at a level.
    Builtin(EnginePlayer),
    /// An external UCI engine.
    External(UciPlayer),
}

impl Opponent {
    /// A name for people: `Arbiter level N`, or the external engine's `id name`.
    pub fn name(&self) -> String {
        match self {
            Opponent::Builtin(p) => p.name(),
            Opponent::External(p) => p.name().to_string(),
        }
    }

    /// Chooses a move for the side to move in `game` as the clock at `now` allows; `Ok(None)`
    /// if the side to move has no legal move. Set `stop` to make it answer at once. Run it
    /// on a blocking thread.
    ///
    /// # Errors
    /// Only from an external engine: see [`UciPlayer::choose`]. The built-in engine does
    /// not fail.
    pub fn choose(
        &mut self,
        game: &Game,
        now: Millis,
        stop: &AtomicBool,
    ) -> Result<Option<Move>, ExternalError> {
        match self {
            Opponent::Builtin(p) => Ok(p.choose(game, now, stop)),
            Opponent::External(p) => match p.choose(game, now, stop) {
                Ok(m) => Ok(Some(m)),
                Err(ExternalError::NoLegalMove) => Ok(None),
                Err(e) => Err(e),
            },
        }
    }
}

impl From<EnginePlayer> for Opponent {
    fn from(p: EnginePlayer) -> Opponent {
        Opponent::Builtin(p)
    }
}

impl From<UciPlayer> for Opponent {
    fn from(p: UciPlayer) -> Opponent {
        Opponent::External(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_game::{MoveOptions, TimeControl};

    #[test]
    fn engine_player_answers_within_its_clock() {
        let mut game = Game::standard(TimeControl::fischer(3_000, 0));
        game.start(0).unwrap();
        let mut p = EnginePlayer::new(Level::MAX);
        let stop = AtomicBool::new(false);
        let t = std::time::Instant::now();
        let m = p.choose(&game, 0, &stop).unwrap();
        assert!(t.elapsed() < Duration::from_millis(3_000));
        assert!(game.position().is_legal(m));
    }

    #[test]
    fn opponent_is_send_so_a_host_can_move_it_to_a_blocking_thread() {
        fn send<T: Send>() {}
        send::<Opponent>();
        send::<EnginePlayer>();
        send::<UciPlayer>();
    }

    #[test]
    fn opponent_builtin_answers_none_when_the_game_is_over() {
        // Fool's mate: White is checkmated (Art. 5.1.1), no move to choose.
        let mut game = Game::standard(TimeControl::Untimed);
        game.start(0).unwrap();
        for (i, m) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
            let color = if i % 2 == 0 {
                arbiter_rules::Color::White
            } else {
                arbiter_rules::Color::Black
            };
            game.play_uci(color, m, 0, MoveOptions::default()).unwrap();
        }
        let mut o = Opponent::from(EnginePlayer::new(Level::MIN));
        assert_eq!(o.name(), "Arbiter level 1");
        assert_eq!(o.choose(&game, 0, &AtomicBool::new(false)).unwrap(), None);
    }
}
