//! The accounts table and API tokens.

use sqlx::{AnyPool, Row};

use super::wire::LichessCount;
use crate::db::now_unix_ms;
use crate::token;

/// An account as stored.
#[derive(Debug, Clone)]
pub struct AccountRow {
    /// Id.
    pub id: String,
    /// Username as written.
    pub username: String,
    /// argon2id PHC string.
    pub password_hash: String,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms, when closed.
    pub closed_at: Option<i64>,
    /// `BOT` for a bot account.
    pub title: Option<String>,
}

fn account_row(r: &sqlx::any::AnyRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: r.try_get("id")?,
        username: r.try_get("username")?,
        password_hash: r.try_get("password_hash")?,
        created_at: r.try_get("created_at")?,
        closed_at: r.try_get("closed_at")?,
        title: r.try_get("title")?,
    })
}

/// Insert a new account; `None` when the name (ignoring case) is taken.
///
/// # Errors
/// Database errors.
pub async fn insert(
    pool: &AnyPool,
    username: &str,
    password_hash: &str,
) -> Result<Option<AccountRow>, sqlx::Error> {
    let row = AccountRow {
        id: token::game_id(),
        username: username.to_owned(),
        password_hash: password_hash.to_owned(),
        created_at: now_unix_ms(),
        closed_at: None,
        title: None,
    };
    // The unique index on username_key decides between two sign-ups of one name at once.
    let done = sqlx::query(
        "INSERT INTO accounts (id, username, username_key, password_hash, created_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (username_key) DO NOTHING",
    )
    .bind(&row.id)
    .bind(&row.username)
    .bind(super::password::key(username))
    .bind(&row.password_hash)
    .bind(row.created_at)
    .execute(pool)
    .await?;
    Ok((done.rows_affected() == 1).then_some(row))
}

/// The account named `username` (ignoring case), closed or not.
///
/// # Errors
/// Database errors.
pub async fn by_name(pool: &AnyPool, username: &str) -> Result<Option<AccountRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id, username, password_hash, created_at, closed_at, title FROM accounts \
         WHERE username_key = $1",
    )
    .bind(super::password::key(username))
    .fetch_optional(pool)
    .await?;
    row.as_ref().map(account_row).transpose()
}

/// The account with this id.
///
/// # Errors
/// Database errors.
pub async fn by_id(pool: &AnyPool, id: &str) -> Result<Option<AccountRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id, username, password_hash, created_at, closed_at, title FROM accounts \
         WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    row.as_ref().map(account_row).transpose()
}

/// Replace the password hash.
///
/// # Errors
/// Database errors.
pub async fn set_password(pool: &AnyPool, id: &str, hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
        .bind(hash)
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Close an account: it cannot log in again; its sessions and tokens end. Its games keep
/// its name.
///
/// # Errors
/// Database errors.
pub async fn close(pool: &AnyPool, id: &str) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("UPDATE accounts SET closed_at = $1 WHERE id = $2 AND closed_at IS NULL")
        .bind(now_unix_ms())
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM sessions WHERE account_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM api_tokens WHERE account_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// A personal API token as listed (never the secret).
#[derive(Debug, Clone)]
pub struct TokenRow {
    /// Id (to revoke it).
    pub id: String,
    /// What the player wrote about it.
    pub description: String,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms of its last use.
    pub last_used_at: Option<i64>,
    /// lichess's scopes (a token older than scopes: the play scopes).
    pub scopes: Vec<String>,
}

/// Create a personal API token; returns its row and the secret (shown once).
///
/// # Errors
/// Database errors.
pub async fn create_token(
    pool: &AnyPool,
    account_id: &str,
    description: &str,
    scopes: &[String],
) -> Result<(TokenRow, String), sqlx::Error> {
    let secret = format!("{}{}", crate::auth::API_TOKEN_PREFIX, token::generate());
    let row = TokenRow {
        id: token::game_id(),
        description: description.to_owned(),
        created_at: now_unix_ms(),
        last_used_at: None,
        scopes: scopes.to_vec(),
    };
    sqlx::query(
        "INSERT INTO api_tokens (id, hash, account_id, description, created_at, scopes) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&row.id)
    .bind(token::hash(&secret))
    .bind(account_id)
    .bind(&row.description)
    .bind(row.created_at)
    .bind(crate::auth::scopes::to_column(scopes))
    .execute(pool)
    .await?;
    Ok((row, secret))
}

/// An account's tokens, newest first.
///
/// # Errors
/// Database errors.
pub async fn tokens(pool: &AnyPool, account_id: &str) -> Result<Vec<TokenRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, description, created_at, last_used_at, scopes FROM api_tokens \
         WHERE account_id = $1 ORDER BY created_at DESC",
    )
    .bind(account_id)
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(TokenRow {
                id: r.try_get("id")?,
                description: r.try_get("description")?,
                created_at: r.try_get("created_at")?,
                last_used_at: r.try_get("last_used_at")?,
                scopes: crate::auth::scopes::from_column(r.try_get("scopes")?),
            })
        })
        .collect()
}

