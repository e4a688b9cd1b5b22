//! Shortening a mating line: the searches wander, so a line often passes through a position
//! that an earlier position of the same line reaches in one move. Jumping ahead there keeps the
//! line legal and ending in the same mate.

use crate::{Bitboard, Color, Move, Position, Role};

/// The squares whose contents differ between two boards.
fn changed(a: &Position, b: &Position) -> Bitboard {
    let (x, y) = (a.board(), b.board());
    let mut diff = x.by_color(Color::White) ^ y.by_color(Color::White);
    diff |= x.by_color(Color::Black) ^ y.by_color(Color::Black);
    for role in Role::ALL {
        diff |= x.by_role(role) ^ y.by_role(role);
    }
    diff
}

/// The same position for the rest of the line: board, side to move, castling rights and en
/// passant square.
fn same(a: &Position, b: &Position) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().mask() == b.castles().mask()
        && a.pseudo_ep_square() == b.pseudo_ep_square()
}

/// The move from `a` to `b` when they differ on the two squares `diff` only: the mover's piece
/// leaves one of them for the other, if that is legal and gives exactly `b`.
fn plain_move(a: &Position, b: &Position, diff: Bitboard) -> Option<Move> {
    let us = a.board().by_color(a.turn());
    let origin = (diff & us & !b.board().occupied()).first()?;
    let target = diff.without(origin).first()?;
    let promotion = match (a.board().role_at(origin), b.board().role_at(target)) {
        (Some(Role::Pawn), Some(role)) if role != Role::Pawn => Some(role),
        _ => None,
    };
    let m = Move {
        from: origin,
        to: target,
        promotion,
    };
    if !a.is_legal(m) {
        return None;
    }
    let mut next = *a;
    next.play_unchecked(m);
    same(&next, b).then_some(m)
}

/// From each position of the line, jumps to the latest later position reachable in one legal
/// move. A move changes two squares (two to four when castling, three en passant), so only the
/// later positions that differ from this one on at most four squares, with the other side to
/// move, are tried: a difference of two squares names the move, and only when castling or en
/// passant is possible are the moves that touch the changed squares played out.
pub(super) fn shorten(root: &Position, line: &[Move]) -> Vec<Move> {
    let mut positions = Vec::with_capacity(line.len() + 1);
    let mut cur = *root;
    positions.push(cur);
    for &m in line {
        cur.play_unchecked(m);
        positions.push(cur);
    }
    // The occupied squares alone, side by side: most pairs of positions differ on more than
    // four of them, which rules them out before the full comparison.
    let occupied: Vec<Bitboard> = positions.iter().map(|p| p.board().occupied()).collect();
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        let mut best = (i + 1, line[i]);
        let from = &positions[i];
        // Only castling (2 to 4 squares) and en passant (3) change other than exactly two
        // squares; without castling rights or an en passant square, only the plain move is
        // worth trying.
        let special = !from.castles().is_empty() || from.pseudo_ep_square().is_some();
        let most = if special { 4 } else { 2 };
        // Later positions with the other side to move: i + 3, i + 5, ... (latest first).
        let mut j = positions.len() - 1;
        if (j - i) % 2 == 0 {
            j -= 1;
        }
        while j >= i + 3 {
            if (occupied[i] ^ occupied[j]).count() > most {
                j -= 2;
                continue;
            }
            let to = &positions[j];
            let diff = changed(from, to);
            // One piece moved (a plain move, a capture or a promotion): the move is known.
            if let Some(m) = (diff.count() == 2)
                .then(|| plain_move(from, to, diff))
                .flatten()
            {
                best = (j, m);
                break;
            }
            if special && diff.count() <= 4 {
                let mut hit = None;
                from.generate(|pm| {
                    pm.for_each(|m| {
                        if hit.is_none() && (diff.contains(m.from) || diff.contains(m.to)) {
                            let mut next = *from;
                            next.play_unchecked(m);
                            if same(&next, to) {
                                hit = Some(m);
                            }
                        }
                    });
                    hit.is_some()
                });
                if let Some(m) = hit {
                    best = (j, m);
                    break;
                }
            }
            j -= 2;
        }
        out.push(best.1);
        i = best.0;
    }
    out
}

/// Do the moves of `line` from `root` all stand legal, and end with `side` giving mate?
#[cfg(test)]
pub(super) fn mates(root: &Position, side: Color, line: &[Move]) -> bool {
    let mut p = *root;
    for &m in line {
        match p.play(m) {
            Ok(next) => p = next,
            Err(_) => return false,
        }
    }
    p.is_checkmate() && p.turn() != side
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::{can_checkmate, Mode, Verdict};
    use crate::CastlingMode;

    /// The moves of a line given in SAN from `root`.
    fn moves(root: &Position, sans: &[&str]) -> Vec<Move> {
        let mut p = *root;
        sans.iter()
            .map(|san| {
                let m = p.parse_san(san).unwrap();
                p = p.play(m).unwrap();
                m
            })
            .collect()
    }

    #[test]
    fn art_5_1_1_a_detour_back_to_the_start_is_cut_and_the_line_still_mates() {
        let root =
            Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", CastlingMode::Standard).unwrap();
        let Verdict::Yes(line) = can_checkmate(&root, Color::White, Mode::Full) else {
            panic!("K+R mates");
        };
        // Ra2 Kd5 Ra1 Ke5 comes back to the root position: the shortened line skips it.
        let detour = moves(&root, &["Ra2", "Kd5", "Ra1", "Ke5"]);
        let long: Vec<Move> = detour.iter().chain(line.iter()).copied().collect();
        assert!(mates(&root, Color::White, &long));
        let short = shorten(&root, &long);
        assert!(mates(&root, Color::White, &short), "still mates");
        assert!(
            short.len() <= line.len(),
            "{} > {}",
            short.len(),
            line.len()
        );
    }

    #[test]
    fn a_line_with_no_shortcut_is_kept_as_it_is() {
        // Fool's mate: no position of it is one move from an earlier one but the next.
        let root = Position::new();
        let line = moves(&root, &["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(shorten(&root, &line), line);
    }
}
