//! Piece placement: which piece stands on which square (Art. 2).

use crate::attacks;
use crate::{Bitboard, Color, Piece, Role, Square};

/// The pieces on the board, as one bitboard per colour and per role.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
        }
    }

    /// The standard starting placement (Art. 2.3).
    pub const fn standard() -> Board {
        Board {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
            occupied: Bitboard(0xffff_0000_0000_ffff),
        }
    }

    /// All occupied squares.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Squares holding pieces of `color`.
    #[inline]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// Squares holding pieces of `role`, either colour.
    #[inline]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// Squares holding `piece`.
    #[inline]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_role[piece.role as usize].0 & self.by_color[piece.color as usize].0)
    }

    /// Pawns of both colours.
    #[inline]
    pub const fn pawns(&self) -> Bitboard {
        self.by_role[0]
    }
    /// Knights of both colours.
    #[inline]
    pub const fn knights(&self) -> Bitboard {
        self.by_role[1]
    }
    /// Bishops of both colours.
    #[inline]
    pub const fn bishops(&self) -> Bitboard {
        self.by_role[2]
    }
    /// Rooks of both colours.
    #[inline]
    pub const fn rooks(&self) -> Bitboard {
        self.by_role[3]
    }
    /// Queens of both colours.
    #[inline]
    pub const fn queens(&self) -> Bitboard {
        self.by_role[4]
    }
    /// Kings of both colours.
    #[inline]
    pub const fn kings(&self) -> Bitboard {
        self.by_role[5]
    }
    /// Rooks and queens.
    #[inline]
    pub const fn rooks_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[3].0 | self.by_role[4].0)
    }
    /// Bishops and queens.
    #[inline]
    pub const fn bishops_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[2].0 | self.by_role[4].0)
    }

    /// The king of `color`, if exactly one stands on the board.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.kings() & self.by_color(color)).single()
    }

    /// The colour of the piece on `sq`.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        let mut i = 0;
        while i < 6 {
            if self.by_role[i].contains(sq) {
                return Role::from_index(i);
            }
            i += 1;
        }
        None
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = self.color_at(sq)?;
        Some(Piece { color, role })
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.discard_piece_at(sq);
        self.put_unchecked(sq, piece);
    }

    /// Removes and returns the piece on `sq`.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.take_unchecked(sq, piece);
        Some(piece)
    }

    /// Removes the piece on `sq`, if any.
    pub fn discard_piece_at(&mut self, sq: Square) {
        self.remove_piece_at(sq);
    }

    /// Adds `piece` on an empty square `sq` (the caller knows it is empty).
    #[inline]
    pub(crate) fn put_unchecked(&mut self, sq: Square, piece: Piece) {
        debug_assert!(!self.occupied.contains(sq));
        self.by_role[piece.role.index()] ^= sq;
        self.by_color[piece.color.index()] ^= sq;
        self.occupied ^= sq;
    }

    /// Removes `piece`, known to stand on `sq`.
    #[inline]
    pub(crate) fn take_unchecked(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(self.piece_at(sq), Some(piece));
        self.by_role[piece.role.index()] ^= sq;
        self.by_color[piece.color.index()] ^= sq;
        self.occupied ^= sq;
    }

    /// Pieces of `attacker` that attack `sq`, given the occupied squares `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.by_color(attacker)
            & ((attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
                | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
                | (attacks::knight_attacks(sq) & self.knights())
                | (attacks::king_attacks(sq) & self.kings())
                | (attacks::pawn_attacks(!attacker, sq) & self.pawns()))
    }

    /// `true` if some piece of `attacker` attacks `sq`, given the occupied squares.
    #[inline]
    pub fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        let them = self.by_color(attacker);
        (attacks::knight_attacks(sq) & self.knights() & them).any()
            || (attacks::pawn_attacks(!attacker, sq) & self.pawns() & them).any()
            || (attacks::king_attacks(sq) & self.kings() & them).any()
            || (attacks::rook_attacks(sq, occupied) & self.rooks_and_queens() & them).any()
            || (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens() & them).any()
    }

    /// Iterates over all pieces with their squares, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .into_iter()
            .filter_map(move |sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// Number of pieces of `piece`.
    #[inline]
    pub fn count(&self, piece: Piece) -> u32 {
        self.by_piece(piece).count()
    }
}
