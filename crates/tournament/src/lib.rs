//! # arbiter-tournament
//!
//! Competitions as an arbiter runs them: players, rounds, results and the scoring system
//! ([`model`]), FIDE's tournament report format ([`trf`]), round-robin pairings by the Berger
//! tables (C.05 Annex 1, [`berger`]) and the tie-breaks of C.07 ([`tiebreak`]).
//!
//! **Deterministic, no I/O**: files are read from and written to strings; the same input
//! always gives the same output.
//!
//! ```
//! use arbiter_tournament::model::{Points, StartNo};
//!
//! let text = "012 Club championship\n\
//! 001    1      Smith, Anna                       2100                             1.0    1     2 w 1\n\
//! 001    2      Jones, Bob                        2000                             0.0    2     1 b 0\n";
//! let read = arbiter_tournament::trf::read(text);
//! assert!(read.diagnostics.is_empty());
//! let tournament = read.tournament;
//! let anna = tournament.player(StartNo(1)).unwrap();
//! assert_eq!(tournament.points_after(anna, 1), Points::ONE);
//! ```

pub mod berger;
pub mod dutch;
pub mod matching;
pub mod model;
pub mod tiebreak;
pub mod trf;
