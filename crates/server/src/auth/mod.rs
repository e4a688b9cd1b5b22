//! Who is asking: the session cookie, a personal API token or a seat token, resolved once per
//! request by the [`Identity`] and [`LoggedIn`] extractors; and the cross-site guard.
//!
//! Sessions are server-side rows referenced by an `HttpOnly`, `SameSite=Lax` cookie
//! (`Secure` when the operator says the site is behind TLS). A short in-memory cache keeps the
//! database out of every move's path; it is emptied for an account whenever its sessions end,
//! so a logout takes effect at once.

pub mod csrf;
pub mod scopes;
pub mod sessions;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use sqlx::AnyPool;

pub use sessions::{Account, TokenGrant, API_TOKEN_PREFIX, BOT_TITLE};

use crate::error::AppError;
use crate::token;

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "arbiter_session";

/// How long a resolved session is trusted without asking the database again.
const CACHE_TTL: Duration = Duration::from_secs(60);

/// How long a resolved API token is trusted without asking the database again. Programs send
/// a token with every move (lichess's Board and Bot APIs): without this, each move would cost
/// a query. A revocation on this node takes effect at once; on another node of a cluster,
/// within this time.
const TOKEN_CACHE_TTL: Duration = Duration::from_secs(10);

/// A token's last use is written at most this often (it is shown in the token list): one
/// write per request would compete with the games' commits for the database.
const TOKEN_USE_NOTED_EVERY: Duration = Duration::from_secs(60);

/// A token as this node last looked it up.
#[derive(Debug, Clone)]
struct CachedToken {
    grant: sessions::TokenGrant,
    fetched: Instant,
    use_noted: Instant,
}

/// The authentication service: resolves cookies and tokens to accounts.
#[derive(Debug)]
pub struct Auth {
    pool: AnyPool,
    secure_cookies: bool,
    cache: Mutex<HashMap<String, (Account, Instant)>>,
    /// API tokens by the hash of their secret.
    tokens: Mutex<HashMap<String, CachedToken>>,
}

impl Auth {
    /// Over the database `pool`; `secure_cookies` when the site is served over TLS.
    pub fn new(pool: AnyPool, secure_cookies: bool) -> Arc<Self> {
        Arc::new(Self {
            pool,
            secure_cookies,
            cache: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
        })
    }

    /// The database.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Start a session; returns the `Set-Cookie` value.
    ///
    /// # Errors
    /// Database errors.
    pub async fn login(&self, account_id: &str) -> Result<HeaderValue, AppError> {
        let secret = sessions::create_session(&self.pool, account_id).await?;
        let cookie = Cookie::build((SESSION_COOKIE, secret))
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(self.secure_cookies)
            .path("/")
            .max_age(time::Duration::milliseconds(sessions::SESSION_TTL_MS))
            .build();
        HeaderValue::from_str(&cookie.to_string()).map_err(|e| AppError::Internal(e.to_string()))
    }

    /// The `Set-Cookie` value that removes the session cookie.
    pub fn logout_cookie(&self) -> HeaderValue {
        let cookie = Cookie::build((SESSION_COOKIE, ""))
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(self.secure_cookies)
            .path("/")
            .max_age(time::Duration::ZERO)
            .build();
        HeaderValue::from_str(&cookie.to_string()).unwrap_or(HeaderValue::from_static(""))
    }

