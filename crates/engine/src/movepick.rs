//! Move ordering: hash move first, then winning and equal captures (MVV-LVA, checked by static
//! exchange evaluation), queen promotions, killer moves, the counter move, quiet moves by
//! history, and losing captures last.

use crate::eval::SEE_VALUE;
use arbiter_rules::attacks;
use arbiter_rules::{Bitboard, Color, Move, MoveList, PieceMoves, Position, Role};

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
/// A quiet move that refuted the opponent's last move elsewhere in the tree.
pub const COUNTER_MOVE: i32 = 880_000;
const BAD_CAPTURE: i32 = -1_000_000;
const UNDER_PROMOTION: i32 = -2_000_000;

/// MVV-LVA key of a capture: the most valuable victim first, then the least valuable attacker.
#[inline]
pub fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.captured_role(m).map_or(0, |r| r.index() as i32 + 1);
    let attacker = pos.board().role_at(m.from).map_or(0, |r| r.index() as i32);
    victim * 16 - attacker
}

/// Moves held inline by a [`Picker`]: more than nearly every position of a game has (the
/// most known in a reachable position is 218; a longer list goes to the heap). Smaller is
/// faster: every node fills and moves the picker.
const INLINE: usize = 96;

/// A list of moves with ordering scores, picked best-first.
///
/// The moves are generated straight into the picker (not through a [`MoveList`], whose room
/// for 1,024 moves made every node fill and copy kilobytes); a list longer than [`INLINE`]
/// moves to the heap.
pub struct Picker {
    moves: [Move; INLINE],
    scores: [i32; INLINE],
    len: usize,
    next: usize,
    /// The whole list when it is longer than [`INLINE`].
    spill: Vec<(Move, i32)>,
}

impl Picker {
    fn empty() -> Picker {
        Picker {
            moves: [Move::new(arbiter_rules::Square::A1, arbiter_rules::Square::A1); INLINE],
            scores: [0; INLINE],
            len: 0,
            next: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        if self.len < INLINE {
            self.moves[self.len] = m;
        } else {
            if self.spill.is_empty() {
                self.spill = self.moves.iter().map(|&m| (m, 0)).collect();
            }
            self.spill.push((m, 0));
        }
        self.len += 1;
    }

    /// Generates the legal moves of `pos` whose destination lies in `to_mask`.
    fn generate(pos: &Position, to_mask: Bitboard) -> Picker {
        let mut p = Picker::empty();
        pos.generate(|pm| {
            let pm = PieceMoves {
                to: pm.to & to_mask,
                ..pm
            };
            pm.for_each(|m| p.push(m));
            false
        });
        p
    }

    /// Sets each move's score by `score`.
    #[inline]
    fn score_with(&mut self, mut score: impl FnMut(Move) -> i32) {
        if self.spill.is_empty() {
            for i in 0..self.len {
                self.scores[i] = score(self.moves[i]);
            }
        } else {
            for e in self.spill.iter_mut() {
                e.1 = score(e.0);
            }
        }
    }

    /// All legal moves of `pos`, scored for the main search: hash move, good captures and
    /// queen promotions, killers, quiet moves by history, bad captures, under-promotions.
    pub fn new(
        pos: &Position,
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        history: &[[i32; 64]; 64],
    ) -> Picker {
        let mut p = Picker::generate(pos, Bitboard::FULL);
        p.score_with(|m| {
            if Some(m) == hash_move {
                HASH_MOVE
            } else if let Some(pr) = m.promotion {
                if pr == Role::Queen {
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
            } else if Some(m) == counter {
                COUNTER_MOVE
            } else {
                history[m.from.idx()][m.to.idx()]
            }
        });
        p
    }

    /// For quiescence search: all legal moves when in check, otherwise captures and queen
    /// promotions ([`tactical_moves`]); the hash move first, then by MVV-LVA.
    pub fn quiescence(pos: &Position, hash_move: Option<Move>) -> Picker {
        let mut p = if pos.is_check() {
            Picker::generate(pos, Bitboard::FULL)
        } else {
            let theirs = pos.board().by_color(!pos.turn());
            let mut targets = theirs | Bitboard::BACKRANKS;
            if let Some(ep) = pos.pseudo_ep_square() {
                targets.add(ep);
            }
            let mut p = Picker::generate(pos, targets);
            p.retain_tactical(pos);
            p
        };
        p.score_with(|m| {
            if Some(m) == hash_move {
                HASH_MOVE
            } else {
                mvv_lva(pos, m) + if m.promotion.is_some() { 100 } else { 0 }
            }
        });
        p
    }

    /// Keeps captures and queen promotions (generation to the target squares also gave quiet
    /// moves to the last rank and under-promotions).
    fn retain_tactical(&mut self, pos: &Position) {
        let keep = |m: &Move| match m.promotion {
            Some(p) => p == Role::Queen,
            None => pos.is_capture(*m),
        };
        if self.spill.is_empty() {
            let mut j = 0;
            for i in 0..self.len {
                if keep(&self.moves[i]) {
                    self.moves[j] = self.moves[i];
                    j += 1;
                }
            }
            self.len = j;
        } else {
            self.spill.retain(|(m, _)| keep(m));
            self.len = self.spill.len();
        }
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if there are no moves.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Iterator for Picker {
    type Item = (Move, i32);

    /// The next best move and its ordering score (the first generated among equals).
    fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.len;
        if self.next >= n {
            return None;
        }
        if !self.spill.is_empty() {
            let list = &mut self.spill;
            let mut best = self.next;
            for i in self.next + 1..n {
                if list[i].1 > list[best].1 {
                    best = i;
                }
            }
            list.swap(self.next, best);
            self.next += 1;
            return Some(list[self.next - 1]);
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
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

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    #[test]
    fn picker_yields_every_legal_move_once_also_beyond_its_inline_room() {
        // 270 and 48 legal moves: the heap path and the inline one.
        for fen in [
            "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let p = pos(fen);
            let history = [[0; 64]; 64];
            let picked: Vec<(Move, i32)> =
                Picker::new(&p, None, [None; 2], None, &history).collect();
            let legal: Vec<String> = p.legal_moves().iter().map(|&m| p.uci(m)).collect();
            assert_eq!(
                sorted(picked.iter().map(|&(m, _)| p.uci(m)).collect()),
                sorted(legal)
            );
            // Best first.
            assert!(picked.windows(2).all(|w| w[0].1 >= w[1].1), "{fen}");
        }
    }

    #[test]
    fn quiescence_picker_is_the_tactical_moves_or_every_evasion_in_check() {
        for fen in [
            "1n2k3/P7/8/3p4/4P3/8/8/4K3 w - - 0 1",
            "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
        ] {
            let p = pos(fen);
            let expected = if p.is_check() {
                p.legal_moves()
            } else {
                tactical_moves(&p)
            };
            let got: Vec<String> = Picker::quiescence(&p, None)
                .map(|(m, _)| p.uci(m))
                .collect();
            let want: Vec<String> = expected.iter().map(|&m| p.uci(m)).collect();
            assert_eq!(sorted(got), sorted(want), "{fen}");
        }
    }

    #[test]
    fn quiescence_moves_are_captures_and_queen_promotions() {
        let p = pos("1n2k3/P7/8/3p4/4P3/8/8/4K3 w - - 0 1");
        let mut got: Vec<String> = tactical_moves(&p).iter().map(|&m| p.uci(m)).collect();
        got.sort();
        assert_eq!(got, vec!["a7a8q", "a7b8q", "e4d5"]);
    }
}
