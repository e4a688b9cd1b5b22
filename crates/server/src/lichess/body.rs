//! Request bodies as lichess clients send them: form-encoded (berserk's `data=`, lichess-bot,
//! curl `-d`) or JSON (berserk's `json=`), the same fields either way.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header;
use serde::de::DeserializeOwned;

use crate::error::AppError;

/// A body read as JSON when its `Content-Type` says so, else as a form (an empty body is an
/// empty form). A malformed body is a 400 and changes nothing.
#[derive(Debug, Clone, Default)]
pub struct FormOrJson<T>(pub T);

impl<S, T> FromRequest<S> for FormOrJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().starts_with("application/json"));
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|_| AppError::PayloadTooLarge)?;
        parse(&bytes, json).map(Self)
    }
}

/// Read `bytes` as JSON (`json`) or as a form.
///
/// # Errors
/// 400 `malformed_body` naming the fault.
pub fn parse<T: DeserializeOwned>(bytes: &[u8], json: bool) -> Result<T, AppError> {
    if json {
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            bytes
        };
        serde_json::from_slice(bytes)
            .map_err(|e| AppError::bad_request("malformed_body", format!("bad JSON body: {e}")))
    } else {
        serde_urlencoded::from_bytes(bytes)
            .map_err(|e| AppError::bad_request("malformed_body", format!("bad form body: {e}")))
    }
}

/// A boolean as lichess's forms write it (`true`/`false`), also accepted from JSON.
pub fn flag<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum B {
        Bool(bool),
        Text(String),
    }
    match Option::<B>::deserialize(d)? {
        None => Ok(None),
        Some(B::Bool(b)) => Ok(Some(b)),
        Some(B::Text(t)) => match t.as_str() {
            "true" | "1" | "on" => Ok(Some(true)),
            "false" | "0" | "off" | "" => Ok(Some(false)),
            other => Err(serde::de::Error::custom(format!(
                "expected true or false, found {other:?}"
            ))),
        },
    }
}

/// A number as lichess's forms write it (text), also accepted from JSON.
pub fn number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum N {
        Num(f64),
        Text(String),
    }
    match Option::<N>::deserialize(d)? {
        None => Ok(None),
        Some(N::Num(n)) => Ok(Some(n)),
        Some(N::Text(t)) if t.trim().is_empty() => Ok(None),
        Some(N::Text(t)) => t
            .trim()
            .parse::<f64>()
            .map(Some)
            .map_err(|_| serde::de::Error::custom(format!("expected a number, found {t:?}"))),
    }
}

use serde::Deserialize as _;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Challenge {
        #[serde(default, deserialize_with = "flag")]
        rated: Option<bool>,
        #[serde(default, rename = "clock.limit", deserialize_with = "number")]
        limit: Option<f64>,
    }

    #[test]
    fn a_form_and_a_json_body_give_the_same_fields() {
        let f: Challenge = parse(b"rated=true&clock.limit=300", false).unwrap();
        let j: Challenge = parse(br#"{"rated": true, "clock.limit": 300}"#, true).unwrap();
        assert_eq!((f.rated, f.limit), (Some(true), Some(300.0)));
        assert_eq!((j.rated, j.limit), (Some(true), Some(300.0)));
        let empty: Challenge = parse(b"", false).unwrap();
        assert_eq!((empty.rated, empty.limit), (None, None));
    }

    #[test]
    fn a_malformed_body_is_a_400() {
        let e = parse::<Challenge>(b"rated=maybe", false).unwrap_err();
        assert_eq!(e.status(), 400);
        let e = parse::<Challenge>(b"{", true).unwrap_err();
        assert_eq!(e.code(), "malformed_body");
    }
}
