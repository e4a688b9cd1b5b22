//! lichess's routes about accounts: testing tokens, a user's public JSON, who is online and
//! playing, becoming a bot, and the bots online. `GET /api/account` itself is the native
//! route, whose answer carries lichess's fields too.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::error::{ok, LichessError, LichessResult};
use super::presence::Presence;
use crate::accounts::lichess::{profile, user_id};
use crate::accounts::queries::{self, AccountRow, NotUpgraded};
use crate::accounts::wire::LichessProfile;
use crate::accounts::Accounts;
use crate::auth::{scopes, sessions, LoggedIn, API_TOKEN_PREFIX};
use crate::db::now_unix_ms;
use crate::error::AppError;

/// Tokens tested in one request at most (lichess's limit).
const MAX_TOKENS: usize = 1000;
/// Users in one status request at most (lichess's limit).
const MAX_STATUS_IDS: usize = 100;
/// Bots listed by `GET /api/bot/online` by default and at most.
const BOTS_DEFAULT: usize = 100;
const BOTS_MAX: usize = 512;

/// `POST /api/token/test`: the body is tokens separated by commas, sent as they are (no form
/// field; lichess-bot and berserk send the bare text, with or without a content type). Each
/// token maps to its account and scopes, or `null` when unknown or revoked. No authentication.
pub async fn test_tokens(
    State(accounts): State<Arc<Accounts>>,
    body: Bytes,
) -> LichessResult<Json<Map<String, Value>>> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| AppError::bad_request("malformed_body", "the tokens are not UTF-8 text"))?;
    let tokens: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() > MAX_TOKENS {
        return Err(AppError::bad_request(
            "too_many_tokens",
            format!("at most {MAX_TOKENS} tokens at once"),
        )
        .into());
    }
    let mut out = Map::new();
    for t in tokens {
        let grant = if t.starts_with(API_TOKEN_PREFIX) && t.len() <= 128 {
            sessions::token_grant(accounts.auth.pool(), t).await?
        } else {
            None
        };
        let answer = grant.map_or(Value::Null, |g| {
            json!({
                "userId": user_id(&g.account.username),
                "scopes": scopes::to_column(&g.scopes),
                "expires": null,
            })
        });
        out.insert(t.to_owned(), answer);
    }
    Ok(Json(out))
}

/// A user as lichess's API shows it to everyone.
#[derive(Debug, Clone, Serialize)]
struct PublicUser {
    username: String,
    #[serde(flatten)]
    profile: LichessProfile,
    /// The address of the game being played, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    playing: Option<String>,
}

fn origin(accounts: &Accounts, headers: &HeaderMap) -> String {
    crate::auth::csrf::site_origin(headers, &accounts.origins)
}

/// The public JSON of an open account; a closed one is lichess's `{"id", "username",
/// "disabled": true}`.
async fn public_user(
    accounts: &Accounts,
    presence: &Presence,
    row: &AccountRow,
    origin: &str,
) -> Result<Value, LichessError> {
    if row.closed_at.is_some() {
        return Ok(json!({
            "id": user_id(&row.username),
            "username": row.username,
            "disabled": true,
        }));
    }
    let pool = accounts.auth.pool();
    let seen = presence.online(&row.id).then(now_unix_ms);
    let profile = profile(pool, row, origin, seen).await?;
    let playing = crate::profiles::queries::playing_now(pool, &row.id)
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?
        .map(|id| format!("{origin}/game/{id}"));
    let user = PublicUser {
        username: row.username.clone(),
        profile,
        playing,
    };
    serde_json::to_value(user).map_err(|e| AppError::Internal(e.to_string()).into())
}

async fn account_named(
    accounts: &Accounts,
    name: &str,
) -> Result<Option<AccountRow>, LichessError> {
    if name.is_empty() || name.len() > 64 {
        return Ok(None);
    }
    Ok(queries::by_name(accounts.auth.pool(), name).await?)
}

/// `GET /api/user/{username}`: a user's public JSON (404 `Not found` for no such user).
pub async fn get_user(
    State(accounts): State<Arc<Accounts>>,
    State(presence): State<Arc<Presence>>,
    Path(username): Path<String>,
    headers: HeaderMap,
) -> LichessResult<Json<Value>> {
    let row = account_named(&accounts, &username)
        .await?
        .ok_or_else(|| AppError::NotFound("Not found".into()))?;
    let origin = origin(&accounts, &headers);
    Ok(Json(
        public_user(&accounts, &presence, &row, &origin).await?,
    ))
}

