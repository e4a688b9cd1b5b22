//! Errors found while reading a game.

use core::fmt;

/// Where in the input something was found: game number (1-based, counting every game of the
/// input), line and column (1-based; the column counts bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Location {
    /// The game, counting from 1.
    pub game: u64,
    /// The line, counting from 1.
    pub line: u64,
    /// The column (byte), counting from 1.
    pub column: u64,
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// A move that is written correctly but that no legal move fits (Art. 3, Art. 7.5).
    IllegalMove {
        /// The move as written.
        text: String,
        /// The side to move and move number, e.g. "White's move 12".
        expected: String,
    },
    /// A move that more than one legal move fits (Appendix C.10).
    AmbiguousMove {
        /// The move as written.
        text: String,
        /// The legal moves it could stand for, in SAN.
        candidates: Vec<String>,
    },
    /// A token where a move was expected that is not a move in any notation this reader
    /// understands.
    NotAMove {
        /// The token.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The `FEN` tag does not describe a legal position.
    BadFen {
        /// The tag value.
        fen: String,
        /// What is wrong.
        reason: String,
    },
    /// The `Variant` tag names a game other than chess or Chess960.
    UnsupportedVariant(String),
    /// Variations nested deeper than [`crate::MAX_VARIATION_DEPTH`].
    TooDeep,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::IllegalMove { text, expected } => {
                write!(
                    f,
                    "illegal move '{text}': expected a legal move for {expected}"
                )
            }
            ErrorKind::AmbiguousMove { text, candidates } => write!(
                f,
                "ambiguous move '{text}': could be {}; expected a move naming its origin",
                candidates.join(" or ")
            ),
            ErrorKind::NotAMove { text, reason } => {
                write!(f, "expected a move, found '{text}' ({reason})")
            }
            ErrorKind::BadFen { fen, reason } => {
                write!(
                    f,
                    "bad FEN tag \"{fen}\": {reason}; expected a legal position"
                )
            }
            ErrorKind::UnsupportedVariant(v) => {
                write!(
                    f,
                    "variant \"{v}\" is not chess; expected chess or Chess960"
                )
            }
            ErrorKind::TooDeep => write!(
                f,
                "variations nested deeper than {}",
                crate::MAX_VARIATION_DEPTH
            ),
        }
    }
}

/// An error in one game: where and what. The reader reports it, skips the rest of that game
/// and goes on with the next one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// Where.
    pub location: Location,
    /// What.
    pub kind: ErrorKind,
}

impl ReadError {
    /// The game number (1-based).
    pub fn game(&self) -> u64 {
        self.location.game
    }
    /// The line (1-based).
    pub fn line(&self) -> u64 {
        self.location.line
    }
    /// The column (1-based, bytes).
    pub fn column(&self) -> u64 {
        self.location.column
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, {}:{}: {}",
            self.location.game, self.location.line, self.location.column, self.kind
        )
    }
}

impl std::error::Error for ReadError {}
