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
}
