//! Layer 2b of the dead-position analysis: the kings' duel. When the men of both sides are
//! locked, a mate is often impossible only because of *tempo*: the losing king shuffles
//! between a few squares, and whenever the winning king comes close enough to cover its last
//! flight square, the loser has no move left — stalemate (Art. 5.2.1), not mate; or a king
//! captures a locked man and leaves the other side without a move. The reachability fixpoint
//! (`reach`) cannot see this (it forgets whose move it is), and a search over whole positions
//! drowns in the placements of free pieces that do not matter. Here only the two kings are
//! followed exactly; every other man is summarised by the fixpoint.
//!
//! # The abstraction
//! 1. *Shielded men*: the men (not kings) that cannot move now. Assume, for a while, that none
//!    of them is ever captured; the fixpoint computed under that assumption (no piece may land
//!    on a shielded enemy man) holds in every position reached before the first such capture.
//!    Every shielded man must come out permanent in it (it never moves), and no man may be
//!    able to capture a shielded enemy man; otherwise nothing is concluded.
//! 2. *States* `(l, w, turn, check)`: the losing and winning kings' squares, the side to move,
//!    and whether the loser may be in check. Every real position reached before the first
//!    capture of a shielded man maps to a state reachable by these moves:
//!    - the winner moves a man (if it has one that can ever move): the loser may be in check
//!      if some winning man can ever attack `l`;
//!    - the winner's king steps to a square of its reach, not next to the losing king: the
//!      loser may be in check only by discovery (a winning slider beyond `w` on a line to `l`,
//!      nothing permanent between);
//!    - the loser moves a man (if it has one that can ever move), or its king steps to a
//!      square of its reach not next to the winning king.
//! 3. *A king captures a shielded man*: the other side is to move in a position where all its
//!    men are permanent (else nothing is concluded); if its king has no square either, it has
//!    no legal move — stalemate (or, for the winner, being mated), the end of the game without
//!    the winner's mate — unless the capture may discover check on the loser.
//! 4. *Mate*: a mate needs a state with the loser to move, possibly in check, where every
//!    square its king could step to is attacked by a winning man (some may stay blocked by the
//!    loser's own free men, and the winning king covers its neighbours).
//!
//! If no reachable state can be a mate and no capture escapes the abstraction, the winner can
//! never mate (Art. 5.2.2, 6.9).

use super::reach::{self, Facts};
use crate::attacks;
use crate::{Bitboard, Color, Position, Role, Square};

/// `true` if the duel proves that `winner` can never checkmate (see the module docs).
pub(super) fn duel_no(pos: &Position, winner: Color) -> bool {
    if !pos.castles().is_empty() || pos.legal_ep_square().is_some() {
        return false;
    }
    let b = pos.board();
    if reach::runs_free(b) {
        return false; // The fixpoint would find the promotion and conclude nothing.
    }
    let mut shielded = frozen_men(pos);
    // A man frozen now may be freed later (a piece boxed in by its own men that move away):
    // drop the shielded men that the fixpoint does not find permanent, and try again.
    for _ in 0..4 {
        if shielded.is_empty() {
            return false;
        }
        // Pieces of a colour may not land on the shielded men of the other colour.
        let shield = [
            shielded & b.by_color(Color::Black),
            shielded & b.by_color(Color::White),
        ];
        let outcome = reach::with_facts(pos, shield, |facts| {
            if (shielded - facts.perm).any() {
                return Err(shielded & facts.perm);
            }
            Ok(Duel::new(facts, shielded, pos, winner).is_some_and(|d| d.proves_no(pos)))
        });
        match outcome {
            None => return false,
            Some(Ok(proved)) => return proved,
            Some(Err(fewer)) => shielded = fewer,
        }
    }
    false
}

/// The men (not kings) with no move now: a pawn whose square ahead is occupied and that has
/// nothing to capture, a piece whose every target square holds a man of its own side.
fn frozen_men(pos: &Position) -> Bitboard {
    let b = pos.board();
    let occupied = b.occupied();
    let mut out = Bitboard::EMPTY;
    for (sq, piece) in b.pieces() {
        let own = b.by_color(piece.color);
        let enemy = b.by_color(!piece.color);
        let frozen = match piece.role {
            Role::King => false,
            Role::Pawn => {
                let ahead = match piece.color {
                    Color::White => sq.offset(0, 1),
                    Color::Black => sq.offset(0, -1),
                };
                ahead.is_some_and(|a| occupied.contains(a))
                    && (attacks::pawn_attacks(piece.color, sq) & enemy).is_empty()
            }
            role => (attacks::attacks(role, piece.color, sq, occupied) - own).is_empty(),
        };
        if frozen {
            out.add(sq);
        }
    }
    out
}

/// What the duel needs from the fixpoint, for one winner.
struct Duel {
    /// The winner's and the loser's colour.
    winner: Color,
    /// Where each king can ever stand (shielded squares excluded).
    king_reach: [Bitboard; 2],
    /// Shielded enemy men each king may capture (not attacked for ever).
    king_captures: [Bitboard; 2],
    /// Whether each side has a man that can ever move.
    mobile: [bool; 2],
    /// Squares the winner's men can ever attack.
    span: Bitboard,
    /// Squares where the loser's men can ever stand (they may block their king).
    blockable: Bitboard,
    /// The winner's sliders: where diagonal and straight-line attackers can ever stand.
    diagonal: Bitboard,
    straight: Bitboard,
    /// Squares whose occupant never leaves.
    perm: Bitboard,
}