    /// End the session whose cookie secret hashes to `hash`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn logout(&self, hash: &str) -> Result<(), AppError> {
        sessions::end_session(&self.pool, hash).await?;
        self.cache.lock().expect("auth cache").remove(hash);
        Ok(())
    }

    /// End every session of `account_id` except `keep`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn logout_everywhere(
        &self,
        account_id: &str,
        keep: Option<&str>,
    ) -> Result<(), AppError> {
        sessions::end_sessions(&self.pool, account_id, keep).await?;
        self.cache
            .lock()
            .expect("auth cache")
            .retain(|h, (a, _)| a.id != account_id || Some(h.as_str()) == keep);
        Ok(())
    }

    /// Forget what the cache knows of `account_id` (its title changed), so that its sessions
    /// see the change at once.
    pub fn forget_account(&self, account_id: &str) {
        self.cache
            .lock()
            .expect("auth cache")
            .retain(|_, (a, _)| a.id != account_id);
        self.forget_tokens(account_id);
    }

    /// Cache a token's grant just read; `true` when its use was noted less than a minute ago.
    fn remember_token(&self, hash: &str, grant: &sessions::TokenGrant) -> bool {
        let mut tokens = self.tokens.lock().expect("token cache");
        if tokens.len() > 100_000 {
            tokens.retain(|_, t| t.fetched.elapsed() < TOKEN_CACHE_TTL);
        }
        let now = Instant::now();
        let noted = tokens
            .get(hash)
            .map(|t| t.use_noted)
            .filter(|at| at.elapsed() < TOKEN_USE_NOTED_EVERY);
        tokens.insert(
            hash.to_owned(),
            CachedToken {
                grant: grant.clone(),
                fetched: now,
                use_noted: noted.unwrap_or(now),
            },
        );
        noted.is_some()
    }

    /// Forget the cached tokens of `account_id` (one was revoked, or the account closed).
    pub fn forget_tokens(&self, account_id: &str) {
        self.tokens
            .lock()
            .expect("token cache")
            .retain(|_, t| t.grant.account.id != account_id);
    }

    /// The grant of a personal API token: from the cache while it is fresh, else from the
    /// database; its use is noted at most once a minute.
    async fn token(&self, secret: &str) -> Result<Option<sessions::TokenGrant>, AppError> {
        let hash = token::hash(secret);
        let cached = {
            let mut tokens = self.tokens.lock().expect("token cache");
            match tokens.get_mut(&hash) {
                Some(t) if t.fetched.elapsed() < TOKEN_CACHE_TTL => {
                    let note = t.use_noted.elapsed() >= TOKEN_USE_NOTED_EVERY;
                    if note {
                        t.use_noted = Instant::now();
                    }
                    Some((t.grant.clone(), note))
                }
                _ => None,
            }
        };
        if let Some((grant, note)) = cached {
            if note {
                sessions::note_token_use(&self.pool, &hash).await?;
            }
            return Ok(Some(grant));
        }
        let grant = sessions::token_grant(&self.pool, secret).await?;
        let Some(grant) = grant else {
            self.tokens.lock().expect("token cache").remove(&hash);
            return Ok(None);
        };
        let noted_recently = self.remember_token(&hash, &grant);
        if !noted_recently {
            sessions::note_token_use(&self.pool, &hash).await?;
        }
        Ok(Some(grant))
    }

    async fn session(&self, hash: &str) -> Result<Option<Account>, AppError> {
        if let Some((a, at)) = self.cache.lock().expect("auth cache").get(hash) {
            if at.elapsed() < CACHE_TTL {
                return Ok(Some(a.clone()));
            }
        }
        let account = sessions::session_account(&self.pool, hash).await?;
        let mut cache = self.cache.lock().expect("auth cache");
        match &account {
            Some(a) => {
                if cache.len() > 100_000 {
                    cache.retain(|_, (_, at)| at.elapsed() < CACHE_TTL);
                }
                cache.insert(hash.to_owned(), (a.clone(), Instant::now()));
            }
            None => {
                cache.remove(hash);
            }
        }
        Ok(account)
    }
}

/// Who sent a request: an account (by session cookie or personal API token) and/or a seat
/// token. A session cookie that is unknown or expired counts as no account (anonymous play
/// goes on); a bad API token is a 401.
#[derive(Debug, Clone, Default)]
pub struct Identity {
    /// The account, if logged in.
    pub account: Option<Account>,
    /// A seat token (`Authorization: Bearer` that is not a personal API token).
    pub seat_token: Option<String>,
    /// The hash of the session cookie's secret, when the account came from a cookie.
    pub session: Option<String>,
    /// The lichess scopes of the personal API token the account came from; `None` for a
    /// browser session (or no account), which may do everything.
    pub scopes: Option<Vec<String>>,
}

