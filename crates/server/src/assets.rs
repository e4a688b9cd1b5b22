//! The web UI: static files from `crates/server/assets` embedded into the binary
//! (`index.html` at each page of the app, everything else under its own path).

use axum::body::Body;
use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::error::AppError;

/// The files built by `web/` (its build writes them here; `cargo build` embeds them).
#[derive(RustEmbed)]
#[folder = "assets/"]
#[allow_missing = true]
struct Assets;

/// Shown while no web UI has been built into `crates/server/assets`.
const PLACEHOLDER: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>Arbiter</title></head><body><h1>Arbiter</h1>\
<p>The web interface is not built into this binary. The API is at \
<a href=\"/api/games\">/api/games</a>, documented by \
<a href=\"/api/openapi.json\">/api/openapi.json</a>.</p></body></html>\n";

/// The media type of a built file, from its extension. The rules core's `.wasm` must be
/// `application/wasm`: browsers compile a module while it downloads only with that type.
fn content_type(path: &str) -> String {
    mime_guess::from_path(path)
        .first_or_octet_stream()
        .as_ref()
        .to_string()
}

fn file_response(path: &str, immutable: bool) -> Option<Response> {
    let file = Assets::get(path)?;
    let mut resp = Response::new(Body::from(file.data.into_owned()));
    let headers = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&content_type(path)) {
        headers.insert(header::CONTENT_TYPE, v);
    }
    let cache = if immutable {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    Some(resp)
}

/// The pages of the single-page app (`/`, `/game/{id}`, `/@/{name}`, `/signup`, `/login`,
/// `/account`, `/leaderboard`): its `index.html` (or a placeholder).
pub async fn index() -> Response {
    file_response("index.html", false).unwrap_or_else(|| {
        (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            PLACEHOLDER,
        )
            .into_response()
    })
}

/// `GET /assets/{*path}`: a built asset (file names carry a content hash: cached forever).
pub async fn asset(Path(path): Path<String>) -> Response {
    file_response(&format!("assets/{path}"), true)
        .unwrap_or_else(|| AppError::NotFound(format!("no asset {path:?}")).into_response())
}

/// Any other path: a top-level file of the UI (`/favicon.svg`…), else a JSON 404.
pub async fn fallback(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if !path.is_empty() && !path.starts_with("api/") && !path.contains("..") {
        if let Some(r) = file_response(path, false) {
            return r;
        }
    }
    let mut r = AppError::NotFound(format!("no route {}", uri.path())).into_response();
    *r.status_mut() = StatusCode::NOT_FOUND;
    r
}

#[cfg(test)]
mod tests {
    #[test]
    fn webassembly_is_served_as_application_wasm() {
        assert_eq!(
            super::content_type("assets/arbiter-S-uFHWwL.wasm"),
            "application/wasm"
        );
        assert!(super::content_type("assets/app-1.js").contains("javascript"));
    }
}
