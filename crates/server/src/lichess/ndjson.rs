//! lichess's streams: `application/x-ndjson`, one JSON object per line, flushed as written,
//! never compressed, with an empty line at least every [`KEEP_ALIVE`] so that clients (whose
//! read timeouts are ten seconds or more) and proxies know the stream is alive.
//!
//! The producer runs as a future beside the keep-alive: when the client goes away (a write
//! fails) or the server shuts down, the producer is dropped, so whatever it holds (a seek, a
//! subscription) is released by its `Drop`.

use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio::sync::{mpsc, watch};

/// The longest a stream stays silent: lichess sends a keep-alive line every few seconds.
pub const KEEP_ALIVE: Duration = Duration::from_secs(6);

/// The client has gone (its stream was closed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gone;

/// The writing end of a stream.
#[derive(Debug, Clone)]
pub struct Lines {
    tx: mpsc::Sender<Bytes>,
}

impl Lines {
    /// Write one object as a line.
    ///
    /// # Errors
    /// [`Gone`] when the client has closed the stream.
    pub async fn send<T: Serialize>(&self, v: &T) -> Result<(), Gone> {
        let mut line = serde_json::to_vec(v).map_err(|_| Gone)?;
        line.push(b'\n');
        self.tx.send(Bytes::from(line)).await.map_err(|_| Gone)
    }

    /// Write a line of JSON text already serialised.
    ///
    /// # Errors
    /// [`Gone`] when the client has closed the stream.
    pub async fn send_text(&self, json: &str) -> Result<(), Gone> {
        let mut line = Vec::with_capacity(json.len() + 1);
        line.extend_from_slice(json.as_bytes());
        line.push(b'\n');
        self.tx.send(Bytes::from(line)).await.map_err(|_| Gone)
    }
}

/// A streaming response whose lines `produce` writes; the stream ends when `produce` returns,
/// when the client goes away, or when `closing` turns true (shutdown).
pub fn stream<F, Fut>(closing: watch::Receiver<bool>, produce: F) -> Response
where
    F: FnOnce(Lines) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    let keep_alive = tx.clone();
    let producer = produce(Lines { tx });
    tokio::spawn(async move {
        let mut closing = closing;
        let closed = async move {
            let _ = closing.wait_for(|c| *c).await;
        };
        tokio::pin!(closed);
        tokio::pin!(producer);
        let mut tick = tokio::time::interval(KEEP_ALIVE);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.tick().await;
        loop {
            tokio::select! {
                () = &mut producer => break,
                _ = tick.tick() => {
                    if keep_alive.send(Bytes::from_static(b"\n")).await.is_err() {
                        break;
                    }
                }
                () = &mut closed => break,
            }
        }
    });
    let body = Body::from_stream(futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx))
    }));
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // nginx and similar proxies: pass each line on at once.
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    r
}
