//! UCI move notation (`e2e4`, `e7e8q`), with both castling encodings: the king moving two
//! squares (standard chess) and the king taking its own rook (Chess960, `UCI_Chess960`).

use crate::{CastlingMode, Move, Position, Role, Square};
use core::fmt;

/// Why a UCI move could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciError {
    /// Not UCI notation at all.
    Syntax(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Syntax(s) => {
                write!(f, "'{s}' is not a UCI move (expected e.g. e2e4 or e7e8q)")
            }
            UciError::Illegal(s) => write!(f, "illegal move {s}"),
        }
    }
}

impl std::error::Error for UciError {}

/// A move in UCI notation, not yet tied to a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// Origin square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
    /// Promotion piece.
    pub promotion: Option<Role>,
}

impl core::str::FromStr for UciMove {
    type Err = UciError;
    fn from_str(s: &str) -> Result<UciMove, UciError> {
        let bad = || UciError::Syntax(s.chars().take(16).collect());
        if !(4..=5).contains(&s.len()) || !s.is_ascii() {
            return Err(bad());
        }
        let from: Square = s[0..2].parse().map_err(|_| bad())?;
        let to: Square = s[2..4].parse().map_err(|_| bad())?;
        let promotion = match s.as_bytes().get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(r) if c.is_ascii_lowercase() && r != Role::Pawn && r != Role::King => Some(r),
                _ => return Err(bad()),
            },
        };
        if from == to {
            return Err(bad());
        }
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl Position {
    /// The move in UCI notation; castling as king-two-squares in standard mode and as
    /// king-takes-rook in Chess960 mode.
    pub fn uci(&self, m: Move) -> String {
        self.uci_with(m, self.mode).to_string()
    }

    /// The move in UCI notation with the given castling encoding.
    ///
    /// The king-two-squares encoding exists only for standard castling (king on the e-file,
    /// rook in the corner); any other castling (Chess960) is written king-takes-rook in both
    /// modes, since e.g. `g1g1` (a king that stays) or `b1c1` (also a plain king move) would
    /// not read back.
    pub fn uci_with(&self, m: Move, mode: CastlingMode) -> UciMove {
        let standard_castling = |side| {
            let corner = match side {
                crate::CastlingSide::KingSide => crate::File::H,
                crate::CastlingSide::QueenSide => crate::File::A,
            };
            m.from.file() == crate::File::E && m.to.file() == corner
        };
        let to = match (mode, self.castling_side(m)) {
            (CastlingMode::Standard, Some(side)) if standard_castling(side) => {
                side.king_to(self.turn)
            }
            _ => m.to,
        };
        UciMove {
            from: m.from,
            to,
            promotion: m.promotion,
        }
    }

    /// Reads a UCI move and checks it is legal. Both castling encodings are accepted in either
    /// mode (king two squares, king takes rook) as long as they are unambiguous.
    ///
    /// # Errors
    /// [`UciError::Syntax`] or [`UciError::Illegal`].
    pub fn parse_uci(&self, s: &str) -> Result<Move, UciError> {
        let u: UciMove = s.parse()?;
        self.uci_to_move(u)
            .ok_or_else(|| UciError::Illegal(s.to_string()))
    }

    /// Finds the legal move a [`UciMove`] stands for.
    pub fn uci_to_move(&self, u: UciMove) -> Option<Move> {
        let m = Move {
            from: u.from,
            to: u.to,
            promotion: u.promotion,
        };
        if self.is_legal(m) {
            return Some(m);
        }
        // King two squares toward a castling rook: castling in the king-takes-rook encoding.
        if u.promotion.is_none() && u.from == self.our_king() && u.from.rank() == u.to.rank() {
            for side in crate::CastlingSide::ALL {
                if side.king_to(self.turn) == u.to {
                    if let Some(rook) = self.castles.rook(self.turn, side) {
                        let castle = Move::new(u.from, rook);
                        if self.is_legal(castle) {
                            return Some(castle);
                        }
                    }
                }
            }
        }
        None
    }
}
