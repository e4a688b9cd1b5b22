//! "Play the computer" over HTTP and WebSocket, against a server on an ephemeral port with a
//! temporary SQLite database — and the same tests on PostgreSQL when
//! `ARBITER_TEST_POSTGRES_URL` is set. A computer player acts by itself and a server restores
//! every running game of its database, so each PostgreSQL test gets a schema of its own
//! (created and dropped here), never tables shared with other tests.

use std::time::{Duration, Instant};

use arbiter_rules::{CastlingMode, Position};
use arbiter_server::computer::UciEngineConfig;
use arbiter_server::{Config, Running};
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::Connection;
use tokio_tungstenite::tungstenite::Message;

#[derive(Clone, Copy)]
enum Db {
    Sqlite,
    Postgres,
}

/// A server under test.
struct T {
    server: Option<Running>,
    base: String,
    http: reqwest::Client,
    db: String,
    threads: usize,
    max_think: Duration,
    uci: Vec<UciEngineConfig>,
    _dir: Option<tempfile::TempDir>,
    /// (server URL, schema) of a PostgreSQL schema to drop at the end.
    pg: Option<(String, String)>,
}

async fn server(db: &str, threads: usize, max_think: Duration, uci: &[UciEngineConfig]) -> Running {
    let config = Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: db.to_owned(),
        engine_threads: threads,
        engine_max_think: max_think,
        uci_engines: uci.to_vec(),
        ..Config::default()
    };
    arbiter_server::start(config).await.expect("server starts")
}

/// `url` with `search_path` set to `schema`.
fn with_schema(url: &str, schema: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-c%20search_path%3D{schema}")
}

impl T {
    async fn new(db: Db) -> Option<T> {
        Self::with(db, 2, Duration::from_secs(30)).await
    }

    /// `None` when the backend is not available (PostgreSQL without the env variable).
    async fn with(db: Db, threads: usize, max_think: Duration) -> Option<T> {
        Self::with_uci(db, threads, max_think, Vec::new()).await
    }

    /// With external engines configured.
    async fn with_uci(
        db: Db,
        threads: usize,
        max_think: Duration,
        uci: Vec<UciEngineConfig>,
    ) -> Option<T> {
        let (db, dir, pg) = match db {
            Db::Sqlite => {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("arbiter.db").to_str().unwrap().to_owned();
                (path, Some(dir), None)
            }
            Db::Postgres => match std::env::var("ARBITER_TEST_POSTGRES_URL") {
                Ok(url) if !url.is_empty() => {
                    let mut b = [0u8; 8];
                    getrandom::getrandom(&mut b).unwrap();
                    let name = format!("arbiter_computer_{:016x}", u64::from_le_bytes(b));
                    let mut conn = sqlx::PgConnection::connect(&url).await.expect("postgres");
                    sqlx::query(&format!("CREATE SCHEMA {name}"))
                        .execute(&mut conn)
                        .await
                        .expect("CREATE SCHEMA");
                    conn.close().await.ok();
                    (with_schema(&url, &name), None, Some((url, name)))
                }
                _ => {
                    eprintln!("skipped: set ARBITER_TEST_POSTGRES_URL to run the PostgreSQL tests");
                    return None;
                }
            },
        };
        let server = server(&db, threads, max_think, &uci).await;
        let base = format!("http://{}", server.addr());
        Some(T {
            server: Some(server),
            base,
            http: reqwest::Client::new(),
            db,
            threads,
            max_think,
            uci,
            _dir: dir,
            pg,
        })
    }

    fn running(&self) -> &Running {
        self.server.as_ref().unwrap()
    }

    /// Stop the server gracefully and start a new one on the same database.
    async fn restart(&mut self) {
        self.server.take().unwrap().shutdown().await;
        let server = server(&self.db, self.threads, self.max_think, &self.uci).await;
        self.base = format!("http://{}", server.addr());
        self.server = Some(server);
    }

