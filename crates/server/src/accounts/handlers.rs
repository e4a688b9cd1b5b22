//! The HTTP handlers of accounts: sign up, log in and out, password, closing, API tokens.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::limits::{self, LoginLimits};
use super::password;
use super::queries;
use super::wire::{
    ChangePassword, CloseAccount, CreatedToken, Credentials, Me, NewToken, TokenView,
};
use crate::auth::csrf::{site_origin, Origins};
use crate::auth::{Auth, Identity, LoggedIn};
use crate::db::now_unix_ms;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::extract::JsonBody;
use crate::ratings;

/// The accounts service: authentication and the limits on logins and sign-ups.
#[derive(Debug)]
pub struct Accounts {
    /// Sessions and tokens.
    pub auth: Arc<Auth>,
    /// Login attempt and sign-up limits.
    pub limits: LoginLimits,
    /// Proxies whose `X-Forwarded-For` names the client (see [`limits::client_address`]).
    pub trusted_proxies: Vec<IpAddr>,
    /// The site's public origins (for the players' page addresses lichess's JSON gives).
    pub origins: Origins,
}

/// The client's address: the TCP peer (unknown when served without a socket, as in tests),
/// or the address a trusted proxy forwarded for.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr
where
    Arc<Accounts>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        let accounts = Arc::<Accounts>::from_ref(state);
        let forwarded = parts
            .headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok());
        Ok(ClientAddr(limits::client_address(
            peer,
            forwarded,
            &accounts.trusted_proxies,
        )))
    }
}

/// The player asking (seen now), reached at the site's origin as `headers` name it.
async fn me(accounts: &Accounts, headers: &HeaderMap, id: &str) -> ApiResult<Me> {
    let pool = accounts.auth.pool();
    let row = queries::by_id(pool, id)
        .await?
        .ok_or_else(|| AppError::Unauthorized("log in first".into()))?;
    let origin = site_origin(headers, &accounts.origins);
    let lichess = super::lichess::profile(pool, &row, &origin, Some(now_unix_ms())).await?;
    Ok(Me {
        ratings: ratings::ratings_of(pool, id, now_unix_ms()).await?,
        username: row.username,
        created_at: row.created_at,
        lichess,
    })
}

fn with_cookie(status: StatusCode, cookie: axum::http::HeaderValue, body: Me) -> Response {
    (status, [(header::SET_COOKIE, cookie)], Json(body)).into_response()
}

#[utoipa::path(post, path = "/api/account", request_body = Credentials,
    responses((status = 201, body = Me, description = "Signed up and logged in (session cookie)"),
              (status = 400, body = ErrorBody), (status = 409, body = ErrorBody),
              (status = 429, body = ErrorBody,
               description = "Too many sign-ups from this address; see Retry-After")))]
/// Sign up: a new account, logged in at once.
pub async fn sign_up(
    State(accounts): State<Arc<Accounts>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> ApiResult<Response> {
    password::check_username(&req.username)?;
    password::check_password(&req.password)?;
    accounts.limits.check_sign_up(addr)?;
    let auth = &accounts.auth;
    if queries::by_name(auth.pool(), &req.username)
        .await?
        .is_some()
    {
        return Err(AppError::conflict(
            "username_taken",
            format!("the name {:?} is taken", req.username),
        ));
    }
    let hash = password::hash(req.password).await?;
    let row = queries::insert(auth.pool(), &req.username, &hash)
        .await?
        .ok_or_else(|| {
            AppError::conflict(
                "username_taken",
                format!("the name {:?} is taken", req.username),
            )
        })?;
    let cookie = auth.login(&row.id).await?;
    Ok(with_cookie(
        StatusCode::CREATED,
        cookie,
        me(&accounts, &headers, &row.id).await?,
    ))
}

#[utoipa::path(post, path = "/api/session", request_body = Credentials,
    responses((status = 200, body = Me, description = "Logged in (session cookie)"),
              (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 429, body = ErrorBody, description = "Too many attempts; see Retry-After")))]
