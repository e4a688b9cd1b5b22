//! Regression: `parse_san("b3")` accepted the capture `axb3` when no pawn could push to b3
//! (found by the arbiter-pgn differential test on pioz-chess/illegal/0003.pgn).

use arbiter_rules::{CastlingMode, Position, SanError};

#[test]
fn appendix_c9_pawn_san_without_file_is_not_a_capture() {
    let pos = Position::from_fen(
        "2r1qrk1/p4ppp/4pB2/n1b5/bp1P4/1p2PNP1/P4PBP/R2QR1K1 w - - 0 19",
        CastlingMode::Standard,
    )
    .unwrap();
    assert!(matches!(pos.parse_san("b3"), Err(SanError::Illegal { .. })));
    let axb3 = pos.parse_san("axb3").unwrap();
    assert_eq!(pos.uci(axb3), "a2b3");
}
