//! Positions: a validated placement plus side to move, castling rights, en passant square and
//! move counters, and playing moves in them (Art. 1–3).

use crate::attacks;
use crate::zobrist;
use crate::{
    Bitboard, Board, Castles, CastlingMode, CastlingSide, Color, Move, Piece, Rank, Role, Square,
};
use core::fmt;

/// An unvalidated position: plain fields, as read from FEN or built by hand.
///
/// It becomes a [`Position`] only through [`Position::from_setup`], which checks everything once
/// ("parse, don't validate").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The rooks that may still castle.
    pub castles: Castles,
    /// The square a pawn passed over on the last move, if it advanced two squares.
    pub ep_square: Option<Square>,
    /// Moves since the last capture or pawn move (Art. 9.3), in half-moves.
    pub halfmoves: u32,
    /// The number of the current move, starting at 1 and increased after Black moves.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castles: Castles::STANDARD,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color, u32),
    /// A pawn stands on rank 1 or 8 (Art. 3.7.5 would have promoted it).
    PawnOnBackRank(Square),
    /// The side not to move is in check: its opponent could take the king.
    OppositeCheck(Color),
    /// The side to move is attacked by more than two pieces, which no legal move can cause.
    TooManyCheckers(u32),
    /// A castling right names a rook that is not there, or the king is not on its back rank.
    CastlingRights {
        /// Whose right.
        color: Color,
        /// Which side.
        side: CastlingSide,
        /// What is wrong.
        reason: &'static str,
    },
    /// The en passant square is impossible.
    EnPassant {
        /// The square given.
        square: Square,
        /// What is wrong.
        reason: String,
    },
    /// The move number is 0.
    FullmoveZero,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing(c) => write!(f, "{c} has no king"),
            PositionError::TooManyKings(c, n) => write!(f, "{c} has {n} kings"),
            PositionError::PawnOnBackRank(sq) => {
                write!(f, "pawn on rank {} ({sq})", sq.rank().char())
            }
            PositionError::OppositeCheck(c) => write!(
                f,
                "the side not to move is in check ({c} to move could capture the king)"
            ),
            PositionError::TooManyCheckers(n) => {
                write!(f, "the side to move is in check by {n} pieces")
            }
            PositionError::CastlingRights {
                color,
                side,
                reason,
            } => {
                let letter = match side {
                    CastlingSide::KingSide => 'K',
                    CastlingSide::QueenSide => 'Q',
                };
                let letter = color.fold(letter, letter.to_ascii_lowercase());
                let side = match side {
                    CastlingSide::KingSide => "king side",
                    CastlingSide::QueenSide => "queen side",
                };
                write!(f, "castling right {letter} but {reason} ({color}, {side})")
            }
            PositionError::EnPassant { square, reason } => {
                write!(f, "en passant square {square} but {reason}")
            }
            PositionError::FullmoveZero => f.write_str("the move number must be at least 1"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A legal chess position.
///
/// Invariants (checked by [`Position::from_setup`], kept by playing legal moves): one king per
/// side, no pawn on a back rank, the side not to move is not in check, every castling right
/// belongs to a rook on its king's back rank on the right side of the king, and `ep_square` is
/// set only when a pawn of the side to move attacks it (X-FEN / Polyglot convention).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castles: Castles,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
    pub(crate) mode: CastlingMode,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// A move that is not legal in the position; the position is handed back unchanged.
#[derive(Debug, Clone)]
pub struct PlayError {
    /// The move that was refused.
    pub m: Move,
    /// The position, untouched.
    pub position: Position,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {:?}", self.m)
    }
}

impl std::error::Error for PlayError {}

