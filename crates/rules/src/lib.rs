//! # arbiter-rules
//!
//! The FIDE Laws of Chess (2018) for one position and its history: bitboards, legal move
//! generation, playing moves, Zobrist hashing, FEN (with X-FEN and Shredder-FEN castling), SAN
//! with national piece letters and figurines (Appendix C), UCI moves, Chess960 (Guideline II),
//! and the game-end facts of Articles 5 and 9.
//!
//! No I/O and no dependencies.
//!
//! ```
//! use arbiter_rules::{History, Position, Termination};
//!
//! // Fool's mate.
//! let mut game = History::new(Position::new());
//! for san in ["f3", "e5", "g4", "Qh4#"] {
//!     let m = game.position().parse_san(san).unwrap();
//!     game.push(m).unwrap();
//! }
//! let outcome = game.outcome().unwrap();
//! assert_eq!(outcome.termination, Termination::Checkmate);
//! assert_eq!(outcome.result(), "0-1");
//! assert_eq!(Position::new().perft(3), 8902);
//! ```

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod chess960;
mod color;
pub mod dead;
pub mod fen;
mod history;
mod movegen;
mod moves;
mod outcome;
mod position;
mod resolve;
mod role;
pub mod san;
mod square;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{Castles, CastlingMode, CastlingSide};
pub use color::{Color, ParseColorError};
pub use fen::FenError;
pub use history::History;
pub use movegen::PieceMoves;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use outcome::{Outcome, Termination};
pub use position::{PlayError, Position, PositionError, RepetitionKey, Setup};
pub use role::{Piece, Role};
pub use san::{Lang, San, SanError, SanPlus};
pub use square::{File, ParseSquareError, Rank, Square};
pub use uci::{UciError, UciMove};
