//! The evaluation terms of one side: material and piece-square values, pawn structure,
//! mobility, rooks on files, the bishop pair, king safety and threats. Each adds a weight
//! times a count and tells the trace the count.

use super::features as f;
use super::trace::Trace;
use super::weights::W;
use super::S;
use arbiter_rules::attacks;
use arbiter_rules::{Bitboard, Color, File, Position, Rank, Role, Square};

/// Adds `count` times the weight of `feature` to `s`, and records it.
#[inline(always)]
fn add<T: Trace>(s: &mut S, t: &mut T, us: Color, feature: usize, count: i32) {
    *s += W[feature] * count;
    t.add(feature, us, count);
}

fn file_mask(f: File) -> Bitboard {
    Bitboard::file(f)
}

fn adjacent_files(f: File) -> Bitboard {
    let i = f.index();
    let mut b = Bitboard::EMPTY;
    if i > 0 {
        b |= Bitboard::file(File::new(i - 1).expect("file"));
    }
    if i < 7 {
        b |= Bitboard::file(File::new(i + 1).expect("file"));
    }
    b
}

/// Squares strictly ahead of `sq` (from `color`'s point of view) on all ranks.
fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    let r = sq.rank().index();
    match color {
        Color::White => {
            if r >= 7 {
                Bitboard::EMPTY
            } else {
                Bitboard(!0u64 << (8 * (r + 1)))
            }
        }
        Color::Black => {
            if r == 0 {
                Bitboard::EMPTY
            } else {
                Bitboard(!0u64 >> (8 * (8 - r)))
            }
        }
    }
}

fn pawn_attacks_all(color: Color, pawns: Bitboard) -> Bitboard {
    let notafile = !Bitboard::file(File::A).0;
    let nothfile = !Bitboard::file(File::H).0;
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & notafile) << 7) | ((p & nothfile) << 9),
        Color::Black => ((p & notafile) >> 9) | ((p & nothfile) >> 7),
    })
}

/// The squares one side attacks, by kind of attacker.
#[derive(Clone, Copy, Default)]
pub(super) struct Attacks {
    pawns: Bitboard,
    knights: Bitboard,
    bishops: Bitboard,
    rooks: Bitboard,
    queens: Bitboard,
    /// Everything, the king included.
    all: Bitboard,
}

/// Attack units a piece adds for each square of the enemy king's zone it attacks.
const KING_ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// First mobility feature of each role (knight to queen).
const MOBILITY: [usize; 6] = [
    0,
    f::MOBILITY_KNIGHT,
    f::MOBILITY_BISHOP,
    f::MOBILITY_ROOK,
    f::MOBILITY_QUEEN,
    0,
];

/// What `us` gains from attacking `them`'s pieces: pieces attacked by lesser ones and pieces
/// left undefended. Quiescence search settles the captures of the side to move; these terms
/// value the threats it cannot settle (the side not to move, and more than one threat).
pub(super) fn threats<T: Trace>(
    pos: &Position,
    us: Color,
    ours: &Attacks,
    theirs: &Attacks,
    t: &mut T,
) -> S {
    let b = pos.board();
    let them_bb = b.by_color(!us);
    let pieces = them_bb & !(b.pawns() | b.kings());
    let majors = them_bb & (b.rooks() | b.queens());
    let mut s = S(0, 0);
    let n = |bb: Bitboard| bb.count() as i32;
    add(&mut s, t, us, f::THREAT_BY_PAWN, n(pieces & ours.pawns));
    let minors = ours.knights | ours.bishops;
    add(
        &mut s,
        t,
        us,
        f::THREAT_BY_MINOR_ON_MAJOR,
        n(majors & minors),
    );
    let queens_by_rooks = n(them_bb & b.queens() & ours.rooks);
    add(&mut s, t, us, f::THREAT_BY_ROOK_ON_QUEEN, queens_by_rooks);
    add(
        &mut s,
        t,
        us,
        f::HANGING,
        n(pieces & ours.all & !theirs.all),
    );
    let pawns = them_bb & b.pawns();
    add(
        &mut s,
        t,
        us,
        f::HANGING_PAWN,
        n(pawns & ours.all & !theirs.all),
    );

    // Checks we could give from squares the enemy neither occupies nor guards.
    let king = pos.king(!us);
    let occ = b.occupied();
    let safe = !theirs.all & !b.by_color(us);
    let diagonal = attacks::bishop_attacks(king, occ) & safe;
    let straight = attacks::rook_attacks(king, occ) & safe;
    let jumps = attacks::knight_attacks(king) & safe;
    add(&mut s, t, us, f::SAFE_CHECK_KNIGHT, n(jumps & ours.knights));
    add(
        &mut s,
        t,
        us,
        f::SAFE_CHECK_BISHOP,
        n(diagonal & ours.bishops),
    );
    add(&mut s, t, us, f::SAFE_CHECK_ROOK, n(straight & ours.rooks));
    let queen_checks = n((diagonal | straight) & ours.queens);
    add(&mut s, t, us, f::SAFE_CHECK_QUEEN, queen_checks);
    s
}

