//! The wire format of accounts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::ratings::RatingView;

/// `POST /api/account` and `POST /api/session`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 2–20 characters of `A–Z a–z 0–9 _ -`.
    #[schema(example = "magnus")]
    pub username: String,
    /// At least 8 characters, at most 256 bytes.
    pub password: String,
}

/// The logged-in player.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Me {
    /// The username as written at sign-up.
    pub username: String,
    /// Sign-up time, unix ms.
    pub created_at: i64,
    /// Ratings per category (`bullet`, `blitz`, `rapid`, `standard`, `correspondence`,
    /// `chess960`).
    pub ratings: BTreeMap<String, RatingView>,
    /// The same account as lichess's API shows it (`GET /api/account` there), so that
    /// lichess clients read this answer unchanged.
    #[serde(flatten)]
    pub lichess: LichessProfile,
}

/// A rating as lichess shows it (`perfs.blitz`…).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LichessPerf {
    /// Rated games played in the category.
    pub games: i64,
    /// The rating, rounded.
    pub rating: i64,
    /// The rating deviation now, rounded.
    pub rd: i64,
    /// The rating's progress over the recent games (not kept: 0).
    pub prog: i64,
    /// Provisional (RD ≥ 110).
    pub prov: bool,
}

/// An account's games counted as lichess counts them (`count` of a user).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LichessCount {
    /// Finished games (aborted ones not counted).
    pub all: i64,
    /// Finished rated games.
    pub rated: i64,
    /// Won.
    pub win: i64,
    /// Lost.
    pub loss: i64,
    /// Drawn.
    pub draw: i64,
    /// Being played (or adjourned).
    pub playing: i64,
}

/// The fields of lichess's user JSON that an account has (besides `username`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LichessProfile {
    /// lichess's user id: the username in lower case.
    pub id: String,
    /// `BOT` for a bot account; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Ratings under lichess's names: `bullet`, `blitz`, `rapid`, `classical` (Arbiter's
    /// `standard`), `correspondence`, `chess960`.
    pub perfs: BTreeMap<String, LichessPerf>,
    /// Sign-up time, unix ms.
    #[serde(rename = "createdAt")]
    pub created_at_ms: i64,
    /// Last seen (a session started, a token used, a stream open), unix ms.
    #[serde(rename = "seenAt")]
    pub seen_at: i64,
    /// The player's page: `{origin}/@/{username}`.
    pub url: String,
    /// Games by result.
    pub count: LichessCount,
}

/// `POST /api/account/password`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangePassword {
    /// The current password.
    pub current: String,
    /// The new password.
    pub new: String,
}

/// `POST /api/account/close`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseAccount {
    /// The password, to confirm.
    pub password: String,
}

/// `POST /api/account/tokens`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    /// What the token is for (1–100 characters).
    pub description: String,
    /// lichess's scopes granted to it (`board:play`, `bot:play`, `challenge:read`…), which
    /// the lichess-compatible routes check; absent: the play scopes (`board:play`,
    /// `bot:play`, `challenge:read`, `challenge:write`, `challenge:bulk`); `[]`: none. An
    /// unknown scope is a 400.
    #[serde(default)]
    pub scopes: Option<Vec<String>>,
}

/// A personal API token as listed.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TokenView {
    /// Id, to revoke it.
    pub id: String,
    /// What it is for.
    pub description: String,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms of its last use.
    pub last_used_at: Option<i64>,
    /// lichess's scopes granted to it.
    #[serde(default)]
    pub scopes: Vec<String>,
}

/// A new personal API token: the secret is shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedToken {
    /// Id, to revoke it.
    pub id: String,
    /// The token (`arb_…`): send it as `Authorization: Bearer TOKEN`.
    pub token: String,
    /// What it is for.
    pub description: String,
    /// Unix ms.
    pub created_at: i64,
    /// lichess's scopes granted to it.
    #[serde(default)]
    pub scopes: Vec<String>,
}
