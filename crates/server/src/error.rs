//! One error type for the whole API: every client fault is a 4xx with
//! `{"error": code, "message": text}`; server faults are a 500 without internals.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

/// The JSON body of every error response.
#[derive(Debug, Clone, Serialize, serde::Deserialize, ToSchema)]
pub struct ErrorBody {
    /// A stable machine-readable code, e.g. `illegal_move`, `not_your_turn`.
    pub error: String,
    /// A human-readable explanation naming the fault.
    pub message: String,
}

/// An error returned by an API handler.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: the request is malformed or names something invalid (`code` says what).
    #[error("{message}")]
    BadRequest {
        /// Machine-readable code.
        code: &'static str,
        /// Explanation.
        message: String,
    },
    /// 401: no token, or a token that holds no seat of this game.
    #[error("{0}")]
    Unauthorized(String),
    /// 401: a wrong password, or an unknown or closed account (one answer for all three, so
    /// that it tells nothing about which accounts exist).
    #[error("wrong username or password")]
    BadCredentials,
    /// 403: the request is not allowed (a cross-site request, another player's action).
    #[error("{message}")]
    Forbidden {
        /// Machine-readable code.
        code: &'static str,
        /// Explanation.
        message: String,
    },
    /// 429: too many attempts; try again after `retry_after_secs`.
    #[error("too many attempts: try again in {retry_after_secs} s")]
    TooManyRequests {
        /// Seconds until the next attempt is allowed (the `Retry-After` header).
        retry_after_secs: u64,
    },
    /// 404: no such game (or route).
    #[error("{0}")]
    NotFound(String),
    /// 409: the request conflicts with the state of the game (`code` says how).
    #[error("{message}")]
    Conflict {
        /// Machine-readable code.
        code: &'static str,
        /// Explanation.
        message: String,
    },
    /// 413: the body is larger than the server accepts.
    #[error("request body too large")]
    PayloadTooLarge,
    /// 422: a well-formed request that the Laws reject (illegal or ambiguous move, bad claim…).
    #[error("{message}")]
    Unprocessable {
        /// Machine-readable code.
        code: &'static str,
        /// Explanation.
        message: String,
    },
    /// 503: the server is shutting down or overloaded.
    #[error("{0}")]
    Unavailable(String),
    /// 500: a fault of the server (database…); the details are logged, never sent.
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    /// A 400 with the given code and message.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::BadRequest {
            code,
            message: message.into(),
        }
    }
    /// A 409 with the given code and message.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::Conflict {
            code,
            message: message.into(),
        }
    }
    /// A 422 with the given code and message.
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> Self {
        Self::Unprocessable {
            code,
            message: message.into(),
        }
    }
    /// A 403 with the given code and message.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::Forbidden {
            code,
            message: message.into(),
        }
    }
    /// A 404 for an unknown game.
    pub fn game_not_found(id: &str) -> Self {
        Self::NotFound(format!("no game with id {id:?}"))
    }

    /// The error another node answered with (cluster mode), rebuilt from its status, code and
    /// message.
    pub fn from_remote(status: u16, code: &str, message: String) -> Self {
        let code = intern(code);
        match status {
            400 => Self::BadRequest { code, message },
            401 if code == "bad_credentials" => Self::BadCredentials,
            401 => Self::Unauthorized(message),
            403 => Self::Forbidden { code, message },
            404 => Self::NotFound(message),
            409 => Self::Conflict { code, message },
            413 => Self::PayloadTooLarge,
            422 => Self::Unprocessable { code, message },
            429 => Self::TooManyRequests {
                retry_after_secs: 1,
            },
            503 => Self::Unavailable(message),
            _ => Self::Internal(message),
        }
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) | Self::BadCredentials => StatusCode::UNAUTHORIZED,
            Self::Forbidden { .. } => StatusCode::FORBIDDEN,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict { .. } => StatusCode::CONFLICT,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The machine-readable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadRequest { code, .. }
            | Self::Conflict { code, .. }
            | Self::Forbidden { code, .. }
            | Self::Unprocessable { code, .. } => code,
            Self::TooManyRequests { .. } => "too_many_attempts",
            Self::Unauthorized(_) => "unauthorized",
            Self::BadCredentials => "bad_credentials",
            Self::NotFound(_) => "not_found",
            Self::PayloadTooLarge => "payload_too_large",
            Self::Unavailable(_) => "unavailable",
            Self::Internal(_) => "internal",
        }
    }

    /// The body sent to the client (internals are never disclosed).
    pub fn body(&self) -> ErrorBody {
        let message = match self {
            Self::Internal(_) => "internal server error".to_owned(),
            other => other.to_string(),
        };
        ErrorBody {
            error: self.code().to_owned(),
            message,
        }
    }
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(format!("database: {e}"))
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let Self::Internal(detail) = &self {
            tracing::error!(%detail, "internal error");
        }
        let retry = match &self {
            Self::TooManyRequests { retry_after_secs } => Some(retry_after_secs.to_string()),
            _ => None,
        };
        let mut r = (self.status(), Json(self.body())).into_response();
        if let Some(v) = retry.and_then(|v| axum::http::HeaderValue::from_str(&v).ok()) {
            r.headers_mut().insert(axum::http::header::RETRY_AFTER, v);
        }
        r
    }
}

/// Turn axum's JSON extraction failures into our 4xx shape.
impl From<axum::extract::rejection::JsonRejection> for AppError {
    fn from(r: axum::extract::rejection::JsonRejection) -> Self {
        use axum::extract::rejection::JsonRejection as J;
        match r {
            J::MissingJsonContentType(_) => Self::bad_request(
                "bad_content_type",
                "expected Content-Type: application/json",
            ),
            J::JsonSyntaxError(e) => Self::bad_request("malformed_json", e.body_text()),
            J::JsonDataError(e) => Self::bad_request("invalid_request", e.body_text()),
            J::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Self::PayloadTooLarge
            }
            other => Self::bad_request("bad_request", other.body_text()),
        }
    }
}

impl From<axum::extract::rejection::PathRejection> for AppError {
    fn from(r: axum::extract::rejection::PathRejection) -> Self {
        Self::bad_request("bad_path", r.body_text())
    }
}

impl From<axum::extract::rejection::QueryRejection> for AppError {
    fn from(r: axum::extract::rejection::QueryRejection) -> Self {
        Self::bad_request("bad_query", r.body_text())
    }
}

/// The result type of API handlers.
pub type ApiResult<T> = Result<T, AppError>;

/// A code from another node as a `&'static str`: codes are a small fixed set, each kept once.
fn intern(code: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static CODES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut codes = CODES
        .get_or_init(|| Mutex::new(HashSet::new()))
        .lock()
        .expect("codes lock");
    if let Some(c) = codes.get(code) {
        return c;
    }
    // Bounded: a code is an identifier of at most 64 characters, else it is shortened.
    let c: &'static str = Box::leak(code.chars().take(64).collect::<String>().into_boxed_str());
    if codes.len() < 1024 {
        codes.insert(c);
    }
    c
}