    /// Stop the server and drop the PostgreSQL schema.
    async fn finish(mut self) {
        if let Some(s) = self.server.take() {
            s.shutdown().await;
        }
        if let Some((url, name)) = self.pg.take() {
            if let Ok(mut conn) = sqlx::PgConnection::connect(&url).await {
                let _ = sqlx::query(&format!("DROP SCHEMA IF EXISTS {name} CASCADE"))
                    .execute(&mut conn)
                    .await;
            }
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        let mut req = self.http.post(self.url(path)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    async fn state(&self, id: &str) -> Value {
        let resp = self
            .http
            .get(self.url(&format!("/api/games/{id}")))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        resp.json().await.unwrap()
    }

    /// Create a game against the computer; returns (id, token).
    async fn vs_computer(&self, tc: &str, color: &str, level: u8) -> (String, String) {
        let (s, g) = self
            .post(
                "/api/games",
                None,
                json!({"time_control": tc, "color": color, "computer": {"level": level}}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{g}");
        assert_eq!(g["seat"], color);
        (
            g["id"].as_str().unwrap().to_owned(),
            g["token"].as_str().unwrap().to_owned(),
        )
    }

    async fn mv(&self, id: &str, token: &str, body: Value) -> Value {
        let (s, ack) = self
            .post(&format!("/api/games/{id}/move"), Some(token), body)
            .await;
        assert_eq!(s, StatusCode::OK, "{ack}");
        ack
    }

    async fn ws(&self, id: &str, since: i64) -> Ws {
        let url = format!(
            "{}/api/games/{id}/ws?since={since}",
            self.base.replacen("http", "ws", 1)
        );
        let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws");
        Ws(ws)
    }

    /// Poll the state until `cond` holds (at most `secs` seconds).
    async fn until(&self, id: &str, secs: u64, what: &str, cond: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.state(id).await;
            if cond(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {s}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn count_games(&self) -> i64 {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM games")
            .fetch_one(self.running().hub().store().pool())
            .await
            .unwrap();
        sqlx::Row::get(&row, "n")
    }
}

struct Ws(
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
);

impl Ws {
    /// The next event, within `secs` seconds.
    async fn event(&mut self, secs: u64) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(secs), self.0.next())
                .await
                .expect("an event in time")
                .expect("stream open")
                .expect("no error");
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "event" {
                    return v;
                }
            }
        }
    }
}

/// The legal moves (UCI) after `fen`.
fn legal(fen: &str) -> Vec<String> {
    let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
    pos.legal_moves().iter().map(|m| pos.uci(*m)).collect()
}

async fn computer_as_black_replies_with_a_legal_move_on_its_own_clock(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, tok) = t.vs_computer("5+3", "white", 1).await;
    // The game started at once: both seats taken, the computer's named.
    let s = t.state(&id).await;
    assert_eq!(s["status"], "playing");
    assert_eq!(s["seats"], json!({"white": true, "black": true}));
    assert_eq!(
        s["computer"],
        json!({"seat": "black", "level": 1, "name": "Arbiter level 1"})
    );
    assert_eq!(s["last_seq"], 1, "the start event");
    // Nobody can join the computer's seat.
    let (st, e) = t
        .post(&format!("/api/games/{id}/join"), None, json!({}))
        .await;
    assert_eq!(
        (st, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("seats_taken"))
    );

    let mut ws = t.ws(&id, 1).await;
    let before = s["fen"].as_str().unwrap().to_owned();
    let sent = Instant::now();
    t.mv(&id, &tok, json!({"move": "e4"})).await;
    let human = ws.event(10).await;
    assert_eq!(
        (human["seq"].as_i64(), human["move"]["uci"].as_str()),
        (Some(2), Some("e2e4"))
    );
    let reply = ws.event(10).await;
    let took = sent.elapsed();
    eprintln!("level 1 replied in {took:?}");
    assert_eq!(reply["seq"], 3);
    assert_eq!(reply["kind"], "move");
    assert_eq!(reply["color"], "black");
    assert!(took < Duration::from_secs(5), "{took:?}");
    let after_e4 = human["fen"].as_str().unwrap();
    assert_ne!(after_e4, before);
    let uci = reply["move"]["uci"].as_str().unwrap();
    assert!(
        legal(after_e4).iter().any(|m| m == uci),
        "{uci} after {after_e4}"
    );
    // Art. 6.3 / 6.4: the time between the two moves is Black's (the computer's), plus the
    // increment; White's clock stood still.
    let used = reply["t_ms"].as_i64().unwrap() - human["t_ms"].as_i64().unwrap();
    assert!(used >= 0);
    assert_eq!(
        reply["clocks"]["black_ms"].as_i64().unwrap(),
        300_000 - used + 3_000
    );
    assert_eq!(reply["clocks"]["white_ms"], human["clocks"]["white_ms"]);
    assert_eq!(reply["move"]["clock_ms"], reply["clocks"]["black_ms"]);

    // A draw offer to the computer is declined at once (Art. 9.1.2), then it moves.
    t.mv(
        &id,
        &tok,
        json!({"move": "d4", "offer_draw": true, "ply": 2}),
    )
    .await;
    let human = ws.event(10).await;
    assert_eq!(human["draw_offer"], "white");
    let decline = ws.event(10).await;
    assert_eq!(
        (decline["kind"].as_str(), decline["color"].as_str()),
        (Some("draw_decline"), Some("black"))
    );
    let reply = ws.event(10).await;
    assert_eq!(
        (reply["kind"].as_str(), reply["color"].as_str()),
        (Some("move"), Some("black"))
    );
    assert_eq!(reply["seq"], 6);
    // The PGN names the computer.
    let pgn = t
        .http
        .get(t.url(&format!("/api/games/{id}/pgn")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[Black \"Arbiter level 1\"]"), "{pgn}");
    // The lobby lists it as running, with its computer.
    let lobby: Value = t
        .http
        .get(t.url("/api/games"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let g = lobby["playing"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .unwrap();
    assert_eq!(g["computer"]["level"], 1);
    t.finish().await;
}

async fn computer_as_white_moves_first(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, _tok) = t.vs_computer("5+3", "black", 2).await;
    let s = t
        .until(&id, 10, "the computer's first move", |s| {
            s["moves"].as_array().unwrap().len() == 1
        })
        .await;
    assert_eq!(s["computer"]["seat"], "white");
    assert_eq!(s["turn"], "black");
    let uci = s["moves"][0]["uci"].as_str().unwrap();
    assert!(
        legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .iter()
            .any(|m| m == uci)
    );
    // Art. 6.6: White's clock started with the game (charged for its thinking, plus the
    // increment); Black's has not run before White moved.
    let white = s["moves"][0]["clock_ms"].as_i64().unwrap();
    assert!(white <= 303_000 && white > 290_000, "{white}");
    let black = s["clocks"]["black_ms"].as_i64().unwrap();
    assert!(black <= 300_000 && black > 290_000, "{black}");
    t.finish().await;
}

async fn restart_while_the_computer_thinks_it_moves_after_restore(db: Db) {
    // Level 8 thinks up to its cap (2 s here); the restart comes during that search.
    let Some(mut t) = T::with(db, 2, Duration::from_secs(2)).await else {
        return;
    };
    let (id, tok) = t.vs_computer("10+0", "white", 8).await;
    t.mv(&id, &tok, json!({"move": "e4"})).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(t.running().hub().engines().stats().active, 1, "searching");
    t.restart().await;
    // The search of the stopped server produced nothing; the restored game thinks again.
    let s = t.state(&id).await;
    assert_eq!(s["status"], "playing");
    assert_eq!(s["turn"], "black");
    assert_eq!(s["moves"].as_array().unwrap().len(), 1);
    let s = t
        .until(&id, 15, "the computer's move after the restart", |s| {
            s["moves"].as_array().unwrap().len() == 2
        })
        .await;
    let uci = s["moves"][1]["uci"].as_str().unwrap();
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert!(legal(after_e4).iter().any(|m| m == uci), "{uci}");
    assert_eq!(s["last_seq"], 3, "start, e4, the reply: once each");
    // And play goes on.
    let reply_fen = s["fen"].as_str().unwrap();
    let next = legal(reply_fen)[0].clone();
    t.mv(&id, &tok, json!({"move": next, "ply": 2})).await;
    t.until(&id, 15, "the next reply", |s| {
        s["moves"].as_array().unwrap().len() == 4
    })
    .await;
    let rows = t.running().hub().store().events(&id, 0).await.unwrap();
    assert_eq!(
        rows.iter().map(|r| r.seq).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5]
    );
    t.finish().await;
}

async fn bad_computer_level_is_a_400_and_nothing_is_stored(db: Db) {
    let Some(t) = T::new(db).await else { return };
    for (computer, code) in [
        (json!({"level": 0}), "bad_computer_level"),
        (json!({"level": 9}), "bad_computer_level"),
        (json!({"level": 300}), "invalid_request"),
        (json!({"level": "five"}), "invalid_request"),
        (json!({"level": 3, "depth": 2}), "invalid_request"),
        (json!({}), "invalid_request"),
    ] {
        let (s, e) = t
            .post(
                "/api/games",
                None,
                json!({"time_control": "5+3", "computer": computer}),
            )
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{computer}: {e}");
        assert_eq!(e["error"], code, "{computer}: {e}");
        assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    // A bad time control with a good level: refused before anything is stored too.
    let (s, e) = t
        .post(
            "/api/games",
            None,
            json!({"time_control": "soon", "computer": {"level": 3}}),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_time_control"))
    );
    assert_eq!(t.count_games().await, 0);
    assert_eq!(t.running().hub().engines().stats().searches, 0);
    t.finish().await;
}

async fn game_ending_while_the_computer_thinks_produces_no_move(db: Db) {
    let Some(t) = T::with(db, 2, Duration::from_secs(60)).await else {
        return;
    };
    // The computer (White, level 8, 10 minutes) thinks for many seconds about its first move.
    let (id, tok) = t.vs_computer("10+0", "black", 8).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(t.running().hub().engines().stats().active, 1);
    let (s, ack) = t
        .post(&format!("/api/games/{id}/resign"), Some(&tok), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{ack}");
    assert_eq!(ack["game"]["result"], "1-0");
    // The search stops at once …
    let stopped = Instant::now();
    while t.running().hub().engines().stats().active > 0 {
        assert!(
            stopped.elapsed() < Duration::from_secs(2),
            "the search did not stop"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // … and its answer is not played.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let s = t.state(&id).await;
    assert_eq!(s["moves"], json!([]));
    assert_eq!(s["termination"], "resignation");
    let rows = t.running().hub().store().events(&id, 0).await.unwrap();
    let kinds: Vec<&str> = rows.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, ["start", "resign"]);
    t.finish().await;
}

async fn engine_threads_bound_concurrent_searches(db: Db) {
    // One engine thread, searches capped at 1 s: two computers to move at once take turns.
    let Some(t) = T::with(db, 1, Duration::from_secs(1)).await else {
        return;
    };
    let (a, _) = t.vs_computer("10+0", "black", 8).await;
    let (b, _) = t.vs_computer("10+0", "black", 8).await;
    let one = |s: &Value| s["moves"].as_array().unwrap().len() == 1;
    let sa = t.until(&a, 15, "game a's first move", one).await;
    let sb = t.until(&b, 15, "game b's first move", one).await;
    let stats = t.running().hub().engines().stats();
    assert_eq!(
        (stats.permits, stats.peak, stats.active),
        (1, 1, 0),
        "{stats:?}"
    );
    assert_eq!(stats.searches, 2);
    // Waiting for the engine thread runs the computer's clock like thinking: the second
    // game's computer used its wait plus its own second.
    let used = |s: &Value| 600_000 - s["moves"][0]["clock_ms"].as_i64().unwrap();
    let (ua, ub) = (used(&sa), used(&sb));
    let (first, second) = (ua.min(ub), ua.max(ub));
    assert!((800..1_800).contains(&first), "{ua} {ub}");
    assert!(second >= first + 800, "the second search waited: {ua} {ub}");
    t.finish().await;
}

/// Not a test of behaviour but a measurement (run with `--ignored --nocapture`, in release):
/// the time from a person's move to the computer's reply at levels 1, 4 and 8 in a 5+3 game.
async fn measure_reply_times_5_plus_3(db: Db) {
    let Some(t) = T::new(db).await else { return };
    for level in [1u8, 4, 8] {
        let (id, tok) = t.vs_computer("5+3", "white", level).await;
        let mut ws = t.ws(&id, 1).await;
        // (wall time from sending the move to receiving the reply, ms; the reply's time on the
        // server clock after the person's move, ms)
        let mut times: Vec<(f64, i64)> = Vec::new();
        let mut fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned();
        for ply in (0..12).step_by(2) {
            // The person plays a knight or bishop move if there is one (any legal move will
            // do for timing).
            let moves = legal(&fen);
            let Some(m) = moves
                .iter()
                .find(|m| m.starts_with('g') || m.starts_with('b'))
                .or(moves.first())
            else {
                break;
            };
            let sent = Instant::now();
            t.mv(&id, &tok, json!({"move": m, "ply": ply})).await;
            let own = ws.event(60).await;
            let reply = ws.event(60).await;
            let wall = sent.elapsed().as_secs_f64() * 1000.0;
            let server = reply["t_ms"].as_i64().unwrap() - own["t_ms"].as_i64().unwrap();
            times.push((wall, server));
            if reply["status"] != "playing" {
                break;
            }
            fen = reply["fen"].as_str().unwrap().to_owned();
        }
        let mut wall: Vec<f64> = times.iter().map(|x| x.0).collect();
        wall.sort_by(f64::total_cmp);
        println!(
            "level {level}: {} replies; wall ms {:?}; server-clock ms {:?}; median {:.1} max {:.1}",
            times.len(),
            times
                .iter()
                .map(|x| (x.0 * 10.0).round() / 10.0)
                .collect::<Vec<_>>(),
            times.iter().map(|x| x.1).collect::<Vec<_>>(),
            wall[wall.len() / 2],
            wall[wall.len() - 1]
        );
        let (s, _) = t
            .post(&format!("/api/games/{id}/resign"), Some(&tok), json!({}))
            .await;
        assert_eq!(s, StatusCode::OK);
    }
    t.finish().await;
}

/// Our own engine as an external program (`arbiter-uci`, this package's binary).
fn our_engine() -> UciEngineConfig {
    UciEngineConfig {
        name: "arbiter".into(),
        path: env!("CARGO_BIN_EXE_arbiter-uci").into(),
        options: vec![("Hash".into(), "8".into())],
    }
}

/// A fake engine (a shell script in `dir`): a proper handshake, then `bestmove e2e5` (an
/// illegal move) for every `go`.
fn illegal_engine(dir: &std::path::Path) -> UciEngineConfig {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("illegal-engine");
    std::fs::write(
        &path,
        r#"#!/bin/sh
while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name Illegal"; echo uciok ;;
    isready) echo readyok ;;
    go) echo "bestmove e2e5" ;;
    quit) exit 0 ;;
  esac
done
"#,
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    UciEngineConfig {
        name: "illegal".into(),
        path,
        options: Vec::new(),
    }
}

async fn external_engine_replies_with_a_legal_move_on_its_own_clock(db: Db) {
    let Some(t) = T::with_uci(db, 2, Duration::from_millis(300), vec![our_engine()]).await else {
        return;
    };
    // The engines on offer: the levels and the configured engine with its `id name`.
    let engines: Value = t
        .http
        .get(t.url("/api/engines"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(engines["levels"], json!([1, 2, 3, 4, 5, 6, 7, 8]));
    let id_name = engines["external"][0]["id_name"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(id_name.starts_with("Arbiter"), "{engines}");
    assert_eq!(
        engines["external"],
        json!([{"name": "arbiter", "id_name": id_name}])
    );
    let (s, g) = t
        .post(
            "/api/games",
            None,
            json!({"time_control": "5+3", "color": "white", "computer": {"engine": "arbiter"}}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let (id, tok) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
    let s = t.state(id).await;
    assert_eq!(s["status"], "playing");
    assert_eq!(
        s["computer"],
        json!({"seat": "black", "level": null, "engine": "arbiter", "name": id_name})
    );
    let mut ws = t.ws(id, 1).await;
    t.mv(id, tok, json!({"move": "e4"})).await;
    let human = ws.event(10).await;
    let reply = ws.event(20).await;
    assert_eq!(
        (reply["kind"].as_str(), reply["color"].as_str()),
        (Some("move"), Some("black"))
    );
    let after_e4 = human["fen"].as_str().unwrap();
    let uci = reply["move"]["uci"].as_str().unwrap();
    assert!(legal(after_e4).iter().any(|m| m == uci), "{uci}");
    // Art. 6.3 / 6.4: the engine's thinking is on Black's clock, plus the increment.
    let used = reply["t_ms"].as_i64().unwrap() - human["t_ms"].as_i64().unwrap();
    assert!(used >= 0);
    assert_eq!(
        reply["clocks"]["black_ms"].as_i64().unwrap(),
        300_000 - used + 3_000
    );
    // The same engine process answers the next move.
    let next = legal(reply["fen"].as_str().unwrap())[0].clone();
    t.mv(id, tok, json!({"move": next, "ply": 2})).await;
    let _ = ws.event(10).await;
    let reply = ws.event(20).await;
    assert_eq!(reply["color"], "black");
    let pgn = t
        .http
        .get(t.url(&format!("/api/games/{id}/pgn")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains(&format!("[Black \"{id_name}\"]")), "{pgn}");
    t.finish().await;
}

async fn unknown_engine_is_a_400_and_nothing_is_stored(db: Db) {
    let Some(t) = T::with_uci(db, 2, Duration::from_millis(300), vec![our_engine()]).await else {
        return;
    };
    for (computer, code) in [
        (json!({"engine": "stockfish"}), "unknown_engine"),
        (json!({"engine": "/usr/games/stockfish"}), "unknown_engine"),
        (json!({"engine": "arbiter", "level": 3}), "invalid_request"),
        (json!({"engine": 5}), "invalid_request"),
    ] {
        let (s, e) = t
            .post(
                "/api/games",
                None,
                json!({"time_control": "5+3", "computer": computer}),
            )
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{computer}: {e}");
        assert_eq!(e["error"], code, "{computer}: {e}");
    }
    assert_eq!(t.count_games().await, 0);
    t.finish().await;
}

async fn restart_while_an_external_engine_thinks_it_moves_after_restore(db: Db) {
    // The engine thinks up to the cap (1.5 s); the restart comes during that search.
    let Some(mut t) = T::with_uci(db, 2, Duration::from_millis(1_500), vec![our_engine()]).await
    else {
        return;
    };
    let (s, g) = t
        .post(
            "/api/games",
            None,
            json!({"time_control": "10+0", "color": "black", "computer": {"engine": "arbiter"}}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(t.running().hub().engines().stats().active, 1, "searching");
    t.restart().await;
    let s = t.state(&id).await;
    assert_eq!(s["status"], "playing");
    assert_eq!(s["moves"].as_array().unwrap().len(), 0);
    // A fresh engine process is started for the restored game, and moves.
    let s = t
        .until(&id, 20, "the engine's move after the restart", |s| {
            s["moves"].as_array().unwrap().len() == 1
        })
        .await;
    let uci = s["moves"][0]["uci"].as_str().unwrap();
    assert!(
        legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .iter()
            .any(|m| m == uci),
        "{uci}"
    );
    assert_eq!(s["computer"]["engine"], "arbiter");
    t.finish().await;
}

async fn art_6_9_external_engine_with_an_illegal_move_never_moves_and_its_flag_falls(db: Db) {
    let dir = tempfile::tempdir().unwrap();
    let Some(t) = T::with_uci(
        db,
        2,
        Duration::from_millis(300),
        vec![illegal_engine(dir.path())],
    )
    .await
    else {
        return;
    };
    // This engine does not advertise UCI_Chess960: no Chess960 game with it.
    let (s, e) = t
        .post(
            "/api/games",
            None,
            json!({"time_control": "3s+0", "variant": "chess960", "computer": {"engine": "illegal"}}),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("engine_cannot_play_chess960"))
    );
    assert_eq!(t.count_games().await, 0);
    let (s, g) = t
        .post(
            "/api/games",
            None,
            json!({"time_control": "3s+0", "color": "black", "computer": {"engine": "illegal"}}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    // The illegal move is never played; the engine is restarted a few times, then given up,
    // and White's clock runs meanwhile.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let s = t.state(&id).await;
    assert_eq!(s["status"], "playing", "{s}");
    assert_eq!(s["moves"], json!([]));
    assert!(s["clocks"]["white_ms"].as_i64().unwrap() < 2_500, "{s}");
    let searches = t.running().hub().engines().stats().searches;
    assert_eq!(
        searches,
        1 + u64::from(arbiter_server::computer::MAX_ENGINE_RESTARTS),
        "one start and the restarts, then no more"
    );
    // Art. 6.9: White's flag falls; Black wins.
    let s = t
        .until(&id, 10, "White's flag", |s| s["status"] == "finished")
        .await;
    assert_eq!(
        (s["result"].as_str(), s["termination"].as_str()),
        (Some("0-1"), Some("timeout"))
    );
    assert_eq!(s["moves"], json!([]));
    assert_eq!(t.running().hub().engines().stats().searches, searches);
    t.finish().await;
}

macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(super::Db::Sqlite).await })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(super::Db::Postgres).await })*
        }
    };
}

both_backends!(
    computer_as_black_replies_with_a_legal_move_on_its_own_clock,
    computer_as_white_moves_first,
    restart_while_the_computer_thinks_it_moves_after_restore,
    bad_computer_level_is_a_400_and_nothing_is_stored,
    game_ending_while_the_computer_thinks_produces_no_move,
    engine_threads_bound_concurrent_searches,
    external_engine_replies_with_a_legal_move_on_its_own_clock,
    unknown_engine_is_a_400_and_nothing_is_stored,
    restart_while_an_external_engine_thinks_it_moves_after_restore,
    art_6_9_external_engine_with_an_illegal_move_never_moves_and_its_flag_falls,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: cargo test --release -p arbiter-server --test computer -- --ignored --nocapture"]
async fn measure_reply_times() {
    measure_reply_times_5_plus_3(Db::Sqlite).await;
}
