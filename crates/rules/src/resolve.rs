//! Finding the legal move a SAN stands for, quickly (used by [`Position::san_to_move`]): only
//! the pieces that could reach the destination are looked at, and each is checked for leaving
//! its king in check (Art. 3.9) with one attack query. Castling, ambiguity and anything
//! unusual go to the general path, which also names the candidates of an ambiguous move.

use crate::attacks;
use crate::{Bitboard, Color, Move, Position, Rank, Role, San, SanError, Square};

/// The legal move `san` stands for in `pos`.
#[inline]
pub(crate) fn resolve(pos: &Position, san: &San) -> Result<Move, SanError> {
    let San::Normal {
        role,
        file,
        rank,
        to,
        promotion,
        ..
    } = *san
    else {
        return pos.san_to_move_generic(san);
    };
    let board = pos.board();
    let turn = pos.turn();
    let ours = board.by_color(turn);
    if ours.contains(to) {
        return Err(illegal());
    }
    // Art. 3.7.5: a pawn reaching the last rank is promoted; nothing else is.
    let last_rank = if turn == Color::White {
        Rank::new(7)
    } else {
        Rank::new(0)
    };
    let needs_promotion = role == Role::Pawn && Some(to.rank()) == last_rank;
    match promotion {
        Some(p) if !needs_promotion || p == Role::Pawn || p == Role::King => return Err(illegal()),
        None if needs_promotion => return Err(illegal()),
        _ => {}
    }
    let occupied = board.occupied();
    let mut ep_captured = None;
    let mut from_mask = board.by_piece(role.of(turn));
    if let Some(f) = file {
        from_mask &= Bitboard::file(f);
    }
    if let Some(r) = rank {
        from_mask &= Bitboard::rank(r);
    }
    let candidates = if role == Role::Pawn {
        if file.is_some_and(|f| f != to.file()) {
            // A capture (Art. 3.7.2), possibly en passant (Art. 3.7.4.1).
            let theirs = board.by_color(!turn);
            if pos.pseudo_ep_square() == Some(to) && !occupied.contains(to) {
                let idx = if turn == Color::White {
                    to.index() - 8
                } else {
                    to.index() + 8
                };
                ep_captured = Some(Square::new_unchecked(idx));
            } else if !theirs.contains(to) {
                return Err(illegal());
            }
            from_mask & attacks::pawn_attacks(!turn, to)
        } else {
            // A push along the file (Art. 3.7.1, 3.7.2): one square, or two from the start.
            if occupied.contains(to) {
                return Err(illegal());
            }
            let (one, start_rank, double_rank) = if turn == Color::White {
                (to.index().wrapping_sub(8), 1, 3)
            } else {
                (to.index() + 8, 6, 4)
            };
            let Some(one) = Square::new(one) else {
                return Err(illegal());
            };
            let pawns = board.by_piece(Role::Pawn.of(turn));
            if pawns.contains(one) {
                from_mask & Bitboard::from_square(one)
            } else if to.rank().index() == double_rank && !occupied.contains(one) {
                let two = if turn == Color::White {
                    Square::new_unchecked(one.index() - 8)
                } else {
                    Square::new_unchecked(one.index() + 8)
                };
                if two.rank().index() == start_rank {
                    from_mask & Bitboard::from_square(two)
                } else {
                    Bitboard::EMPTY
                }
            } else {
                Bitboard::EMPTY
            }
        }
    } else {
        from_mask & attacks::attacks(role, turn, to, occupied)
    };

    let mut found = None;
    for from in candidates {
        if leaves_king_safe(pos, from, to, role == Role::King, ep_captured) {
            if found.is_some() {
                // Ambiguous: the general path names the candidates.
                return pos.san_to_move_generic(san);
            }
            found = Some(Move {
                from,
                to,
                promotion,
            });
        }
    }
    found.ok_or_else(illegal)
}

/// Squares a rook (index 0) or a bishop (index 1) on a square attacks on an empty board.
/// Small (1 KB) and always in cache: it rules out most slider checks without a magic lookup.
static EMPTY_BOARD_RAYS: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        let mut other = 0;
        while other < 64 {
            let (g, s) = (other % 8, other / 8);
            if other != sq {
                if f == g || r == s {
                    t[0][sq as usize] |= 1 << other;
                }
                if f - g == r - s || f - g == s - r {
                    t[1][sq as usize] |= 1 << other;
                }
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// Art. 3.9: after the move, no piece of the opponent attacks our king.
#[inline]
fn leaves_king_safe(
    pos: &Position,
    from: Square,
    to: Square,
    king_moves: bool,
    ep_captured: Option<Square>,
) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    let mut occupied = board.occupied().without(from).with(to);
    let mut removed = Bitboard::from_square(to);
    if let Some(c) = ep_captured {
        occupied = occupied.without(c);
        removed = removed.with(c);
    }
    let king = if king_moves { to } else { pos.our_king() };
    let them = board.by_color(!turn) & !removed;
    if (attacks::knight_attacks(king) & board.knights() & them).any()
        || (attacks::pawn_attacks(turn, king) & board.pawns() & them).any()
        || (attacks::king_attacks(king) & board.kings() & them).any()
    {
        return false;
    }
    let rooks = board.rooks_and_queens() & them;
    if (Bitboard(EMPTY_BOARD_RAYS[0][king.idx()]) & rooks).any()
        && (attacks::rook_attacks(king, occupied) & rooks).any()
    {
        return false;
    }
    let bishops = board.bishops_and_queens() & them;
    !((Bitboard(EMPTY_BOARD_RAYS[1][king.idx()]) & bishops).any()
        && (attacks::bishop_attacks(king, occupied) & bishops).any())
}

fn illegal() -> SanError {
    SanError::Illegal {
        text: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastlingMode, SanPlus};

    /// Every legal move's SAN resolves to that move, in positions with pins, en passant,
    /// promotions and checks — the fast path agrees with the rules crate.
    #[test]
    fn empty_board_rays_match_slider_attacks() {
        for i in 0..64u8 {
            let sq = Square::new(i).unwrap();
            assert_eq!(
                Bitboard(EMPTY_BOARD_RAYS[0][sq.idx()]),
                attacks::rook_attacks(sq, Bitboard::EMPTY)
            );
            assert_eq!(
                Bitboard(EMPTY_BOARD_RAYS[1][sq.idx()]),
                attacks::bishop_attacks(sq, Bitboard::EMPTY)
            );
        }
    }

    #[test]
    fn art_3_fast_resolution_agrees_with_rules_crate_on_every_legal_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1",
            "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
            "1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
            for &m in &pos.legal_moves() {
                let san = pos.san(m);
                let parsed = SanPlus::parse(&san).unwrap();
                assert_eq!(resolve(&pos, &parsed.san), Ok(m), "{san} in {fen}");
            }
            // Moves that are not legal are refused.
            for bad in ["Ke8", "a5", "h3", "Qh8", "exd7", "bxa8=K", "Nxf7"] {
                if let Ok(p) = SanPlus::parse(bad) {
                    assert_eq!(
                        resolve(&pos, &p.san).is_ok(),
                        pos.san_to_move_generic(&p.san).is_ok(),
                        "{bad} in {fen}"
                    );
                }
            }
        }
    }
}
