//! Static evaluation: material and piece-square tables tapered between middlegame and endgame,
//! mobility, pawn structure (doubled, isolated, connected, passed pawns), king safety (pawn
//! shield, attacks on the king's zone), threats (pieces attacked by pawns, majors by minors,
//! queens by rooks, undefended pieces and pawns), bishop pair, rooks on open files, and a few
//! endgame scalings. Scores are centipawns from the point of view of the side to move.

use arbiter_rules::attacks;
use arbiter_rules::{Bitboard, Board, Color, File, Position, Role, Square};

/// A middlegame/endgame pair of values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl core::ops::Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl core::ops::AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl core::ops::Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl core::ops::SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl core::ops::Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// Material values, pawn to king (middlegame, endgame).
pub const MATERIAL: [S; 6] = [
    S(85, 105),
    S(330, 305),
    S(345, 320),
    S(470, 545),
    S(1000, 990),
    S(0, 0),
];

/// Simple piece values used by move ordering and static exchange evaluation.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The weight of each role in the game phase (24 = all pieces on the board).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

const fn centrality(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let fd = if f < 4 { f } else { 7 - f };
    let rd = if r < 4 { r } else { 7 - r };
    fd + rd // 0 in a corner, 6 in the centre
}

/// Piece-square value of `role` on `sq`, from White's side of the board.
const fn pst_value(role: usize, sq: usize) -> S {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let c = centrality(sq);
    match role {
        0 => {
            const MG: [i32; 8] = [0, 0, 2, 6, 14, 28, 50, 0];
            const EG: [i32; 8] = [0, 0, 4, 10, 20, 36, 60, 0];
            let central = if (f == 3 || f == 4) && r >= 2 && r <= 4 {
                12
            } else if (f == 2 || f == 5) && r >= 2 && r <= 4 {
                4
            } else {
                0
            };
            // Wing pawns on the king's side are better kept back in the middlegame.
            let wing = if f >= 5 && r >= 3 { -6 } else { 0 };
            S(MG[r as usize] + central + wing, EG[r as usize])
        }
        1 => {
            let outpost = if r >= 3 && r <= 5 { 6 } else { 0 };
            S(-32 + 10 * c + outpost, -28 + 8 * c)
        }
        2 => {
            let diag = if f == r || f + r == 7 { 8 } else { 0 };
            let back = if r == 0 { -8 } else { 0 };
            S(-12 + 4 * c + diag + back, -12 + 4 * c)
        }
        3 => {
            let seventh = if r == 6 { 18 } else { 0 };
            let centre = if f == 3 || f == 4 { 6 } else { 0 };
            S(seventh + centre - 4, if r == 6 { 10 } else { 0 })
        }
        4 => {
            let early = if r >= 3 { -4 } else { 0 };
            S(-6 + 2 * c + early, -24 + 7 * c)
        }
        _ => {
            const RANK: [i32; 8] = [0, -18, -40, -60, -75, -85, -90, -90];
            const FILE: [i32; 8] = [18, 28, 8, -12, -8, -12, 30, 20];
            S(RANK[r as usize] + FILE[f as usize], -42 + 13 * c)
        }
    }
}

const fn build_pst() -> [[S; 64]; 6] {
    let mut t = [[S(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let p = pst_value(role, sq);
            let m = MATERIAL[role];
            t[role][sq] = S(p.0 + m.0, p.1 + m.1);
            sq += 1;
        }
        role += 1;
    }
    t
}

/// Material plus piece-square value for a White piece (index by role, then square).
static PST: [[S; 64]; 6] = build_pst();

const PASSED: [S; 8] = [
    S(0, 0),
    S(4, 10),
    S(6, 14),
    S(12, 28),
    S(28, 52),
    S(50, 95),
    S(85, 150),
    S(0, 0),
];
const DOUBLED: S = S(-10, -24);
const ISOLATED: S = S(-10, -14);
const CONNECTED: S = S(6, 8);
const BISHOP_PAIR: S = S(30, 55);
const ROOK_OPEN: S = S(26, 10);
const ROOK_SEMI_OPEN: S = S(12, 8);
const TEMPO: i32 = 12;
const SHIELD_NEAR: i32 = 14;
const SHIELD_FAR: i32 = 7;
const SHIELD_MISSING: i32 = -18;
const OPEN_FILE_NEAR_KING: i32 = -14;

/// Mobility value per reachable square, and the number of squares counted as normal.
const MOBILITY: [(S, i32); 6] = [
    (S(0, 0), 0),
    (S(4, 4), 4),
    (S(5, 5), 6),
    (S(2, 5), 6),
    (S(1, 3), 12),
    (S(0, 0), 0),
];

/// Attack units a piece adds for each square of the enemy king's zone it attacks.
const KING_ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];

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