impl Position {
    /// The standard starting position (Art. 2.3).
    pub fn new() -> Position {
        let mut pos = Position {
            board: Board::standard(),
            turn: Color::White,
            castles: Castles::STANDARD,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
            mode: CastlingMode::Standard,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// Validates a setup.
    ///
    /// In [`CastlingMode::Standard`] castling rights need the king on the e-file and the rook in
    /// the corner; in [`CastlingMode::Chess960`] any rook on the back rank on that side of the
    /// king will do (Guideline II). An en passant square that no pawn of the side to move
    /// attacks is accepted and dropped.
    ///
    /// # Errors
    /// A [`PositionError`] naming the first problem found.
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        let board = setup.board;
        for color in Color::ALL {
            let kings = board.by_piece(Role::King.of(color)).count();
            if kings == 0 {
                return Err(PositionError::MissingKing(color));
            }
            if kings > 1 {
                return Err(PositionError::TooManyKings(color, kings));
            }
        }
        if let Some(sq) = (board.pawns() & Bitboard::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        if setup.fullmoves == 0 {
            return Err(PositionError::FullmoveZero);
        }
        let them = !setup.turn;
        let their_king = board.king_of(them).expect("one king each");
        if board.is_attacked(their_king, setup.turn, board.occupied()) {
            return Err(PositionError::OppositeCheck(setup.turn));
        }
        let our_king = board.king_of(setup.turn).expect("one king each");
        let checkers = board.attackers_to(our_king, them, board.occupied());
        if checkers.count() > 2 {
            return Err(PositionError::TooManyCheckers(checkers.count()));
        }

        // Castling rights.
        for color in Color::ALL {
            let king = board.king_of(color).expect("one king each");
            for side in CastlingSide::ALL {
                let Some(rook) = setup.castles.rook(color, side) else {
                    continue;
                };
                let err = |reason| {
                    Err(PositionError::CastlingRights {
                        color,
                        side,
                        reason,
                    })
                };
                let back = Rank::back_rank(color);
                if king.rank() != back {
                    return err("the king is not on its back rank");
                }
                if board.piece_at(rook) != Some(Role::Rook.of(color)) || rook.rank() != back {
                    return err("no rook on that square of the back rank");
                }
                let right_side = match side {
                    CastlingSide::KingSide => rook.file() > king.file(),
                    CastlingSide::QueenSide => rook.file() < king.file(),
                };
                if !right_side {
                    return err("the rook is not on that side of the king");
                }
                if mode == CastlingMode::Standard {
                    let corner = match side {
                        CastlingSide::KingSide => crate::File::H,
                        CastlingSide::QueenSide => crate::File::A,
                    };
                    if king.file() != crate::File::E || rook.file() != corner {
                        return err("standard chess castles only with the king on e and the rook in the corner");
                    }
                }
            }
        }

        // En passant square.
        let mut ep_square = None;
        if let Some(ep) = setup.ep_square {
            let us = setup.turn;
            let bad = |reason: String| Err(PositionError::EnPassant { square: ep, reason });
            if ep.rank() != Rank::SIXTH.relative_to(us) {
                return bad(format!(
                    "it is not on rank {} ({} to move)",
                    Rank::SIXTH.relative_to(us).char(),
                    us
                ));
            }
            let pushed = ep
                .relative_to(us)
                .offset(0, -1)
                .expect("rank 6")
                .relative_to(us);
            let origin = ep
                .relative_to(us)
                .offset(0, 1)
                .expect("rank 6")
                .relative_to(us);
            if board.piece_at(pushed) != Some(Role::Pawn.of(them)) {
                return bad(format!("no {them} pawn on {pushed}"));
            }
            if board.occupied().contains(ep) || board.occupied().contains(origin) {
                return bad(format!("{ep} or {origin} is occupied"));
            }
            if (attacks::pawn_attacks(them, ep) & board.by_piece(Role::Pawn.of(us))).any() {
                ep_square = Some(ep);
            }
        }

        let mut pos = Position {
            board,
            turn: setup.turn,
            castles: setup.castles,
            ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            hash: 0,
            mode,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The position as plain fields (with the en passant square only if a capture is legal).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castles: self.castles,
            ep_square: self.legal_ep_square(),
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The pieces.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// The castling rights.
    #[inline]
    pub fn castles(&self) -> &Castles {
        &self.castles
    }
    /// Standard or Chess960 castling notation.
    #[inline]
    pub fn mode(&self) -> CastlingMode {
        self.mode
    }
    /// Changes how castling is written (the rights themselves are kept).
    pub fn set_mode(&mut self, mode: CastlingMode) {
        self.mode = mode;
    }
    /// Half-moves since the last capture or pawn move (Art. 9.3).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }
    /// The move number (starts at 1, increases after Black's move).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }
    /// The Zobrist hash (en passant included when a pawn of the side to move attacks the
    /// square, as in Polyglot).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The en passant square if a pawn of the side to move attacks it (the capture may still be
    /// illegal, e.g. because of a pin).
    #[inline]
    pub fn pseudo_ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en passant square if an en passant capture is legal now (Art. 3.7.3.2, 9.2.2).
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let us = self.turn;
        let king = self.our_king();
        let captured = ep.relative_to(us).offset(0, -1)?.relative_to(us);
        let candidates = attacks::pawn_attacks(!us, ep) & self.board.by_piece(Role::Pawn.of(us));
        let mut candidates = candidates;
        Iterator::any(&mut candidates, |from| {
            self.ep_is_legal(king, from, ep, captured)
        })
        .then_some(ep)
    }

    /// The king of the side to move.
    #[inline]
    pub fn our_king(&self) -> Square {
        // Invariant: exactly one king per side.
        (self.board.kings() & self.board.by_color(self.turn))
            .first()
            .unwrap_or(Square::A1)
    }

    /// The king of `color`.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        (self.board.kings() & self.board.by_color(color))
            .first()
            .unwrap_or(Square::A1)
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.board
            .attackers_to(self.our_king(), !self.turn, self.board.occupied())
    }

    /// `true` if the side to move is in check (Art. 3.9).
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// `true` if the side to move is checkmated (Art. 5.1.1).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// `true` if the side to move is stalemated (Art. 5.2.1).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// Computes the Zobrist hash from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, piece) in self.board.pieces() {
            h ^= zobrist::piece_key(piece, sq);
        }
        for rook in self.castles.mask() {
            h ^= zobrist::castling_key(rook);
        }
        if let Some(ep) = self.ep_square {
            h ^= zobrist::ep_key(ep);
        }
        h ^ zobrist::turn_key(self.turn)
    }

