//! Whether a record's written result can be true: the board fixes the result of a checkmate
//! (Art. 5.1.1) and of a stalemate (Art. 5.2.1), and the `Result` tag must name the same
//! result as the termination marker (PGN standard 8.2.6).
//!
//! The reader stays lenient and does not apply this (python-chess does not either); an
//! importer or a checker asks for it.

use core::fmt;

use arbiter_rules::{Color, Position};

use crate::tags::GameResult;

/// How the final position ends the game by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardEnding {
    /// The side to move is checkmated (Art. 5.1.1).
    Checkmate,
    /// The side to move is stalemated (Art. 5.2.1).
    Stalemate,
}

/// A written result that the record itself contradicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultConflict {
    /// The `Result` tag and the termination marker name different results.
    TagAndMarker {
        /// The `Result` tag.
        tag: GameResult,
        /// The termination marker after the moves.
        marker: GameResult,
    },
    /// The game ends on the board, and the written result is another.
    Board {
        /// The result the record gives.
        written: GameResult,
        /// The result the final position fixes.
        board: GameResult,
        /// How the final position ends the game.
        ending: BoardEnding,
        /// The side to move in the final position (the side checkmated or stalemated).
        side: Color,
    },
}

impl fmt::Display for ResultConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultConflict::TagAndMarker { tag, marker } => write!(
                f,
                "the Result tag says {tag} but the moves end with {marker}; expected one result"
            ),
            ResultConflict::Board {
                written,
                board,
                ending,
                side,
            } => {
                let side = match side {
                    Color::White => "White",
                    Color::Black => "Black",
                };
                let (what, article) = match ending {
                    BoardEnding::Checkmate => ("checkmated", "5.1.1"),
                    BoardEnding::Stalemate => ("stalemated", "5.2.1"),
                };
                write!(
                    f,
                    "the result {written} contradicts the final position: {side} is {what}, \
                     so the game ended {board} (Art. {article})"
                )
            }
        }
    }
}

impl std::error::Error for ResultConflict {}

/// The result `end` fixes when it ends the game by itself: checkmate (Art. 5.1.1) or
/// stalemate (Art. 5.2.1). Dead positions (Art. 5.2.2) are left out: many sites let play go
/// on past them, and deciding them exactly costs a search per game.
pub fn board_result(end: &Position) -> Option<(GameResult, BoardEnding)> {
    if end.is_checkmate() {
        let winner = match end.turn() {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        };
        Some((winner, BoardEnding::Checkmate))
    } else if end.is_stalemate() {
        Some((GameResult::Draw, BoardEnding::Stalemate))
    } else {
        None
    }
}

/// Checks a written result: the `Result` tag (`None` when absent or not a result), the
/// termination marker (`None` when absent) and the final position of the main line. An
/// unknown result (`*`) contradicts nothing.
pub fn check_result(
    tag: Option<GameResult>,
    marker: Option<GameResult>,
    end: &Position,
) -> Option<ResultConflict> {
    let known = |r: Option<GameResult>| r.filter(|&r| r != GameResult::Unknown);
    let (tag, marker) = (known(tag), known(marker));
    if let (Some(tag), Some(marker)) = (tag, marker) {
        if tag != marker {
            return Some(ResultConflict::TagAndMarker { tag, marker });
        }
    }
    let written = tag.or(marker)?;
    let (board, ending) = board_result(end)?;
    (board != written).then_some(ResultConflict::Board {
        written,
        board,
        ending,
        side: end.turn(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::new();
        for san in moves {
            let m = pos.parse_san(san).expect("legal");
            pos.play_unchecked(m);
        }
        pos
    }

    const SCHOLARS_MATE: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];
    /// The shortest stalemate known (Sam Loyd): Black to move, stalemated after 10. Qe6.
    const LOYD_STALEMATE: [&str; 19] = [
        "e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6", "Qxd7+", "Kf7", "Qxb7",
        "Qd3", "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6",
    ];

    #[test]
    fn art_5_1_1_checkmate_fixes_the_result() {
        let end = after(&SCHOLARS_MATE);
        let w = Some(GameResult::WhiteWins);
        let b = Some(GameResult::BlackWins);
        assert_eq!(check_result(w, w, &end), None);
        let conflict = check_result(b, None, &end).expect("contradicted");
        assert_eq!(
            conflict,
            ResultConflict::Board {
                written: GameResult::BlackWins,
                board: GameResult::WhiteWins,
                ending: BoardEnding::Checkmate,
                side: Color::Black,
            }
        );
        assert!(conflict.to_string().contains("Black is checkmated"));
        assert!(check_result(Some(GameResult::Draw), None, &end).is_some());
        // Unknown contradicts nothing.
        assert_eq!(check_result(Some(GameResult::Unknown), None, &end), None);
    }

    #[test]
    fn art_5_2_1_stalemate_is_a_draw() {
        let end = after(&LOYD_STALEMATE);
        assert!(end.is_stalemate());
        assert_eq!(
            board_result(&end),
            Some((GameResult::Draw, BoardEnding::Stalemate))
        );
        assert_eq!(check_result(Some(GameResult::Draw), None, &end), None);
        assert!(matches!(
            check_result(None, Some(GameResult::WhiteWins), &end),
            Some(ResultConflict::Board {
                ending: BoardEnding::Stalemate,
                ..
            })
        ));
    }

    #[test]
    fn tag_and_marker_must_agree() {
        let end = after(&["e4"]);
        let w = Some(GameResult::WhiteWins);
        let b = Some(GameResult::BlackWins);
        assert_eq!(
            check_result(b, w, &end),
            Some(ResultConflict::TagAndMarker {
                tag: GameResult::BlackWins,
                marker: GameResult::WhiteWins
            })
        );
        assert_eq!(check_result(w, Some(GameResult::Unknown), &end), None);
        // A decisive result in a running position: resignation, time. Nothing to contradict.
        assert_eq!(check_result(b, b, &end), None);
    }
}
