//! `--lichess`: N games at 5+3 over lichess's Board API on one server (issue 32), beside the
//! native WebSocket path playing the same games with the same moves.
//!
//! Up front, every player signs up (`POST /api/account`, the session cookie), makes a
//! personal API token with that cookie (`POST /api/account/tokens`) and opens its event
//! stream (`GET /api/stream/event`), which stays open for the whole run. Then each pair plays
//! game after game: white challenges black (`POST /api/challenge/{name}`, 5+3, casual), black
//! accepts (`POST /api/challenge/{id}/accept`: the game's id is the challenge's), both follow
//! the game (`GET /api/board/game/stream/{id}`) and play the fixed game of [`script`] with
//! `POST /api/board/game/{id}/move/{uci}`, each player moving once its own stream shows the
//! opponent's move; after the last ply the side to move resigns. Every request of a player
//! goes over one keep-alive connection, with its token, as lichess's clients do.
//!
//! Measured as the native benchmark: moves/s, the latency of `POST move` (request → `200`),
//! of a move until the opponent's stream shows it, the server's memory; at the end each
//! game's moves, as `GET /api/games/{id}` shows them and as the database holds them after the
//! server has stopped, against the moves acknowledged.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use arbiter_rules::{Position, RepetitionKey};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use super::{
    bench, cpu_secs, http_as, http_text, mem_kb, micros, percentile, percentiles, sign_up,
    BoxError, Opts, Rng, Servers, Summary,
};

/// Plies of the fixed game unless `--plies` says otherwise: 100 moves a side, then a
/// resignation.
pub(crate) const DEFAULT_PLIES: usize = 200;

/// The scopes a Board API client asks for.
const SCOPES: [&str; 3] = ["board:play", "challenge:read", "challenge:write"];

/// The fixed game every pair plays: `plies` legal moves from the start that end nothing.
///
/// A seeded walk over the legal moves that never captures (all the material stays, so no
/// position is dead, Art. 5.2.2), never mates or stalemates, never reaches a position a third
/// time (far from fivefold, Art. 9.6.1) and moves a pawn within 50 moves (far from the 75-move
/// rule, Art. 9.6.2): every game runs to its last ply, as long games of a site do.
pub(crate) fn script(plies: usize) -> Vec<String> {
    static SCRIPT: OnceLock<Vec<String>> = OnceLock::new();
    let moves = SCRIPT.get_or_init(|| {
        (1..1000)
            .find_map(|seed| walk(plies, seed))
            .expect("a game of that many plies")
    });
    assert_eq!(moves.len(), plies, "one script length per run");
    moves.clone()
}

fn walk(plies: usize, seed: u64) -> Option<Vec<String>> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ seed);
    let mut pos = Position::new();
    let mut seen: HashMap<RepetitionKey, u32> = HashMap::new();
    seen.insert(pos.repetition_key(), 1);
    let mut out = Vec::with_capacity(plies);
    while out.len() < plies {
        let legal = pos.legal_moves();
        let candidates: Vec<_> = legal
            .iter()
            .copied()
            .filter(|&m| !pos.is_capture(m))
            .filter_map(|m| {
                let mut next = pos;
                next.play_unchecked(m);
                let fresh = seen.get(&next.repetition_key()).copied().unwrap_or(0) < 2;
                (fresh && next.halfmoves() < 100 && !next.legal_moves().is_empty())
                    .then_some((m, next))
            })
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let (m, next) = candidates[(rng.next() % candidates.len() as u64) as usize];
        out.push(pos.uci(m));
        pos = next;
        *seen.entry(pos.repetition_key()).or_default() += 1;
    }
    Some(out)
}

/// A keep-alive HTTP/1.1 connection, one request at a time, with a player's token.
struct Conn {
    rd: BufReader<OwnedReadHalf>,
    wr: OwnedWriteHalf,
    addr: SocketAddr,
}

/// How a response's body is delimited.
enum Framing {
    Length(usize),
    Chunked,
    Close,
}

impl Conn {
    async fn open(addr: SocketAddr) -> Result<Self, BoxError> {
        let tcp = TcpStream::connect(addr).await?;
        tcp.set_nodelay(true)?;
        let (rd, wr) = tcp.into_split();
        Ok(Self {
            rd: BufReader::with_capacity(8192, rd),
            wr,
            addr,
        })
    }