    #[inline]
    pub(crate) fn ep_is_legal(
        &self,
        king: Square,
        from: Square,
        ep: Square,
        captured: Square,
    ) -> bool {
        let occ = (self.board.occupied() ^ from ^ captured) | ep;
        let them = self.board.by_color(!self.turn).without(captured);
        // After the capture, only sliders (newly uncovered) or the remaining checkers matter.
        let attackers = (attacks::rook_attacks(king, occ) & self.board.rooks_and_queens())
            | (attacks::bishop_attacks(king, occ) & self.board.bishops_and_queens())
            | (attacks::knight_attacks(king) & self.board.knights())
            | (attacks::pawn_attacks(self.turn, king) & self.board.pawns());
        (attackers & them).is_empty()
    }

    #[inline]
    fn toggle_piece(&mut self, sq: Square, piece: Piece, put: bool) {
        if put {
            self.board.put_unchecked(sq, piece);
        } else {
            self.board.take_unchecked(sq, piece);
        }
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    #[inline]
    fn clear_castle(&mut self, color: Color, side: CastlingSide) {
        if let Some(rook) = self.castles.rook(color, side) {
            self.hash ^= zobrist::castling_key(rook);
            self.castles.set(color, side, None);
        }
    }

    /// `true` if `m` is a castling move here (the king taking its own rook).
    #[inline]
    pub fn is_castling(&self, m: Move) -> bool {
        self.board.kings().contains(m.from)
            && (self.board.by_color(self.turn) & self.board.rooks()).contains(m.to)
    }

    /// `true` if `m` is an en passant capture here.
    #[inline]
    pub fn is_en_passant(&self, m: Move) -> bool {
        Some(m.to) == self.ep_square
            && self.board.pawns().contains(m.from)
            && m.from.file() != m.to.file()
    }

    /// `true` if `m` captures a piece (en passant included).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        (self.board.by_color(!self.turn).contains(m.to)) || self.is_en_passant(m)
    }

