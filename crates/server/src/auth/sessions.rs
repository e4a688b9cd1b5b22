//! Sessions and personal API tokens as stored: only SHA-256 hashes of the secrets are kept.

use sqlx::{AnyPool, Row};

use crate::db::now_unix_ms;
use crate::token;

/// How long a session lasts without being renewed by a new login.
pub const SESSION_TTL_MS: i64 = 30 * 24 * 3600 * 1000;

/// Personal API tokens start with this, so that they are told apart from seat tokens (64 hex
/// digits) in an `Authorization: Bearer` header.
pub const API_TOKEN_PREFIX: &str = "arb_";

/// A logged-in account.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Account {
    /// The account's id (never shown).
    pub id: String,
    /// The username as the player wrote it.
    pub username: String,
    /// The account's title: `BOT` for a bot account (lichess's API), else none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// The title of a bot account.
pub const BOT_TITLE: &str = "BOT";

impl Account {
    /// Is this a bot account (it plays by challenge only)?
    pub fn is_bot(&self) -> bool {
        self.title.as_deref() == Some(BOT_TITLE)
    }

    /// 400 `bot_account` for a bot: it plays by challenge, not in the lobby or pools (as on
    /// lichess, where bots cannot seek).
    ///
    /// # Errors
    /// 400 `bot_account`.
    pub fn lobby_allowed(&self) -> Result<(), crate::error::AppError> {
        if self.is_bot() {
            return Err(crate::error::AppError::bad_request(
                "bot_account",
                "a bot plays by challenge, not in the lobby or pools",
            ));
        }
        Ok(())
    }
}

/// A live personal API token as looked up by its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenGrant {
    /// Its account.
    pub account: Account,
    /// The lichess scopes it was granted (see [`super::scopes`]).
    pub scopes: Vec<String>,
    /// When it was created, unix ms.
    pub created_at: i64,
}

/// Start a session for `account_id`; returns the cookie's secret (shown once, stored hashed).
///
/// # Errors
/// Database errors.
pub async fn create_session(pool: &AnyPool, account_id: &str) -> Result<String, sqlx::Error> {
    let secret = token::generate();
    let now = now_unix_ms();
    sqlx::query(
        "INSERT INTO sessions (hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(token::hash(&secret))
    .bind(account_id)
    .bind(now)
    .bind(now + SESSION_TTL_MS)
    .execute(pool)
    .await?;
    Ok(secret)
}

/// The account of a live session (not expired, account not closed).
///
/// # Errors
/// Database errors.
pub async fn session_account(pool: &AnyPool, hash: &str) -> Result<Option<Account>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT a.id, a.username, a.title FROM sessions s JOIN accounts a ON a.id = s.account_id \
         WHERE s.hash = $1 AND s.expires_at > $2 AND a.closed_at IS NULL",
    )
    .bind(hash)
    .bind(now_unix_ms())
    .fetch_optional(pool)
    .await?;
    row.map(|r| {
        Ok(Account {
            id: r.try_get("id")?,
            username: r.try_get("username")?,
            title: r.try_get("title")?,
        })
    })
    .transpose()
}

/// End one session.
///
/// # Errors
/// Database errors.
pub async fn end_session(pool: &AnyPool, hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE hash = $1")
        .bind(hash)
        .execute(pool)
        .await?;
    Ok(())
}

/// End every session of an account, except `keep` (a session hash) when given.
///
/// # Errors
/// Database errors.
pub async fn end_sessions(
    pool: &AnyPool,
    account_id: &str,
    keep: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND hash <> $2")
        .bind(account_id)
        .bind(keep.unwrap_or(""))
        .execute(pool)
        .await?;
    Ok(())
}

/// The account and scopes of a live personal API token, without noting a use (lichess's
/// `POST /api/token/test` looks tokens up this way).
///
/// # Errors
/// Database errors.
pub async fn token_grant(pool: &AnyPool, secret: &str) -> Result<Option<TokenGrant>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT a.id, a.username, a.title, t.scopes, t.created_at FROM api_tokens t \
         JOIN accounts a ON a.id = t.account_id WHERE t.hash = $1 AND a.closed_at IS NULL",
    )
    .bind(token::hash(secret))
    .fetch_optional(pool)
    .await?;
    row.map(|r| {
        Ok(TokenGrant {
            account: Account {
                id: r.try_get("id")?,
                username: r.try_get("username")?,
                title: r.try_get("title")?,
            },
            scopes: super::scopes::from_column(r.try_get("scopes")?),
            created_at: r.try_get("created_at")?,
        })
    })
    .transpose()
}

/// Note that the token whose secret hashes to `hash` was used now.
///
/// # Errors
/// Database errors.
pub async fn note_token_use(pool: &AnyPool, hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE api_tokens SET last_used_at = $1 WHERE hash = $2")
        .bind(now_unix_ms())
        .bind(hash)
        .execute(pool)
        .await?;
    Ok(())
}
