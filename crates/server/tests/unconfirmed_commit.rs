//! A commit whose outcome the server cannot know: PostgreSQL receives `COMMIT` and commits,
//! but the connection breaks before its answer arrives (a database restart, a network cut).
//! The server must neither acknowledge the move nor go on from a state without it: the game
//! is read again from the database, where the move is, and play continues after it.
//!
//! Runs when `ARBITER_TEST_POSTGRES_URL` is set: a TCP proxy between the server and
//! PostgreSQL cuts the connection that carries the next `COMMIT`, after forwarding it.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::T;
use reqwest::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Forwards connections to `upstream`; when `armed`, the first client packet holding `COMMIT`
/// is passed on and then both directions of that connection are closed, so the database
/// commits and the client never hears of it.
async fn cutting_proxy(upstream: String, armed: Arc<AtomicBool>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = TcpStream::connect(&upstream).await else {
                continue;
            };
            let armed = armed.clone();
            let cut = AtomicBool::new(false);
            tokio::spawn(async move {
                let (mut cr, mut cw) = client.into_split();
                let (mut sr, mut sw) = server.into_split();
                let up = async {
                    let mut buf = vec![0u8; 64 * 1024];
                    loop {
                        let n = match cr.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => n,
                        };
                        let commit = buf[..n].windows(6).any(|w| w == b"COMMIT")
                            && armed.swap(false, Ordering::SeqCst);
                        if commit {
                            // Nothing more reaches the client, the answer to COMMIT included.
                            cut.store(true, Ordering::SeqCst);
                        }
                        if sw.write_all(&buf[..n]).await.is_err() {
                            return;
                        }
                        if commit {
                            // Let PostgreSQL read it and commit, then cut the connection.
                            tokio::time::sleep(Duration::from_millis(300)).await;
                            return;
                        }
                    }
                };
                let down = async {
                    let mut buf = vec![0u8; 64 * 1024];
                    loop {
                        let n = match sr.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => n,
                        };
                        if cut.load(Ordering::SeqCst) || cw.write_all(&buf[..n]).await.is_err() {
                            return;
                        }
                    }
                };
                // Whichever direction ends first ends the connection (both halves dropped).
                tokio::select! {
                    () = up => {}
                    () = down => {}
                }
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_commit_is_not_confirmed_is_not_acknowledged_and_the_game_goes_on() {
    let Ok(url) = std::env::var("ARBITER_TEST_POSTGRES_URL") else {
        eprintln!("skipped: set ARBITER_TEST_POSTGRES_URL to run the PostgreSQL tests");
        return;
    };
    let parsed = reqwest::Url::parse(&url).expect("a postgres:// URL");
    let upstream = format!(
        "{}:{}",
        parsed.host_str().unwrap_or("127.0.0.1"),
        parsed.port().unwrap_or(5432)
    );
    let armed = Arc::new(AtomicBool::new(false));
    let port = cutting_proxy(upstream, armed.clone()).await;
    let mut proxied = parsed.clone();
    proxied.set_host(Some("127.0.0.1")).unwrap();
    proxied.set_port(Some(port)).unwrap();
    let t = T::from_server(common::server(proxied.as_str()).await, proxied.to_string());

    let (id, w, b) = t.game(json!({"time_control": "5+3"})).await;
    t.play(&id, [&w, &b], &["e4", "e5"]).await;
    let before = t.state(&id).await["last_seq"].as_i64().unwrap();
    let mut ws = t.ws(&id, &format!("?since={before}")).await;

    armed.store(true, Ordering::SeqCst);
    let (status, body) = t
        .post(
            &format!("/api/games/{id}/move"),
            Some(&w),
            json!({"move": "Nf3"}),
        )
        .await;
    assert!(
        !armed.load(Ordering::SeqCst),
        "the move's commit went through the proxy"
    );
    // Not acknowledged: the server cannot know that it is stored.
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["error"], "unavailable", "{body}");

    // The socket is closed (its game was unloaded) rather than left on a state without the
    // move; reconnecting from what it saw gives the move as the database holds it.
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        use futures_util::StreamExt;
        while let Some(Ok(m)) = ws.0.next().await {
            if m.is_close() {
                break;
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the subscriber's socket is closed");
    let mut ws = t.ws(&id, &format!("?since={before}")).await;
    let ev = ws.next().await;
    assert_eq!(
        (ev["seq"].as_i64(), ev["move"]["san"].as_str()),
        (Some(before + 1), Some("Nf3")),
        "{ev}"
    );

    // The game as the server shows it now is the database's: the move is there.
    let state = t.state(&id).await;
    assert_eq!(state["last_seq"].as_i64(), Some(before + 1), "{state}");
    assert_eq!(state["turn"], "black", "{state}");
    // White repeating the move (the client's retry) is refused as stale, not stored twice;
    // Black plays on, and the events stay numbered without a gap or a repeat.
    let (status, body) = t
        .post(
            &format!("/api/games/{id}/move"),
            Some(&w),
            json!({"move": "Nf3", "ply": 2}),
        )
        .await;
    assert!(status.is_client_error(), "{status} {body}");
    t.play(&id, [&b, &w], &["Nc6", "Bb5"]).await;
    let state = t.state(&id).await;
    assert_eq!(state["last_seq"].as_i64(), Some(before + 3), "{state}");
    for (seq, san) in [(before + 2, "Nc6"), (before + 3, "Bb5")] {
        let ev = ws.next().await;
        assert_eq!(
            (ev["seq"].as_i64(), ev["move"]["san"].as_str()),
            (Some(seq), Some(san)),
            "{ev}"
        );
    }
}
