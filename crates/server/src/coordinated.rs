//! Cluster mode: the lobby (seeks, pools) and the tournaments run on one node, the
//! coordinator (the live node with the oldest lease epoch, [`crate::cluster::Cluster`]). On
//! any other node their requests are passed on: plain HTTP requests over NATS (the
//! coordinator runs them through its own router and sends the response back), and their
//! WebSockets by a WebSocket from this node to the coordinator, relayed both ways. When the
//! coordinator dies, the next oldest node takes over: tournaments resume from their stored
//! events; seeks and pool places, which live in memory, are lost as on a restart.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio_tungstenite::tungstenite;
use tower::ServiceExt;

use crate::cluster::{Cluster, Handler, Member};
use crate::error::AppError;
use crate::games::Hub;

/// The NATS service of HTTP requests passed to the coordinator.
const SERVICE: &str = "http";

/// How long a passed-on request may take (a large Swiss pairing takes seconds).
const TIMEOUT: Duration = Duration::from_secs(60);

/// Largest body passed on (requests are limited further by the router).
const MAX_BODY: usize = 1 << 20;

/// Largest response sent back (exports); NATS' own limit applies too (1 MB by default).
const MAX_RESPONSE: usize = 64 << 20;

/// Marks a request that another node passed on: it is never passed on again.
#[derive(Debug, Clone, Copy)]
struct PassedOn;

/// A request or response's head as it travels over NATS.
#[derive(Debug, Serialize, Deserialize)]
struct Head {
    /// Method (requests).
    method: Option<String>,
    /// Path and query (requests).
    uri: Option<String>,
    /// Status (responses).
    status: Option<u16>,
    /// Headers with text values.
    headers: Vec<(String, String)>,
    /// The client's address (requests).
    peer: Option<SocketAddr>,
}

/// `head` as JSON after its length (4 bytes, big-endian), then the body.
fn encode(head: &Head, body: &[u8]) -> Vec<u8> {
    let json = serde_json::to_vec(head).unwrap_or_default();
    let mut out = Vec::with_capacity(4 + json.len() + body.len());
    out.extend_from_slice(&u32::try_from(json.len()).unwrap_or(0).to_be_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(body);
    out
}

fn decode(bytes: &[u8]) -> Option<(Head, &[u8])> {
    let len = usize::try_from(u32::from_be_bytes(bytes.get(..4)?.try_into().ok()?)).ok()?;
    let head = serde_json::from_slice(bytes.get(4..4 + len)?).ok()?;
    Some((head, bytes.get(4 + len..)?))
}

fn text_headers(headers: &axum::http::HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .filter_map(|(k, v)| Some((k.as_str().to_owned(), v.to_str().ok()?.to_owned())))
        .collect()
}

fn unavailable(why: &str) -> Response {
    AppError::Unavailable(format!("{why}; retry")).into_response()
}

/// The middleware on the lobby's and tournaments' routes: run here on the coordinator (or
/// outside a cluster), else pass on to the coordinator.
pub async fn guard(State(hub): State<Arc<Hub>>, req: Request, next: Next) -> Response {
    let Some(cluster) = hub.cluster() else {
        return next.run(req).await;
    };
    if cluster.is_coordinator() {
        return next.run(req).await;
    }
    if req.extensions().get::<PassedOn>().is_some() {
        return unavailable("this node is no longer the coordinator");
    }
    let Some(coordinator) = cluster.coordinator() else {
        return unavailable("no coordinator at the moment");
    };
    if req.headers().contains_key(header::UPGRADE) {
        relay_socket(req, coordinator, hub.closing()).await
    } else {
        pass_on(cluster, &coordinator, req).await
    }
}

async fn pass_on(cluster: &Cluster, to: &Member, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let Ok(body) = axum::body::to_bytes(body, MAX_BODY).await else {
        return AppError::PayloadTooLarge.into_response();
    };
    let head = Head {
        method: Some(parts.method.to_string()),
        uri: Some(
            parts
                .uri
                .path_and_query()
                .map_or("/", |p| p.as_str())
                .to_owned(),
        ),
        status: None,
        headers: text_headers(&parts.headers),
        peer: parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0),
    };
    let answer = match cluster
        .request(&to.node, SERVICE, encode(&head, &body), TIMEOUT)
        .await
    {
        Ok(a) => a,
        Err(e) => return unavailable(&e.to_string()),
    };
    let Some((head, body)) = decode(&answer) else {
        return AppError::Internal("a malformed answer from the coordinator".into())
            .into_response();
    };
    let mut response = Response::new(Body::from(body.to_vec()));
    *response.status_mut() = head
        .status
        .and_then(|s| StatusCode::from_u16(s).ok())
        .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    // The body is whole here: its length is the new message's own.
    append_headers(
        response.headers_mut(),
        head.headers,
        &[header::CONTENT_LENGTH, header::TRANSFER_ENCODING],
    );
    response
}

/// Serve the requests other nodes pass on, through `router` (this node's whole application).
///
/// # Errors
/// NATS refuses the subscription.
pub async fn serve(cluster: &Cluster, router: Router) -> Result<(), crate::cluster::ClusterError> {
    let nats = cluster.max_payload_source();
    let handler: Handler = Arc::new(move |payload| {
        let router = router.clone();
        let nats = nats.clone();
        Box::pin(async move {
            let response = match decode(&payload) {
                Some((head, body)) => run(router, head, body.to_vec()).await,
                None => AppError::bad_request("bad_request", "malformed request").into_response(),
            };
            let answer = encode_response(response).await;
            let limit = nats();
            if answer.len() <= limit {
                return answer.into();
            }
            // NATS would drop it: say why instead (exports of very large tournaments).
            let e = AppError::Unavailable(format!(
                "the answer ({} bytes) is larger than NATS carries ({limit} bytes): raise the \
                 NATS server's max_payload, or ask the coordinator node directly",
                answer.len()
            ));
            encode_response(e.into_response()).await.into()
        })
    });
    cluster.serve(SERVICE, handler).await
}