/// Revoke a token of this account; false if there is none with this id.
///
/// # Errors
/// Database errors.
pub async fn revoke_token(pool: &AnyPool, account_id: &str, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND account_id = $2")
        .bind(id)
        .bind(account_id)
        .execute(pool)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// An account's games counted as lichess counts them: finished (not aborted) games, rated
/// ones, by result from its side, and games in progress.
///
/// # Errors
/// Database errors.
pub async fn game_counts(pool: &AnyPool, account_id: &str) -> Result<LichessCount, sqlx::Error> {
    // Each side along its own index (games_white_list, games_black_list).
    let side = |colour: &str, win: &str, loss: &str| {
        format!(
            "SELECT \
             COALESCE(SUM(CASE WHEN status = 'finished' THEN 1 ELSE 0 END), 0) AS n_all, \
             COALESCE(SUM(CASE WHEN status = 'finished' AND rated = 1 THEN 1 ELSE 0 END), 0) \
             AS n_rated, \
             COALESCE(SUM(CASE WHEN status = 'finished' AND result = '{win}' THEN 1 ELSE 0 END), \
             0) AS n_win, \
             COALESCE(SUM(CASE WHEN status = 'finished' AND result = '{loss}' THEN 1 ELSE 0 END), \
             0) AS n_loss, \
             COALESCE(SUM(CASE WHEN status = 'finished' AND result = '1/2-1/2' THEN 1 ELSE 0 END), \
             0) AS n_draw, \
             COALESCE(SUM(CASE WHEN status IN ('playing', 'adjourned') THEN 1 ELSE 0 END), 0) \
             AS n_playing \
             FROM games WHERE {colour}_account = $1 AND COALESCE(termination, '') <> 'aborted'"
        )
    };
    let sql = format!(
        "{} UNION ALL {}",
        side("white", "1-0", "0-1"),
        side("black", "0-1", "1-0")
    );
    let mut c = LichessCount::default();
    for r in sqlx::query(&sql).bind(account_id).fetch_all(pool).await? {
        c.all += r.try_get::<i64, _>("n_all")?;
        c.rated += r.try_get::<i64, _>("n_rated")?;
        c.win += r.try_get::<i64, _>("n_win")?;
        c.loss += r.try_get::<i64, _>("n_loss")?;
        c.draw += r.try_get::<i64, _>("n_draw")?;
        c.playing += r.try_get::<i64, _>("n_playing")?;
    }
    Ok(c)
}

/// When the account was last seen: its latest session start or token use (unix ms; its
/// sign-up when neither).
///
/// # Errors
/// Database errors.
pub async fn seen_at(pool: &AnyPool, account: &AccountRow) -> Result<i64, sqlx::Error> {
    let row = sqlx::query(
        "SELECT (SELECT MAX(created_at) FROM sessions WHERE account_id = $1) AS session, \
         (SELECT MAX(last_used_at) FROM api_tokens WHERE account_id = $1) AS token",
    )
    .bind(&account.id)
    .fetch_one(pool)
    .await?;
    let session: Option<i64> = row.try_get("session")?;
    let token: Option<i64> = row.try_get("token")?;
    Ok(account
        .created_at
        .max(session.unwrap_or(0))
        .max(token.unwrap_or(0)))
}

/// Why an account cannot become a bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotUpgraded {
    /// It is a bot already.
    AlreadyBot,
    /// It has played (or is playing, or created) a game.
    HasGames,
    /// No such open account.
    NoAccount,
}

/// Make an account a bot account for good (title `BOT`), if it is none yet and no game has
/// it as a player.
///
/// # Errors
/// Database errors.
pub async fn upgrade_to_bot(
    pool: &AnyPool,
    account_id: &str,
) -> Result<Result<(), NotUpgraded>, sqlx::Error> {
    // One statement: a game created between a check and the update cannot slip in.
    let done = sqlx::query(
        "UPDATE accounts SET title = $1 WHERE id = $2 AND title IS NULL AND closed_at IS NULL \
         AND NOT EXISTS (SELECT 1 FROM games WHERE white_account = $2) \
         AND NOT EXISTS (SELECT 1 FROM games WHERE black_account = $2)",
    )
    .bind(crate::auth::BOT_TITLE)
    .bind(account_id)
    .execute(pool)
    .await?;
    if done.rows_affected() == 1 {
        return Ok(Ok(()));
    }
    Ok(Err(match by_id(pool, account_id).await? {
        Some(r) if r.closed_at.is_none() && r.title.is_some() => NotUpgraded::AlreadyBot,
        Some(r) if r.closed_at.is_none() => NotUpgraded::HasGames,
        _ => NotUpgraded::NoAccount,
    }))
}

/// Open bot accounts among `ids`.
///
/// # Errors
/// Database errors.
pub async fn bots_among(pool: &AnyPool, ids: &[String]) -> Result<Vec<AccountRow>, sqlx::Error> {
    let mut out = Vec::new();
    for id in ids {
        if let Some(r) = by_id(pool, id).await? {
            if r.closed_at.is_none() && r.title.as_deref() == Some(crate::auth::BOT_TITLE) {
                out.push(r);
            }
        }
    }
    Ok(out)
}

/// A player's name as a game shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerName {
    /// The username.
    pub username: String,
    /// The account has been closed since.
    pub closed: bool,
    /// Its title (`BOT`).
    pub title: Option<String>,
}

/// The names of accounts by id: username, whether closed, title.
///
/// # Errors
/// Database errors.
pub async fn names(
    pool: &AnyPool,
    ids: &[&str],
) -> Result<std::collections::HashMap<String, PlayerName>, sqlx::Error> {
    let mut out = std::collections::HashMap::new();
    for id in ids {
        if out.contains_key(*id) {
            continue;
        }
        if let Some(r) = by_id(pool, id).await? {
            out.insert(
                r.id,
                PlayerName {
                    username: r.username,
                    closed: r.closed_at.is_some(),
                    title: r.title,
                },
            );
        }
    }
    Ok(out)
}
