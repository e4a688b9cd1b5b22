//! Request extractors shared by every domain, whose rejections are our 4xx JSON shape.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;
use axum::Json;

use crate::error::AppError;

/// JSON body extractor whose rejections are our 4xx shape.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonBody<T>(pub T);

impl<S, T> axum::extract::FromRequest<S> for JsonBody<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, AppError> {
        let Json(v) = Json::<T>::from_request(req, state).await?;
        Ok(Self(v))
    }
}

/// The seat token from `Authorization: Bearer TOKEN`.
#[derive(Debug, Clone)]
pub struct Bearer(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Bearer {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, AppError> {
        let value = parts
            .headers
            .get(header::AUTHORIZATION)
            .ok_or_else(|| AppError::Unauthorized("missing Authorization: Bearer TOKEN".into()))?;
        let value = value
            .to_str()
            .map_err(|_| AppError::Unauthorized("malformed Authorization header".into()))?;
        let token = value
            .strip_prefix("Bearer ")
            .or_else(|| value.strip_prefix("bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| AppError::Unauthorized("expected Authorization: Bearer TOKEN".into()))?;
        Ok(Self(token.to_owned()))
    }
}
