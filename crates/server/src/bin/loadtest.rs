//! Load benchmark of `arbiter-server` (a binary, not a test).
//!
//! Starts the server as a child process on loopback with a fresh database, creates N games,
//! connects both players of each game over WebSocket, and lets them play random legal moves
//! (`{"type":"move"}` messages, each acknowledged after its commit) for a fixed time. A game
//! that ends is replaced by a new one, so N games run all the time. Reports moves/s, move
//! latency (send → ack) percentiles, the server's memory, and finally checks in the database
//! that every acknowledged move is stored exactly once.
//!
//! ```text
//! cargo run --release -p arbiter-server --bin loadtest -- --games 1000 --seconds 20 --think-ms 180
//! ```
//!
//! Options: `--games N` (100), `--seconds S` (20), `--think-ms T` (mean pause before each
//! move, uniform in [T/2, 3T/2]; 0 = as fast as possible), `--db URL` (default: a temporary
//! SQLite file), `--time-control TC` (`60+0`), `--sync-full` (SQLite `synchronous=FULL`).
//! `--serve --addr A --db D` runs the server
//! itself (used for the child process).

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter_rules::Position;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[derive(Debug, Clone)]
struct Opts {
    games: usize,
    seconds: u64,
    think_ms: u64,
    db: Option<String>,
    time_control: String,
    serve: bool,
    addr: String,
    sync_full: bool,
}

fn parse_args() -> Result<Opts, String> {
    let mut o = Opts {
        games: 100,
        seconds: 20,
        think_ms: 0,
        db: None,
        time_control: "60+0".into(),
        serve: false,
        addr: "127.0.0.1:0".into(),
        sync_full: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--games" => o.games = val()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seconds" => o.seconds = val()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--think-ms" => o.think_ms = val()?.parse().map_err(|e| format!("--think-ms: {e}"))?,
            "--db" => o.db = Some(val()?),
            "--sync-full" => o.sync_full = true,
            "--time-control" => o.time_control = val()?,
            "--addr" => o.addr = val()?,
            "--serve" => o.serve = true,
            "-h" | "--help" => {
                return Err(
                    "usage: loadtest [--games N] [--seconds S] [--think-ms T] [--db URL] \
                            [--time-control TC]"
                        .into(),
                )
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(o)
}

fn main() {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if opts.serve {
        serve(&opts);
        return;
    }
    let rt = runtime("ARBITER_LOADGEN_THREADS");
    if let Err(e) = rt.block_on(bench(opts)) {
        eprintln!("loadtest: {e}");
        std::process::exit(1);
    }
}

/// A multi-thread runtime with as many workers as the environment variable `var` says
/// (default: one per core).
fn runtime(var: &str) -> tokio::runtime::Runtime {
    let mut b = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = std::env::var(var).ok().and_then(|v| v.parse().ok()) {
        b.worker_threads(n);
    }
    b.enable_all().build().expect("runtime")
}

/// The child process: the server, printing its address on stdout.
fn serve(opts: &Opts) {
    std::env::set_var(
        "RUST_LOG",
        std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
    );
    arbiter_server::init_tracing();
    let rt = runtime("ARBITER_SERVER_THREADS");
    rt.block_on(async {
        let config = arbiter_server::Config {
            addr: opts.addr.parse().expect("--addr"),
            db: opts.db.clone().expect("--db"),
            sqlite_sync: if opts.sync_full {
                arbiter_server::db::Sync::Full
            } else {
                arbiter_server::db::Sync::Normal
            },
            ..arbiter_server::Config::default()
        };
        let server = arbiter_server::start(config).await.expect("server starts");
        println!("listening {}", server.addr());
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("signal");
        term.recv().await;
        server.shutdown().await;
    });
}

/// A tiny HTTP/1.1 client (one request per connection) — enough for setting games up.
async fn http(addr: SocketAddr, method: &str, path: &str, body: &Value) -> Result<Value, BoxError> {
    let body = body.to_string();
    let mut s = TcpStream::connect(addr).await?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).await?;
    let text = String::from_utf8_lossy(&resp);
    let (head, body) = text.split_once("\r\n\r\n").ok_or("bad HTTP response")?;
    if !head.starts_with("HTTP/1.1 2") {
        return Err(format!("{method} {path}: {head} {body}").into());
    }
    Ok(serde_json::from_str(body)?)
}

struct Acked {
    game: String,
    seq: i64,
    uci: String,
}

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u32>>,
    acked: Mutex<Vec<Acked>>,
    moves: AtomicU64,
    games_done: AtomicU64,
    errors: AtomicU64,
}

type WsStream = tokio_tungstenite::WebSocketStream<TcpStream>;

