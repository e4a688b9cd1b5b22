//! The JSON shapes of computer analysis, and the form a position's result is stored in.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A game's computer analysis as clients see it (`GET /api/games/{id}/analysis`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AnalysisView {
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    /// The engine that analyses (`arbiter 0.1.0`, or the external engine's name).
    pub engine: String,
    /// The depth limit of each position's search, if the search was limited by depth.
    pub depth: Option<u32>,
    /// The node budget of each position's search, if the search was limited by nodes.
    pub nodes: Option<u64>,
    /// Positions analysed of the game's positions.
    pub progress: Progress,
    /// While queued: the jobs ahead of this one (0: next); null otherwise.
    pub queue_position: Option<i64>,
    /// Why the analysis failed; null unless `failed`.
    pub error: Option<String>,
    /// One per analysed position, ply 0 = the start position (while running: those done).
    pub positions: Vec<PositionView>,
    /// One per move played, ply 1 = White's first move (judged once both positions around
    /// it are analysed).
    pub moves: Vec<MoveAnalysis>,
    /// Per player; null until done.
    pub summary: Option<Summary>,
}

/// Positions analysed of the game's positions.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Progress {
    /// Positions analysed.
    pub done: i64,
    /// Positions in the game (moves + 1).
    pub total: i64,
}

/// An evaluation from White's point of view: `{"cp": 25}` or `{"mate": 3}` (White mates in 3;
/// negative: Black mates). `{"mate": 0}`: the side to move is checkmated.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct EvalView {
    /// Centipawns (absent for a mate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Mate in this many moves (absent for centipawns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

impl From<arbiter_engine::review::Eval> for EvalView {
    fn from(e: arbiter_engine::review::Eval) -> Self {
        use arbiter_engine::review::Eval;
        match e {
            Eval::Cp(cp) => Self {
                cp: Some(cp),
                mate: None,
            },
            Eval::Mate(m) => Self {
                cp: None,
                mate: Some(m),
            },
        }
    }
}

impl EvalView {
    /// The evaluation, if exactly one of `cp` and `mate` is set.
    pub fn eval(self) -> Option<arbiter_engine::review::Eval> {
        use arbiter_engine::review::Eval;
        match (self.cp, self.mate) {
            (Some(cp), None) => Some(Eval::Cp(cp)),
            (None, Some(m)) => Some(Eval::Mate(m)),
            _ => None,
        }
    }
}

/// A move in both notations.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct MoveRef {
    /// UCI (`e2e4`).
    pub uci: String,
    /// SAN (`e4`).
    pub san: String,
}

/// One analysed position.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PositionView {
    /// 0 for the start position.
    pub ply: i64,
    /// The evaluation, White's point of view.
    pub eval: EvalView,
    /// The engine's best move here; null when the game is over in this position.
    pub best: Option<MoveRef>,
    /// The engine's principal variation from here, UCI.
    pub pv: Vec<String>,
    /// The depth the search completed.
    pub depth: u32,
}

/// One move played, judged.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MoveAnalysis {
    /// 1 for White's first move.
    pub ply: i64,
    /// SAN.
    pub san: String,
    /// UCI.
    pub uci: String,
    /// Centipawn loss against the engine's best (0 to 1000); null until judged.
    pub loss: Option<i32>,
    /// Drop of the mover's win probability (0 to 1), what the marks use; null until judged.
    pub win_loss: Option<f64>,
    /// `inaccuracy`, `mistake`, `blunder`, or null.
    pub mark: Option<String>,
    /// The engine's best move in the position before, when the move is marked.
    pub better: Option<MoveRef>,
}

/// One player's figures.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerSummary {
    /// Average centipawn loss (each move's loss capped at 1000).
    pub acpl: i32,
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
    /// Mean of lichess's per-move accuracy (0 to 100); null without a move.
    pub accuracy: Option<f64>,
}

/// Both players' figures.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Summary {
    /// White.
    pub white: PlayerSummary,
    /// Black.
    pub black: PlayerSummary,
}

/// A position's result as stored (`analysis_positions.data`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct StoredPosition {
    /// The evaluation, White's point of view.
    pub eval: EvalView,
    /// The best move, UCI.
    pub best: Option<String>,
    /// The principal variation, UCI.
    pub pv: Vec<String>,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// The search limit of a job as stored (`analyses.search_limit`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct StoredLimit {
    /// Depth limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Node limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}
