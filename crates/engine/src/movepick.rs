//! Move ordering: hash move first, then winning and equal captures (MVV-LVA, checked by static
//! exchange evaluation), queen promotions, killer moves, quiet moves by history, and losing
//! captures last.

use crate::eval::SEE_VALUE;
use arbiter_rules::attacks;
use arbiter_rules::{Bitboard, Color, Move, MoveList, Position, Role};

/// Static exchange evaluation: the material balance of the capture sequence on `m.to` that
/// starts with `m`, each side recapturing with its least valuable piece while it pays.
pub fn see(pos: &Position, m: Move) -> i32 {
    if pos.is_castling(m) {
        return 0;
    }
    let b = pos.board();
    let Some(mut attacker) = b.role_at(m.from) else {
        return 0;
    };
    let to = m.to;
    let mut occ = b.occupied();
    let mut gain = [0i32; 40];
    gain[0] = pos.captured_role(m).map_or(0, |r| SEE_VALUE[r.index()]);
    if pos.is_en_passant(m) {
        let captured = if pos.turn() == Color::White {
            to.offset(0, -1)
        } else {
            to.offset(0, 1)
        };
        if let Some(c) = captured {
            occ.remove(c);
        }
    }
    if let Some(p) = m.promotion {
        gain[0] += SEE_VALUE[p.index()] - SEE_VALUE[Role::Pawn.index()];
        attacker = p;
    }
    occ.remove(m.from);
    let mut side = !pos.turn();
    let mut d = 0;
    let diag = b.bishops_and_queens();
    let straight = b.rooks_and_queens();
    loop {
        if d + 1 >= gain.len() {
            break;
        }
        let attackers = (attacks::rook_attacks(to, occ) & straight)
            | (attacks::bishop_attacks(to, occ) & diag)
            | (attacks::knight_attacks(to) & b.knights())
            | (attacks::king_attacks(to) & b.kings())
            | (attacks::pawn_attacks(Color::White, to) & b.pawns() & b.by_color(Color::Black))
            | (attacks::pawn_attacks(Color::Black, to) & b.pawns() & b.by_color(Color::White));
        let ours = attackers & occ & b.by_color(side);
        let Some((role, sq)) = Role::ALL
            .iter()
            .find_map(|&r| (ours & b.by_role(r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        // The king may not capture onto a square the other side still defends.
        if role == Role::King && (attackers & occ & b.by_color(!side)).any() {
            break;
        }
        d += 1;
        // What this side wins by taking the piece on the square, minus what it risked.
        gain[d] = SEE_VALUE[attacker.index()] - gain[d - 1];
        occ.remove(sq);
        attacker = role;
        side = !side;
    }
    // Either side may stop capturing when going on would lose.
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Score bands, so that the classes of moves sort in the right order.
pub const HASH_MOVE: i32 = 10_000_000;
const GOOD_CAPTURE: i32 = 1_000_000;
const KILLER_1: i32 = 900_000;
const KILLER_2: i32 = 890_000;
const BAD_CAPTURE: i32 = -1_000_000;
const UNDER_PROMOTION: i32 = -2_000_000;

/// MVV-LVA key of a capture: the most valuable victim first, then the least valuable attacker.
#[inline]
pub fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.captured_role(m).map_or(0, |r| r.index() as i32 + 1);
    let attacker = pos.board().role_at(m.from).map_or(0, |r| r.index() as i32);
    victim * 16 - attacker
}

/// A list of moves with ordering scores, picked best-first.
pub struct Picker {
    moves: MoveList,
    scores: [i32; arbiter_rules::MAX_MOVES],
    next: usize,
}

impl Picker {
    /// Scores `moves` for the main search.
    pub fn new(
        pos: &Position,
        moves: MoveList,
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: &[[i32; 64]; 64],
    ) -> Picker {
        let mut scores = [0; arbiter_rules::MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == hash_move {
                HASH_MOVE
            } else if let Some(p) = m.promotion {
                if p == Role::Queen {
                    GOOD_CAPTURE + 500 + mvv_lva(pos, m)
                } else {
                    UNDER_PROMOTION
                }
            } else if pos.is_capture(m) {
                let victim = pos.captured_role(m).map_or(0, |r| SEE_VALUE[r.index()]);
                let attacker = pos
                    .board()
                    .role_at(m.from)
                    .map_or(0, |r| SEE_VALUE[r.index()]);
                if attacker <= victim || see(pos, m) >= 0 {
                    GOOD_CAPTURE + mvv_lva(pos, m)
                } else {
                    BAD_CAPTURE + mvv_lva(pos, m)
                }
            } else if Some(m) == killers[0] {
                KILLER_1
            } else if Some(m) == killers[1] {
                KILLER_2
            } else {
                history[m.from.idx()][m.to.idx()]
            };
        }
        Picker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Scores captures and queen promotions for quiescence search (MVV-LVA).
    pub fn captures(pos: &Position, moves: MoveList) -> Picker {
        let mut scores = [0; arbiter_rules::MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = mvv_lva(pos, m) + if m.promotion.is_some() { 100 } else { 0 };
        }
        Picker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// `true` if there are no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl Iterator for Picker {
    type Item = (Move, i32);

    /// The next best move and its ordering score.
    fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        let out = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(out)
    }
}

/// Captures, en passant and queen promotions (the moves quiescence search looks at).
pub fn tactical_moves(pos: &Position) -> MoveList {
    let theirs = pos.board().by_color(!pos.turn());
    let mut targets = theirs | Bitboard::BACKRANKS;
    if let Some(ep) = pos.pseudo_ep_square() {
        targets.add(ep);
    }
    let mut list = pos.legal_moves_filtered(Bitboard::FULL, targets);
    list.retain(|m| match m.promotion {
        Some(p) => p == Role::Queen,
        None => pos.is_capture(*m),
    });
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_rules::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn see_of_pawn_takes_defended_knight_wins_a_knight_for_a_pawn() {
        let p = pos("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1");
        let m = p.parse_uci("d4e5").unwrap();
        assert_eq!(see(&p, m), 320 - 100);
    }

    #[test]
    fn see_of_queen_takes_pawn_defended_by_pawn_loses_the_queen() {
        let p = pos("4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1");
        let m = p.parse_uci("e2e5").unwrap();
        assert_eq!(see(&p, m), 100 - 950);
    }

    #[test]
    fn see_counts_x_ray_rook_behind_rook() {
        // Rxe5, Rxe5, Rxe5: two rooks against one defender win the pawn.
        let p = pos("4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1");
        let m = p.parse_uci("e2e5").unwrap();
        assert_eq!(see(&p, m), 100);
    }

    #[test]
    fn quiescence_moves_are_captures_and_queen_promotions() {
        let p = pos("1n2k3/P7/8/3p4/4P3/8/8/4K3 w - - 0 1");
        let mut got: Vec<String> = tactical_moves(&p).iter().map(|&m| p.uci(m)).collect();
        got.sort();
        assert_eq!(got, vec!["a7a8q", "a7b8q", "e4d5"]);
    }
}
