//! Static evaluation: material and piece-square values tapered between middlegame and
//! endgame, mobility, pawn structure (doubled, isolated, backward, connected, phalanx and passed
//! pawns, the rule of the square), space, outposts, king safety (pawn shield and storm, attacks
//! on the king's zone, safe checks), threats (pieces attacked by pawns, majors by minors, queens
//! by rooks, undefended pieces and pawns), bishop pair and bishops' own pawns, rooks on open
//! files, and a few endgame scalings. Scores are centipawns from the point of view of the side
//! to move.
//!
//! Every term is a weight times a count ([`features`]); the weights ([`weights`]) are fitted
//! by `arbiter-tune` to positions labelled by their game's result blended with an oracle
//! engine's evaluation (the tuning module, run by `arbiter-tune`).

pub mod features;
mod score;
mod terms;
pub mod trace;
pub mod weights;

use arbiter_rules::{Bitboard, Board, Color, Position, Role};
pub use score::S;
use trace::{Coefficients, Dense, NoTrace, Trace};

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

/// The game phase, 0 (bare kings and pawns) to 24 (all pieces).
pub fn phase(board: &Board) -> i32 {
    let mut p = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        p += PHASE_WEIGHT[role.index()] * board.by_role(role).count() as i32;
    }
    p.min(PHASE_MAX)
}

/// How an evaluation was finished after the linear terms.
struct Finish {
    /// Numerator of the scale applied (denominator 8).
    scale8: i32,
    /// Bonus outside the linear terms, from White's side.
    bonus: i32,
}

/// The linear terms from White's side and the phase.
fn linear<T: Trace>(pos: &Position, t: &mut T) -> (S, i32) {
    let (w, w_att) = terms::side_terms(pos, Color::White, t);
    let (bl, b_att) = terms::side_terms(pos, Color::Black, t);
    let s = w - bl + terms::threats(pos, Color::White, &w_att, &b_att, t)
        - terms::threats(pos, Color::Black, &b_att, &w_att, t)
        + terms::tempo(pos, t);
    (s, phase(pos.board()))
}

/// Endgame knowledge: the stronger side without pawns and only a minor piece ahead rarely
/// wins; opposite-coloured bishops are drawish; a bare king is driven to the edge.
fn finish(pos: &Position, blended: i32, phase: i32) -> Finish {
    let b = pos.board();
    let strong = if blended > 0 {
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
    let mut out = Finish {
        scale8: 8,
        bonus: 0,
    };
    if strong_pawns == 0 && diff <= SEE_VALUE[Role::Bishop.index()] {
        out.scale8 = 1;
    } else if (b.by_color(weak) & !b.kings()).is_empty() && diff >= SEE_VALUE[Role::Rook.index()] {
        // Mop-up: weak king to the edge, strong king close.
        let wk = pos.king(weak);
        let sk = pos.king(strong);
        let edge = 6 - centrality(wk.idx());
        let close = 14 - (wk.distance(sk) as i32) * 2;
        let bonus = 20 * edge + 10 * close + 200;
        out.bonus = if strong == Color::White {
            bonus
        } else {
            -bonus
        };
    } else if phase <= 2 {
        // Opposite-coloured bishops with pawns only.
        let wb = b.bishops() & b.by_color(Color::White);
        let bb = b.bishops() & b.by_color(Color::Black);
        if wb.count() == 1
            && bb.count() == 1
            && (b.knights() | b.rooks() | b.queens()).is_empty()
            && ((wb & Bitboard::LIGHT).any() != (bb & Bitboard::LIGHT).any())
        {
            out.scale8 = 4;
        }
    }
    out
}

fn blend(s: S, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (PHASE_MAX - phase)) / PHASE_MAX
}

/// White's evaluation of `pos`, with its phase and how it was finished.
fn white_eval<T: Trace>(pos: &Position, t: &mut T) -> (i32, i32, Finish) {
    let (s, phase) = linear(pos, t);
    let blended = blend(s, phase);
    let fin = finish(pos, blended, phase);
    (blended * fin.scale8 / 8 + fin.bonus, phase, fin)
}