    /// The role of the piece that `m` captures, if any.
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        if self.is_en_passant(m) {
            Some(Role::Pawn)
        } else if self.board.by_color(!self.turn).contains(m.to) {
            self.board.role_at(m.to)
        } else {
            None
        }
    }

    /// The castling side of a castling move.
    pub fn castling_side(&self, m: Move) -> Option<CastlingSide> {
        if !self.is_castling(m) {
            return None;
        }
        Some(if m.to.file() > m.from.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        })
    }

    /// Plays `m` if it is legal; otherwise hands the position back unchanged.
    ///
    /// # Errors
    /// [`PlayError`] holding the untouched position if `m` is not legal here.
    pub fn play(mut self, m: Move) -> Result<Position, PlayError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(self)
        } else {
            Err(PlayError { m, position: self })
        }
    }

    /// Plays a move known to be legal, in place. Fastest; for hot loops.
    ///
    /// # Panics
    /// May panic (debug builds) or leave the position in a meaningless state if `m` is not a
    /// legal move of this position. Check with [`Position::is_legal`] first when unsure.
    pub fn play_unchecked(&mut self, m: Move) {
        let Some(role) = self.board.role_at(m.from) else {
            debug_assert!(false, "no piece on {}", m.from);
            return;
        };
        self.play_with_role(m, role);
    }

    /// [`Position::play_unchecked`] when the caller knows the moving piece's role.
    #[inline]
    pub(crate) fn play_with_role(&mut self, m: Move, role: Role) {
        let us = self.turn;
        let them = !us;
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::ep_key(ep);
            if role == Role::Pawn && m.to == ep {
                let captured = ep
                    .relative_to(us)
                    .offset(0, -1)
                    .expect("rank 6")
                    .relative_to(us);
                self.toggle_piece(captured, Role::Pawn.of(them), false);
            }
        }
        self.halfmoves += 1;
        if us == Color::Black {
            self.fullmoves += 1;
        }

        if role == Role::King && (self.board.by_piece(Role::Rook.of(us))).contains(m.to) {
            // Castling: king takes own rook (Art. 3.8.2.1, Guideline II).
            let side = if m.to.file() > m.from.file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            self.toggle_piece(m.from, Role::King.of(us), false);
            self.toggle_piece(m.to, Role::Rook.of(us), false);
            self.toggle_piece(side.king_to(us), Role::King.of(us), true);
            self.toggle_piece(side.rook_to(us), Role::Rook.of(us), true);
            self.clear_castle(us, CastlingSide::KingSide);
            self.clear_castle(us, CastlingSide::QueenSide);
        } else {
            if let Some(captured) = self.board.role_at(m.to) {
                self.toggle_piece(m.to, captured.of(them), false);
                self.halfmoves = 0;
                if captured == Role::Rook {
                    if let Some((c, side)) = self.castles.right_at(m.to) {
                        self.clear_castle(c, side);
                    }
                }
            }
            self.toggle_piece(m.from, role.of(us), false);
            let placed = m.promotion.unwrap_or(role);
            self.toggle_piece(m.to, placed.of(us), true);
            match role {
                Role::Pawn => {
                    self.halfmoves = 0;
                    if m.from.index().abs_diff(m.to.index()) == 16 {
                        let passed = Square::new_unchecked((m.from.index() + m.to.index()) / 2);
                        if (attacks::pawn_attacks(us, passed)
                            & self.board.by_piece(Role::Pawn.of(them)))
                        .any()
                        {
                            self.ep_square = Some(passed);
                            self.hash ^= zobrist::ep_key(passed);
                        }
                    }
                }
                Role::King => {
                    self.clear_castle(us, CastlingSide::KingSide);
                    self.clear_castle(us, CastlingSide::QueenSide);
                }
                Role::Rook => {
                    if let Some((c, side)) = self.castles.right_at(m.from) {
                        self.clear_castle(c, side);
                    }
                }
                _ => {}
            }
        }
        self.turn = them;
        self.hash ^= zobrist::turn_key(Color::Black);
    }

    /// Passes the turn without moving (a "null move", for engines). Not a legal chess move.
    ///
    /// # Panics
    /// Never; but the result is meaningless if the side to move is in check.
    pub fn play_null(&mut self) {
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::ep_key(ep);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::turn_key(Color::Black);
        self.halfmoves += 1;
    }

    /// Material of `color`: counts per role (pawn..king).
    pub fn material(&self, color: Color) -> [u32; 6] {
        let mut out = [0; 6];
        for role in Role::ALL {
            out[role.index()] = self.board.count(role.of(color));
        }
        out
    }

    /// The identity of the position for repetition (Art. 9.2.2): same player to move, same
    /// pieces on the same squares, same castling rights, and an en passant square only when
    /// an en passant capture is really possible.
    pub fn repetition_key(&self) -> RepetitionKey {
        let ep = self.legal_ep_square();
        let mut hash = self.hash;
        if let (Some(pseudo), None) = (self.ep_square, ep) {
            hash ^= zobrist::ep_key(pseudo);
        }
        RepetitionKey {
            hash,
            board: self.board,
            turn: self.turn,
            castles: self.castles.mask(),
            ep,
        }
    }
}

/// What makes two positions "the same" for Art. 9.2.2. Compared exactly (the hash only speeds
/// up the comparison).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RepetitionKey {
    /// Zobrist hash of the same facts.
    pub hash: u64,
    board: Board,
    turn: Color,
    castles: Bitboard,
    ep: Option<Square>,
}
