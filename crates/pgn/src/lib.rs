//! # arbiter-pgn
//!
//! The game record of Article 8 and Appendix C as PGN: a streaming, lenient reader that checks
//! every move against the Laws (via [`arbiter_rules`]), and a writer of the PGN export format.
//!
//! * [`GameRecord`]: tags, a move tree ([`Line`] of [`Node`]s) with comments, NAGs, clock
//!   values (`[%clk]`, `[%emt]`), draw-offer marks `(=)` (Art. 9.1.2.2) and variations.
//! * [`Reader`]: streaming, constant memory, [`Visitor`]-based; [`GameBuilder`] turns the
//!   visits into records, [`read_all`] reads a whole text.
//! * [`Writer`]: the export format, or national piece letters / figurines for display.
//!
//! ```
//! use arbiter_pgn::{GameRecord, GameResult, Writer};
//! use arbiter_rules::Position;
//! use std::time::Duration;
//!
//! let mut game = GameRecord::new();
//! game.tags.set("White", "Anna");
//! game.tags.set("Black", "Bert");
//! let mut pos = Position::new();
//! for san in ["e4", "e5", "Nf3"] {
//!     let m = pos.parse_san(san).unwrap();
//!     game.moves.push(m).clock = Some(Duration::from_secs(300));
//!     pos.play_unchecked(m);
//! }
//! game.moves.nodes[2].draw_offer = true;
//! game.result = GameResult::Unknown;
//! let pgn = Writer::export().write(&game).unwrap();
//! assert!(pgn.starts_with("[Event \"?\"]\n"));
//! assert!(pgn.contains("1. e4 {[%clk 0:05:00]} 1... e5 {[%clk 0:05:00]} 2. Nf3 {[%clk 0:05:00]} {(=)} *"));
//!
//! // Read it back: the same record (the writer added the missing roster tags).
//! let back = GameRecord::from_pgn(&pgn).unwrap();
//! assert_eq!(back.moves, game.moves);
//! assert_eq!(back.tags.get("White"), Some("Anna"));
//! assert_eq!(back.tags.get("Date"), Some("????.??.??"));
//! ```

mod builder;
mod comment;
mod error;
mod game;
mod reader;
mod result_check;
mod tags;
mod writer;

pub use builder::{read_all, GameBuilder};
pub use error::{ErrorKind, Location, ReadError};
pub use reader::{Control, Games, Reader, Visitor, MAX_COMMENT, MAX_TAG_LINE, MAX_VARIATION_DEPTH};

pub use comment::{format_duration, parse_comment, parse_duration, ParsedComment, DRAW_OFFER_MARK};
pub use game::{GameRecord, Line, Nag, Node};
pub use result_check::{board_result, check_result, BoardEnding, ResultConflict};
pub use tags::{roster_default, GameResult, ParseResultError, Tags, SEVEN_TAG_ROSTER};
pub use writer::{WriteError, Writer, MAX_LINE};
