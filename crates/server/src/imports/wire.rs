//! The wire format of imports and opening look-ups.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::games::wire::OpeningView;

/// `POST /api/imports` as JSON (the other way is the PGN itself as the body, with
/// `Content-Type: application/x-chess-pgn` or `text/plain`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// One or more games in PGN.
    #[schema(example = "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 *")]
    pub pgn: String,
}

/// A game of the input that could not be imported: where and what, as `arbiter pgn check`
/// reports it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct ImportErrorView {
    /// The game's number in the input, 1-based.
    pub game: u64,
    /// The line, 1-based (0 when the fault is the whole game's, e.g. beyond the game limit).
    pub line: u64,
    /// The column, 1-based, in bytes (0 as for `line`).
    pub column: u64,
    /// What is wrong.
    pub message: String,
}

/// A game stored by an import.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct ImportedGame {
    /// The game's id: its page is `/game/{id}`, its data `GET /api/games/{id}`.
    pub id: String,
    /// The game's number in the input, 1-based.
    pub game: u64,
    /// The `White` tag (`?` when absent).
    pub white: String,
    /// The `Black` tag (`?` when absent).
    pub black: String,
    /// The result as the PGN gives it: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The `Event` tag, if any.
    pub event: Option<String>,
    /// The `Date` tag, if any.
    pub date: Option<String>,
    /// Moves of the main line (half-moves).
    pub plies: usize,
    /// The opening of the main line.
    pub opening: Option<OpeningView>,
}

/// The answer to an import: the games stored and the games refused.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct ImportResult {
    /// The games stored, in input order.
    pub imported: Vec<ImportedGame>,
    /// The games refused, in input order.
    pub errors: Vec<ImportErrorView>,
}

/// The answer when no game could be imported (400).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct ImportFailure {
    /// `no_game_imported`.
    pub error: String,
    /// A summary.
    pub message: String,
    /// Each game's error (absent when the request itself was refused, e.g. malformed JSON,
    /// which answers with the plain error body).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ImportErrorView>,
}

/// `GET /api/openings?fen=FEN`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OpeningQuery {
    /// The position in FEN (the move counters may be left out).
    pub fen: String,
}
