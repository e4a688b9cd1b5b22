//! An imported game as the games' routes show it: a [`GameView`] marked `imported`, with the
//! moves and no clocks or seats, and its PGN as it was imported.

use arbiter_rules::{CastlingMode, Color, Position};
use serde::Deserialize;

use super::queries::ImportRow;
use crate::error::{ApiResult, AppError};
use crate::games::wire::{
    Clocks, GameView, ImportView, MoveView, OpeningView, PlayersView, Seat, SeatsTaken, Variant,
};
use crate::games::Status;

#[derive(Deserialize)]
struct StoredMove {
    uci: String,
    san: String,
}

/// The view of a stored import.
///
/// # Errors
/// 500 when the stored row cannot be read back (the server wrote it itself).
pub fn game_view(row: ImportRow) -> ApiResult<GameView> {
    let bad = |what: &str| AppError::Internal(format!("imported game {}: bad {what}", row.id));
    let chess960 = row.variant == "chess960";
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let moves: Vec<StoredMove> = serde_json::from_str(&row.moves).map_err(|_| bad("moves"))?;
    let tags: Vec<(String, String)> = serde_json::from_str(&row.tags).map_err(|_| bad("tags"))?;
    // The final position, replayed from the stored moves (the reader checked them on import).
    let mut pos = Position::from_fen(&row.initial_fen, mode).map_err(|_| bad("start FEN"))?;
    for m in &moves {
        let mv = pos.parse_uci(&m.uci).map_err(|_| bad("move"))?;
        pos.play_unchecked(mv);
    }
    let fen = if chess960 {
        pos.fen_shredder()
    } else {
        pos.fen()
    };
    let tag = |name: &str| tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    Ok(GameView {
        id: row.id,
        // A record of a game that was played elsewhere: nothing more can happen in it.
        status: Status::Finished,
        variant: if chess960 {
            Variant::Chess960
        } else {
            Variant::Standard
        },
        time_control: tag("TimeControl").unwrap_or_else(|| "-".into()),
        rules: serde_json::json!({}),
        initial_fen: row.initial_fen,
        fen,
        moves: moves
            .into_iter()
            .map(|m| MoveView {
                uci: m.uci,
                san: m.san,
                clock_ms: None,
            })
            .collect(),
        clocks: Clocks {
            white_ms: None,
            black_ms: None,
        },
        turn: match pos.turn() {
            Color::White => Seat::White,
            Color::Black => Seat::Black,
        },
        result: Some(row.result),
        // The PGN's own Termination tag is free text: it is in `import.tags`.
        termination: None,
        draw_offer: None,
        claimable: Vec::new(),
        // Nobody can take a seat in a record.
        seats: SeatsTaken {
            white: true,
            black: true,
        },
        computer: None,
        last_seq: 0,
        rated: false,
        speed: None,
        players: PlayersView::default(),
        rematch: None,
        rematch_offer: None,
        opening: row.opening.map(|(eco, name)| OpeningView { eco, name }),
        imported: true,
        import: Some(ImportView {
            tags,
            importer: row.importer,
            imported_at: row.created_at,
        }),
        created_at: row.created_at,
    })
}

/// The PGN of an imported game: its text as imported (comments and variations kept).
pub fn pgn(row: &ImportRow) -> String {
    let mut text = row.pgn.clone();
    text.push('\n');
    text
}