/// Log in. A wrong password and an unknown or closed account get the same answer.
pub async fn log_in(
    State(accounts): State<Arc<Accounts>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> ApiResult<Response> {
    password::check_length(&req.password)?;
    if req.username.len() > 64 {
        return Err(AppError::BadCredentials);
    }
    accounts.limits.check(addr, &password::key(&req.username))?;
    let auth = &accounts.auth;
    let row = queries::by_name(auth.pool(), &req.username)
        .await?
        .filter(|r| r.closed_at.is_none());
    let stored = row.as_ref().map(|r| r.password_hash.clone());
    if !password::verify(req.password, stored).await? {
        return Err(AppError::BadCredentials);
    }
    let row = row.ok_or(AppError::BadCredentials)?;
    let cookie = auth.login(&row.id).await?;
    Ok(with_cookie(
        StatusCode::OK,
        cookie,
        me(&accounts, &headers, &row.id).await?,
    ))
}

#[utoipa::path(delete, path = "/api/session",
    responses((status = 204, description = "Logged out (cookie cleared)")))]
/// Log out this browser.
pub async fn log_out(State(accounts): State<Arc<Accounts>>, who: Identity) -> ApiResult<Response> {
    if let Some(hash) = who.session {
        accounts.auth.logout(&hash).await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, accounts.auth.logout_cookie())],
    )
        .into_response())
}

#[utoipa::path(delete, path = "/api/sessions",
    responses((status = 403, body = ErrorBody,
               description = "Needs the browser session: an API token cannot (session_required)"),
              (status = 204, description = "Every session ended"), (status = 401, body = ErrorBody)))]
/// Log out everywhere: every session of the account ends, this one too.
pub async fn log_out_everywhere(
    State(accounts): State<Arc<Accounts>>,
    who: LoggedIn,
) -> ApiResult<Response> {
    who.require_session()?;
    accounts
        .auth
        .logout_everywhere(&who.account.id, None)
        .await?;
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, accounts.auth.logout_cookie())],
    )
        .into_response())
}

#[utoipa::path(get, path = "/api/account",
    responses((status = 200, body = Me), (status = 401, body = ErrorBody)))]
/// The logged-in player.
pub async fn get_me(
    State(accounts): State<Arc<Accounts>>,
    who: LoggedIn,
    headers: HeaderMap,
) -> ApiResult<Json<Me>> {
    Ok(Json(me(&accounts, &headers, &who.account.id).await?))
}

async fn check_password_of(accounts: &Accounts, id: &str, password: String) -> ApiResult<()> {
    password::check_length(&password)?;
    let row = queries::by_id(accounts.auth.pool(), id).await?;
    if !password::verify(password, row.map(|r| r.password_hash)).await? {
        return Err(AppError::BadCredentials);
    }
    Ok(())
}

#[utoipa::path(post, path = "/api/account/password", request_body = ChangePassword,
    responses((status = 403, body = ErrorBody,
               description = "Needs the browser session: an API token cannot (session_required)"),
              (status = 204, description = "Changed; every other session ended"),
              (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 429, body = ErrorBody, description = "Too many attempts; see Retry-After")))]
/// Change the password; every other session of the account ends.
pub async fn change_password(
    State(accounts): State<Arc<Accounts>>,
    ClientAddr(addr): ClientAddr,
    who: LoggedIn,
    JsonBody(req): JsonBody<ChangePassword>,
) -> ApiResult<StatusCode> {
    who.require_session()?;
    password::check_password(&req.new)?;
    accounts
        .limits
        .check(addr, &password::key(&who.account.username))?;
    check_password_of(&accounts, &who.account.id, req.current).await?;
    let hash = password::hash(req.new).await?;
    queries::set_password(accounts.auth.pool(), &who.account.id, &hash).await?;
    accounts
        .auth
        .logout_everywhere(&who.account.id, who.session.as_deref())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/account/close", request_body = CloseAccount,
    responses((status = 403, body = ErrorBody,
               description = "Needs the browser session: an API token cannot (session_required)"),
              (status = 204, description = "Closed; logged out everywhere"),
              (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 429, body = ErrorBody, description = "Too many attempts; see Retry-After")))]