    async fn send(
        &mut self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> Result<(), BoxError> {
        let body = body.map(Value::to_string);
        let typed = if body.is_some() {
            "Content-Type: application/json\r\n"
        } else {
            ""
        };
        let body = body.unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\n{typed}\
             Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.wr.write_all(req.as_bytes()).await?;
        Ok(())
    }

    /// The status and framing of the response's head.
    async fn head(&mut self) -> Result<(u16, Framing), BoxError> {
        let mut line = String::new();
        self.rd.read_line(&mut line).await?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line {line:?}"))?;
        let mut framing = Framing::Close;
        loop {
            line.clear();
            if self.rd.read_line(&mut line).await? == 0 {
                return Err("connection closed in the head".into());
            }
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let Some((k, v)) = l.split_once(':') else {
                continue;
            };
            if k.eq_ignore_ascii_case("content-length") {
                framing = Framing::Length(v.trim().parse()?);
            } else if k.eq_ignore_ascii_case("transfer-encoding")
                && v.trim().eq_ignore_ascii_case("chunked")
            {
                framing = Framing::Chunked;
            }
        }
        Ok((status, framing))
    }

    /// The next chunk of a chunked body (empty: the last).
    async fn chunk(&mut self) -> Result<Vec<u8>, BoxError> {
        let mut line = String::new();
        if self.rd.read_line(&mut line).await? == 0 {
            return Err("connection closed in a chunked body".into());
        }
        let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)?;
        let mut data = vec![0; size + 2];
        self.rd.read_exact(&mut data).await?;
        data.truncate(size);
        Ok(data)
    }

    /// A request and its whole response: status and body.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> Result<(u16, String), BoxError> {
        self.send(method, path, token, body).await?;
        let (status, framing) = self.head().await?;
        let mut data = Vec::new();
        match framing {
            Framing::Length(n) => {
                data.resize(n, 0);
                self.rd.read_exact(&mut data).await?;
            }
            Framing::Chunked => loop {
                let c = self.chunk().await?;
                if c.is_empty() {
                    break;
                }
                data.extend_from_slice(&c);
            },
            Framing::Close => {
                self.rd.read_to_end(&mut data).await?;
            }
        }
        Ok((status, String::from_utf8_lossy(&data).into_owned()))
    }
}

/// An NDJSON stream being read by a task of its own; dropping it closes the connection.
struct NdStream {
    task: tokio::task::JoinHandle<()>,
}

impl Drop for NdStream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Open `GET path` with `token` and hand each non-empty line, with the time it arrived, to
/// `on_line` (until it returns false or the stream ends); the stream must answer 200.
async fn open_stream<F>(
    addr: SocketAddr,
    path: &str,
    token: &str,
    mut on_line: F,
) -> Result<NdStream, BoxError>
where
    F: FnMut(&[u8], Instant) -> bool + Send + 'static,
{
    let mut conn = Conn::open(addr).await?;
    conn.send("GET", path, token, None).await?;
    let (status, framing) = conn.head().await?;
    if status != 200 || !matches!(framing, Framing::Chunked) {
        return Err(format!("GET {path}: status {status}").into());
    }
    let task = tokio::spawn(async move {
        let mut pending: Vec<u8> = Vec::new();
        while let Ok(chunk) = conn.chunk().await {
            if chunk.is_empty() {
                break;
            }
            let at = Instant::now();
            pending.extend_from_slice(&chunk);
            while let Some(end) = pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                let line = &line[..line.len() - 1];
                if !line.is_empty() && !on_line(line, at) {
                    return;
                }
            }
        }
    });
    Ok(NdStream { task })
}

/// What a game stream's line says: how many moves, and the game's status.
struct GameLine {
    moves: usize,
    status: String,
    at: Instant,
}

/// The value of the first `"key":"…"` in `line` from byte `from`, and where it ends, without
/// parsing the line: the lines grow with the game, and the load generator shares the
/// server's two cores.
fn field<'a>(line: &'a str, key: &str, from: usize) -> Option<(&'a str, usize)> {
    let pat = format!("\"{key}\":\"");
    let start = from + line[from..].find(&pat)? + pat.len();
    let len = line[start..].find('"')?;
    Some((&line[start..start + len], start + len))
}

