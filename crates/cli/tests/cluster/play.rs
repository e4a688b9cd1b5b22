//! The players: each game slot creates a game on one node, joins it on the next, and two
//! clients play random legal moves over WebSockets on nodes other than the game's owner,
//! reconnecting elsewhere on any error. Everything a client sends and receives is recorded
//! for the checks at the end.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter_rules::{CastlingMode, Position};
use futures_util::{SinkExt, StreamExt};
use reqwest::Method;
use serde_json::{json, Value};
use sqlx::postgres::PgPool;
use tokio_tungstenite::tungstenite::Message;

use super::infra::now_ms;

/// A seeded xorshift64* generator.
pub struct Rng(u64);

impl Rng {
    /// Seeded through splitmix64, never zero.
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
}

/// What the clients share: the nodes, an HTTP client, the database (to read a game's owner),
/// the stop flag and counters.
pub struct Ctx {
    /// Name and address of each node.
    pub nodes: Vec<(String, std::net::SocketAddr)>,
    pub http: reqwest::Client,
    pub pool: PgPool,
    pub seed: u64,
    /// When the test started.
    pub started: Instant,
    pub stop: AtomicBool,
    /// Moves acknowledged so far.
    pub acks: AtomicU64,
    /// Unix ms of the latest acknowledgement.
    pub last_ack_ms: AtomicI64,
    /// 503 answers the clients received (game creation, state reads).
    pub http_503: AtomicU64,
    /// Responses without the right `x-arbiter-node` header.
    pub header_faults: Mutex<Vec<String>>,
}

impl Ctx {
    /// Whether the run is over.
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn check_header(&self, node: usize, headers: &reqwest::header::HeaderMap, what: &str) {
        let name = &self.nodes[node].0;
        let got = headers.get("x-arbiter-node").and_then(|v| v.to_str().ok());
        if got != Some(name.as_str()) {
            self.header_faults
                .lock()
                .unwrap()
                .push(format!("{what} on {name}: x-arbiter-node {got:?}"));
        }
    }