/// Everything but threats for `us`, and the squares `us` attacks (for the threats).
pub(super) fn side_terms<T: Trace>(pos: &Position, us: Color, t: &mut T) -> (S, Attacks) {
    let b = pos.board();
    let them = !us;
    let ours = b.by_color(us);
    let theirs = b.by_color(them);
    let occ = b.occupied();
    let our_pawns = b.pawns() & ours;
    let their_pawns = b.pawns() & theirs;
    let their_pawn_attacks = pawn_attacks_all(them, their_pawns);
    let our_pawn_attacks = pawn_attacks_all(us, our_pawns);
    let mut s = S(0, 0);

    // Material and piece-square values.
    for role in Role::ALL {
        let pieces = b.by_role(role) & ours;
        add(
            &mut s,
            t,
            us,
            f::MATERIAL + role.index(),
            pieces.count() as i32,
        );
        for sq in pieces {
            let idx = match us {
                Color::White => sq.idx(),
                Color::Black => sq.idx() ^ 56,
            };
            add(&mut s, t, us, f::PST + 64 * role.index() + idx, 1);
        }
    }

    // Pawn structure.
    let our_king = pos.king(us);
    let their_king = pos.king(them);
    let enemy_has_no_pieces = (theirs & !(b.pawns() | b.kings())).is_empty();
    for sq in our_pawns {
        let file = sq.file();
        let rank = sq.rank().relative_to(us).index() as usize;
        let same_file = our_pawns & file_mask(file);
        if same_file.more_than_one() && (same_file & ranks_ahead(us, sq)).any() {
            add(&mut s, t, us, f::DOUBLED, 1);
        }
        if (our_pawns & adjacent_files(file)).is_empty() {
            add(&mut s, t, us, f::ISOLATED, 1);
        }
        if our_pawn_attacks.contains(sq) {
            add(&mut s, t, us, f::CONNECTED + rank, 1);
        }
        if (our_pawns & adjacent_files(file) & Bitboard::rank(sq.rank())).any() {
            add(&mut s, t, us, f::PHALANX + rank, 1);
        }
        let stop_attacked = sq
            .offset(0, if us == Color::White { 1 } else { -1 })
            .is_some_and(|stop| their_pawn_attacks.contains(stop));
        if stop_attacked && (our_pawns & adjacent_files(file) & !ranks_ahead(us, sq)).is_empty() {
            add(&mut s, t, us, f::BACKWARD, 1);
        }
        let front = ranks_ahead(us, sq) & (file_mask(file) | adjacent_files(file));
        if (front & their_pawns).is_empty()
            && (ranks_ahead(us, sq) & file_mask(file) & our_pawns).is_empty()
        {
            add(&mut s, t, us, f::PASSED + rank, 1);
            if enemy_has_no_pieces {
                // The rule of the square: the king cannot reach the promotion square in time
                // (a pawn on its first rank of play may double-step).
                let promotion =
                    Square::from_coords(file, Rank::new(7).expect("rank").relative_to(us));
                let moves_needed = (7 - rank).min(5) as i32;
                let tempo = i32::from(pos.turn() == them);
                if their_king.distance(promotion) as i32 - tempo > moves_needed {
                    add(&mut s, t, us, f::UNSTOPPABLE, 1);
                }
            }
            if (ranks_ahead(us, sq) & file_mask(file) & occ).is_empty() {
                add(&mut s, t, us, f::PASSED_FREE + rank, 1);
            }
            // A passed pawn is worth more with the own king close and the enemy king far.
            if let Some(stop) = sq.offset(0, if us == Color::White { 1 } else { -1 }) {
                let weight = rank as i32 - 1;
                let d_them = their_king.distance(stop) as i32;
                let d_us = our_king.distance(stop) as i32;
                add(&mut s, t, us, f::PASSED_ENEMY_KING, weight * d_them);
                add(&mut s, t, us, f::PASSED_OWN_KING, weight * d_us);
                if occ.contains(stop) {
                    add(&mut s, t, us, f::PASSED_BLOCKED + rank, 1);
                }
            }
        }
    }

    // Pieces: mobility, king attacks, rooks on open files.
    let mobility_area = !(ours | their_pawn_attacks);
    let king_zone = attacks::king_attacks(their_king).with(their_king);
    let mut attack_units = 0;
    let mut attackers = 0;
    let mut att_map = Attacks {
        pawns: our_pawn_attacks,
        all: our_pawn_attacks | attacks::king_attacks(our_king),
        ..Attacks::default()
    };
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in b.by_role(role) & ours {
            let att = attacks::attacks(role, us, sq, occ);
            att_map.all |= att;
            match role {
                Role::Knight => att_map.knights |= att,
                Role::Bishop => att_map.bishops |= att,
                Role::Rook => att_map.rooks |= att,
                _ => att_map.queens |= att,
            }
            if matches!(role, Role::Knight | Role::Bishop) {
                let ahead = sq.offset(0, if us == Color::White { 1 } else { -1 });
                if ahead.is_some_and(|q| our_pawns.contains(q)) {
                    add(&mut s, t, us, f::MINOR_BEHIND_PAWN, 1);
                }
                if role == Role::Bishop {
                    let colour = if Bitboard::LIGHT.contains(sq) {
                        Bitboard::LIGHT
                    } else {
                        Bitboard::DARK
                    };
                    add(
                        &mut s,
                        t,
                        us,
                        f::BISHOP_PAWNS,
                        (our_pawns & colour).count() as i32,
                    );
                }
                let rank = sq.rank().relative_to(us).index();
                let file = sq.file();
                let attackable = their_pawns & adjacent_files(file) & ranks_ahead(us, sq);
                if (3..=5).contains(&rank) && our_pawn_attacks.contains(sq) && attackable.is_empty()
                {
                    let feature = if role == Role::Knight {
                        f::OUTPOST_KNIGHT
                    } else {
                        f::OUTPOST_BISHOP
                    };
                    add(&mut s, t, us, feature, 1);
                }
            }
            let reach = (att & mobility_area).count() as usize;
            add(&mut s, t, us, MOBILITY[role.index()] + reach, 1);
            let zone_hits = (att & king_zone).count() as i32;
            if zone_hits > 0 {
                attackers += 1;
                attack_units += zone_hits * KING_ATTACK_UNITS[role.index()];
            }
            if role == Role::Rook {
                let fm = file_mask(sq.file());
                if (fm & our_pawns).is_empty() {
                    let open = (fm & their_pawns).is_empty();
                    let feature = if open {
                        f::ROOK_OPEN
                    } else {
                        f::ROOK_SEMI_OPEN
                    };
                    add(&mut s, t, us, feature, 1);
                }
            }
        }
    }
    if (b.bishops() & ours & Bitboard::LIGHT).any() && (b.bishops() & ours & Bitboard::DARK).any() {
        add(&mut s, t, us, f::BISHOP_PAIR, 1);
    }

    // Attacks on the enemy king: the danger grows with the square of the attack units once
    // two pieces take part; its weight is tuned per 4 points.
    let has_queen = (b.queens() & ours).any();
    let danger = if attackers >= 2 && has_queen {
        (attack_units * attack_units).min(520)
    } else if attackers >= 2 {
        (attack_units * attack_units / 2).min(260)
    } else {
        attack_units * 2
    };
    add(&mut s, t, us, f::KING_DANGER, danger / 4);

    // Space behind the own pawn front.
    let centre_zone = match us {
        Color::White => Bitboard(0x0000_0000_3C3C_3C00),
        Color::Black => Bitboard(0x003C_3C3C_0000_0000),
    };
    let space = centre_zone & !our_pawns & !their_pawn_attacks;
    add(&mut s, t, us, f::SPACE, space.count() as i32);

    // Enemy pawns storming the own king's files.
    let kf = our_king.file().index() as i8;
    for df in -1i8..=1 {
        let Some(file) = u8::try_from(kf + df).ok().and_then(File::new) else {
            continue;
        };
        let storm = their_pawns & file_mask(file) & ranks_ahead(us, our_king);
        let nearest = if us == Color::White {
            storm.first()
        } else {
            storm.last()
        };
        if let Some(p) = nearest {
            add(
                &mut s,
                t,
                us,
                f::STORM + p.rank().relative_to(us).index() as usize,
                1,
            );
        }
    }

    // Our own king's pawn shield.
    let kr = our_king.rank().relative_to(us).index();
    if kr <= 1 {
        let kf = our_king.file().index() as i8;
        let dir: i8 = if us == Color::White { 1 } else { -1 };
        for df in -1i8..=1 {
            let fi = kf + df;
            if !(0..8).contains(&fi) {
                continue;
            }
            let file = File::new(fi as u8).expect("file");
            let near = our_king.offset(df, dir);
            let far = our_king.offset(df, 2 * dir);
            if near.is_some_and(|q| our_pawns.contains(q)) {
                add(&mut s, t, us, f::SHIELD_NEAR, 1);
            } else if far.is_some_and(|q| our_pawns.contains(q)) {
                add(&mut s, t, us, f::SHIELD_FAR, 1);
            } else {
                add(&mut s, t, us, f::SHIELD_MISSING, 1);
            }
            if (file_mask(file) & (our_pawns | their_pawns)).is_empty() {
                add(&mut s, t, us, f::OPEN_FILE_NEAR_KING, 1);
            }
        }
    }

    (s, att_map)
}

/// The side to move's tempo, from White's side.
pub(super) fn tempo<T: Trace>(pos: &Position, t: &mut T) -> S {
    let mut s = S(0, 0);
    add(&mut s, t, pos.turn(), f::TEMPO, 1);
    match pos.turn() {
        Color::White => s,
        Color::Black => S(0, 0) - s,
    }
}