/// The game phase, 0 (bare kings and pawns) to 24 (all pieces).
pub fn phase(board: &Board) -> i32 {
    let mut p = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        p += PHASE_WEIGHT[role.index()] * board.by_role(role).count() as i32;
    }
    p.min(PHASE_MAX)
}

/// The squares one side attacks, by kind of attacker.
#[derive(Clone, Copy, Default)]
struct Attacks {
    pawns: Bitboard,
    minors: Bitboard,
    rooks: Bitboard,
    /// Everything, the king included.
    all: Bitboard,
}

/// A piece (knight to queen) attacked by a pawn.
const THREAT_BY_PAWN: S = S(55, 35);
/// A rook or queen attacked by a knight or bishop.
const THREAT_BY_MINOR_ON_MAJOR: S = S(40, 45);
/// A queen attacked by a rook.
const THREAT_BY_ROOK_ON_QUEEN: S = S(35, 35);
/// A piece (knight to queen) attacked and not defended.
const HANGING: S = S(30, 20);
/// A pawn attacked and not defended.
const HANGING_PAWN: S = S(4, 14);

/// What `us` gains from attacking `them`'s pieces: pieces attacked by lesser ones and pieces
/// left undefended. Quiescence search settles the captures of the side to move; these terms
/// value the threats it cannot settle (the side not to move, and more than one threat).
fn threats(pos: &Position, us: Color, ours: &Attacks, theirs: &Attacks) -> S {
    let b = pos.board();
    let them_bb = b.by_color(!us);
    let pieces = them_bb & !(b.pawns() | b.kings());
    let majors = them_bb & (b.rooks() | b.queens());
    let mut s = S(0, 0);
    s += THREAT_BY_PAWN * (pieces & ours.pawns).count() as i32;
    s += THREAT_BY_MINOR_ON_MAJOR * (majors & ours.minors).count() as i32;
    s += THREAT_BY_ROOK_ON_QUEEN * (them_bb & b.queens() & ours.rooks).count() as i32;
    s += HANGING * (pieces & ours.all & !theirs.all).count() as i32;
    s += HANGING_PAWN * (them_bb & b.pawns() & ours.all & !theirs.all).count() as i32;
    s
}

fn side_terms(pos: &Position, us: Color) -> (S, Attacks) {
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

    // Material and piece-square tables.
    for role in Role::ALL {
        for sq in b.by_role(role) & ours {
            let idx = match us {
                Color::White => sq.idx(),
                Color::Black => sq.idx() ^ 56,
            };
            s += PST[role.index()][idx];
        }
    }

    // Pawn structure.
    let our_king = pos.king(us);
    let their_king = pos.king(them);
    for sq in our_pawns {
        let f = sq.file();
        let same_file = our_pawns & file_mask(f);
        if same_file.more_than_one() && (same_file & ranks_ahead(us, sq)).any() {
            s += DOUBLED;
        }
        if (our_pawns & adjacent_files(f)).is_empty() {
            s += ISOLATED;
        }
        if our_pawn_attacks.contains(sq) {
            s += CONNECTED;
        }
        let front = ranks_ahead(us, sq) & (file_mask(f) | adjacent_files(f));
        if (front & their_pawns).is_empty()
            && (ranks_ahead(us, sq) & file_mask(f) & our_pawns).is_empty()
        {
            let rr = sq.rank().relative_to(us).index() as usize;
            let mut bonus = PASSED[rr];
            // A passed pawn is worth more with the own king close and the enemy king far.
            if let Some(stop) = sq.offset(0, if us == Color::White { 1 } else { -1 }) {
                let weight = rr as i32 - 1;
                let d_them = their_king.distance(stop) as i32;
                let d_us = our_king.distance(stop) as i32;
                bonus.1 += weight * (4 * d_them - 2 * d_us);
                if occ.contains(stop) {
                    bonus.1 -= bonus.1 / 4;
                }
            }
            s += bonus;
        }
    }

    // Pieces: mobility, king attacks, bishop pair, rooks on open files.
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
        let (per, base) = MOBILITY[role.index()];
        for sq in b.by_role(role) & ours {
            let att = attacks::attacks(role, us, sq, occ);
            att_map.all |= att;
            match role {
                Role::Knight | Role::Bishop => att_map.minors |= att,
                Role::Rook => att_map.rooks |= att,
                _ => {}
            }
            let n = (att & mobility_area).count() as i32;
            s += per * (n - base);
            let zone_hits = (att & king_zone).count() as i32;
            if zone_hits > 0 {
                attackers += 1;
                attack_units += zone_hits * KING_ATTACK_UNITS[role.index()];
            }
            if role == Role::Rook {
                let fm = file_mask(sq.file());
                if (fm & our_pawns).is_empty() {
                    s += if (fm & their_pawns).is_empty() {
                        ROOK_OPEN
                    } else {
                        ROOK_SEMI_OPEN
                    };
                }
            }
        }
    }
    if (b.bishops() & ours & Bitboard::LIGHT).any() && (b.bishops() & ours & Bitboard::DARK).any() {
        s += BISHOP_PAIR;
    }

    // Attacks on the enemy king (middlegame only; grows with the number of attackers).
    let has_queen = (b.queens() & ours).any();
    let danger = if attackers >= 2 && has_queen {
        (attack_units * attack_units).min(520)
    } else if attackers >= 2 {
        (attack_units * attack_units / 2).min(260)
    } else {
        attack_units * 2
    };
    s.0 += danger;

    // Our own king's pawn shield (middlegame).
    let mut shield = 0;
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
                shield += SHIELD_NEAR;
            } else if far.is_some_and(|q| our_pawns.contains(q)) {
                shield += SHIELD_FAR;
            } else {
                shield += SHIELD_MISSING;
            }
            if (file_mask(file) & (our_pawns | their_pawns)).is_empty() {
                shield += OPEN_FILE_NEAR_KING;
            }
        }
    }
    s.0 += shield;

    (s, att_map)
}