impl Identity {
    /// Resolve the headers of a request (also used by WebSocket upgrades, which may carry the
    /// seat token in the query instead).
    ///
    /// # Errors
    /// 401 for a malformed Authorization header or an unknown API token; 500 database.
    pub async fn resolve(auth: &Auth, parts: &Parts) -> Result<Self, AppError> {
        let mut id = Identity::default();
        if let Some(value) = parts.headers.get(header::AUTHORIZATION) {
            let value = value
                .to_str()
                .map_err(|_| AppError::Unauthorized("malformed Authorization header".into()))?;
            let bearer = value
                .strip_prefix("Bearer ")
                .or_else(|| value.strip_prefix("bearer "))
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .ok_or_else(|| {
                    AppError::Unauthorized("expected Authorization: Bearer TOKEN".into())
                })?;
            if bearer.starts_with(API_TOKEN_PREFIX) {
                let grant = auth
                    .token(bearer)
                    .await?
                    .ok_or_else(|| AppError::Unauthorized("unknown or revoked API token".into()))?;
                id.account = Some(grant.account);
                id.scopes = Some(grant.scopes);
            } else {
                id.seat_token = Some(bearer.to_owned());
            }
        }
        if id.account.is_none() {
            let jar = CookieJar::from_headers(&parts.headers);
            if let Some(c) = jar.get(SESSION_COOKIE).filter(|c| !c.value().is_empty()) {
                let hash = token::hash(c.value());
                if let Some(a) = auth.session(&hash).await? {
                    id.account = Some(a);
                    id.session = Some(hash);
                }
            }
        }
        Ok(id)
    }

    /// 403 `missing_scope` unless the request may act with lichess's `scope` (a browser
    /// session may do everything; a token what it was granted).
    ///
    /// # Errors
    /// 403 `missing_scope`, `Missing scope: board:play`.
    pub fn require_scope(&self, scope: &str) -> Result<(), AppError> {
        scopes::require(self.scopes.as_deref(), scope)
    }
}

impl<S> FromRequestParts<S> for Identity
where
    S: Send + Sync,
    Arc<Auth>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let auth = Arc::<Auth>::from_ref(state);
        Identity::resolve(&auth, parts).await
    }
}

/// A request that must come from a logged-in account (401 otherwise).
#[derive(Debug, Clone)]
pub struct LoggedIn {
    /// The account.
    pub account: Account,
    /// The session's hash when logged in by cookie.
    pub session: Option<String>,
    /// The lichess scopes of the personal API token used; `None` when logged in by browser
    /// session (everything allowed).
    pub scopes: Option<Vec<String>>,
}

impl LoggedIn {
    /// 403 `missing_scope` unless the request may act with lichess's `scope` (a browser
    /// session may do everything; a token what it was granted).
    ///
    /// # Errors
    /// 403 `missing_scope`, `Missing scope: board:play`.
    pub fn require_scope(&self, scope: &str) -> Result<(), AppError> {
        scopes::require(self.scopes.as_deref(), scope)
    }

    /// 403 `session_required` unless logged in by browser session: a token never manages
    /// the account (tokens, password, closing, sessions), whatever its scopes.
    ///
    /// # Errors
    /// 403 `session_required`.
    pub fn require_session(&self) -> Result<(), AppError> {
        if self.session.is_some() {
            Ok(())
        } else {
            Err(AppError::forbidden(
                "session_required",
                "this needs the browser session: an API token cannot manage the account",
            ))
        }
    }
}

impl<S> FromRequestParts<S> for LoggedIn
where
    S: Send + Sync,
    Arc<Auth>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let id = Identity::from_request_parts(parts, state).await?;
        match id.account {
            Some(account) => Ok(LoggedIn {
                account,
                session: id.session,
                scopes: id.scopes,
            }),
            None => Err(AppError::Unauthorized("log in first".into())),
        }
    }
}
