//! Layer 2 of the dead-position analysis: where can each piece ever go?
//!
//! A monotone fixpoint over two kinds of facts, both over-approximations of every position
//! reachable from the given one:
//! - `reach[i]`: the squares piece `i` (as it stands now) can ever occupy;
//! - `perm`: the occupied squares whose occupant can never leave (it never moves and is never
//!   captured). Only these act as walls.
//!
//! Start with every piece on its square and every occupied square permanent; then repeat until
//! nothing changes:
//! - a knight, bishop, rook or queen walks with its own moves, blocked only by permanent
//!   pieces, never landing on a permanent piece of its own colour (landing on an enemy one is a
//!   capture, which clears that square);
//! - a king does the same and also avoids squares a permanent enemy piece attacks for ever (a
//!   pawn, knight or king that never moves, a slider whose line to the square crosses only
//!   squares no piece can ever stand on);
//! - a pawn pushes onto squares that are not permanent and captures onto squares some enemy
//!   piece (not the king) can reach; a pawn that can reach its last rank ends the analysis
//!   (nothing is proved);
//! - an occupied square stops being permanent when its occupant can move, or an enemy piece can
//!   reach it (by capturing).
//!
//! Soundness, by induction on the moves of any legal line: every piece stays in its `reach`,
//! and every permanent square keeps its occupant, because each legal move is also a move of the
//! relaxed system (real blockers include the permanent ones, a real capture target stands on a
//! square the enemy can reach, a real safe king square is not attacked by a permanent piece).
//! Castling (Art. 3.8.2) is in the relaxation as a jump: a king or rook with a castling right
//! starts its walk from the square castling would put it on as well as from its own (more than
//! it can really do, so still sound), unless a permanent man stands on a square that castling
//! needs empty (Art. 3.8.2.1): then it can never castle that way. (Permanent squares only
//! shrink from round to round, so the jump, once allowed, stays allowed.) En passant is
//! outside the relaxation, so a position with a legal en passant capture is not analysed here.
//!
//! With the fixpoint, a side can never check when none of its pieces can ever attack a square
//! the enemy king can reach; and it can never mate when, at every square where a check is
//! possible, some flight square can neither be attacked nor blocked.

use crate::attacks;
use crate::{Bitboard, Board, CastlingSide, Color, Position, Rank, Role, Square};

/// At most 32 pieces stand on a legal board.
const MAX: usize = 32;

/// A piece of the fixpoint: where it stands now and where it can ever go.
pub(super) struct Piece {
    pub(super) color: Color,
    pub(super) role: Role,
    pub(super) origin: Square,
    /// For a king or rook that may still castle, per castling side: the square castling puts
    /// it on, and the squares that must be empty of other men for that castling.
    castling: [(Bitboard, Bitboard); 2],
    /// The squares it can ever occupy.
    pub(super) reach: Bitboard,
    /// What `reach` was computed from (walls, and targets or guarded squares, and the file
    /// lock): the same inputs give the same reach, so it is not computed again.
    inputs: [u64; 3],
}

/// Inputs no real computation has (a board is never full).
const NOT_COMPUTED: [u64; 3] = [!0; 3];

/// `true` if it is proved that `side` can never checkmate (see the module docs).
pub(super) fn reach_no(pos: &Position, side: Color) -> bool {
    with_facts(pos, [Bitboard::EMPTY; 2], |f| {
        verdict(f.pieces, f.perm, side)
    })
    .unwrap_or(false)
}

/// Some pawn has nothing at all ahead of it on its file: it may promote, and every fixpoint
/// (with shields or without) gives up.
pub(super) fn runs_free(b: &Board) -> bool {
    let promotion = [Bitboard::rank(Rank::EIGHTH), Bitboard::rank(Rank::FIRST)];
    Color::ALL.into_iter().any(|c| {
        let pawns = b.pawns() & b.by_color(c);
        pawn_reach(c, pawns, b.occupied(), Bitboard::EMPTY).intersects(promotion[c.index()])
    })
}

