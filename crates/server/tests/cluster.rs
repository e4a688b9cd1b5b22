//! Cluster mode in one process: two nodes over a fresh PostgreSQL database and a
//! `nats-server`. A move sent to the node that does not own the game is forwarded and
//! acknowledged after the owner's commit; a socket on the other node receives every event in
//! order; when the owner stops, the other node takes the game over and play goes on, each
//! event recording the epoch of the node that committed it.
//!
//! Runs when `ARBITER_TEST_POSTGRES_URL` is set and `nats-server` is installed (`.ci/run`
//! installs both); with `ARBITER_STRICT=1` a missing one fails the test. The fault test with
//! `kill -9`, `SIGSTOP`, NATS and PostgreSQL restarts is `crates/cli/tests/cluster.rs`.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arbiter_server::cluster::ClusterConfig;
use arbiter_server::{start, Config, Running};
use futures_util::StreamExt;
use serde_json::{json, Value};
use sqlx::Connection;
use tokio_tungstenite::tungstenite::Message;

struct Nats(Child);

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn skip(why: &str) {
    assert!(
        std::env::var("ARBITER_STRICT").as_deref() != Ok("1"),
        "ARBITER_STRICT=1 and {why}"
    );
    eprintln!("skipped: {why}");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn node(db: &str, nats: &str, id: &str) -> Running {
    start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: db.to_owned(),
        engine_threads: 1,
        cluster: Some(ClusterConfig {
            nats_url: nats.to_owned(),
            node_id: id.to_owned(),
            lease: Duration::from_millis(1000),
        }),
        ..Config::default()
    })
    .await
    .unwrap()
}

async fn post(
    http: &reqwest::Client,
    node: &Running,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, Option<String>, Value) {
    let mut req = http
        .post(format!("http://{}{path}", node.addr()))
        .json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    let answered = r
        .headers()
        .get("x-arbiter-node")
        .map(|v| v.to_str().unwrap().to_owned());
    (status, answered, r.json().await.unwrap_or(Value::Null))
}

async fn scalar(pool: &sqlx::AnyPool, sql: &str, id: &str) -> Option<String> {
    sqlx::query_scalar::<_, Option<String>>(sql)
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_through_either_node_and_the_game_moves_when_its_owner_stops() {
    let Ok(base) = std::env::var("ARBITER_TEST_POSTGRES_URL") else {
        return skip("ARBITER_TEST_POSTGRES_URL is not set");
    };
    let nats_bin = ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    let Some(nats_bin) = nats_bin else {
        return skip("nats-server is not installed");
    };
    // A fresh database: the other tests' games must not be taken over by these nodes.
    sqlx::any::install_default_drivers();
    let name = format!("arbiter_cluster_{}", std::process::id());
    let mut admin = sqlx::AnyConnection::connect(&base).await.unwrap();
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let (server, _) = base.rsplit_once('/').unwrap();
    let db = format!("{server}/{name}");
    let port = free_port();
    let nats = Nats(
        Command::new(nats_bin)
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let nats_url = format!("nats://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nats-server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }

    let a = node(&db, &nats_url, "a").await;
    let b = node(&db, &nats_url, "b").await;
    let pool = b.hub().store().pool().clone();
    let http = reqwest::Client::new();

    // Created on A (A owns it), joined on B.
    let (s, on, grant) = post(
        &http,
        &a,
        "/api/games",
        None,
        json!({"time_control": "10+5", "color": "white"}),
    )
    .await;
    assert_eq!((s, on.as_deref()), (201, Some("a")), "{grant}");
    let id = grant["id"].as_str().unwrap().to_owned();
    let white = grant["token"].as_str().unwrap().to_owned();
    let (s, on, joined) = post(&http, &b, &format!("/api/games/{id}/join"), None, json!({})).await;
    assert_eq!((s, on.as_deref()), (200, Some("b")), "{joined}");
    let black = joined["token"].as_str().unwrap().to_owned();
    let owner_sql = "SELECT owner_node FROM games WHERE id = $1";
    assert_eq!(scalar(&pool, owner_sql, &id).await.as_deref(), Some("a"));

    // A spectator's socket on B, the node that does not own the game.
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws?since=0", b.addr()))
            .await
            .unwrap();
    let mut seen = Vec::new();

    // White moves through B (forwarded to A), Black through A.
    let (s, on, r) = post(
        &http,
        &b,
        &format!("/api/games/{id}/move"),
        Some(&white),
        json!({"move": "e4", "ply": 0}),
    )
    .await;
    assert_eq!(
        (s, on.as_deref(), r["seq"].as_i64()),
        (200, Some("b"), Some(2)),
        "{r}"
    );
    let (s, _, r) = post(
        &http,
        &a,
        &format!("/api/games/{id}/move"),
        Some(&black),
        json!({"move": "e5", "ply": 1}),
    )
    .await;
    assert_eq!((s, r["seq"].as_i64()), (200, Some(3)), "{r}");
    // A retried move (same ply) is refused, its code travelling back: never applied twice.
    let (s, _, r) = post(
        &http,
        &b,
        &format!("/api/games/{id}/move"),
        Some(&black),
        json!({"move": "e5", "ply": 1}),
    )
    .await;
    assert_eq!((s, r["error"].as_str()), (409, Some("stale_ply")), "{r}");

    let next_event = async |ws: &mut tokio_tungstenite::WebSocketStream<_>| loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("an event within 10 s")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "event" {
                return v;
            }
        }
    };
    for _ in 0..3 {
        seen.push(next_event(&mut ws).await["seq"].as_i64().unwrap());
    }
    assert_eq!(seen, [1, 2, 3]);

    // A stops (cleanly: it gives up its lease): B takes the game over within a lease.
    let stopped = Instant::now();
    a.shutdown().await;
    loop {
        if scalar(&pool, owner_sql, &id).await.as_deref() == Some("b") {
            break;
        }
        assert!(
            stopped.elapsed() < Duration::from_secs(5),
            "B did not take the game over"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (s, on, r) = post(
        &http,
        &b,
        &format!("/api/games/{id}/move"),
        Some(&white),
        json!({"move": "Nf3", "ply": 2}),
    )
    .await;
    assert_eq!(
        (s, on.as_deref(), r["seq"].as_i64()),
        (200, Some("b"), Some(4)),
        "{r}"
    );
    seen.push(next_event(&mut ws).await["seq"].as_i64().unwrap());
    assert_eq!(
        seen,
        [1, 2, 3, 4],
        "the socket's stream is the log, without a gap"
    );

    // Each event records the epoch of the node that committed it: A's, then B's.
    let epochs: Vec<Option<i64>> =
        sqlx::query_scalar("SELECT epoch FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(&id)
            .fetch_all(&pool)
            .await
            .unwrap();
    let epoch_b: i64 = sqlx::query_scalar("SELECT epoch FROM cluster_nodes WHERE node_id = 'b'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(epochs.len(), 4);
    assert!(
        epochs[..3]
            .iter()
            .all(|e| e.is_some() && *e != Some(epoch_b)),
        "{epochs:?}"
    );
    assert_eq!(epochs[3], Some(epoch_b));
    let metrics = http
        .get(format!("http://{}/metrics", b.addr()))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("arbiter_takeovers_total ")
            && !metrics.contains("arbiter_takeovers_total 0\n"),
        "{metrics}"
    );
    let ready: Value = http
        .get(format!("http://{}/api/ready", b.addr()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ready["ready"], true, "{ready}");

    drop(ws);
    b.shutdown().await;
    drop(nats);
    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await;
}