/// The evaluation of `pos` in centipawns, from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let b = pos.board();
    let (w, w_att) = side_terms(pos, Color::White);
    let (bl, b_att) = side_terms(pos, Color::Black);
    let s = w - bl + threats(pos, Color::White, &w_att, &b_att)
        - threats(pos, Color::Black, &b_att, &w_att);
    let phase = phase(b);
    let mut score = (s.0 * phase + s.1 * (PHASE_MAX - phase)) / PHASE_MAX;

    // Endgame knowledge: the stronger side without pawns and only a minor piece ahead
    // rarely wins; drive the bare king to the edge when far ahead.
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    let weak = !strong;
    let strong_pawns = (b.pawns() & b.by_color(strong)).count();
    let non_pawn = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| SEE_VALUE[r.index()] * (b.by_role(r) & b.by_color(c)).count() as i32)
            .sum()
    };
    let diff = non_pawn(strong) - non_pawn(weak);
    if strong_pawns == 0 && diff <= SEE_VALUE[Role::Bishop.index()] {
        score /= 8;
    } else if (b.by_color(weak) & !b.kings()).is_empty() && diff >= SEE_VALUE[Role::Rook.index()] {
        // Mop-up: weak king to the edge, strong king close.
        let wk = pos.king(weak);
        let sk = pos.king(strong);
        let edge = 6 - centrality(wk.idx());
        let close = 14 - (wk.distance(sk) as i32) * 2;
        let bonus = 20 * edge + 10 * close + 200;
        score += if strong == Color::White {
            bonus
        } else {
            -bonus
        };
    } else if phase <= 2 {
        // Opposite-coloured bishops with pawns only: drawish.
        let wb = b.bishops() & b.by_color(Color::White);
        let bb = b.bishops() & b.by_color(Color::Black);
        if wb.count() == 1
            && bb.count() == 1
            && (b.knights() | b.rooks() | b.queens()).is_empty()
            && ((wb & Bitboard::LIGHT).any() != (bb & Bitboard::LIGHT).any())
        {
            score /= 2;
        }
    }

    let score = if pos.turn() == Color::White {
        score
    } else {
        -score
    };
    score + TEMPO * phase / PHASE_MAX
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_rules::CastlingMode;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen, CastlingMode::Standard).unwrap())
    }

    #[test]
    fn start_position_is_balanced() {
        let e = evaluate(&Position::new());
        assert!((0..=30).contains(&e), "start eval {e}");
    }

    #[test]
    fn evaluation_is_symmetric_under_colour_flip() {
        // The same position with colours swapped and the board mirrored scores the same for
        // the side to move.
        let a = eval_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = eval_fen("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(a, b);
    }

    #[test]
    fn extra_queen_is_winning() {
        let e = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(e > 800, "eval {e}");
        let e = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(e < -800, "eval {e}");
    }

    #[test]
    fn lone_minor_piece_up_is_scaled_towards_a_draw() {
        let e = eval_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1");
        assert!(e.abs() < 60, "eval {e}");
    }

    #[test]
    fn knight_attacked_by_a_pawn_and_undefended_is_a_liability() {
        // The same material; in the first the g6 pawn attacks the undefended knight on f5.
        let attacked = eval_fen("6k1/pp6/6p1/5N2/8/8/PP6/6K1 w - - 0 1");
        let safe = eval_fen("6k1/pp6/7p/5N2/8/8/PP6/6K1 w - - 0 1");
        assert!(attacked < safe - 30, "{attacked} vs {safe}");
    }

    #[test]
    fn passed_pawn_on_seventh_beats_one_on_third() {
        let far = eval_fen("8/4P3/8/8/8/8/k7/6K1 w - - 0 1");
        let near = eval_fen("8/8/8/8/8/4P3/k7/6K1 w - - 0 1");
        assert!(far > near + 100, "{far} vs {near}");
    }
}