/// The facts of the fixpoint, for another layer (`duel`).
pub(super) struct Facts<'a> {
    /// Every piece with its reach.
    pub(super) pieces: &'a [Piece],
    /// The squares whose occupant never leaves.
    pub(super) perm: Bitboard,
    /// By colour: the squares attacked for ever by that colour's permanent pieces.
    pub(super) guarded: [Bitboard; 2],
}

/// Runs the fixpoint and hands its facts to `f`; `None` if nothing can be concluded (en
/// passant, a pawn that may promote, too many pieces).
///
/// `shield[c]`: squares the pieces of colour `c` may never land on. With shields the facts
/// hold only for the positions reached before a piece first lands on a shielded square (the
/// caller deals with that moment); with none they hold for every reachable position.
pub(super) fn with_facts<R>(
    pos: &Position,
    shield: [Bitboard; 2],
    f: impl FnOnce(&Facts<'_>) -> R,
) -> Option<R> {
    if pos.legal_ep_square().is_some() {
        return None;
    }
    let b = pos.board();
    // The shortcut knows nothing of shields.
    let shielded = shield[0].any() || shield[1].any();
    if !shielded && promotes_early(b) {
        return None;
    }
    let mut pieces: [Piece; MAX] = core::array::from_fn(|_| Piece {
        color: Color::White,
        role: Role::Pawn,
        origin: Square::new_unchecked(0),
        castling: [(Bitboard::EMPTY, Bitboard::EMPTY); 2],
        reach: Bitboard::EMPTY,
        inputs: NOT_COMPUTED,
    });
    let mut n = 0;
    // Pawns first: a pawn that can promote ends the analysis at once.
    for pawns_first in [true, false] {
        for (sq, piece) in b.pieces() {
            if (piece.role == Role::Pawn) != pawns_first {
                continue;
            }
            if n == MAX {
                return None;
            }
            pieces[n] = Piece {
                color: piece.color,
                role: piece.role,
                origin: sq,
                castling: castlings(pos, sq, piece.color, piece.role),
                reach: Bitboard::from_square(sq),
                inputs: NOT_COMPUTED,
            };
            n += 1;
        }
    }
    let pieces = &mut pieces[..n];
    let mut perm = b.occupied();
    let promotion = [Bitboard::rank(Rank::EIGHTH), Bitboard::rank(Rank::FIRST)];
    let mut guarded: [Bitboard; 2];
    loop {
        // What each colour's pieces (not kings) can ever stand on: a pawn may capture there.
        let mut targets = [Bitboard::EMPTY; 2];
        let mut ever = Bitboard::EMPTY;
        for p in pieces.iter() {
            ever |= p.reach;
            if p.role != Role::King {
                targets[p.color.index()] |= p.reach;
            }
        }
        // Squares attacked for ever by pieces that never leave their square.
        guarded = [Bitboard::EMPTY; 2];
        for p in pieces.iter().filter(|p| perm.contains(p.origin)) {
            guarded[p.color.index()] |= attacks::attacks(p.role, p.color, p.origin, ever);
        }
        let mut changed = false;
        for i in 0..pieces.len() {
            let p = &pieces[i];
            let (us, them) = (p.color.index(), (!p.color).index());
            let own_perm = perm & b.by_color(p.color);
            let walls = perm.without(p.origin);
            let (cap, inputs) = match p.role {
                Role::Pawn => {
                    let cap = lock(pieces, i);
                    (cap, [perm.0, targets[them].0, cap.0])
                }
                Role::King => (Bitboard::EMPTY, [perm.0, guarded[them].0, 0]),
                _ => (Bitboard::EMPTY, [perm.0, 0, 0]),
            };
            if inputs == p.inputs {
                continue;
            }
            let reach = match p.role {
                Role::Pawn => {
                    let origin = Bitboard::from_square(p.origin);
                    let prey = targets[them] - shield[us];
                    let mut r = pawn_reach(p.color, origin, walls | cap, prey);
                    if cap.any() && !(r - Bitboard::file(p.origin.file())).is_empty() {
                        // It may leave its file: the lock is not proved.
                        r = pawn_reach(p.color, origin, walls, prey);
                    }
                    if r.intersects(promotion[us]) {
                        return None; // A promotion: the new piece could go anywhere.
                    }
                    r
                }
                Role::King => flood(
                    p,
                    seeds(p, perm),
                    walls,
                    own_perm | guarded[them] | shield[us],
                ),
                _ => flood(p, seeds(p, perm), walls, own_perm | shield[us]),
            };
            pieces[i].inputs = inputs;
            if reach != pieces[i].reach {
                pieces[i].reach = reach;
                changed = true;
            }
        }
        let mut next_perm = Bitboard::EMPTY;
        let mut all_reach = [Bitboard::EMPTY; 2];
        for p in pieces.iter() {
            all_reach[p.color.index()] |= p.reach;
        }
        for p in pieces.iter() {
            if perm.contains(p.origin)
                && p.reach == Bitboard::from_square(p.origin)
                && !all_reach[(!p.color).index()].contains(p.origin)
            {
                next_perm.add(p.origin);
            }
        }
        if next_perm != perm {
            perm = next_perm;
            changed = true;
        }
        if !changed {
            break;
        }
    }
    Some(f(&Facts {
        pieces,
        perm,
        guarded,
    }))
}

/// A quick look at the first two rounds of the fixpoint, for the pawns only: `true` when the
/// fixpoint would find a pawn that can promote (and so prove nothing) in round one or two.
/// Most positions of a search end here, before any piece is set up.
///
/// Each test floods the pawns of one colour set-wise with walls that contain the walls of
/// that round and every enemy pawn, and capture targets contained in that round's targets.
/// So what it floods is contained in what the fixpoint's pawns reach in that round (sets only
/// grow and walls only shrink from round to round): with fewer targets and more walls a pawn
/// reaches less, and the file lock (`lock`) only adds squares beyond an enemy pawn on the
/// file, which are out of reach here as long as the pawn stays on its file, while a pawn that
/// leaves its file is flooded there without the lock.
fn promotes_early(b: &Board) -> bool {
    if b.pawns().count() > 16 {
        return false; // More pawns than a game can have: no shortcut (the fixpoint decides).
    }
    let occ = b.occupied();
    let promotion = [Bitboard::rank(Rank::EIGHTH), Bitboard::rank(Rank::FIRST)];
    let enemy_men = |c: Color| b.by_color(!c) - b.kings();
    // Round one: every occupied square is a wall, the targets are where enemy men stand.
    for c in [Color::White, Color::Black] {
        let pawns = b.pawns() & b.by_color(c);
        if pawn_reach(c, pawns, occ, enemy_men(c)).intersects(promotion[c.index()]) {
            return true;
        }
    }
    // Round one floods every man with every other man as a wall (set-wise per colour and
    // role: a slider never needs to cross its own square again, a knight ignores walls), a
    // king avoiding what the enemy attacks. A man with a first step, or standing where an
    // enemy man can go, is no wall in round two; where non-king men can go are its targets.
    let mut attacked = [Bitboard::EMPTY; 2];
    for c in [Color::White, Color::Black] {
        for role in Role::ALL {
            let from = b.by_role(role) & b.by_color(c);
            if from.any() {
                attacked[c.index()] |= Bitboard(attack_set(role, c, from.0, occ.0));
            }
        }
    }
    let mut mobile = Bitboard::EMPTY;
    let mut moves = [Bitboard::EMPTY; 2]; // Where each colour's non-king men can go.
    let mut king_moves = [Bitboard::EMPTY; 2];
    // Pawns that never leave their file in round one (only they may lock a file in round two),
    // with what they reach; and what each colour's other men reach (they may capture).
    let mut on_file = [(Color::White, Square::A1, Bitboard::EMPTY); 16];
    let mut n_on_file = 0;
    let mut free = [Bitboard::EMPTY; 2];
    for c in [Color::White, Color::Black] {
        let (us, them) = (c.index(), (!c).index());
        let own = b.by_color(c);
        for role in [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            let from = b.by_role(role) & own;
            if from.is_empty() {
                continue;
            }
            let forbidden = if role == Role::King {
                own | attacked[them]
            } else {
                own
            };
            let first = Bitboard(attack_set(role, c, from.0, occ.0)) - forbidden;
            if first.is_empty() {
                continue;
            }
            for sq in from {
                if (attacks::attacks(role, c, sq, occ) - forbidden).any() {
                    mobile.add(sq);
                }
            }
            let mut seen = from | first;
            let mut frontier = first;
            while frontier.any() {
                let next = Bitboard(attack_set(role, c, frontier.0, occ.0)) - forbidden - seen;
                seen |= next;
                frontier = next;
            }
            if role == Role::King {
                king_moves[us] |= seen - from;
            } else {
                moves[us] |= seen - from;
            }
        }
        free[us] = (own - b.pawns()) | moves[us] | king_moves[us];
        for sq in own & b.pawns() {
            let to = pawn_reach(c, Bitboard::from_square(sq), occ, enemy_men(c)).without(sq);
            moves[us] |= to;
            if to.any() {
                mobile.add(sq);
            }
            if (to - Bitboard::file(sq.file())).is_empty() {
                on_file[n_on_file] = (c, sq, to.with(sq));
                n_on_file += 1;
            } else {
                free[us] |= to.with(sq);
            }
        }
    }
    for c in [Color::White, Color::Black] {
        let (us, them) = (c.index(), (!c).index());
        let reachable = [moves[0] | king_moves[0], moves[1] | king_moves[1]];
        // Enemy pawns that may lock a file: they never leave it and none of our men that
        // may capture reaches a square of theirs.
        let mut locks = Bitboard::EMPTY;
        for &(color, sq, reach) in &on_file[..n_on_file] {
            if color != c && !reach.intersects(free[us]) {
                locks.add(sq);
            }
        }
        let walls = (occ
            - mobile
            - (b.by_color(Color::White) & reachable[1])
            - (b.by_color(Color::Black) & reachable[0]))
            | locks;
        let pawns = b.pawns() & b.by_color(c);
        let targets = enemy_men(c) | moves[them];
        if pawn_reach(c, pawns, walls, targets).intersects(promotion[us]) {
            return true;
        }
    }
    false
}

/// The square of a piece, with the square castling (Art. 3.8.2) may put it on if it is a king
/// or rook with a castling right.
fn castlings(pos: &Position, sq: Square, color: Color, role: Role) -> [(Bitboard, Bitboard); 2] {
    let mut out = [(Bitboard::EMPTY, Bitboard::EMPTY); 2];
    let castles = pos.castles();
    let king = pos.king(color);
    for (i, side) in CastlingSide::ALL.into_iter().enumerate() {
        let Some(rook) = castles.rook(color, side) else {
            continue;
        };
        let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
        // Art. 3.8.2.1: every square between the king's and the rook's start and end squares
        // must be empty, but for the king and the rook themselves.
        let span = (attacks::between(king, king_to)
            | Bitboard::from_square(king_to)
            | attacks::between(rook, rook_to)
            | Bitboard::from_square(rook_to))
        .without(king)
        .without(rook);
        match role {
            Role::King => out[i] = (Bitboard::from_square(king_to), span),
            Role::Rook if rook == sq => out[i] = (Bitboard::from_square(rook_to), span),
            _ => {}
        }
    }
    out
}

/// Where a piece's flood starts: its square, and the square a castling puts it on unless a
/// man that never leaves stands in that castling's way (then the castling never happens).
fn seeds(p: &Piece, perm: Bitboard) -> Bitboard {
    let mut seeds = Bitboard::from_square(p.origin);
    for &(to, span) in &p.castling {
        if !span.intersects(perm) {
            seeds |= to;
        }
    }
    seeds
}

/// Two pawns face each other on a file: pawn `i` can never pass the first enemy pawn ahead of
/// it when that enemy pawn never leaves the file and is never captured (pawn `i` itself must
/// never leave the file either, which the caller checks). Returns the squares of the file from
/// that enemy pawn on (walls for pawn `i`'s pushes), or nothing.
fn lock(pieces: &[Piece], i: usize) -> Bitboard {
    let p = &pieces[i];
    let file = Bitboard::file(p.origin.file());
    let ahead = |sq: Square| match p.color {
        Color::White => sq.rank().index() > p.origin.rank().index(),
        Color::Black => sq.rank().index() < p.origin.rank().index(),
    };
    let Some(e) = pieces
        .iter()
        .filter(|e| e.color != p.color && e.role == Role::Pawn)
        .filter(|e| file.contains(e.origin) && ahead(e.origin))
        .min_by_key(|e| e.origin.distance(p.origin))
    else {
        return Bitboard::EMPTY;
    };
    if !(e.reach - file).is_empty() {
        return Bitboard::EMPTY; // It may capture its way off the file.
    }
    // Nothing of ours may ever capture it (pawns that never leave their file never capture).
    let capturable = pieces.iter().any(|q| {
        q.color == p.color
            && q.reach.intersects(e.reach)
            && !(q.role == Role::Pawn && (q.reach - Bitboard::file(q.origin.file())).is_empty())
    });
    if capturable {
        return Bitboard::EMPTY;
    }
    let mut cap = Bitboard::EMPTY;
    for sq in file {
        if sq == e.origin || (ahead(sq) && e.origin.distance(p.origin) < sq.distance(p.origin)) {
            cap.add(sq);
        }
    }
    cap
}

/// The squares a knight, bishop, rook, queen or king can reach from its square, blocked by
/// `walls`, never landing on `forbidden` (set-wise: every square of the frontier at once).
fn flood(p: &Piece, seeds: Bitboard, walls: Bitboard, forbidden: Bitboard) -> Bitboard {
    let mut seen = seeds.0;
    let mut frontier = seen;
    while frontier != 0 {
        let next = attack_set(p.role, p.color, frontier, walls.0) & !forbidden.0 & !seen;
        seen |= next;
        frontier = next;
    }
    Bitboard(seen)
}

/// Every square a piece of `role` attacks from any square of `from`, rays stopped by `walls`
/// (the squares themselves included).
pub(super) fn attacks_from(role: Role, color: Color, from: Bitboard, walls: Bitboard) -> Bitboard {
    Bitboard(attack_set(role, color, from.0, walls.0))
}

/// Every square a piece of `role` attacks from any square of `from`, rays stopped by `walls`.
#[inline]
fn attack_set(role: Role, color: Color, from: u64, walls: u64) -> u64 {
    let empty = !walls;
    match role {
        Role::Pawn => match color {
            Color::White => ((from << 9) & NOT_A) | ((from << 7) & NOT_H),
            Color::Black => ((from >> 7) & NOT_A) | ((from >> 9) & NOT_H),
        },
        Role::King => king_set(from),
        Role::Knight => knight_set(from),
        Role::Bishop => slide(from, empty, &DIAGONALS),
        Role::Rook => slide(from, empty, &ORTHOGONALS),
        Role::Queen => slide(from, empty, &DIAGONALS) | slide(from, empty, &ORTHOGONALS),
    }
}

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;

/// A direction as (shift left by, shift right by, mask of squares that can be landed on).
type Dir = (u32, u32, u64);
const ORTHOGONALS: [Dir; 4] = [(8, 0, !0), (0, 8, !0), (1, 0, NOT_A), (0, 1, NOT_H)];
const DIAGONALS: [Dir; 4] = [(9, 0, NOT_A), (7, 0, NOT_H), (0, 7, NOT_A), (0, 9, NOT_H)];

/// Squares attacked by sliders on every square of `from` along `dirs`, rays stopping at the
/// first square that is not `empty` (that square included).
#[inline]
fn slide(from: u64, empty: u64, dirs: &[Dir; 4]) -> u64 {
    let mut out = 0;
    for &(l, r, mask) in dirs {
        let steps = |b: u64, n: u32| (b << (l * n)) >> (r * n);
        let mut g = from;
        let mut pass = empty & mask;
        g |= pass & steps(g, 1);
        pass &= steps(pass, 1);
        g |= pass & steps(g, 2);
        pass &= steps(pass, 2);
        g |= pass & steps(g, 4);
        out |= steps(g, 1) & mask;
    }
    out
}

#[inline]
fn king_set(b: u64) -> u64 {
    let side = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | side;
    side | (row << 8) | (row >> 8)
}

#[inline]
fn knight_set(b: u64) -> u64 {
    let l1 = (b >> 1) & 0x7f7f_7f7f_7f7f_7f7f;
    let l2 = (b >> 2) & 0x3f3f_3f3f_3f3f_3f3f;
    let r1 = (b << 1) & 0xfefe_fefe_fefe_fefe;
    let r2 = (b << 2) & 0xfcfc_fcfc_fcfc_fcfc;
    let h1 = l1 | r1;
    let h2 = l2 | r2;
    (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8)
}

/// The squares pawns standing on `from` can reach: pushes onto squares that are not walls,
/// captures onto `targets` (where enemy pieces may stand). Set-wise: the union of what each
/// pawn reaches alone, as long as each pawn's own square is not a wall for it (a pawn never
/// returns to a square it has left).
fn pawn_reach(color: Color, from: Bitboard, walls: Bitboard, targets: Bitboard) -> Bitboard {
    let mut seen = from;
    let mut frontier = seen;
    while frontier.any() {
        let pushes = match color {
            Color::White => frontier.shift_up(),
            Color::Black => frontier.shift_down(),
        } - walls;
        let captures = Bitboard(attack_set(Role::Pawn, color, frontier.0, 0));
        let next = (pushes | (captures & targets)) - seen;
        seen |= next;
        frontier = next;
    }
    seen
}

/// With the fixpoint reached: can `side` never mate?
///
/// A mate on a square `x` needs `x` attacked by one of the winner's men (not the king), and
/// every flight square next to `x` that the losing king could ever use attacked by a winner's
/// man, or by the winner's king (standing on one square at least two away from `x`), or
/// occupied by one of the loser's own men (one man per square).
fn verdict(pieces: &[Piece], perm: Bitboard, side: Color) -> bool {
    let them = (!side).index();
    let mut king_region = Bitboard::EMPTY;
    let mut winner_king = Bitboard::EMPTY;
    let mut span = Bitboard::EMPTY; // What the winner's men can ever attack.
    let mut men: [Bitboard; MAX] = [Bitboard::EMPTY; MAX]; // Where each loser's man can stand.
    let mut n_men = 0;
    for p in pieces {
        if p.color.index() == them {
            if p.role == Role::King {
                king_region = p.reach;
            } else {
                men[n_men] = p.reach;
                n_men += 1;
            }
        } else if p.role == Role::King {
            winner_king = p.reach;
        } else {
            span |= Bitboard(attack_set(
                p.role,
                p.color,
                p.reach.0,
                perm.without(p.origin).0,
            ));
        }
    }
    let men = &men[..n_men];
    let blockable = men.iter().fold(Bitboard::EMPTY, |acc, m| acc | *m);
    for x in span & king_region {
        let flights = attacks::king_attacks(x) & king_region;
        let hard = flights - span;
        if (hard - blockable - Bitboard(king_set(winner_king.0))).any() {
            continue; // Some flight square can never be covered.
        }
        let far = winner_king - attacks::king_attacks(x) - Bitboard::from_square(x);
        for w in far {
            let rest = hard - attacks::king_attacks(w);
            if !(rest - blockable).is_empty() {
                continue;
            }
            let able = men.iter().filter(|m| m.intersects(rest)).count();
            if rest.count() as usize <= able {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn art_3_8_2_castling_rights_do_not_stop_the_analysis() {
        // Black may still castle; White, with a bare king, can never check.
        let p = pos("r3k3/8/8/8/8/8/8/4K3 w q - 0 1");
        assert!(reach_no(&p, Color::White));
        assert!(!reach_no(&p, Color::Black));
        let piece = |p: &Position, sq: Square, color: Color, role: Role| Piece {
            color,
            role,
            origin: sq,
            castling: castlings(p, sq, color, role),
            reach: Bitboard::EMPTY,
            inputs: NOT_COMPUTED,
        };
        let k = piece(&p, Square::E8, Color::Black, Role::King);
        assert_eq!(
            seeds(&k, Bitboard::EMPTY),
            Bitboard::from_square(Square::E8).with(Square::C8)
        );
        // A man that never leaves b8, c8 or d8 stops the castling for ever.
        assert_eq!(
            seeds(&k, Bitboard::from_square(Square::B8)),
            Bitboard::from_square(Square::E8)
        );
        // The rook's own square and the king's do not count.
        let r = piece(&p, Square::A8, Color::Black, Role::Rook);
        assert_eq!(
            seeds(&r, Bitboard::from_square(Square::A8).with(Square::E8)),
            Bitboard::from_square(Square::A8).with(Square::D8)
        );
        // White's men, stuck behind their own pawns, block the castling for ever: the proof
        // is the same as without the right (a promotion was found before, through a rook
        // that castled over its own bishop and knight).
        for fen in [
            "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K - 0 1",
            "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w - - 0 1",
        ] {
            let p = pos(fen);
            assert!(reach_no(&p, Color::White), "{fen}");
            assert!(reach_no(&p, Color::Black), "{fen}");
        }
    }

    #[test]
    fn art_3_2_to_3_4_set_wise_slides_match_the_attack_tables() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for sq in 0..64u8 {
            let sq = Square::new_unchecked(sq);
            for _ in 0..40 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let occ = Bitboard(x & x.rotate_left(17)) | Bitboard::from_square(sq);
                let from = Bitboard::from_square(sq).0;
                for (role, table) in [
                    (Role::Bishop, attacks::bishop_attacks(sq, occ)),
                    (Role::Rook, attacks::rook_attacks(sq, occ)),
                    (Role::Queen, attacks::queen_attacks(sq, occ)),
                ] {
                    assert_eq!(attack_set(role, Color::White, from, occ.0), table.0, "{sq}");
                }
            }
        }
    }

    #[test]
    fn art_5_2_2_promotion_found_early_means_no_proof() {
        // A free pawn: nothing is proved, by the early look at rounds one and two.
        let p = pos("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
        assert!(promotes_early(p.board()));
        assert!(!reach_no(&p, Color::White));
        // A pawn blocked by a knight that can move away: round two frees it.
        let p = pos("4k3/8/8/8/8/n7/P7/4K3 w - - 0 1");
        assert!(promotes_early(p.board()));
        // Locked pawns and kings that can never reach them: no promotion in any round.
        let p = pos("8/2k5/8/1p1p2p1/1P1P2P1/8/2K5/8 w - - 0 1");
        assert!(!promotes_early(p.board()));
        assert!(reach_no(&p, Color::White));
    }
}