struct Player {
    sink: futures_util::stream::SplitSink<WsStream, Message>,
    replies: mpsc::UnboundedReceiver<Value>,
}

async fn connect_player(addr: SocketAddr, id: &str, token: &str) -> Result<Player, BoxError> {
    let tcp = TcpStream::connect(addr).await?;
    tcp.set_nodelay(true)?;
    let url = format!("ws://{addr}/api/games/{id}/ws?since=1&token={token}");
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (ws, _) = tokio_tungstenite::client_async_with_config(url, tcp, Some(config)).await?;
    let (sink, mut stream) = ws.split();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(Ok(msg)) = stream.next().await {
            if let Message::Text(t) = msg {
                // Only replies matter to the player; events are read and dropped.
                let t = t.as_str();
                if t.contains("\"type\":\"ack\"") || t.contains("\"type\":\"error\"") {
                    if let Ok(v) = serde_json::from_str::<Value>(t) {
                        if tx.send(v).is_err() {
                            break;
                        }
                    }
                }
            }
        }
    });
    Ok(Player { sink, replies: rx })
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

async fn new_game(addr: SocketAddr, tc: &str) -> Result<(String, Player, Player), BoxError> {
    let created = http(
        addr,
        "POST",
        "/api/games",
        &json!({"time_control": tc, "color": "white"}),
    )
    .await?;
    let id = created["id"].as_str().ok_or("no id")?.to_owned();
    let joined = http(addr, "POST", &format!("/api/games/{id}/join"), &json!({})).await?;
    let w = connect_player(addr, &id, created["token"].as_str().ok_or("no token")?).await?;
    let b = connect_player(addr, &id, joined["token"].as_str().ok_or("no token")?).await?;
    Ok((id, w, b))
}