/// Follow a game's stream: its lines as [`GameLine`]s.
async fn game_stream(
    addr: SocketAddr,
    id: &str,
    token: &str,
) -> Result<(NdStream, mpsc::UnboundedReceiver<GameLine>), BoxError> {
    let (tx, rx) = mpsc::unbounded_channel();
    let stream = open_stream(
        addr,
        &format!("/api/board/game/stream/{id}"),
        token,
        move |line, at| {
            let line = String::from_utf8_lossy(line);
            // gameFull, gameState (chat lines and others carry no moves).
            let Some((moves, end)) = field(&line, "moves", 0) else {
                return true;
            };
            // The state's own status follows its moves (both in key order and in the order
            // written); the `arbiter` object's status is another.
            let status = field(&line, "status", end).map_or("", |f| f.0).to_owned();
            tx.send(GameLine {
                moves: moves.split_whitespace().count(),
                status,
                at,
            })
            .is_ok()
        },
    )
    .await?;
    Ok((stream, rx))
}

/// Wait until the stream shows `n` moves; when, or why not.
async fn until_moves(
    rx: &mut mpsc::UnboundedReceiver<GameLine>,
    n: usize,
) -> Result<Instant, String> {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), rx.recv()).await {
            Ok(Some(l)) if l.moves >= n => return Ok(l.at),
            Ok(Some(l)) if l.status != "started" && l.status != "created" => {
                return Err(format!(
                    "the game ended ({}) after {} moves",
                    l.status, l.moves
                ))
            }
            Ok(Some(_)) => {}
            Ok(None) => return Err(format!("the stream ended before move {n}")),
            Err(_) => return Err(format!("move {n} not shown within 10 s")),
        }
    }
}

/// A player: its name and personal API token.
struct Account {
    name: String,
    token: String,
}

async fn make_account(addr: SocketAddr, name: String) -> Result<Account, BoxError> {
    let cookie = sign_up(addr, &name).await?;
    let (made, _) = http_as(
        addr,
        Some(&cookie),
        "POST",
        "/api/account/tokens",
        &json!({"description": "loadtest", "scopes": SCOPES}),
    )
    .await?;
    let token = made["token"].as_str().ok_or("no token")?.to_owned();
    Ok(Account { name, token })
}

#[derive(Default)]
struct Stats {
    post_us: Mutex<Vec<u32>>,
    opp_us: Mutex<Vec<u32>>,
    challenge_us: Mutex<Vec<u32>>,
    accept_us: Mutex<Vec<u32>>,
    /// Accepted → both players' streams have sent `gameFull`.
    streams_us: Mutex<Vec<u32>>,
    moves: AtomicU64,
    games_started: AtomicU64,
    games_done: AtomicU64,
    errors: AtomicU64,
    /// Each game's acknowledged moves, in order.
    acked: Mutex<HashMap<String, Vec<String>>>,
    event_lines: AtomicU64,
}

impl Stats {
    fn error(&self, what: impl std::fmt::Display) {
        eprintln!("lichess: {what}");
        self.errors.fetch_add(1, Ordering::Relaxed);
    }
}

/// What every pair's task shares.
struct Shared {
    addr: SocketAddr,
    opts: Arc<Opts>,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
    /// The fixed game.
    moves: Vec<String>,
}

