//! lichess's error shape: `{"error": "text"}` with the same HTTP status as the native API.

use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::error::AppError;

/// An error of a lichess-compatible route: the native error, written as lichess writes its
/// errors (`{"error": "..."}`; clients such as berserk and lichess-bot read that key).
#[derive(Debug)]
pub struct LichessError(pub AppError);

impl From<AppError> for LichessError {
    fn from(e: AppError) -> Self {
        Self(e)
    }
}

impl From<sqlx::Error> for LichessError {
    fn from(e: sqlx::Error) -> Self {
        Self(e.into())
    }
}

impl IntoResponse for LichessError {
    fn into_response(self) -> Response {
        // lichess answers a move out of turn, an illegal move or an action the game's state
        // refuses with a 400; Arbiter's 409 and 422 say the same.
        let status = match self.0.status().as_u16() {
            409 | 422 => axum::http::StatusCode::BAD_REQUEST,
            _ => self.0.status(),
        };
        if let AppError::Internal(detail) = &self.0 {
            tracing::error!(%detail, "internal error");
        }
        let body = self.0.body();
        // `code` is Arbiter's own machine-readable code, kept beside lichess's text.
        (
            status,
            Json(json!({"error": body.message, "code": body.error})),
        )
            .into_response()
    }
}

/// The result of a lichess-compatible handler.
pub type LichessResult<T> = Result<T, LichessError>;

/// lichess's answer to a successful POST.
pub fn ok() -> Json<serde_json::Value> {
    Json(json!({"ok": true}))
}
