//! Legal move generation (Art. 3): pins and checks are resolved while generating, so every
//! generated move is legal.

use crate::attacks;
use crate::{Bitboard, CastlingSide, Color, Move, MoveList, Position, Rank, Role, Square};

/// All the moves of one piece: its role, its square and its destinations.
///
/// Castling appears as the king with the castling rook's square among its destinations; an en
/// passant capture as a pawn with the en passant square. Pawn destinations on the last rank
/// stand for four promotion moves each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceMoves {
    /// The moving piece's role.
    pub role: Role,
    /// Where it stands.
    pub from: Square,
    /// Where it can go.
    pub to: Bitboard,
}

impl PieceMoves {
    /// Number of moves this stands for (promotions count four times).
    #[inline]
    pub fn len(&self) -> usize {
        if self.role == Role::Pawn {
            let promo = self.to & Bitboard::BACKRANKS;
            (self.to.count() + 3 * promo.count()) as usize
        } else {
            self.to.count() as usize
        }
    }

    /// `true` if there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// Calls `f` with each move.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        if self.role == Role::Pawn && (self.to & Bitboard::BACKRANKS).any() {
            for to in self.to {
                if Bitboard::BACKRANKS.contains(to) {
                    for role in Role::PROMOTIONS {
                        f(Move::with_promotion(self.from, to, role));
                    }
                } else {
                    f(Move::new(self.from, to));
                }
            }
        } else {
            for to in self.to {
                f(Move::new(self.from, to));
            }
        }
    }
}

/// Receives generated moves. `piece` gets all moves of one piece; `pawns` gets pawn moves
/// given set-wise: each destination `to` with origin `to - delta` (square index arithmetic).
/// Returning `true` stops the generation.
pub(crate) trait Sink {
    fn piece(&mut self, role: Role, from: Square, to: Bitboard) -> bool;
    fn pawns(&mut self, to: Bitboard, delta: i8) -> bool;
}

#[inline]
fn pawn_from(to: Square, delta: i8) -> Square {
    Square::new_unchecked((to.index() as i8 - delta) as u8)
}

/// Calls `f(from, to)` for each pawn move of a set, expanding promotions.
#[inline]
fn for_each_pawn_move(to: Bitboard, delta: i8, mut f: impl FnMut(Move)) {
    for t in to {
        let from = pawn_from(t, delta);
        if Bitboard::BACKRANKS.contains(t) {
            for role in Role::PROMOTIONS {
                f(Move::with_promotion(from, t, role));
            }
        } else {
            f(Move::new(from, t));
        }
    }
}

#[inline]
fn pawn_count(to: Bitboard) -> usize {
    let promo = to & Bitboard::BACKRANKS;
    if promo.is_empty() {
        to.count() as usize
    } else {
        (to.count() + 3 * promo.count()) as usize
    }
}

struct CountSink(usize);

impl Sink for CountSink {
    #[inline]
    fn piece(&mut self, role: Role, _from: Square, to: Bitboard) -> bool {
        self.0 += if role == Role::Pawn {
            pawn_count(to)
        } else {
            to.count() as usize
        };
        false
    }
    #[inline]
    fn pawns(&mut self, to: Bitboard, _delta: i8) -> bool {
        self.0 += pawn_count(to);
        false
    }
}

struct ListSink<'a>(&'a mut MoveList);

impl Sink for ListSink<'_> {
    #[inline]
    fn piece(&mut self, role: Role, from: Square, to: Bitboard) -> bool {
        PieceMoves { role, from, to }.for_each(|m| self.0.push(m));
        false
    }
    #[inline]
    fn pawns(&mut self, to: Bitboard, delta: i8) -> bool {
        for_each_pawn_move(to, delta, |m| self.0.push(m));
        false
    }
}

struct FnSink<F>(F);

impl<F: FnMut(PieceMoves) -> bool> Sink for FnSink<F> {
    #[inline]
    fn piece(&mut self, role: Role, from: Square, to: Bitboard) -> bool {
        (self.0)(PieceMoves { role, from, to })
    }
    #[inline]
    fn pawns(&mut self, to: Bitboard, delta: i8) -> bool {
        for t in to {
            let pm = PieceMoves {
                role: Role::Pawn,
                from: pawn_from(t, delta),
                to: Bitboard::from_square(t),
            };
            if (self.0)(pm) {
                return true;
            }
        }
        false
    }
}