impl Duel {
    fn new(facts: &Facts<'_>, shielded: Bitboard, pos: &Position, winner: Color) -> Option<Duel> {
        let b = pos.board();
        let perm = facts.perm;
        let (w, l) = (winner.index(), (!winner).index());
        let mut d = Duel {
            winner,
            king_reach: [Bitboard::EMPTY; 2],
            king_captures: [Bitboard::EMPTY; 2],
            mobile: [false; 2],
            span: Bitboard::EMPTY,
            blockable: Bitboard::EMPTY,
            diagonal: Bitboard::EMPTY,
            straight: Bitboard::EMPTY,
            perm,
        };
        for p in facts.pieces {
            let c = p.color.index();
            if p.role == Role::King {
                d.king_reach[c] = p.reach;
                continue;
            }
            if p.reach.count() > 1 {
                d.mobile[c] = true;
            }
            let attacked = reach::attacks_from(p.role, p.color, p.reach, perm.without(p.origin));
            // No man may ever capture a shielded enemy man.
            if attacked.intersects(shielded & b.by_color(!p.color)) {
                return None;
            }
            if c == w {
                d.span |= attacked;
                if matches!(p.role, Role::Bishop | Role::Queen) {
                    d.diagonal |= p.reach;
                }
                if matches!(p.role, Role::Rook | Role::Queen) {
                    d.straight |= p.reach;
                }
            } else {
                d.blockable |= p.reach;
            }
        }
        for c in [w, l] {
            let enemy_men = shielded & b.by_color(if c == w { !winner } else { winner });
            d.king_captures[c] = enemy_men - facts.guarded[1 - c];
        }
        Some(d)
    }

    /// Can the winning king's step away from `from` discover a check on the king on `l`?
    fn discovers(&self, from: Square, l: Square) -> bool {
        let line = attacks::line(l, from);
        if line.is_empty() || (attacks::between(l, from) & self.perm).any() {
            return false;
        }
        let beyond = line - attacks::between(l, from) - Bitboard::from_square(l);
        let mut beyond = beyond
            .into_iter()
            .filter(|&s| attacks::between(l, s).contains(from));
        let sliders = if l.file() != from.file() && l.rank() != from.rank() {
            self.diagonal
        } else {
            self.straight
        };
        beyond.any(|s| sliders.contains(s))
    }

    /// Squares the king of colour index `c` on `at` may step to (or capture a shielded man on)
    /// with the other king on `other`.
    fn steps(&self, c: usize, at: Square, other: Square) -> Bitboard {
        (attacks::king_attacks(at) & (self.king_reach[c] | self.king_captures[c]))
            - attacks::king_attacks(other)
            - Bitboard::from_square(other)
    }

    fn proves_no(&self, pos: &Position) -> bool {
        let (w, l) = (self.winner.index(), (!self.winner).index());
        let (wk, lk) = (pos.king(self.winner), pos.king(!self.winner));
        let mut seen = [0u64; 256];
        let mut queue: Vec<u16> = Vec::with_capacity(256);
        let mut visit = |s: u16, queue: &mut Vec<u16>| {
            let (i, bit) = ((s >> 6) as usize, 1u64 << (s & 63));
            if seen[i] & bit == 0 {
                seen[i] |= bit;
                queue.push(s);
            }
        };
        let loser_to_move = pos.turn() != self.winner;
        visit(
            state(lk, wk, loser_to_move, loser_to_move && pos.is_check()),
            &mut queue,
        );
        while let Some(s) = queue.pop() {
            let (lk, wk, loser_to_move, check) = unpack(s);
            if loser_to_move {
                let flights = self.steps(l, lk, wk);
                if check && (flights - self.span - self.blockable).is_empty() {
                    return false; // This may be a mate.
                }
                if self.mobile[l] {
                    visit(state(lk, wk, false, false), &mut queue);
                }
                for y in flights {
                    if self.king_reach[l].contains(y) {
                        visit(state(y, wk, false, false), &mut queue);
                    } else if self.mobile[w] || self.steps(w, wk, y).any() {
                        return false;
                    }
                }
            } else {
                if self.mobile[w] {
                    visit(state(lk, wk, true, false), &mut queue);
                    if self.span.contains(lk) {
                        visit(state(lk, wk, true, true), &mut queue);
                    }
                }
                let discovers = self.discovers(wk, lk);
                for y in self.steps(w, wk, lk) {
                    if self.king_reach[w].contains(y) {
                        visit(state(lk, y, true, false), &mut queue);
                        if discovers {
                            visit(state(lk, y, true, true), &mut queue);
                        }
                    } else if discovers || self.mobile[l] || self.steps(l, lk, y).any() {
                        return false;
                    }
                }
            }
        }
        true
    }
}

fn state(l: Square, w: Square, loser_to_move: bool, check: bool) -> u16 {
    (l.index() as u16)
        | (w.index() as u16) << 6
        | u16::from(loser_to_move) << 12
        | u16::from(check) << 13
}

fn unpack(s: u16) -> (Square, Square, bool, bool) {
    (
        Square::new_unchecked((s & 63) as u8),
        Square::new_unchecked(((s >> 6) & 63) as u8),
        s & (1 << 12) != 0,
        s & (1 << 13) != 0,
    )
}