/// A response as it travels back over NATS.
async fn encode_response(response: Response) -> Vec<u8> {
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, MAX_RESPONSE)
        .await
        .unwrap_or_default();
    let head = Head {
        method: None,
        uri: None,
        status: Some(parts.status.as_u16()),
        headers: text_headers(&parts.headers),
        peer: None,
    };
    encode(&head, &body)
}

/// The headers of `pairs` that are valid, appended to `map` (except those of `skip`).
fn append_headers(
    map: &mut axum::http::HeaderMap,
    pairs: Vec<(String, String)>,
    skip: &[HeaderName],
) {
    for (k, v) in pairs {
        if let (Ok(k), Ok(v)) = (
            HeaderName::try_from(k.as_str()),
            HeaderValue::try_from(v.as_str()),
        ) {
            if !skip.contains(&k) {
                map.append(k, v);
            }
        }
    }
}

async fn run(router: Router, head: Head, body: Vec<u8>) -> Response {
    let method = head
        .method
        .as_deref()
        .and_then(|m| Method::from_bytes(m.as_bytes()).ok());
    let uri = head.uri.as_deref().and_then(|u| u.parse::<Uri>().ok());
    let (Some(method), Some(uri)) = (method, uri) else {
        return AppError::bad_request("bad_request", "malformed request").into_response();
    };
    let mut req = Request::new(Body::from(body));
    *req.method_mut() = method;
    *req.uri_mut() = uri;
    append_headers(req.headers_mut(), head.headers, &[]);
    req.extensions_mut().insert(PassedOn);
    if let Some(peer) = head.peer {
        req.extensions_mut().insert(ConnectInfo(peer));
    }
    match router.oneshot(req).await {
        Ok(r) => r,
        Err(e) => match e {},
    }
}

/// A WebSocket for the coordinator: open one from here to it with the client's credentials
/// and headers, then relay messages both ways until either side closes.
async fn relay_socket(
    req: Request,
    to: Member,
    closing: tokio::sync::watch::Receiver<bool>,
) -> Response {
    let (mut parts, _) = req.into_parts();
    let ws = match WebSocketUpgrade::from_request_parts(&mut parts, &()).await {
        Ok(ws) => ws,
        Err(e) => return e.into_response(),
    };
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let Ok(mut upstream) = tungstenite::client::IntoClientRequest::into_client_request(format!(
        "ws://{}{path}",
        to.addr
    )) else {
        return unavailable("bad coordinator address");
    };
    for name in [
        header::COOKIE,
        header::AUTHORIZATION,
        header::ORIGIN,
        header::HOST,
    ] {
        if let Some(v) = parts.headers.get(&name) {
            upstream.headers_mut().insert(name, v.clone());
        }
    }
    let socket = match tokio_tungstenite::connect_async(upstream).await {
        Ok((socket, _)) => socket,
        Err(tungstenite::Error::Http(r)) => {
            // The coordinator refused (an unknown tournament…): its answer, as it gave it.
            let status = r.status();
            let body = r.into_body().unwrap_or_default();
            return (status, [(header::CONTENT_TYPE, "application/json")], body).into_response();
        }
        Err(e) => return unavailable(&format!("the coordinator cannot be reached: {e}")),
    };
    ws.on_upgrade(move |client| relay(client, socket, closing))
}

async fn relay<S>(
    client: WebSocket,
    upstream: tokio_tungstenite::WebSocketStream<S>,
    mut closing: tokio::sync::watch::Receiver<bool>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let (mut to_client, mut from_client) = client.split();
    let (mut to_upstream, mut from_upstream) = upstream.split();
    let down = async {
        while let Some(Ok(m)) = from_upstream.next().await {
            let m = match m {
                tungstenite::Message::Text(t) => Message::Text(t.as_str().into()),
                tungstenite::Message::Binary(b) => Message::Binary(b),
                tungstenite::Message::Close(_) => break,
                _ => continue,
            };
            if to_client.send(m).await.is_err() {
                return;
            }
        }
        let _ = to_client.send(Message::Close(None)).await;
    };
    let up = async {
        while let Some(Ok(m)) = from_client.next().await {
            let m = match m {
                Message::Text(t) => tungstenite::Message::Text(t.as_str().into()),
                Message::Binary(b) => tungstenite::Message::Binary(b),
                Message::Close(_) => break,
                _ => continue,
            };
            if to_upstream.send(m).await.is_err() {
                return;
            }
        }
        let _ = to_upstream.close().await;
    };
    tokio::select! {
        () = down => {}
        () = up => {}
        _ = closing.changed() => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_and_bodies_travel_intact() {
        let head = Head {
            method: Some("POST".into()),
            uri: Some("/api/seeks?x=1".into()),
            status: None,
            headers: vec![("cookie".into(), "s=1".into())],
            peer: Some("10.0.0.1:5000".parse().unwrap()),
        };
        let body = b"{\"a\":1}\x00\xff";
        let bytes = encode(&head, body);
        let (h, b) = decode(&bytes).unwrap();
        assert_eq!(b, body);
        assert_eq!(h.uri.as_deref(), Some("/api/seeks?x=1"));
        assert_eq!(h.peer, head.peer);
        assert_eq!(h.headers, head.headers);
        assert!(decode(&bytes[..3]).is_none());
        assert!(decode(&bytes[..10]).is_none());
    }
}
