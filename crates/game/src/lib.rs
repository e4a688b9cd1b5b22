//! # arbiter-game
//!
//! A chess game as an arbiter runs it under the FIDE Laws (2018): time controls and the
//! clock (Art. 6, Appendices A/B), draw offers and claims (Art. 9), illegal-move penalties
//! (Art. 7.5), adjournment (Guideline I), results, terminations and scoring (Art. 5, 10).
//!
//! **Deterministic**: every event method takes `now`, a monotonic timestamp in milliseconds
//! chosen by the caller; nothing here reads the system clock or sleeps.
//!
//! ## API overview
//!
//! - [`TimeControl`] — `FromStr`/`Display` for the human form (`5+3`, `90/40+30, 30+30`,
//!   `5 d3`, `5 sd3`, `30s/move`, `3d/move`, `hourglass 3`, `untimed`),
//!   [`TimeControl::from_pgn`]/[`TimeControl::to_pgn`] for the PGN tag (`300+2`,
//!   `40/5400:1800`, `*180`, `?`, `-`), [`TimeControl::speed`] (blitz/rapid/standard, A.1/B.1).
//! - [`Rules`] — the competition's choices with FIDE defaults: illegal moves rejected or
//!   penalised (7.5.5), draw offers allowed / not before move N / never (9.1.1), scoring
//!   1-½-0 or 3-1-0 (10.1), penalty time, abort, adjournment.
//! - [`Game`] — built from a [`GameConfig`] (start FEN, Chess960, time control, rules).
//!   - events: [`Game::start`] (Art. 6.6), [`Game::play`] / [`Game::play_uci`] /
//!     [`Game::play_san`] with [`MoveOptions`] (draw offer, lag credit),
//!     [`Game::offer_draw`], [`Game::accept_draw`], [`Game::decline_draw`],
//!     [`Game::claim_draw`] (9.2/9.3, optionally with an intended move), [`Game::resign`],
//!     [`Game::abort`], [`Game::check_time`] (flag without a move), [`Game::add_time`],
//!     [`Game::adjourn`] / [`Game::resume`] (Guideline I), [`Game::declare_result`]
//!     (forfeits, arbiter decisions);
//!   - queries: [`Game::position`], [`Game::turn`], [`Game::moves`] (with `[%clk]`
//!     readings), [`Game::clocks`] at an instant, [`Game::next_deadline`] (when to schedule
//!     the flag timer), [`Game::status`], [`Game::result`], [`Game::termination`],
//!     [`Game::points`], [`Game::draw_offer`], [`Game::claimable`], [`Game::ledger`];
//!   - storage: [`Game::record`] gives a [`GameRecord`] (config + timestamped events, serde
//!     behind the default `serde` feature); [`Game::from_record`] replays it exactly.
//! - the record (Art. 8): [`Game::to_pgn`] / [`Game::to_pgn_record`] (via `arbiter-pgn`:
//!   `TimeControl`, `Termination`, `[%clk]`/`[%emt]` after every move, `(=)`, Chess960 tags)
//!   and [`Game::from_pgn`], which rebuilds a game that continues with the same position and
//!   clocks.
//! - [`MatingAnalysis`] — the hook for "cannot checkmate by any series of legal moves"
//!   (5.2.2, 6.9, 7.5.5); [`ExactAnalysis`] (`arbiter_rules::dead`, sound) is the default,
//!   [`MaterialAnalysis`] the material-only alternative.
//!
//! ```
//! use arbiter_game::{Game, GameResult, MoveOptions, Termination, TimeControl};
//! use arbiter_rules::Color;
//!
//! let tc: TimeControl = "3+2".parse().unwrap();
//! assert_eq!(tc.to_pgn(), "180+2");
//! let mut game = Game::standard(tc);
//! game.start(0).unwrap();
//! game.play_san(Color::White, "e4", 1_000, MoveOptions::default()).unwrap();
//! // White used 1 s and got 2 s back.
//! assert_eq!(game.clocks(1_000).unwrap().white_ms, 181_000);
//! // Black's flag falls at 180 s after White's move if Black never moves.
//! assert_eq!(game.next_deadline(), Some(181_000));
//! assert!(game.check_time(181_000));
//! assert_eq!(game.result(), GameResult::WhiteWins);
//! assert_eq!(game.termination(), Some(Termination::Timeout));
//! ```

mod analysis;
mod clock;
mod event;
mod game;
mod pgn;
mod result;
mod rules;
mod time_control;

pub use arbiter_pgn;

/// Milliseconds: timestamps (the caller's monotonic clock) and durations.
pub type Millis = u64;

pub use analysis::{ExactAnalysis, MaterialAnalysis, MatingAnalysis};
pub use clock::{ClockLedger, Clocks};
pub use event::{Event, GameConfig, GameRecord, TimedEvent};
pub use game::{
    ClaimOutcome, Claimable, Game, GameError, MoveOptions, MoveOutcome, MoveRecord, Note,
    OfferOutcome, ReplayError, Status,
};
pub use pgn::FromPgnError;
pub use result::{GameResult, ParseResultError, Points, Scoring, Termination};
pub use rules::{DrawOffers, IllegalMovePolicy, Rules};
pub use time_control::{Delay, DelayKind, ParseTimeControlError, Period, Speed, TimeControl};