async fn run_games(
    addr: SocketAddr,
    opts: Arc<Opts>,
    seed: u64,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
) {
    let mut rng = Rng(seed | 1);
    while !stop.load(Ordering::Relaxed) {
        let (id, white, black) = match new_game(addr, &opts.time_control).await {
            Ok(x) => x,
            Err(e) => {
                eprintln!("setup failed: {e}");
                stats.errors.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        let mut players = [white, black];
        let mut pos = Position::new();
        let mut ply = 0usize;
        let mut my_acks = Vec::new();
        loop {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            if ply >= 300 {
                // Long random games end by resignation, so that no clock is left running.
                let p = &mut players[ply % 2];
                let msg = json!({"type": "resign"}).to_string();
                if p.sink.send(Message::Text(msg.into())).await.is_ok() {
                    let _ = p.replies.recv().await;
                }
                break;
            }
            if opts.think_ms > 0 {
                let t = opts.think_ms / 2 + rng.next() % (opts.think_ms + 1);
                tokio::time::sleep(Duration::from_millis(t)).await;
            }
            let m = legal[(rng.next() % legal.len() as u64) as usize];
            let uci = pos.uci(m);
            let p = &mut players[ply % 2];
            let t0 = Instant::now();
            let msg = json!({"type": "move", "move": uci, "ply": ply}).to_string();
            if p.sink.send(Message::Text(msg.into())).await.is_err() {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
            let Ok(Some(reply)) =
                tokio::time::timeout(Duration::from_secs(10), p.replies.recv()).await
            else {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                break;
            };
            let us = u32::try_from(t0.elapsed().as_micros()).unwrap_or(u32::MAX);
            if reply["type"] == "ack" {
                stats.latencies_us.lock().unwrap().push(us);
                stats.moves.fetch_add(1, Ordering::Relaxed);
                my_acks.push(Acked {
                    game: id.clone(),
                    seq: reply["seq"].as_i64().unwrap_or(-1),
                    uci,
                });
                pos.play_unchecked(m);
                ply += 1;
            } else if reply["error"] == "game_over" {
                // Ended by a rule the client does not track (75 moves, fivefold, dead position).
                break;
            } else {
                eprintln!("game {id}: unexpected reply {reply}");
                stats.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
        }
        stats.acked.lock().unwrap().extend(my_acks);
        stats.games_done.fetch_add(1, Ordering::Relaxed);
        for mut p in players {
            let _ = p.sink.close().await;
        }
    }
}

fn mem_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

async fn bench(opts: Opts) -> Result<(), BoxError> {
    let dir = tempfile_dir()?;
    let db = opts
        .db
        .clone()
        .unwrap_or_else(|| format!("{dir}/loadtest.db"));
    let exe = std::env::current_exe()?;
    let mut args = vec!["--serve", "--addr", "127.0.0.1:0", "--db", &db];
    if opts.sync_full {
        args.push("--sync-full");
    }
    let mut child = Command::new(exe)
        .args(&args)
        .stdout(Stdio::piped())
        .spawn()?;
    let pid = child.id();
    let mut line = String::new();
    BufReader::new(child.stdout.take().ok_or("no stdout")?).read_line(&mut line)?;
    let addr: SocketAddr = line
        .trim()
        .strip_prefix("listening ")
        .ok_or("server did not start")?
        .parse()?;
    eprintln!("server pid {pid} on {addr}, database {db}");

    let opts = Arc::new(opts);
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for i in 0..opts.games {
        tasks.push(tokio::spawn(run_games(
            addr,
            opts.clone(),
            0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1),
            stats.clone(),
            stop.clone(),
        )));
        if i % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    // Warm-up: wait until every game has connected and played, then measure.
    tokio::time::sleep(Duration::from_secs(3)).await;
    stats.latencies_us.lock().unwrap().clear();
    let m0 = stats.moves.load(Ordering::Relaxed);
    let t0 = Instant::now();
    let mut peak_rss = 0;
    for _ in 0..opts.seconds {
        tokio::time::sleep(Duration::from_secs(1)).await;
        peak_rss = peak_rss.max(mem_kb(pid, "VmRSS:").unwrap_or(0));
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let moves = stats.moves.load(Ordering::Relaxed) - m0;
    let mut lat = stats.latencies_us.lock().unwrap().clone();
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = t.await;
    }
    lat.sort_unstable();
    let hwm = mem_kb(pid, "VmHWM:").unwrap_or(0);

    // Stop the server (SIGTERM: graceful), then audit the database.
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let _ = child.wait();
    let store = arbiter_server::Store::connect(&db).await?;
    let acked = std::mem::take(&mut *stats.acked.lock().unwrap());
    let mut by_game: HashMap<&str, Vec<&Acked>> = HashMap::new();
    for a in &acked {
        by_game.entry(&a.game).or_default().push(a);
    }
    let (mut missing, mut duplicated, mut wrong) = (0usize, 0usize, 0usize);
    for (game, acks) in &by_game {
        let rows = store.events(game, 0).await?;
        let mut count: HashMap<i64, usize> = HashMap::new();
        let mut uci_of: HashMap<i64, String> = HashMap::new();
        let mut move_rows = 0usize;
        for r in rows.iter().filter(|r| r.kind == "move") {
            move_rows += 1;
            *count.entry(r.seq).or_default() += 1;
            let v: Value = serde_json::from_str(&r.data)?;
            // The move as the client wrote it (UCI, king two squares for castling).
            let uci = v["wire"]["move"]["uci"].as_str().unwrap_or("").to_owned();
            uci_of.insert(r.seq, uci);
        }
        for a in acks {
            match count.get(&a.seq) {
                None => missing += 1,
                Some(1) => {
                    if uci_of.get(&a.seq).map(String::as_str) != Some(a.uci.as_str()) {
                        wrong += 1;
                    }
                }
                Some(_) => duplicated += 1,
            }
        }
        // A stored move nobody was told about would be a duplicate from the client's view.
        duplicated += move_rows.saturating_sub(acks.len());
    }
    store.close().await;

    println!("games concurrently        {}", opts.games);
    println!("think time (mean)         {} ms", opts.think_ms);
    let database = match &opts.db {
        Some(url) if url.starts_with("postgres") => "PostgreSQL",
        _ if opts.sync_full => "SQLite, synchronous=FULL",
        _ => "SQLite, synchronous=NORMAL",
    };
    println!("database                  {database}");
    println!("measured for              {elapsed:.1} s");
    println!("moves acknowledged        {moves}");
    println!("moves/s                   {:.0}", moves as f64 / elapsed);
    println!(
        "latency p50 / p99 / max   {:.2} / {:.2} / {:.2} ms",
        percentile(&lat, 0.5),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0)
    );
    println!(
        "server RSS peak / HWM     {:.1} / {:.1} MiB",
        peak_rss as f64 / 1024.0,
        hwm as f64 / 1024.0
    );
    println!(
        "games finished            {}",
        stats.games_done.load(Ordering::Relaxed)
    );
    println!(
        "client errors             {}",
        stats.errors.load(Ordering::Relaxed)
    );
    println!("audit: {} acknowledged moves in {} games; missing {missing}, duplicated {duplicated}, wrong {wrong}", acked.len(), by_game.len());
    if missing + duplicated + wrong > 0 {
        return Err("the database does not hold every acknowledged move exactly once".into());
    }
    if opts.db.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}

fn tempfile_dir() -> Result<String, BoxError> {
    let base = std::env::temp_dir().join(format!("arbiter-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&base)?;
    Ok(base.to_string_lossy().into_owned())
}