struct PerftSink<'a> {
    pos: &'a Position,
    depth: u32,
    total: u64,
}

impl Sink for PerftSink<'_> {
    #[inline]
    fn piece(&mut self, role: Role, from: Square, to: Bitboard) -> bool {
        PieceMoves { role, from, to }.for_each(|m| {
            let mut child = *self.pos;
            child.play_with_role(m, role);
            self.total += child.perft(self.depth - 1);
        });
        false
    }
    #[inline]
    fn pawns(&mut self, to: Bitboard, delta: i8) -> bool {
        for_each_pawn_move(to, delta, |m| {
            let mut child = *self.pos;
            child.play_with_role(m, Role::Pawn);
            self.total += child.perft(self.depth - 1);
        });
        false
    }
}

impl Position {
    /// Generates the legal moves in groups, calling `f` for each group with any destinations:
    /// all moves of a piece together, except that pawn moves may come one per group. Stops
    /// early and returns `true` as soon as `f` returns `true`.
    #[inline]
    pub fn generate(&self, f: impl FnMut(PieceMoves) -> bool) -> bool {
        self.generate_into(&mut FnSink(f))
    }

    #[inline]
    pub(crate) fn generate_into<S: Sink>(&self, sink: &mut S) -> bool {
        let us = self.turn;
        let them = !us;
        let b = &self.board;
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let occ = b.occupied();
        let king = self.our_king();
        let checkers = b.attackers_to(king, them, occ);

        // King moves (never into an attacked square; the king itself does not block).
        let occ_no_king = occ ^ king;
        let mut king_to = Bitboard::EMPTY;
        for to in attacks::king_attacks(king) - ours {
            if !b.is_attacked(to, them, occ_no_king) {
                king_to.add(to);
            }
        }
        if checkers.is_empty() {
            king_to |= self.castling_destinations(king, occ);
        }
        if king_to.any() && sink.piece(Role::King, king, king_to) {
            return true;
        }
        if checkers.more_than_one() {
            return false; // Double check: only the king may move.
        }

        let target = match checkers.first() {
            Some(checker) => attacks::between(king, checker) | checker,
            None => !ours,
        };

        // Pinned pieces: own pieces alone between the king and an enemy slider.
        let snipers = ((attacks::rook_attacks(king, theirs) & b.rooks_and_queens())
            | (attacks::bishop_attacks(king, theirs) & b.bishops_and_queens()))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(king, s) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers & ours;
            }
        }

        for from in b.knights() & (ours - pinned) {
            let to = attacks::knight_attacks(from) & target;
            if to.any() && sink.piece(Role::Knight, from, to) {
                return true;
            }
        }
        for (role, pieces) in [
            (Role::Bishop, b.bishops()),
            (Role::Rook, b.rooks()),
            (Role::Queen, b.queens()),
        ] {
            for from in pieces & ours {
                let mut to = match role {
                    Role::Bishop => attacks::bishop_attacks(from, occ),
                    Role::Rook => attacks::rook_attacks(from, occ),
                    _ => attacks::queen_attacks(from, occ),
                } & target;
                if pinned.contains(from) {
                    to &= attacks::line(king, from);
                }
                if to.any() && sink.piece(role, from, to) {
                    return true;
                }
            }
        }

        // Pawns (Art. 3.7): set-wise for pawns that are not pinned.
        let pawns = b.pawns() & ours;
        let empty = !occ;
        let free = pawns - pinned;
        const NOT_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
        const NOT_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);
        let (single, double, left, right, d) = match us {
            Color::White => {
                let one = free.shift_up() & empty;
                let two = (one & Bitboard::rank(Rank::THIRD)).shift_up() & empty;
                (
                    one & target,
                    two & target,
                    Bitboard((free & NOT_A).0 << 7) & theirs & target,
                    Bitboard((free & NOT_H).0 << 9) & theirs & target,
                    [8i8, 16, 7, 9],
                )
            }
            Color::Black => {
                let one = free.shift_down() & empty;
                let two = (one & Bitboard::rank(Rank::SIXTH)).shift_down() & empty;
                (
                    one & target,
                    two & target,
                    Bitboard((free & NOT_A).0 >> 9) & theirs & target,
                    Bitboard((free & NOT_H).0 >> 7) & theirs & target,
                    [-8i8, -16, -9, -7],
                )
            }
        };
        for (set, delta) in [(single, d[0]), (double, d[1]), (left, d[2]), (right, d[3])] {
            if set.any() && sink.pawns(set, delta) {
                return true;
            }
        }
        let (push, start_rank) = match us {
            Color::White => (8i8, Rank::SECOND),
            Color::Black => (-8i8, Rank::SEVENTH),
        };
        for from in pawns & pinned {
            let mut to = attacks::pawn_attacks(us, from) & theirs & target;
            let one = Square::new_unchecked((from.index() as i8 + push) as u8);
            if empty.contains(one) {
                to |= Bitboard::from_square(one) & target;
                if from.rank() == start_rank {
                    let two = Square::new_unchecked((one.index() as i8 + push) as u8);
                    if empty.contains(two) {
                        to |= Bitboard::from_square(two) & target;
                    }
                }
            }
            to &= attacks::line(king, from);
            if to.any() && sink.piece(Role::Pawn, from, to) {
                return true;
            }
        }
        // En passant (Art. 3.7.3.2), checked by playing it out on the occupancy.
        if let Some(ep) = self.ep_square {
            let captured = Square::new_unchecked((ep.index() as i8 - push) as u8);
            for from in attacks::pawn_attacks(them, ep) & pawns {
                if self.ep_is_legal(king, from, ep, captured)
                    && sink.piece(Role::Pawn, from, Bitboard::from_square(ep))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Rook squares of the castling moves that are legal now, assuming no check
    /// (Art. 3.8.2; Guideline II.3 for Chess960).
    #[inline]
    fn castling_destinations(&self, king: Square, occ: Bitboard) -> Bitboard {
        let us = self.turn;
        let mut out = Bitboard::EMPTY;
        if !self.castles.has_color(us) {
            return out;
        }
        for side in CastlingSide::ALL {
            let Some(rook) = self.castles.rook(us, side) else {
                continue;
            };
            let king_to = side.king_to(us);
            let rook_to = side.rook_to(us);
            // Every square between the king's and the rook's start and end squares must be
            // empty, except for the king and the castling rook themselves.
            let span = attacks::between(king, king_to)
                | king_to
                | attacks::between(rook, rook_to)
                | rook_to;
            let others = occ.without(king).without(rook);
            if span.intersects(others) {
                continue;
            }
            // The king may not pass over or land on an attacked square. The king and rook are
            // lifted so that an attack the rook was screening counts.
            let path = attacks::between(king, king_to) | king_to;
            let mut path = path;
            if Iterator::any(&mut path, |sq| self.board.is_attacked(sq, !us, others)) {
                continue;
            }
            out.add(rook);
        }
        out
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(&mut ListSink(&mut list));
        list
    }

    /// The number of legal moves (each promotion piece counts).
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut sink = CountSink(0);
        self.generate_into(&mut sink);
        sink.0
    }

    /// `true` if the side to move has at least one legal move.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.generate(|_| true)
    }

    /// Legal moves of pieces standing on `from_mask` going to `to_mask`.
    pub fn legal_moves_filtered(&self, from_mask: Bitboard, to_mask: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.generate(|pm| {
            if from_mask.contains(pm.from) {
                let pm = PieceMoves {
                    to: pm.to & to_mask,
                    ..pm
                };
                pm.for_each(|m| list.push(m));
            }
            false
        });
        list
    }

    /// `true` if `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        let Some(role) = self.board.role_at(m.from) else {
            return false;
        };
        if self.board.color_at(m.from) != Some(self.turn) {
            return false;
        }
        let needs_promotion = role == Role::Pawn && Bitboard::BACKRANKS.contains(m.to);
        match m.promotion {
            Some(p) if !needs_promotion || p == Role::Pawn || p == Role::King => return false,
            None if needs_promotion => return false,
            _ => {}
        }
        self.generate(|pm| pm.from == m.from && pm.to.contains(m.to))
    }

    /// Counts the leaf nodes of the legal move tree to `depth` (perft).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves() as u64,
            _ => {
                let mut sink = PerftSink {
                    pos: self,
                    depth,
                    total: 0,
                };
                self.generate_into(&mut sink);
                sink.total
            }
        }
    }
}