/// The evaluation of `pos` in centipawns, from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let (score, _, _) = white_eval(pos, &mut NoTrace);
    if pos.turn() == Color::White {
        score
    } else {
        -score
    }
}

/// The evaluation of `pos` as the linear function of the weights it is (for the tuner), with
/// White's evaluation as [`evaluate`] computes it.
pub fn coefficients(pos: &Position) -> (Coefficients, i32) {
    let mut dense = Dense(Box::new([0; features::COUNT]));
    let (score, phase, fin) = white_eval(pos, &mut dense);
    let counts = dense
        .0
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
        .collect();
    let coefs = Coefficients {
        counts,
        phase,
        scale: fin.scale8 as f32 / 8.0,
        nonlinear: fin.bonus != 0,
    };
    (coefs, score)
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

    /// White's count minus Black's of `feature` in `fen`.
    fn count(fen: &str, feature: usize) -> i32 {
        let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        let (c, _) = coefficients(&pos);
        c.counts
            .iter()
            .find(|(f, _)| *f as usize == feature)
            .map_or(0, |(_, n)| *n as i32)
    }

    #[test]
    fn knight_outpost_needs_a_defending_pawn_and_no_enemy_pawn_to_chase_it() {
        let outpost = "4k3/8/8/4N3/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(count(outpost, features::OUTPOST_KNIGHT), 1);
        let chased = "4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(count(chased, features::OUTPOST_KNIGHT), 0);
        let undefended = "4k3/8/8/4N3/8/8/8/4K3 w - - 0 1";
        assert_eq!(count(undefended, features::OUTPOST_KNIGHT), 0);
    }

    #[test]
    fn backward_pawn_is_one_whose_stop_square_a_pawn_guards_without_support() {
        // d2 cannot advance safely (e4 guards d3) and has no pawn beside or behind it; Black's
        // e4 is supported by f5.
        let fen = "4k3/8/8/5p2/4p3/8/3P4/4K3 w - - 0 1";
        assert_eq!(count(fen, features::BACKWARD), 1);
        let supported = "4k3/8/8/5p2/4p3/8/2PP4/4K3 w - - 0 1";
        assert_eq!(count(supported, features::BACKWARD), 0);
    }

    #[test]
    fn safe_checks_count_squares_the_defender_does_not_guard() {
        // The rook on a1 can check from a8, which the Black king does not guard.
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        assert_eq!(count(fen, features::SAFE_CHECK_ROOK), 1);
        // With a Black rook on b8 the a8 square is guarded: no safe check.
        let guarded = "1r2k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        assert_eq!(count(guarded, features::SAFE_CHECK_ROOK), 0);
    }

    #[test]
    fn unstoppable_passed_pawn_follows_the_rule_of_the_square() {
        // e5 needs three moves; the king on a3 needs five to reach e8, the one on c7 two.
        let outside = "8/8/8/4P3/8/k7/8/4K3 w - - 0 1";
        assert_eq!(count(outside, features::UNSTOPPABLE), 1);
        let inside = "8/2k5/8/4P3/8/8/8/4K3 w - - 0 1";
        assert_eq!(count(inside, features::UNSTOPPABLE), 0);
        // Any enemy piece can stop a pawn, so the rule does not apply.
        let knight = "8/8/8/4P3/8/k7/8/n3K3 w - - 0 1";
        assert_eq!(count(knight, features::UNSTOPPABLE), 0);
    }

    #[test]
    fn pawn_storm_is_counted_by_the_rank_the_nearest_pawn_reached() {
        let fen = "6k1/8/8/8/6p1/8/8/6K1 w - - 0 1";
        assert_eq!(count(fen, features::STORM + 3), 1);
        assert_eq!(count(fen, features::STORM + 6), 0);
    }

    #[test]
    fn passed_pawn_on_seventh_beats_one_on_third() {
        let far = eval_fen("8/4P3/8/8/8/8/k7/6K1 w - - 0 1");
        let near = eval_fen("8/8/8/8/8/4P3/k7/6K1 w - - 0 1");
        assert!(far > near + 100, "{far} vs {near}");
    }
}