/// Close the account: it cannot log in again; its finished games keep its name.
pub async fn close_account(
    State(accounts): State<Arc<Accounts>>,
    ClientAddr(addr): ClientAddr,
    who: LoggedIn,
    JsonBody(req): JsonBody<CloseAccount>,
) -> ApiResult<Response> {
    who.require_session()?;
    accounts
        .limits
        .check(addr, &password::key(&who.account.username))?;
    check_password_of(&accounts, &who.account.id, req.password).await?;
    queries::close(accounts.auth.pool(), &who.account.id).await?;
    // Its tokens stop working at once on this node.
    accounts.auth.forget_tokens(&who.account.id);
    accounts
        .auth
        .logout_everywhere(&who.account.id, None)
        .await?;
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, accounts.auth.logout_cookie())],
    )
        .into_response())
}

#[utoipa::path(post, path = "/api/account/tokens", request_body = NewToken,
    responses((status = 403, body = ErrorBody,
               description = "Needs the browser session: an API token cannot (session_required)"),
              (status = 201, body = CreatedToken), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody)))]
/// Create a personal API token (shown once).
pub async fn create_token(
    State(accounts): State<Arc<Accounts>>,
    who: LoggedIn,
    JsonBody(req): JsonBody<NewToken>,
) -> ApiResult<(StatusCode, Json<CreatedToken>)> {
    who.require_session()?;
    let description = req.description.trim();
    if description.is_empty() || description.chars().count() > 100 {
        return Err(AppError::bad_request(
            "bad_description",
            "a token's description has 1 to 100 characters",
        ));
    }
    let scopes = match &req.scopes {
        None => crate::auth::scopes::from_column(None),
        Some(asked) => crate::auth::scopes::check(asked)?,
    };
    let (row, token) =
        queries::create_token(accounts.auth.pool(), &who.account.id, description, &scopes).await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedToken {
            id: row.id,
            token,
            description: row.description,
            created_at: row.created_at,
            scopes: row.scopes,
        }),
    ))
}

#[utoipa::path(get, path = "/api/account/tokens",
    responses((status = 403, body = ErrorBody,
               description = "Needs the browser session: an API token cannot (session_required)"),
              (status = 200, body = [TokenView]), (status = 401, body = ErrorBody)))]
/// The account's personal API tokens (never their secrets).
pub async fn list_tokens(
    State(accounts): State<Arc<Accounts>>,
    who: LoggedIn,
) -> ApiResult<Json<Vec<TokenView>>> {
    who.require_session()?;
    let rows = queries::tokens(accounts.auth.pool(), &who.account.id).await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| TokenView {
                id: r.id,
                description: r.description,
                created_at: r.created_at,
                last_used_at: r.last_used_at,
                scopes: r.scopes,
            })
            .collect(),
    ))
}

#[utoipa::path(delete, path = "/api/account/tokens/{id}", params(("id" = String, Path)),
    responses((status = 403, body = ErrorBody,
               description = "Needs the browser session: an API token cannot (session_required)"),
              (status = 204, description = "Revoked"), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
/// Revoke a personal API token.
pub async fn revoke_token(
    State(accounts): State<Arc<Accounts>>,
    who: LoggedIn,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    who.require_session()?;
    if id.len() > 64 || !queries::revoke_token(accounts.auth.pool(), &who.account.id, &id).await? {
        return Err(AppError::NotFound(format!("no token with id {id:?}")));
    }
    // The revoked token stops working at once on this node.
    accounts.auth.forget_tokens(&who.account.id);
    Ok(StatusCode::NO_CONTENT)
}
