//! The wire format of the lobby: seeks, pools and the lobby WebSocket's messages.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::wire::{ColorChoice, Variant};

/// `POST /api/seeks`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// Time control, human form (`5+3`, `1d/move`…).
    #[schema(example = "5+3")]
    pub time_control: String,
    /// `standard` (default) or `chess960`.
    #[serde(default)]
    pub variant: Variant,
    /// Rated (default) or casual.
    #[serde(default = "yes")]
    pub rated: bool,
    /// The seeker's colour: `white`, `black` or `random` (default).
    #[serde(default)]
    pub color: ColorChoice,
    /// Lowest rating of an acceptable opponent.
    #[serde(default)]
    pub rating_min: Option<i64>,
    /// Highest rating of an acceptable opponent.
    #[serde(default)]
    pub rating_max: Option<i64>,
}

fn yes() -> bool {
    true
}

/// A seek in the lobby.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Seek {
    /// Id.
    pub id: String,
    /// The seeker.
    pub username: String,
    /// The seeker's rating in the seek's category.
    pub rating: i64,
    /// The seeker's rating is provisional.
    pub provisional: bool,
    /// Time control, human form (normalised).
    pub time_control: String,
    /// `standard` or `chess960`.
    pub variant: Variant,
    /// The rating category.
    pub speed: String,
    /// Rated or casual.
    pub rated: bool,
    /// The seeker's colour.
    pub color: ColorChoice,
    /// Lowest acceptable opponent rating.
    pub rating_min: Option<i64>,
    /// Highest acceptable opponent rating.
    pub rating_max: Option<i64>,
    /// Unix ms.
    pub created_at: i64,
}

/// A quick-pairing pool.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Pool {
    /// Id (the time control).
    pub id: String,
    /// Time control.
    pub time_control: String,
    /// The rating category.
    pub speed: String,
    /// Players waiting now.
    pub waiting: usize,
}

/// `GET /api/lobby`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LobbyView {
    /// Open seeks, newest first.
    pub seeks: Vec<Seek>,
    /// The pools.
    pub pools: Vec<Pool>,
}

/// A game that started from the lobby (`POST /api/seeks/{id}/accept`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Started {
    /// The new game's id.
    pub game: String,
}

/// `POST /api/pools/{id}/join`: the pool joined.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Joined {
    /// The pool's id.
    pub pool: String,
}
