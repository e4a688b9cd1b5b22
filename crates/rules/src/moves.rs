//! Moves and move lists.

use crate::{Role, Square};
use core::fmt;

/// A move, as the position that it is played in understands it.
///
/// A move is its origin and destination square plus the promotion piece. Castling is encoded
/// as **the king taking its own rook** (`from` = king square, `to` = rook square). That encoding
/// is unambiguous in Chess960 (Guideline II), where the king may not move at all or may land on
/// its rook's square; [`crate::uci`] converts to and from the king-two-squares form of standard
/// chess. En passant is a pawn moving diagonally to the en passant square.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves (the king's square when castling).
    pub from: Square,
    /// The square the piece goes to (the castling rook's square when castling).
    pub to: Square,
    /// The piece a pawn is promoted to (Art. 3.7.5), if any.
    pub promotion: Option<Role>,
}

impl Move {
    /// A move without promotion.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: None,
        }
    }

    /// A promotion move.
    #[inline]
    pub const fn with_promotion(from: Square, to: Square, role: Role) -> Move {
        Move {
            from,
            to,
            promotion: Some(role),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

/// The most legal moves a position reachable in a game can have is 218. FEN can describe
/// positions with more material than a game can reach (the perft suites hold one with 270
/// legal moves); 1,024 leaves room for those.
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack (no allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::A1, Square::A1); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. Moves beyond [`MAX_MOVES`] would be dropped (no position reaches it).
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (e.g. for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if f(&self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }

    /// `true` if `m` is in the list.
    #[inline]
    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
