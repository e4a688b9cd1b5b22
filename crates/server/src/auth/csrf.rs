//! Cross-site request forgery: a browser sends the session cookie with any request to this
//! site, even one another site's page makes. Every state-changing request (and every
//! WebSocket upgrade, which can act) whose `Origin` names another site is refused. Browsers
//! send `Origin` on all of these; programs without one authenticate with bearer tokens,
//! which a foreign page cannot send (no CORS is granted).

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// The site's own origin(s), when the operator names them (behind a proxy the `Host` header
/// may not be the public name).
#[derive(Debug, Clone, Default)]
pub struct Origins {
    /// Extra origins accepted besides the request's own `Host`, e.g. `https://chess.example`.
    pub public: Vec<String>,
}

/// Is `origin` (an `Origin` header value) this site, given the request's headers?
pub fn same_site(origin: &str, headers: &HeaderMap, origins: &Origins) -> bool {
    if origins
        .public
        .iter()
        .any(|o| o.eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    authority.is_some_and(|a| a.eq_ignore_ascii_case(host))
}

/// The site's origin as links should name it: the first public origin the operator named,
/// else the request's `Host` (`https` when a proxy says `X-Forwarded-Proto: https`).
pub fn site_origin(headers: &HeaderMap, origins: &Origins) -> String {
    if let Some(o) = origins.public.first() {
        return o.trim_end_matches('/').to_owned();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let https = headers
        .get("x-forwarded-proto")
        .is_some_and(|p| p.as_bytes().eq_ignore_ascii_case(b"https"));
    format!("{}://{host}", if https { "https" } else { "http" })
}

/// The middleware: 403 `cross_site_request` for an unsafe method or a WebSocket upgrade from
/// another site.
pub async fn guard(State(origins): State<Origins>, req: Request, next: Next) -> Response {
    let unsafe_method = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let upgrade = req.headers().contains_key(header::UPGRADE);
    if unsafe_method || upgrade {
        let headers = req.headers();
        let cross_fetch = headers
            .get("sec-fetch-site")
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"cross-site"));
        let foreign = match headers.get(header::ORIGIN).map(|o| o.to_str()) {
            None => false,
            Some(Ok(o)) => !same_site(o, headers, &origins),
            Some(Err(_)) => true,
        };
        if foreign || cross_fetch {
            return AppError::forbidden(
                "cross_site_request",
                "a request from another site cannot act on this one (Origin check)",
            )
            .into_response();
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn host(h: &str) -> HeaderMap {
        let mut m = HeaderMap::new();
        m.insert(header::HOST, HeaderValue::from_str(h).unwrap());
        m
    }

    #[test]
    fn same_site_compares_the_origin_with_the_host() {
        let o = Origins::default();
        assert!(same_site(
            "http://127.0.0.1:8080",
            &host("127.0.0.1:8080"),
            &o
        ));
        assert!(same_site(
            "https://Chess.Example",
            &host("chess.example"),
            &o
        ));
        assert!(!same_site(
            "http://evil.example",
            &host("127.0.0.1:8080"),
            &o
        ));
        assert!(!same_site(
            "http://127.0.0.1:8081",
            &host("127.0.0.1:8080"),
            &o
        ));
        assert!(!same_site("null", &host("127.0.0.1:8080"), &o));
        let behind_proxy = Origins {
            public: vec!["https://chess.example".into()],
        };
        assert!(same_site(
            "https://chess.example",
            &host("10.0.0.5:8080"),
            &behind_proxy
        ));
    }
}