/// The query of `GET /api/users/status`.
#[derive(Debug, Deserialize)]
pub struct StatusQuery {
    /// User ids (names, any case), comma-separated.
    #[serde(default)]
    ids: String,
    /// Also the id of the game being played (`playingId`).
    #[serde(
        default,
        rename = "withGameIds",
        deserialize_with = "super::body::flag"
    )]
    with_game_ids: Option<bool>,
}

/// `GET /api/users/status?ids=a,b`: for each known user, `{id, name, title?, online?: true,
/// playing?: true}` (the flags only when true, as lichess writes them); unknown ids are left
/// out.
pub async fn users_status(
    State(accounts): State<Arc<Accounts>>,
    State(presence): State<Arc<Presence>>,
    query: Result<Query<StatusQuery>, axum::extract::rejection::QueryRejection>,
) -> LichessResult<Json<Vec<Value>>> {
    let Query(q) = query.map_err(AppError::from)?;
    let ids: Vec<&str> = q
        .ids
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if ids.len() > MAX_STATUS_IDS {
        return Err(AppError::bad_request(
            "too_many_ids",
            format!("at most {MAX_STATUS_IDS} ids at once"),
        )
        .into());
    }
    let pool = accounts.auth.pool();
    let mut out = Vec::new();
    for id in ids {
        let Some(row) = account_named(&accounts, id).await? else {
            continue;
        };
        if row.closed_at.is_some() {
            continue;
        }
        let mut v = Map::new();
        v.insert("id".into(), json!(user_id(&row.username)));
        v.insert("name".into(), json!(row.username));
        if let Some(t) = &row.title {
            v.insert("title".into(), json!(t));
        }
        if presence.online(&row.id) {
            v.insert("online".into(), json!(true));
        }
        let playing = crate::profiles::queries::playing_now(pool, &row.id)
            .await
            .map_err(|e| AppError::Internal(e.to_string()))?;
        if let Some(game) = playing {
            v.insert("playing".into(), json!(true));
            if q.with_game_ids == Some(true) {
                v.insert("playingId".into(), json!(game));
            }
        }
        out.push(Value::Object(v));
    }
    Ok(Json(out))
}

/// `POST /api/bot/account/upgrade` (scope `bot:play`): the account becomes a bot for good,
/// if it has no game; a bot plays by challenge only.
pub async fn upgrade_to_bot(
    State(accounts): State<Arc<Accounts>>,
    who: LoggedIn,
) -> LichessResult<Json<Value>> {
    who.require_scope("bot:play")?;
    let done = queries::upgrade_to_bot(accounts.auth.pool(), &who.account.id).await?;
    match done {
        Ok(()) => {
            // Its sessions see the title at once.
            accounts.auth.forget_account(&who.account.id);
            Ok(ok())
        }
        Err(why) => {
            let (code, message) = match why {
                NotUpgraded::AlreadyBot => ("already_bot", "This account is already a bot account"),
                NotUpgraded::HasGames => (
                    "has_games",
                    "This account has played games: only an account that has played no game \
                     can become a bot account",
                ),
                NotUpgraded::NoAccount => ("no_account", "No such open account"),
            };
            Err(AppError::bad_request(code, message).into())
        }
    }
}

/// The query of `GET /api/bot/online`.
#[derive(Debug, Deserialize)]
pub struct OnlineQuery {
    /// How many bots at most (1–512, default 100).
    #[serde(default, deserialize_with = "super::body::number")]
    nb: Option<f64>,
}

/// `GET /api/bot/online?nb=N`: the bot accounts online now, one user JSON a line (NDJSON),
/// by name.
pub async fn bots_online(
    State(accounts): State<Arc<Accounts>>,
    State(presence): State<Arc<Presence>>,
    headers: HeaderMap,
    query: Result<Query<OnlineQuery>, axum::extract::rejection::QueryRejection>,
) -> LichessResult<Response> {
    let Query(q) = query.map_err(AppError::from)?;
    let nb =
        q.nb.map_or(BOTS_DEFAULT, |n| n.clamp(1.0, BOTS_MAX as f64) as usize);
    let mut bots = queries::bots_among(accounts.auth.pool(), &presence.online_ids()).await?;
    bots.sort_by(|a, b| a.username.cmp(&b.username));
    bots.truncate(nb);
    let origin = origin(&accounts, &headers);
    let mut text = String::new();
    for row in &bots {
        text.push_str(
            &public_user(&accounts, &presence, row, &origin)
                .await?
                .to_string(),
        );
        text.push('\n');
    }
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from(text),
    )
        .into_response())
}