/// Plays one game between the pair; `Err` when something went wrong (counted by the caller).
async fn play_one(
    sh: &Shared,
    pair: &[Account; 2],
    conns: &mut [Conn; 2],
    rng: &mut Rng,
) -> Result<(), BoxError> {
    let challenge = json!({
        "clock.limit": 300, "clock.increment": 3, "color": "white", "rated": false,
    });
    let t = Instant::now();
    let (status, body) = conns[0]
        .call(
            "POST",
            &format!("/api/challenge/{}", pair[1].name),
            &pair[0].token,
            Some(&challenge),
        )
        .await?;
    if status != 200 && status != 201 {
        return Err(format!("challenge: {status} {body}").into());
    }
    sh.stats
        .challenge_us
        .lock()
        .unwrap()
        .push(micros(t.elapsed()));
    let made: Value = serde_json::from_str(&body)?;
    let id = made["id"]
        .as_str()
        .ok_or("challenge without id")?
        .to_owned();
    let t = Instant::now();
    let (status, body) = conns[1]
        .call(
            "POST",
            &format!("/api/challenge/{id}/accept"),
            &pair[1].token,
            None,
        )
        .await?;
    if status != 200 {
        return Err(format!("accept {id}: {status} {body}").into());
    }
    sh.stats.accept_us.lock().unwrap().push(micros(t.elapsed()));
    let t = Instant::now();
    let (white_stream, mut white_rx) = game_stream(sh.addr, &id, &pair[0].token).await?;
    let (black_stream, mut black_rx) = game_stream(sh.addr, &id, &pair[1].token).await?;
    until_moves(&mut white_rx, 0).await?;
    until_moves(&mut black_rx, 0).await?;
    sh.stats
        .streams_us
        .lock()
        .unwrap()
        .push(micros(t.elapsed()));
    sh.stats.games_started.fetch_add(1, Ordering::Relaxed);
    let mut rxs = [white_rx, black_rx];
    let mut acked = Vec::with_capacity(sh.moves.len());
    let mut outcome = Ok(());
    for (ply, uci) in sh.moves.iter().enumerate() {
        if sh.stop.load(Ordering::Relaxed) {
            break;
        }
        if sh.opts.think_ms > 0 {
            let t = sh.opts.think_ms / 2 + rng.next() % (sh.opts.think_ms + 1);
            tokio::time::sleep(Duration::from_millis(t)).await;
        }
        let me = ply % 2;
        let t0 = Instant::now();
        let sent = conns[me]
            .call(
                "POST",
                &format!("/api/board/game/{id}/move/{uci}"),
                &pair[me].token,
                None,
            )
            .await;
        let took = micros(t0.elapsed());
        match sent {
            Ok((200, _)) => {}
            Ok((status, body)) => {
                outcome = Err(format!("game {id} ply {ply} {uci}: {status} {body}").into());
                break;
            }
            Err(e) => {
                outcome = Err(format!("game {id} ply {ply} {uci}: {e}").into());
                break;
            }
        }
        sh.stats.post_us.lock().unwrap().push(took);
        sh.stats.moves.fetch_add(1, Ordering::Relaxed);
        acked.push(uci.clone());
        // The opponent answers what its own stream shows.
        match until_moves(&mut rxs[1 - me], ply + 1).await {
            Ok(at) => sh.stats.opp_us.lock().unwrap().push(micros(at - t0)),
            Err(e) => {
                outcome = Err(format!("game {id}: {e}").into());
                break;
            }
        }
    }
    if outcome.is_ok() && acked.len() == sh.moves.len() {
        // The end of the script: the side to move resigns (a clock left running would
        // flag in due course, after the run).
        let me = sh.moves.len() % 2;
        let (status, body) = conns[me]
            .call(
                "POST",
                &format!("/api/board/game/{id}/resign"),
                &pair[me].token,
                None,
            )
            .await?;
        if status == 200 {
            sh.stats.games_done.fetch_add(1, Ordering::Relaxed);
        } else {
            outcome = Err(format!("resign {id}: {status} {body}").into());
        }
    }
    sh.stats.acked.lock().unwrap().insert(id, acked);
    drop((white_stream, black_stream));
    outcome
}