    /// One HTTP request to `node` (3 s timeout): the status and the body (JSON, or the text
    /// as a JSON string). Checks the `x-arbiter-node` header of every answer.
    pub async fn call(
        &self,
        node: usize,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Result<(u16, Value), String> {
        self.call_within(Duration::from_secs(3), node, method, path, token, body)
            .await
    }

    /// [`Ctx::call`] with another timeout.
    pub async fn call_within(
        &self,
        timeout: Duration,
        node: usize,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Result<(u16, Value), String> {
        let (name, addr) = &self.nodes[node];
        let mut req = self
            .http
            .request(method.clone(), format!("http://{addr}{path}"))
            .timeout(timeout);
        if let Some(b) = body {
            req = req.json(&b);
        }
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| format!("{method} {path} on {name}: {e}"))?;
        self.check_header(node, resp.headers(), &format!("{method} {path}"));
        let status = resp.status().as_u16();
        let text = resp
            .text()
            .await
            .map_err(|e| format!("{method} {path} on {name}: body: {e}"))?;
        let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Ok((status, v))
    }
}

/// A move sent.
#[derive(Debug, Clone)]
pub struct Sent {
    /// Half-moves before it (the `ply` sent).
    pub ply: u64,
    pub uci: String,
    pub node: usize,
    pub at_ms: i64,
}

/// A move acknowledged.
#[derive(Debug, Clone)]
pub struct Ack {
    /// Half-moves before it.
    pub ply: u64,
    pub uci: String,
    pub seq: i64,
    pub node: usize,
    pub at_ms: i64,
}

/// One WebSocket connection and what it delivered.
#[derive(Debug, Clone)]
pub struct Conn {
    pub node: usize,
    /// The `since` it asked for (reconnections).
    pub since: Option<i64>,
    /// `last_seq` of the first `state` message (first connections).
    pub state_seq: Option<i64>,
    /// Every game event, in order of arrival: its number and its JSON.
    pub events: Vec<(i64, Value)>,
    /// Why it ended.
    pub end: String,
    /// Unix ms of its opening and its end.
    pub opened_ms: i64,
    pub ended_ms: i64,
}

/// One player's record.
#[derive(Debug, Clone, Default)]
pub struct ClientLog {
    pub seat: &'static str,
    pub sent: Vec<Sent>,
    pub acks: Vec<Ack>,
    /// `error` messages and failed attempts (unix ms, what), for the report.
    pub errors: Vec<(i64, String)>,
    pub conns: Vec<Conn>,
    /// Connections after the first.
    pub reconnects: u64,
    /// Whether it stopped because the game ended (else the run ended).
    pub saw_end: bool,
}

/// One game as played.
#[derive(Debug, Clone)]
pub struct GameLog {
    pub id: String,
    pub time_control: &'static str,
    /// The node that created it.
    pub created_on: usize,
    /// `owner_node` once it started.
    pub owner: Option<String>,
    /// The longest a player thinks before a move (ms).
    pub think_ms: u64,
    pub clients: Vec<ClientLog>,
}

/// A created and started game.
struct Created {
    id: String,
    tokens: [String; 2],
    created_on: usize,
    owner: Option<String>,
}

/// Create a game on `node` (or the next ones on failure) and join it on the node after; `None`
/// once the run is over. A game whose join failed after the request may have been applied is
/// left behind (reported: `abandoned`).
async fn create(
    ctx: &Ctx,
    mut node: usize,
    time_control: &str,
    abandoned: &Mutex<Vec<String>>,
) -> Option<Created> {
    let n = ctx.nodes.len();
    let mut tries = 0u32;
    loop {
        if ctx.stopping() {
            return None;
        }
        if tries > 0 {
            node = (node + 1) % n;
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        tries += 1;
        let body = json!({"time_control": time_control, "color": "white"});
        let created = match ctx
            .call(node, Method::POST, "/api/games", None, Some(body))
            .await
        {
            Ok((201, v)) => v,
            Ok((s, _)) => {
                if s == 503 {
                    ctx.http_503.fetch_add(1, Ordering::Relaxed);
                }
                continue;
            }
            Err(_) => continue,
        };
        let (Some(id), Some(white)) = (created["id"].as_str(), created["token"].as_str()) else {
            panic!("POST /api/games answered {created}");
        };
        let id = id.to_owned();
        let mut black = None;
        let mut join_node = (node + 1) % n;
        for _ in 0..10 {
            match ctx
                .call(
                    join_node,
                    Method::POST,
                    &format!("/api/games/{id}/join"),
                    None,
                    Some(json!({})),
                )
                .await
            {
                Ok((200, v)) => {
                    black = v["token"].as_str().map(str::to_owned);
                    break;
                }
                // Taken by an earlier try whose answer was lost.
                Ok((409, _)) => break,
                Ok((s, _)) => {
                    if s == 503 {
                        ctx.http_503.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Err(_) => {}
            }
            join_node = (join_node + 1) % n;
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        let Some(black) = black else {
            abandoned.lock().unwrap().push(id);
            continue;
        };
        // The owner, as stored once the game has started.
        let mut owner = None;
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            let row: Result<Option<(String, Option<String>)>, _> =
                sqlx::query_as("SELECT status, owner_node FROM games WHERE id = $1")
                    .bind(&id)
                    .fetch_optional(&ctx.pool)
                    .await;
            if let Ok(Some((status, Some(o)))) = row {
                if status != "waiting" {
                    owner = Some(o);
                    break;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        return Some(Created {
            id,
            tokens: [white.to_owned(), black],
            created_on: node,
            owner,
        });
    }
}

/// A game slot: games one after another (a new one when one ends) until the run is over.
/// Slot `i` creates its first game on node `i mod 3`. Players think 50–300 ms a move, in
/// `10+5`; every tenth slot plays `1+0` with a slow White (0.8–2 s a move), whose flag falls
/// after about 70 s of play, during the faults.
pub async fn slot(ctx: Arc<Ctx>, slot: usize, abandoned: Arc<Mutex<Vec<String>>>) -> Vec<GameLog> {
    let n = ctx.nodes.len();
    let (time_control, white_pause, black_pause) = if slot % 10 == 9 {
        ("1+0", (800, 2000), (50, 300))
    } else {
        ("10+5", (50, 300), (50, 300))
    };
    let mut logs = Vec::new();
    let mut k = 0usize;
    while !ctx.stopping() {
        let Some(game) = create(&ctx, (slot + k) % n, time_control, &abandoned).await else {
            break;
        };
        let owner = game
            .owner
            .as_ref()
            .and_then(|o| ctx.nodes.iter().position(|(name, _)| name == o))
            .unwrap_or(game.created_on);
        let seed = ctx.seed ^ ((slot as u64) << 40) ^ ((k as u64) << 20);
        let id = Arc::new(game.id.clone());
        let [white, black] = game.tokens.clone();
        let (w, b) = tokio::join!(
            client(
                ctx.clone(),
                id.clone(),
                "white",
                white,
                (owner + 1) % n,
                Rng::new(seed ^ 1),
                white_pause
            ),
            client(
                ctx.clone(),
                id.clone(),
                "black",
                black,
                (owner + 2) % n,
                Rng::new(seed ^ 2),
                black_pause
            ),
        );
        logs.push(GameLog {
            id: game.id,
            time_control,
            created_on: game.created_on,
            owner: game.owner,
            think_ms: white_pause.1.max(black_pause.1),
            clients: vec![w, b],
        });
        k += 1;
    }
    logs
}

/// What a client knows of the game: as of event `seq`.
#[derive(Debug, Clone)]
struct View {
    seq: i64,
    fen: String,
    ply: u64,
    turn: String,
    status: String,
}

impl View {
    fn from_state(g: &Value) -> Option<View> {
        Some(View {
            seq: g["last_seq"].as_i64()?,
            fen: g["fen"].as_str()?.to_owned(),
            ply: g["moves"].as_array()?.len() as u64,
            turn: g["turn"].as_str()?.to_owned(),
            status: g["status"].as_str()?.to_owned(),
        })
    }

    fn apply(&mut self, seq: i64, ev: &Value) {
        self.seq = seq;
        if let Some(s) = ev["status"].as_str() {
            self.status = s.to_owned();
        }
        if let Some(t) = ev["turn"].as_str() {
            self.turn = t.to_owned();
        }
        if let Some(p) = ev["ply"].as_u64() {
            self.ply = p;
        }
        if let Some(f) = ev["fen"].as_str() {
            self.fen = f.to_owned();
        }
    }

    fn over(&self) -> bool {
        !matches!(self.status.as_str(), "playing" | "waiting")
    }
}

/// A random legal move in `fen`, in UCI.
fn random_move(fen: &str, rng: &mut Rng) -> Option<String> {
    let pos = Position::from_fen(fen, CastlingMode::Standard).ok()?;
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let m = moves.as_slice()[rng.below(moves.len())];
    Some(pos.uci(m))
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Without any message (pongs included) for this long, and no move in flight, a connection
/// is given up.
const SILENCE: Duration = Duration::from_secs(4);
/// A move not acknowledged for this long is given up (it may or may not have been applied).
const ACK_TIMEOUT: Duration = Duration::from_secs(5);

/// One player: connects to `node` (never the owner when it starts), plays its colour until
/// the game ends or the run is over; on an error, a silence or a closed socket reconnects to
/// the next node with `?since=` and re-reads the game.
async fn client(
    ctx: Arc<Ctx>,
    id: Arc<String>,
    seat: &'static str,
    token: String,
    mut node: usize,
    mut rng: Rng,
    pause: (u64, u64),
) -> ClientLog {
    let n = ctx.nodes.len();
    let mut log = ClientLog {
        seat,
        ..ClientLog::default()
    };
    let mut view: Option<View> = None;
    let mut next_id = 0u64;
    // Half-moves the game has at least: past this player's last acknowledged move (its
    // acknowledgement may arrive before its event).
    let mut min_ply = 0u64;
    let mut failures = 0u32;
    let mut first = true;
    'connect: loop {
        if view.as_ref().is_some_and(View::over) {
            log.saw_end = true;
            break;
        }
        if ctx.stopping() {
            break;
        }
        if !first {
            log.reconnects += 1;
            node = (node + 1) % n;
            // Short: a slow client would lengthen the takeover delays measured.
            let backoff = 50 * u64::from(failures.min(4));
            tokio::time::sleep(Duration::from_millis(100 + backoff)).await;
        }
        first = false;
        let since = view.as_ref().map(|v| v.seq);
        let (name, addr) = &ctx.nodes[node];
        let mut url = format!("ws://{addr}/api/games/{id}/ws?token={token}");
        if let Some(s) = since {
            url += &format!("&since={s}");
        }
        let connected = tokio::time::timeout(
            Duration::from_secs(3),
            tokio_tungstenite::connect_async(url),
        )
        .await;
        let mut ws: Ws = match connected {
            Ok(Ok((ws, resp))) => {
                ctx.check_header(node, resp.headers(), "WebSocket upgrade");
                ws
            }
            Ok(Err(e)) => {
                failures += 1;
                log.errors.push((now_ms(), format!("connect {name}: {e}")));
                continue;
            }
            Err(_) => {
                failures += 1;
                log.errors
                    .push((now_ms(), format!("connect {name}: timeout")));
                continue;
            }
        };
        // A reconnection re-reads the game (from any node that answers): a move whose
        // acknowledgement was lost may or may not have been applied.
        if since.is_some() {
            for i in 0..n {
                let k = (node + i) % n;
                match ctx
                    .call(k, Method::GET, &format!("/api/games/{id}"), None, None)
                    .await
                {
                    Ok((200, g)) => {
                        if let Some(v) = View::from_state(&g) {
                            if view.as_ref().is_none_or(|old| v.seq > old.seq) {
                                view = Some(v);
                            }
                        }
                        break;
                    }
                    Ok((503, _)) => {
                        ctx.http_503.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => {}
                }
            }
        }
        let mut conn = Conn {
            node,
            since,
            state_seq: None,
            events: Vec::new(),
            end: String::new(),
            opened_ms: now_ms(),
            ended_ms: 0,
        };
        // (request id, ply, uci, sent at)
        let mut pending: Option<(u64, u64, String, Instant)> = None;
        let mut due: Option<tokio::time::Instant> = None;
        let mut last_msg = Instant::now();
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        let mut ticks = 0u64;
        let end = loop {
            // Schedule this player's next move when it is its turn.
            let my_turn = view
                .as_ref()
                .is_some_and(|v| v.status == "playing" && v.turn == seat && v.ply >= min_ply);
            if !my_turn || ctx.stopping() {
                due = None;
            } else if pending.is_none() && due.is_none() {
                let ms = rng.between(pause.0, pause.1);
                due = Some(tokio::time::Instant::now() + Duration::from_millis(ms));
            }
            if ctx.stopping() && pending.is_none() {
                break "run over".to_owned();
            }
            if pending.is_none() && view.as_ref().is_some_and(View::over) {
                log.saw_end = true;
                break "game over".to_owned();
            }
            let sleep_until =
                due.unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
            tokio::select! {
                msg = ws.next() => {
                    let text = match msg {
                        Some(Ok(Message::Text(t))) => t,
                        Some(Ok(Message::Close(c))) => break format!("closed by {name}: {c:?}"),
                        Some(Ok(_)) => continue,
                        Some(Err(e)) => break format!("socket error on {name}: {e}"),
                        None => break format!("socket ended on {name}"),
                    };
                    last_msg = Instant::now();
                    let v: Value = match serde_json::from_str(text.as_str()) {
                        Ok(v) => v,
                        Err(e) => break format!("bad JSON from {name}: {e}: {text}"),
                    };
                    match v["type"].as_str() {
                        Some("state") => {
                            conn.state_seq = v["game"]["last_seq"].as_i64();
                            if let Some(s) = View::from_state(&v["game"]) {
                                if view.as_ref().is_none_or(|old| s.seq >= old.seq) {
                                    view = Some(s);
                                }
                            }
                        }
                        Some("event") => {
                            let Some(seq) = v["seq"].as_i64() else { continue };
                            if seq == 0 {
                                continue; // a notice, not a game event
                            }
                            conn.events.push((seq, v.clone()));
                            if let Some(vw) = view.as_mut() {
                                if seq == vw.seq + 1 {
                                    vw.apply(seq, &v);
                                } else if seq > vw.seq + 1 {
                                    // A gap (recorded; the checks report it): start afresh.
                                    break format!("gap on {name}: event {seq} after {}", vw.seq);
                                }
                            }
                        }
                        Some("ack") => {
                            let rid = v["id"].as_u64();
                            match pending.take() {
                                Some((pid, ply, uci, _)) if Some(pid) == rid => {
                                    let Some(seq) = v["seq"].as_i64() else {
                                        break format!("ack without seq: {v}");
                                    };
                                    ctx.acks.fetch_add(1, Ordering::Relaxed);
                                    ctx.last_ack_ms.fetch_max(now_ms(), Ordering::Relaxed);
                                    min_ply = min_ply.max(ply + 1);
                                    log.acks.push(Ack { ply, uci, seq, node, at_ms: now_ms() });
                                    failures = 0;
                                }
                                other => {
                                    log.errors.push((now_ms(), format!("unexpected ack {v} (pending {other:?})")));
                                    pending = other;
                                }
                            }
                        }
                        Some("error") => {
                            let p = pending.take();
                            log.errors.push((now_ms(), format!("{name} error {}: {v} (move {p:?})", v["error"])));
                            failures += 1;
                            break format!("error from {name}: {}", v["error"]);
                        }
                        _ => {}
                    }
                }
                _ = tokio::time::sleep_until(sleep_until), if due.is_some() => {
                    due = None;
                    let Some(vw) = view.as_ref() else { continue };
                    if pending.is_some() || vw.turn != seat || vw.status != "playing" || vw.ply < min_ply {
                        continue;
                    }
                    let Some(uci) = random_move(&vw.fen, &mut rng) else {
                        // No legal move: the game is over (the server says so next).
                        continue;
                    };
                    next_id += 1;
                    let ply = vw.ply;
                    let msg = json!({"type": "move", "move": uci, "ply": ply, "id": next_id});
                    log.sent.push(Sent { ply, uci: uci.clone(), node, at_ms: now_ms() });
                    pending = Some((next_id, ply, uci, Instant::now()));
                    let send = ws.send(Message::Text(msg.to_string().into()));
                    match tokio::time::timeout(Duration::from_secs(3), send).await {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => break format!("send on {name}: {e}"),
                        Err(_) => break format!("send on {name}: timeout"),
                    }
                }
                _ = tick.tick() => {
                    ticks += 1;
                    // A move in flight has its own limit: the server reads a socket's
                    // messages one at a time, so pings wait behind a forwarded move.
                    if pending.is_none() && last_msg.elapsed() > SILENCE {
                        failures += 1;
                        break format!("{name} silent for {SILENCE:?}");
                    }
                    if let Some((_, ply, uci, at)) = &pending {
                        if at.elapsed() > ACK_TIMEOUT {
                            failures += 1;
                            break format!("no ack from {name} for {uci} at ply {ply}");
                        }
                    }
                    if ticks % 2 == 0 {
                        let ping = ws.send(Message::Text("{\"type\":\"ping\"}".into()));
                        if tokio::time::timeout(Duration::from_secs(1), ping).await.is_err() {
                            break format!("ping on {name}: timeout");
                        }
                    }
                }
            }
        };
        conn.end = end;
        conn.ended_ms = now_ms();
        log.conns.push(conn);
        let _ = tokio::time::timeout(Duration::from_millis(500), ws.close(None)).await;
        if log.saw_end {
            break 'connect;
        }
    }
    log
}
