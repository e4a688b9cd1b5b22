//! Regression: `uci_with(m, CastlingMode::Standard)` wrote a Chess960 castling whose king does
//! not move as `g1g1`, and one whose king moves one square as `b1c1`, the same text as a plain
//! king move; neither reads back to the castling move (found by the
//! `uci_round_trip_both_castling_modes` property test). The king-two-squares form exists only
//! for standard castling; any other castling is written king-takes-rook in both modes
//! (Guideline II.3, as UCI_Chess960 does).

use arbiter_rules::{CastlingMode, Position};

#[test]
fn guideline_ii_castling_with_unmoved_king_is_written_king_takes_rook() {
    // King g1, rook h1: after O-O the king stays on g1 and the rook goes to f1.
    let pos = Position::from_fen("1k6/8/8/8/8/8/8/6KR w H - 0 1", CastlingMode::Chess960).unwrap();
    let castle = pos.parse_san("O-O").unwrap();
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let text = pos.uci_with(castle, mode).to_string();
        assert_eq!(text, "g1h1");
        assert_eq!(pos.parse_uci(&text), Ok(castle));
    }
}

#[test]
fn guideline_ii_castling_is_not_written_as_a_plain_king_move() {
    // King b1, rook a1: after O-O-O the king goes to c1, which is also a plain king move.
    let pos = Position::from_fen("6k1/8/8/8/8/8/8/RK6 w A - 0 1", CastlingMode::Chess960).unwrap();
    let castle = pos.parse_san("O-O-O").unwrap();
    let step = pos.parse_uci("b1c1").unwrap();
    assert_ne!(castle, step);
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let text = pos.uci_with(castle, mode).to_string();
        assert_eq!(text, "b1a1");
        assert_eq!(pos.parse_uci(&text), Ok(castle));
    }
}

#[test]
fn art_3_8_2_standard_castling_is_still_written_king_two_squares() {
    let pos = Position::from_fen(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        CastlingMode::Standard,
    )
    .unwrap();
    let short = pos.parse_san("O-O").unwrap();
    let long = pos.parse_san("O-O-O").unwrap();
    assert_eq!(pos.uci(short), "e1g1");
    assert_eq!(pos.uci(long), "e1c1");
    assert_eq!(
        pos.uci_with(short, CastlingMode::Chess960).to_string(),
        "e1h1"
    );
    assert_eq!(pos.parse_uci("e1g1"), Ok(short));
    assert_eq!(pos.parse_uci("e1h1"), Ok(short));
}
