//! What the server's integration tests share: a server on an ephemeral port over a temporary
//! SQLite database or the PostgreSQL of `ARBITER_TEST_POSTGRES_URL`, an HTTP client, a
//! WebSocket client, a server in its own process (to kill with SIGKILL), and the macro that
//! runs a test on both backends.
#![allow(dead_code)]

use std::time::Duration;

use arbiter_server::{Config, Running};
use futures_util::{SinkExt, StreamExt};
use reqwest::header::{COOKIE, ORIGIN, SET_COOKIE};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// A server under test and its HTTP client.
pub struct T {
    pub server: Option<Running>,
    pub base: String,
    pub http: reqwest::Client,
    pub db: String,
    pub _dir: Option<tempfile::TempDir>,
}

#[derive(Clone, Copy)]
pub enum Db {
    Sqlite,
    Postgres,
}

pub async fn server(db: &str) -> Running {
    let config = Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: db.to_owned(),
        ..Config::default()
    };
    arbiter_server::start(config).await.expect("server starts")
}

impl T {
    /// `None` when the backend is not available (PostgreSQL without the env variable).
    pub async fn new(db: Db) -> Option<T> {
        let (db, dir) = match db {
            Db::Sqlite => {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("arbiter.db").to_str().unwrap().to_owned();
                (path, Some(dir))
            }
            Db::Postgres => match std::env::var("ARBITER_TEST_POSTGRES_URL") {
                Ok(url) if !url.is_empty() => (url, None),
                _ => {
                    eprintln!("skipped: set ARBITER_TEST_POSTGRES_URL to run the PostgreSQL tests");
                    return None;
                }
            },
        };
        let server = server(&db).await;
        let base = format!("http://{}", server.addr());
        Some(T {
            server: Some(server),
            base,
            http: reqwest::Client::new(),
            db,
            _dir: dir,
        })
    }

    /// A test over a server started by the caller on database `db`.
    pub fn from_server(server: Running, db: String) -> T {
        T {
            base: format!("http://{}", server.addr()),
            server: Some(server),
            http: reqwest::Client::new(),
            db,
            _dir: None,
        }
    }

    /// Stop the server gracefully and start a new one on the same database.
    pub async fn restart(&mut self) {
        self.server.take().unwrap().shutdown().await;
        let server = server(&self.db).await;
        self.base = format!("http://{}", server.addr());
        self.server = Some(server);
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        let mut req = self.http.post(self.url(path)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let resp = self.http.get(self.url(path)).send().await.unwrap();
        let status = resp.status();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    /// Create a game (creator White) and join it; returns (id, white token, black token).
    pub async fn game(&self, body: Value) -> (String, String, String) {
        let mut body = body;
        body["color"] = json!("white");
        let (s, created) = self.post("/api/games", None, body).await;
        assert_eq!(s, StatusCode::CREATED, "{created}");
        assert_eq!(created["seat"], "white");
        let id = created["id"].as_str().unwrap().to_owned();
        let (s, joined) = self
            .post(&format!("/api/games/{id}/join"), None, json!({}))
            .await;
        assert_eq!(s, StatusCode::OK, "{joined}");
        assert_eq!(joined["seat"], "black");
        (
            id,
            created["token"].as_str().unwrap().to_owned(),
            joined["token"].as_str().unwrap().to_owned(),
        )
    }

    pub async fn play(&self, id: &str, tokens: [&str; 2], moves: &[&str]) -> Value {
        let mut last = Value::Null;
        for (i, m) in moves.iter().enumerate() {
            let tok = tokens[i % 2];
            let (s, body) = self
                .post(
                    &format!("/api/games/{id}/move"),
                    Some(tok),
                    json!({"move": m}),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "move {m}: {body}");
            last = body;
        }
        last
    }

    pub async fn state(&self, id: &str) -> Value {
        let (s, v) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        v
    }

    pub async fn ws(&self, id: &str, query: &str) -> Ws {
        let url = format!(
            "{}/api/games/{id}/ws{query}",
            self.base.replacen("http", "ws", 1)
        );
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws connects");
        Ws(ws)
    }
}

pub struct Ws(
    pub tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
);

impl Ws {
    pub async fn next(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.0.next())
                .await
                .expect("a WebSocket message within 10 s")
                .expect("stream open")
                .expect("no error");
            if let Message::Text(t) = msg {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.0
            .send(Message::Text(v.to_string().into()))
            .await
            .unwrap();
    }

    /// Read until an event of `kind`, returning it.
    pub async fn until_kind(&mut self, kind: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == "event" && v["kind"] == kind {
                return v;
            }
        }
    }
}

/// A server in its own process (the load benchmark binary's `--serve` mode), so that it can
/// be killed with SIGKILL.
pub struct Child {
    pub child: std::process::Child,
    pub base: String,
}

impl Child {
    pub fn start(db: &str) -> Child {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_loadtest"))
            .args(["--serve", "--addr", "127.0.0.1:0", "--db", db])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("server process starts");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening ")
            .expect("address line")
            .to_owned();
        Child {
            child,
            base: format!("http://{addr}"),
        }
    }

    pub fn kill9(mut self) {
        self.child.kill().unwrap(); // SIGKILL: no shutdown code runs
        self.child.wait().unwrap();
    }
}

/// Run each named test (an `async fn(Db)`) on SQLite and on PostgreSQL.
#[macro_export]
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

/// A browser: the server's base URL and the session cookie it holds.
#[derive(Clone)]
pub struct Browser {
    pub base: String,
    pub http: reqwest::Client,
    pub cookie: Option<String>,
}

/// Unique names per test run (the PostgreSQL database is shared between tests and runs).
pub fn name(prefix: &str) -> String {
    let n: u32 = std::process::id()
        ^ (std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos());
    format!("{prefix}{}", n % 1_000_000_000)
}

impl Browser {
    pub fn new(t: &T) -> Self {
        Browser {
            base: t.base.clone(),
            http: reqwest::Client::new(),
            cookie: None,
        }
    }

    /// A request as the site's own page makes it: the cookie, and `Origin` for unsafe methods.
    pub async fn call(
        &mut self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self
            .http
            .request(method.clone(), format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            req = req.header(COOKIE, c);
        }
        if method != Method::GET {
            req = req.header(ORIGIN, self.base.clone());
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status();
        if let Some(set) = resp.headers().get(SET_COOKIE) {
            let set = set.to_str().unwrap();
            let pair = set.split(';').next().unwrap().trim().to_owned();
            self.cookie = (!pair.ends_with('=')).then_some(pair);
        }
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    pub async fn post(&mut self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, Some(body)).await
    }

    pub async fn get(&mut self, path: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, None).await
    }

    pub async fn delete(&mut self, path: &str) -> (StatusCode, Value) {
        self.call(Method::DELETE, path, None).await
    }

    /// Sign up as a fresh player; returns the username.
    pub async fn sign_up(&mut self, prefix: &str) -> String {
        let username = name(prefix);
        let (s, me) = self
            .post(
                "/api/account",
                json!({"username": username, "password": "correct horse"}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{me}");
        assert_eq!(me["username"], username.as_str());
        username
    }

    pub async fn mv(&mut self, id: &str, m: &str) -> Value {
        let (s, ack) = self
            .post(&format!("/api/games/{id}/move"), json!({"move": m}))
            .await;
        assert_eq!(s, StatusCode::OK, "move {m}: {ack}");
        ack
    }
}
