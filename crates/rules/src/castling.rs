//! Castling rights and geometry (Art. 3.8.2, Guideline II for Chess960).

use crate::{Bitboard, Color, File, Rank, Square};

/// Which side of the king the castling rook stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Toward the h-file: `O-O`, king ends on g, rook on f.
    KingSide = 0,
    /// Toward the a-file: `O-O-O`, king ends on c, rook on d.
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// File the king ends on (Art. 3.8.2.1; Guideline II.3).
    #[inline]
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// File the rook ends on.
    #[inline]
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// Square the king of `color` ends on.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::back_rank(color))
    }

    /// Square the rook of `color` ends on.
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::back_rank(color))
    }

    /// `O-O` or `O-O-O` (Appendix C.13).
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }
}

/// How castling is written and how castling rights are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess: king e1/e8, rooks in the corners; UCI `e1g1`; FEN `KQkq`.
    #[default]
    Standard,
    /// Chess960 (Guideline II): any start files; UCI king-takes-rook; Shredder/X-FEN fields.
    Chess960,
}

/// The rooks that may still castle: at most one per colour and side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Castles {
    rooks: [[Option<Square>; 2]; 2],
}

impl Castles {
    /// No castling rights.
    pub const NONE: Castles = Castles {
        rooks: [[None; 2]; 2],
    };

    /// The rights of the standard starting position.
    pub const STANDARD: Castles = Castles {
        rooks: [
            [Some(Square::H1), Some(Square::A1)],
            [Some(Square::H8), Some(Square::A8)],
        ],
    };

    /// The rook square for `color` and `side`, if that right is held.
    #[inline]
    pub const fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.rooks[color as usize][side as usize]
    }

    /// Sets or clears a right.
    #[inline]
    pub fn set(&mut self, color: Color, side: CastlingSide, rook: Option<Square>) {
        self.rooks[color as usize][side as usize] = rook;
    }

    /// Clears both rights of `color`.
    #[inline]
    pub fn discard_color(&mut self, color: Color) {
        self.rooks[color as usize] = [None, None];
    }

    /// `true` if no right is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rooks == [[None; 2]; 2]
    }

    /// `true` if `color` holds any right.
    #[inline]
    pub fn has_color(&self, color: Color) -> bool {
        self.rooks[color as usize] != [None, None]
    }

    /// The squares of all rooks that may castle.
    pub fn mask(&self) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for c in &self.rooks {
            for sq in c.iter().flatten() {
                bb.add(*sq);
            }
        }
        bb
    }

    /// The colour and side of the right held with the rook on `sq`, if any.
    #[inline]
    pub fn right_at(&self, sq: Square) -> Option<(Color, CastlingSide)> {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.rooks[color as usize][side as usize] == Some(sq) {
                    return Some((color, side));
                }
            }
        }
        None
    }
}