async fn run_pair(sh: Arc<Shared>, pair: [Account; 2], seed: u64) {
    let mut rng = Rng(seed | 1);
    let mut conns = None;
    while !sh.stop.load(Ordering::Relaxed) {
        if conns.is_none() {
            match (Conn::open(sh.addr).await, Conn::open(sh.addr).await) {
                (Ok(w), Ok(b)) => conns = Some([w, b]),
                _ => {
                    sh.stats.error("connect failed");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            }
        }
        let c = conns.as_mut().expect("connected");
        if let Err(e) = play_one(&sh, &pair, c, &mut rng).await {
            sh.stats.error(e);
            // A broken exchange leaves the connections in an unknown state: new ones.
            conns = None;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// Each game's stored moves against its acknowledged ones: (missing, wrong, stored but not
/// acknowledged, games in error).
fn compare(
    acked: &HashMap<String, Vec<String>>,
    stored: &HashMap<String, Vec<String>>,
) -> (usize, usize, usize, Vec<String>) {
    let (mut missing, mut wrong, mut extra) = (0, 0, 0);
    let mut bad = Vec::new();
    for (id, acks) in acked {
        let empty = Vec::new();
        let have = stored.get(id).unwrap_or(&empty);
        let before = missing + wrong + extra;
        for (i, a) in acks.iter().enumerate() {
            match have.get(i) {
                None => missing += 1,
                Some(s) if s != a => wrong += 1,
                Some(_) => {}
            }
        }
        extra += have.len().saturating_sub(acks.len());
        if missing + wrong + extra > before {
            bad.push(id.clone());
        }
    }
    bad.sort();
    (missing, wrong, extra, bad)
}

/// The lichess half of `--lichess`: returns its figures.
async fn lichess_bench(opts: Opts) -> Result<Summary, BoxError> {
    let moves = script(opts.script_plies);
    let mut servers = Servers::single(&opts)?;
    let (addr, pid) = (servers.nodes[0].addr, servers.nodes[0].pid);
    let opts = Arc::new(opts);
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(AtomicBool::new(false));
    let rss = || mem_kb(pid, "VmRSS:").unwrap_or(0) as f64 / 1024.0;

    // Accounts and tokens (the password hashing is timed here, not in the measured window).
    let t = Instant::now();
    let tag = std::process::id();
    let made = futures_util::future::join_all((0..opts.games).map(|i| async move {
        let w = make_account(addr, format!("lt{tag}x{i}w")).await?;
        let b = make_account(addr, format!("lt{tag}x{i}b")).await?;
        Ok::<_, BoxError>([w, b])
    }))
    .await;
    let pairs: Vec<[Account; 2]> = made.into_iter().collect::<Result<_, _>>()?;
    let secs = t.elapsed().as_secs_f64();
    println!(
        "accounts and tokens       {} in {secs:.1} s ({:.0}/s)",
        2 * opts.games,
        2.0 * opts.games as f64 / secs
    );
    let rss_accounts = rss();

    // Every player's event stream, open for the whole run.
    let t = Instant::now();
    let mut event_streams = Vec::with_capacity(2 * opts.games);
    for chunk in pairs.chunks(50) {
        let opened = futures_util::future::join_all(chunk.iter().flatten().map(|a| {
            let stats = stats.clone();
            open_stream(addr, "/api/stream/event", &a.token, move |_, _| {
                stats.event_lines.fetch_add(1, Ordering::Relaxed);
                true
            })
        }))
        .await;
        for s in opened {
            event_streams.push(s?);
        }
    }
    println!(
        "event streams             {} opened in {:.1} s",
        event_streams.len(),
        t.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_events = rss();

    let shared = Arc::new(Shared {
        addr,
        opts: opts.clone(),
        stats: stats.clone(),
        stop: stop.clone(),
        moves: moves.clone(),
    });
    let mut tasks = Vec::new();
    for (i, pair) in pairs.into_iter().enumerate() {
        tasks.push(tokio::spawn(run_pair(
            shared.clone(),
            pair,
            0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1),
        )));
        if i % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    tokio::time::sleep(Duration::from_secs(opts.warmup)).await;
    let started = stats.games_started.load(Ordering::Relaxed);
    if (started as usize) < opts.games {
        eprintln!(
            "warm-up: only {started} of {} games started (try a longer --warmup)",
            opts.games
        );
    }
    for v in [&stats.post_us, &stats.opp_us] {
        v.lock().unwrap().clear();
    }
    let (cpu0, me0) = (cpu_secs(pid).unwrap_or(0.0), cpu_secs(std::process::id()));
    let m0 = stats.moves.load(Ordering::Relaxed);
    let t0 = Instant::now();
    let mut peak_rss = 0;
    for _ in 0..opts.seconds {
        tokio::time::sleep(Duration::from_secs(1)).await;
        peak_rss = peak_rss.max(mem_kb(pid, "VmRSS:").unwrap_or(0));
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let moves_done = stats.moves.load(Ordering::Relaxed) - m0;
    let mut post = stats.post_us.lock().unwrap().clone();
    let mut opp = stats.opp_us.lock().unwrap().clone();
    let (cpu1, me1) = (cpu_secs(pid).unwrap_or(0.0), cpu_secs(std::process::id()));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = t.await;
    }
    post.sort_unstable();
    opp.sort_unstable();
    let hwm = mem_kb(pid, "VmHWM:").unwrap_or(0);

    // The audit, first as the API shows each game, while the server runs.
    let acked = std::mem::take(&mut *stats.acked.lock().unwrap());
    let mut shown = HashMap::new();
    for id in acked.keys() {
        let (_, body) =
            http_text(addr, None, "GET", &format!("/api/games/{id}"), &Value::Null).await?;
        let view: Value = serde_json::from_str(&body)?;
        let ucis = view["moves"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|m| m["uci"].as_str().unwrap_or("").to_owned())
                    .collect()
            })
            .unwrap_or_default();
        shown.insert(id.clone(), ucis);
    }
    drop(event_streams);
    // Then as the database holds them once the server has stopped (SIGTERM: graceful).
    servers.stop();
    let store = arbiter_server::Store::connect(&servers.db).await?;
    let mut stored = HashMap::new();
    for id in acked.keys() {
        let mut rows: Vec<_> = store
            .events(id, 0)
            .await?
            .into_iter()
            .filter(|r| r.kind == "move")
            .collect();
        rows.sort_by_key(|r| r.seq);
        let mut ucis = Vec::with_capacity(rows.len());
        for r in rows {
            let v: Value = serde_json::from_str(&r.data)?;
            ucis.push(v["wire"]["move"]["uci"].as_str().unwrap_or("").to_owned());
        }
        stored.insert(id.clone(), ucis);
    }
    store.close().await;

    let per_move = |cpu: f64| cpu / moves_done.max(1) as f64 * 1000.0;
    let report = |what: &str, us: &Mutex<Vec<u32>>| {
        let mut v = us.lock().unwrap().clone();
        v.sort_unstable();
        println!(
            "{what:<25} {:.2} / {:.2} / {:.2} ms (p50 / p99 / max, n {})",
            percentile(&v, 0.5),
            percentile(&v, 0.99),
            percentile(&v, 1.0),
            v.len()
        );
    };
    println!("games concurrently        {}", opts.games);
    println!(
        "fixed game                {} plies at {}, then a resignation",
        moves.len(),
        opts.time_control
    );
    println!("think time (mean)         {} ms", opts.think_ms);
    println!("measured for              {elapsed:.1} s");
    println!("moves acknowledged        {moves_done}");
    println!(
        "moves/s                   {:.0}",
        moves_done as f64 / elapsed
    );
    println!(
        "POST move p50 / p99 / max {:.2} / {:.2} / {:.2} ms",
        percentile(&post, 0.5),
        percentile(&post, 0.99),
        percentile(&post, 1.0)
    );
    println!(
        "move → opponent's stream  {:.2} / {:.2} / {:.2} ms (p50 / p99 / max)",
        percentile(&opp, 0.5),
        percentile(&opp, 0.99),
        percentile(&opp, 1.0)
    );
    report("challenge (whole run)", &stats.challenge_us);
    report("accept (whole run)", &stats.accept_us);
    report("accept → both gameFull", &stats.streams_us);
    println!(
        "server RSS                {rss_accounts:.1} MiB after the sign-ups, {rss_events:.1} MiB \
         with {} event streams open; peak / HWM in the games {:.1} / {:.1} MiB",
        2 * opts.games,
        peak_rss as f64 / 1024.0,
        hwm as f64 / 1024.0
    );
    println!(
        "CPU per move (ms)         server {:.3}, load generator {:.3}",
        per_move(cpu1 - cpu0),
        per_move(me1.unwrap_or(0.0) - me0.unwrap_or(0.0))
    );
    println!(
        "load average              {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "games started / finished  {} / {}",
        stats.games_started.load(Ordering::Relaxed),
        stats.games_done.load(Ordering::Relaxed)
    );
    println!(
        "event stream lines        {}",
        stats.event_lines.load(Ordering::Relaxed)
    );
    println!(
        "client errors             {}",
        stats.errors.load(Ordering::Relaxed)
    );
    let acked_total: usize = acked.values().map(Vec::len).sum();
    let (a_missing, a_wrong, a_extra, a_bad) = compare(&acked, &shown);
    let (missing, wrong, extra, bad) = compare(&acked, &stored);
    println!(
        "audit (GET /api/games/{{id}}): {acked_total} acknowledged moves in {} games; missing \
         {a_missing}, wrong {a_wrong}, stored but not acknowledged {a_extra}",
        acked.len()
    );
    println!(
        "audit (database, after the stop): missing {missing}, wrong {wrong}, stored but not \
         acknowledged {extra}"
    );
    for (what, bad) in [("API", &a_bad), ("database", &bad)] {
        if !bad.is_empty() {
            println!(
                "audit ({what}): games in error {:?}",
                &bad[..bad.len().min(20)]
            );
        }
    }
    if opts.db.is_none() {
        let _ = std::fs::remove_dir_all(&servers.dir);
    }
    if missing + wrong + a_missing + a_wrong > 0 {
        return Err("an acknowledged move was lost or changed".into());
    }
    Ok(Summary {
        moves_per_s: moves_done as f64 / elapsed,
        latency: percentiles(&post),
        opponent: percentiles(&opp),
        rss_peak_kib: peak_rss,
        hwm_kib: hwm,
        server_cpu_ms_per_move: per_move(cpu1 - cpu0),
        load_generator_cpu_ms_per_move: per_move(me1.unwrap_or(0.0) - me0.unwrap_or(0.0)),
        acked: acked_total,
        missing: missing.max(a_missing),
        duplicated: extra.max(a_extra),
        wrong: wrong.max(a_wrong),
        errors: stats.errors.load(Ordering::Relaxed),
    })
}

/// `--lichess`: the native path, then lichess's Board API, with the same games and moves;
/// then both side by side.
pub(crate) async fn run(opts: Opts) -> Result<(), BoxError> {
    let native = if opts.native {
        println!("== native WebSocket path ==");
        Some(bench(opts.clone()).await?)
    } else {
        None
    };
    println!("== lichess's Board API ==");
    let lichess = lichess_bench(opts.clone()).await?;
    println!(
        "== side by side: {} games, {} plies at {}, think {} ms ==",
        opts.games, opts.script_plies, opts.time_control, opts.think_ms
    );
    let ms = |v: [f64; 3]| format!("{:.2} / {:.2} / {:.2}", v[0], v[1], v[2]);
    let cols = |s: &Summary| {
        [
            format!("{:.0}", s.moves_per_s),
            ms(s.latency),
            ms(s.opponent),
            format!(
                "{:.1} / {:.1}",
                s.rss_peak_kib as f64 / 1024.0,
                s.hwm_kib as f64 / 1024.0
            ),
            format!("{:.3}", s.server_cpu_ms_per_move),
            format!("{:.3}", s.load_generator_cpu_ms_per_move),
            format!(
                "{}; {} / {} / {}",
                s.acked, s.missing, s.duplicated, s.wrong
            ),
            s.errors.to_string(),
        ]
    };
    let rows = [
        "moves/s",
        "move → answer p50/p99/max ms",
        "move → opponent sees it ms",
        "server RSS peak / HWM MiB",
        "server CPU ms per move",
        "load generator CPU ms/move",
        "acked; lost / extra / wrong",
        "client errors",
    ];
    let l = cols(&lichess);
    let n = native.as_ref().map(cols);
    println!(
        "{:<30} {:>28} {:>28}",
        "", "native WebSocket", "lichess Board API"
    );
    for (i, row) in rows.iter().enumerate() {
        let nv = n.as_ref().map_or("-", |n| n[i].as_str());
        println!("{row:<30} {nv:>28} {:>28}", l[i]);
    }
    let met = lichess.moves_per_s >= 3000.0
        && lichess.latency[1] < 50.0
        && lichess.missing + lichess.wrong == 0;
    println!(
        "goal (≥ 3,000 moves/s, POST move p99 < 50 ms, 0 acknowledged moves lost): {}",
        if met { "met" } else { "NOT met" }
    );
    Ok(())
}
