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
//! SQLite file), `--time-control TC` (`60+0`), `--sync-full` (SQLite `synchronous=FULL`),
//! `--accounts` (every player signs up; games are rated, created and joined with the session
//! cookie, and played over WebSockets authenticated by the cookie alone; the audit also checks
//! that every finished rated game was rated exactly once), `--lobby N` (instead of games: N
//! logged-in players with lobby sockets join the quick-pairing pools, then post and accept
//! seeks; reports the time from joining or accepting to `game_started`), `--export N`
//! (instead of games: two players play N short rated games, then their profile, the first and
//! last page of the game list and the streamed PGN export of all N are timed, with the
//! server's memory during the export).
//!
//! **Cluster mode**: `--cluster NODES --db postgres://…` starts one `nats-server` (Debian's
//! `/usr/sbin/nats-server`, or `--nats-server PATH`) on a free port and NODES server children
//! joined to it over the one database (`arbiter serve --cluster` in all but its command line:
//! the same `arbiter_server::start` with a `ClusterConfig`). Game `i` is created on node
//! `i mod NODES`, which owns it (the `x-arbiter-node` header of the answer names the node);
//! `--attach owner` (default) connects both players to the owner, `--attach other` joins and
//! connects them through the next node, so that every move is forwarded to the owner over NATS
//! and every event comes back through NATS. Reports, besides the figures above, each node's
//! memory, the CPU time per acknowledged move of the nodes, of `nats-server`, of PostgreSQL and
//! of the load generator, and each node's moves committed and requests forwarded (its
//! `/metrics`); before the nodes stop, it checks that every game is still owned by the node
//! that created it.
//!
//! ```text
//! loadtest --cluster 3 --attach other --db postgres://arbiter:arbiter@127.0.0.1/bench_cluster \
//!     --games 1000 --seconds 20 --think-ms 180
//! ```
//!
//! **lichess's Board API** (`--lichess`, issue 32): N games (default 1,000) of one fixed game
//! at 5+3 (`--plies P`, 200, then a resignation), first over the native WebSocket path as
//! above, then over lichess's Board API (accounts and tokens up front, every player's event
//! stream open, pairs paired by a challenge and its acceptance, moves by `POST move` answered
//! from the game streams); prints both side by side. `--no-native` skips the native run. See
//! `loadtest/lichess.rs`.
//!
//! `--warmup S` (3) sets the seconds between the start of the games and the measured window.
//! `--serve --addr A --db D [--nats URL --node-id NAME --lease-ms MS]` runs the server
//! itself (used for the child processes).

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

// The `--lichess` benchmark, in a directory of its own (the crate root would look beside it).
#[path = "loadtest/lichess.rs"]
mod lichess;

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
    accounts: bool,
    lobby: usize,
    export: usize,
    warmup: u64,
    /// Cluster mode: this many nodes (0: one server process, no cluster).
    cluster: usize,
    attach: Attach,
    nats_server: String,
    /// The child's cluster membership (`--serve` only): NATS URL, node id, lease.
    nats: Option<String>,
    node_id: Option<String>,
    lease_ms: u64,
    /// `--lichess`: the Board API benchmark (after the native one, unless `--no-native`).
    lichess: bool,
    native: bool,
    /// Play the fixed game of this many plies (then resign) instead of random moves, and
    /// time each move until the opponent's socket shows it (set by `--lichess`).
    script_plies: usize,
}

/// Where the players of a cluster game connect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attach {
    /// To the node that owns the game.
    Owner,
    /// To another node: moves are forwarded to the owner, events come back over NATS.
    Other,
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
        accounts: false,
        lobby: 0,
        export: 0,
        warmup: 3,
        cluster: 0,
        attach: Attach::Owner,
        nats_server: "/usr/sbin/nats-server".into(),
        nats: None,
        node_id: None,
        lease_ms: 5000,
        lichess: false,
        native: true,
        script_plies: 0,
    };
    let mut games_given = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        games_given |= a == "--games";
        let mut val = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--games" => o.games = val()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seconds" => o.seconds = val()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--think-ms" => o.think_ms = val()?.parse().map_err(|e| format!("--think-ms: {e}"))?,
            "--db" => o.db = Some(val()?),
            "--sync-full" => o.sync_full = true,
            "--accounts" => o.accounts = true,
            "--lobby" => o.lobby = val()?.parse().map_err(|e| format!("--lobby: {e}"))?,
            "--export" => o.export = val()?.parse().map_err(|e| format!("--export: {e}"))?,
            "--time-control" => o.time_control = val()?,
            "--addr" => o.addr = val()?,
            "--serve" => o.serve = true,
            "--warmup" => o.warmup = val()?.parse().map_err(|e| format!("--warmup: {e}"))?,
            "--cluster" => o.cluster = val()?.parse().map_err(|e| format!("--cluster: {e}"))?,
            "--attach" => {
                o.attach = match val()?.as_str() {
                    "owner" => Attach::Owner,
                    "other" => Attach::Other,
                    v => return Err(format!("--attach {v}: owner or other")),
                }
            }
            "--nats-server" => o.nats_server = val()?,
            "--nats" => o.nats = Some(val()?),
            "--node-id" => o.node_id = Some(val()?),
            "--lease-ms" => o.lease_ms = val()?.parse().map_err(|e| format!("--lease-ms: {e}"))?,
            "--lichess" => o.lichess = true,
            "--no-native" => o.native = false,
            "--plies" => o.script_plies = val()?.parse().map_err(|e| format!("--plies: {e}"))?,
            "-h" | "--help" => {
                return Err(
                    "usage: loadtest [--games N] [--seconds S] [--think-ms T] [--warmup S] [--db URL] \
                            [--time-control TC] [--sync-full] [--accounts] [--lobby N] [--export N] \
                            [--lichess [--no-native] [--plies P]] \
                            [--cluster NODES --db postgres://… [--attach owner|other] \
                            [--nats-server PATH] [--lease-ms MS]]"
                        .into(),
                )
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if o.cluster > 0 && !o.serve {
        if !o.db.as_deref().is_some_and(|d| d.starts_with("postgres")) {
            return Err("--cluster needs --db postgres://…".into());
        }
        if o.lobby > 0 || o.export > 0 {
            return Err("--cluster runs the games benchmark only (not --lobby or --export)".into());
        }
        if o.cluster > 26 {
            return Err("--cluster: at most 26 nodes".into());
        }
    }
    if o.lichess && !o.serve {
        if o.cluster > 0 || o.lobby > 0 || o.export > 0 || o.accounts {
            return Err("--lichess runs on one server, alone".into());
        }
        if !games_given {
            o.games = 1000;
        }
        if o.script_plies == 0 {
            o.script_plies = lichess::DEFAULT_PLIES;
        }
        if o.time_control == "60+0" {
            o.time_control = "5+3".into();
        }
    }
    if o.attach == Attach::Other && o.cluster < 2 {
        return Err("--attach other needs --cluster 2 or more".into());
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
    let run = async {
        if opts.lichess {
            lichess::run(opts).await
        } else if opts.lobby > 0 {
            lobby_bench(opts).await
        } else if opts.export > 0 {
            export_bench(opts).await
        } else {
            bench(opts).await.map(|_| ())
        }
    };
    if let Err(e) = rt.block_on(run) {
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
            // Every simulated player signs up from this one address.
            sign_ups_per_address: None,
            cluster: opts
                .nats
                .clone()
                .map(|nats_url| arbiter_server::cluster::ClusterConfig {
                    nats_url,
                    node_id: opts.node_id.clone().unwrap_or_else(|| "n1".into()),
                    lease: Duration::from_millis(opts.lease_ms),
                }),
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

/// A tiny HTTP/1.1 client (one request per connection) — enough for setting games up — with
/// a session cookie if given (and the site's own Origin, as a browser sends it); returns the
/// body and the new session cookie if the response set one.
async fn http_as(
    addr: SocketAddr,
    cookie: Option<&str>,
    method: &str,
    path: &str,
    body: &Value,
) -> Result<(Value, Option<String>), BoxError> {
    let (head, body) = http_text(addr, cookie, method, path, body).await?;
    let set = head.lines().find_map(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("set-cookie: arbiter_session=").then(|| {
            l["set-cookie: ".len()..]
                .split(';')
                .next()
                .unwrap_or("")
                .to_owned()
        })
    });
    let value = if body.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&body)?
    };
    Ok((value, set))
}

/// A header's value in a response's head.
fn header_value(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().to_owned())
    })
}

/// As [`http_as`], returning the response's head and body as text (an error unless 2xx).
async fn http_text(
    addr: SocketAddr,
    cookie: Option<&str>,
    method: &str,
    path: &str,
    body: &Value,
) -> Result<(String, String), BoxError> {
    let body = body.to_string();
    let mut s = TcpStream::connect(addr).await?;
    let cookie = cookie.map_or(String::new(), |c| format!("Cookie: {c}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{cookie}\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
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
    Ok((head.to_owned(), body.to_owned()))
}

/// Sign up a fresh player; returns the session cookie.
async fn sign_up(addr: SocketAddr, username: &str) -> Result<String, BoxError> {
    let (_, cookie) = http_as(
        addr,
        None,
        "POST",
        "/api/account",
        &json!({"username": username, "password": "load test password"}),
    )
    .await?;
    cookie.ok_or_else(|| "sign-up set no cookie".into())
}

struct Acked {
    game: String,
    seq: i64,
    uci: String,
}

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u32>>,
    /// A move's send → the opponent's socket shows it (scripted games only).
    opp_latencies_us: Mutex<Vec<u32>>,
    acked: Mutex<Vec<Acked>>,
    moves: AtomicU64,
    games_done: AtomicU64,
    errors: AtomicU64,
    /// Each game's owner (index of its node) as its creation said.
    owners: Mutex<HashMap<String, usize>>,
}

type WsStream = tokio_tungstenite::WebSocketStream<TcpStream>;

struct Player {
    sink: futures_util::stream::SplitSink<WsStream, Message>,
    replies: mpsc::UnboundedReceiver<Value>,
    /// The numbers of the move events this socket received, and when (if asked for).
    moves_seen: Option<mpsc::UnboundedReceiver<(i64, Instant)>>,
}

/// How a player proves its seat: a seat token, or the account's session cookie.
enum Seat<'a> {
    Token(&'a str),
    Cookie(&'a str),
}

async fn connect_player(
    addr: SocketAddr,
    id: &str,
    seat: Seat<'_>,
    watch_moves: bool,
) -> Result<Player, BoxError> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let tcp = TcpStream::connect(addr).await?;
    tcp.set_nodelay(true)?;
    let url = match seat {
        Seat::Token(token) => format!("ws://{addr}/api/games/{id}/ws?since=1&token={token}"),
        Seat::Cookie(_) => format!("ws://{addr}/api/games/{id}/ws?since=1"),
    };
    let mut req = url.into_client_request()?;
    if let Seat::Cookie(c) = seat {
        req.headers_mut().insert("cookie", c.parse()?);
        req.headers_mut()
            .insert("origin", format!("http://{addr}").parse()?);
    }
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (ws, _) = tokio_tungstenite::client_async_with_config(req, tcp, Some(config)).await?;
    let (sink, mut stream) = ws.split();
    let (tx, rx) = mpsc::unbounded_channel();
    let (seen_tx, seen_rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(Ok(msg)) = stream.next().await {
            if let Message::Text(t) = msg {
                // Only replies matter to the player, and move events if watched; other
                // events are read and dropped.
                let t = t.as_str();
                if watch_moves && t.contains("\"kind\":\"move\"") {
                    let at = Instant::now();
                    if let Ok(v) = serde_json::from_str::<Value>(t) {
                        if v["type"] == "event" {
                            let _ = seen_tx.send((v["seq"].as_i64().unwrap_or(-1), at));
                        }
                    }
                } else if t.contains("\"type\":\"ack\"") || t.contains("\"type\":\"error\"") {
                    if let Ok(v) = serde_json::from_str::<Value>(t) {
                        if tx.send(v).is_err() {
                            break;
                        }
                    }
                }
            }
        }
    });
    Ok(Player {
        sink,
        replies: rx,
        moves_seen: watch_moves.then_some(seen_rx),
    })
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

/// The servers the players talk to: one process, or the nodes of a cluster.
struct Target {
    addrs: Vec<SocketAddr>,
    names: Vec<String>,
    attach: Attach,
}

/// Create a game on node `home`, then join it and connect both players on the node `attach`
/// says (in a cluster); returns the game, the index of its owner, and the players.
async fn new_game(
    target: &Target,
    home: usize,
    tc: &str,
    cookies: Option<&[String; 2]>,
    watch_moves: bool,
) -> Result<(String, usize, Player, Player), BoxError> {
    let (w, b) = match cookies {
        Some([cw, cb]) => (Some(cw.as_str()), Some(cb.as_str())),
        None => (None, None),
    };
    let (head, body) = http_text(
        target.addrs[home],
        w,
        "POST",
        "/api/games",
        &json!({"time_control": tc, "color": "white", "rated": cookies.is_some()}),
    )
    .await?;
    let created: Value = serde_json::from_str(&body)?;
    let id = created["id"].as_str().ok_or("no id")?.to_owned();
    // The node that created the game owns it; the header names it.
    let owner = header_value(&head, "x-arbiter-node")
        .and_then(|n| target.names.iter().position(|m| *m == n))
        .unwrap_or(home);
    let addr = match target.attach {
        Attach::Owner => target.addrs[owner],
        Attach::Other => target.addrs[(owner + 1) % target.addrs.len()],
    };
    let (joined, _) = http_as(
        addr,
        b,
        "POST",
        &format!("/api/games/{id}/join"),
        &json!({}),
    )
    .await?;
    let token = |grant: &Value| grant["token"].as_str().unwrap_or("").to_owned();
    let (tw, tb) = (token(&created), token(&joined));
    // Logged in, the players act by their cookie alone; anonymous, by their seat tokens.
    let (white, black) = match (w, b) {
        (Some(cw), Some(cb)) => (
            connect_player(addr, &id, Seat::Cookie(cw), watch_moves).await?,
            connect_player(addr, &id, Seat::Cookie(cb), watch_moves).await?,
        ),
        _ => (
            connect_player(addr, &id, Seat::Token(&tw), watch_moves).await?,
            connect_player(addr, &id, Seat::Token(&tb), watch_moves).await?,
        ),
    };
    Ok((id, owner, white, black))
}

async fn run_games(
    target: Arc<Target>,
    home: usize,
    opts: Arc<Opts>,
    cookies: Option<[String; 2]>,
    seed: u64,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
) {
    let mut rng = Rng(seed | 1);
    // Scripted (beside `--lichess`): the fixed game, each move timed until the opponent sees it.
    let script = (opts.script_plies > 0).then(|| lichess::script(opts.script_plies));
    while !stop.load(Ordering::Relaxed) {
        let made = new_game(
            &target,
            home,
            &opts.time_control,
            cookies.as_ref(),
            script.is_some(),
        )
        .await;
        let (id, white, black) = match made {
            Ok((id, owner, white, black)) => {
                stats.owners.lock().unwrap().insert(id.clone(), owner);
                (id, white, black)
            }
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
            let limit = script.as_ref().map_or(300, Vec::len);
            if ply >= limit {
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
            let m = match &script {
                Some(moves) => *legal
                    .iter()
                    .find(|&&m| pos.uci(m) == moves[ply])
                    .expect("the script's moves are legal"),
                None => legal[(rng.next() % legal.len() as u64) as usize],
            };
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
                let seq = reply["seq"].as_i64().unwrap_or(-1);
                my_acks.push(Acked {
                    game: id.clone(),
                    seq,
                    uci,
                });
                pos.play_unchecked(m);
                ply += 1;
                // The opponent moves once its socket has shown this move, as a client
                // answering what it sees would.
                let opponent = &mut players[ply % 2];
                if let Some(seen) = &mut opponent.moves_seen {
                    let shown = loop {
                        match tokio::time::timeout(Duration::from_secs(10), seen.recv()).await {
                            Ok(Some((s, at))) if s >= seq => break Some(at),
                            Ok(Some(_)) => {}
                            _ => break None,
                        }
                    };
                    let Some(at) = shown else {
                        eprintln!("game {id}: the opponent never saw event {seq}");
                        stats.errors.fetch_add(1, Ordering::Relaxed);
                        break;
                    };
                    stats.opp_latencies_us.lock().unwrap().push(micros(at - t0));
                }
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

/// Start the server as a child process; returns it, its pid, address, database and the
/// temporary directory.
fn start_server(
    opts: &Opts,
) -> Result<(std::process::Child, u32, SocketAddr, String, String), BoxError> {
    let dir = tempfile_dir()?;
    let db = opts
        .db
        .clone()
        .unwrap_or_else(|| format!("{dir}/loadtest.db"));
    let mut args = vec!["--serve", "--addr", "127.0.0.1:0", "--db", &db];
    if opts.sync_full {
        args.push("--sync-full");
    }
    let (child, pid, addr) = spawn_serve(&args)?;
    eprintln!("server pid {pid} on {addr}, database {db}");
    Ok((child, pid, addr, db, dir))
}

/// Run `loadtest --serve ARGS` and wait until it listens; returns it, its pid and address.
fn spawn_serve(args: &[&str]) -> Result<(std::process::Child, u32, SocketAddr), BoxError> {
    let exe = std::env::current_exe()?;
    let mut child = Command::new(exe)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()?;
    let pid = child.id();
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    out.read_line(&mut line)?;
    // The server's log after its first line: passed on (a closed pipe would lose it).
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::stderr()));
    let Some(addr) = line.trim().strip_prefix("listening ") else {
        let _ = child.kill();
        let _ = child.wait();
        return Err("server did not start".into());
    };
    Ok((child, pid, addr.parse()?))
}

/// A server process: the one server, or a node of the cluster.
struct Node {
    name: String,
    child: std::process::Child,
    pid: u32,
    addr: SocketAddr,
}

/// The processes under test. Stopped gracefully by [`Servers::stop`]; killed if dropped
/// running (an error on the way).
struct Servers {
    nodes: Vec<Node>,
    nats: Option<std::process::Child>,
    db: String,
    dir: String,
}

impl Servers {
    fn single(opts: &Opts) -> Result<Self, BoxError> {
        let (child, pid, addr, db, dir) = start_server(opts)?;
        Ok(Self {
            nodes: vec![Node {
                name: "server".into(),
                child,
                pid,
                addr,
            }],
            nats: None,
            db,
            dir,
        })
    }

    /// One `nats-server` on a free port, then `opts.cluster` nodes, one after the other (the
    /// first migrates the database).
    fn cluster(opts: &Opts) -> Result<Self, BoxError> {
        let db = opts.db.clone().ok_or("--cluster needs --db postgres://…")?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let nats = Command::new(&opts.nats_server)
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e}", opts.nats_server))?;
        let nats_pid = nats.id();
        let mut servers = Self {
            nodes: Vec::new(),
            nats: Some(nats),
            db: db.clone(),
            dir: String::new(),
        };
        let t = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if t.elapsed() > Duration::from_secs(10) {
                return Err("nats-server did not start".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let url = format!("nats://127.0.0.1:{port}");
        eprintln!("nats-server pid {nats_pid} on {url}, database {db}");
        let lease = opts.lease_ms.to_string();
        for k in 0..opts.cluster {
            let name = format!("n{}", k + 1);
            let (child, pid, addr) = spawn_serve(&[
                "--serve",
                "--addr",
                "127.0.0.1:0",
                "--db",
                &db,
                "--nats",
                &url,
                "--node-id",
                &name,
                "--lease-ms",
                &lease,
            ])?;
            eprintln!("node {name} pid {pid} on {addr}");
            servers.nodes.push(Node {
                name,
                child,
                pid,
                addr,
            });
        }
        Ok(servers)
    }

    fn nats_pid(&self) -> Option<u32> {
        self.nats.as_ref().map(std::process::Child::id)
    }

    /// SIGTERM (graceful) to every node at once, then to NATS; waits for them all.
    fn stop(&mut self) {
        for n in &self.nodes {
            let _ = Command::new("kill")
                .args(["-TERM", &n.pid.to_string()])
                .status();
        }
        for n in &mut self.nodes {
            let _ = n.child.wait();
        }
        if let Some(nats) = &mut self.nats {
            let _ = Command::new("kill")
                .args(["-TERM", &nats.id().to_string()])
                .status();
            let _ = nats.wait();
        }
    }
}

impl Drop for Servers {
    fn drop(&mut self) {
        let children = self
            .nodes
            .iter_mut()
            .map(|n| &mut n.child)
            .chain(self.nats.as_mut());
        for c in children {
            if matches!(c.try_wait(), Ok(None)) {
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}

/// CPU time (user + system, all threads) of a process so far, in seconds.
fn cpu_secs(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // USER_HZ: 100 on Linux.
    Some(ticks as f64 / 100.0)
}

/// CPU seconds of every PostgreSQL process on the machine, and whether it works for database
/// `db` (a backend connected to it, or an autovacuum worker on it: its title names it).
fn postgres_cpu(db: &str) -> HashMap<u32, (bool, f64)> {
    let mut out = HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        if !comm.starts_with("postgres") {
            continue;
        }
        let title = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        // A backend's title: `postgres: USER DATABASE HOST(PORT) STATE`; an autovacuum
        // worker's: `postgres: autovacuum worker DATABASE`.
        let title = String::from_utf8_lossy(&title).replace('\0', " ");
        let mine = title.split_whitespace().any(|w| w == db);
        if let Some(cpu) = cpu_secs(pid) {
            out.insert(pid, (mine, cpu));
        }
    }
    out
}

/// The database's name in a URL (`postgres://u:p@host/NAME?…`).
fn db_name(url: &str) -> &str {
    let path = url.rsplit('/').next().unwrap_or("");
    path.split('?').next().unwrap_or("")
}

/// A node's Prometheus counters and gauges (unlabelled ones).
async fn node_metrics(addr: SocketAddr) -> HashMap<String, f64> {
    let Ok((_, text)) = http_text(addr, None, "GET", "/metrics", &Value::Null).await else {
        return HashMap::new();
    };
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (k, v) = l.split_once(' ')?;
            Some((k.to_owned(), v.trim().parse().ok()?))
        })
        .collect()
}

/// The CPU times and counters sampled at both ends of the measured window.
struct Sample {
    nodes_cpu: Vec<f64>,
    metrics: Vec<HashMap<String, f64>>,
    nats_cpu: f64,
    postgres: HashMap<u32, (bool, f64)>,
    me: f64,
    /// PostgreSQL's own counters: this database's commits; the server's WAL fsyncs and bytes.
    wal: Option<[f64; 3]>,
}

/// PostgreSQL's counters (`pg_stat_database`, `pg_stat_wal`; flushed by each backend about
/// once a second, so a window of many seconds counts them closely).
async fn postgres_counters(store: &arbiter_server::Store) -> Option<[f64; 3]> {
    use sqlx::Row;
    let row = sqlx::query(
        "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) \
           ::BIGINT AS commits, \
           (SELECT wal_sync FROM pg_stat_wal)::BIGINT AS syncs, \
           (SELECT wal_bytes FROM pg_stat_wal)::BIGINT AS bytes",
    )
    .fetch_one(store.pool())
    .await
    .ok()?;
    let get = |name: &str| row.try_get::<i64, _>(name).ok().map(|v| v as f64);
    Some([get("commits")?, get("syncs")?, get("bytes")?])
}

async fn sample(servers: &Servers, stats_db: Option<&arbiter_server::Store>) -> Sample {
    let wal = match stats_db {
        Some(store) => postgres_counters(store).await,
        None => None,
    };
    let mut metrics = Vec::new();
    for n in &servers.nodes {
        metrics.push(node_metrics(n.addr).await);
    }
    Sample {
        nodes_cpu: servers
            .nodes
            .iter()
            .map(|n| cpu_secs(n.pid).unwrap_or(0.0))
            .collect(),
        metrics,
        nats_cpu: servers.nats_pid().and_then(cpu_secs).unwrap_or(0.0),
        postgres: postgres_cpu(db_name(&servers.db)),
        me: cpu_secs(std::process::id()).unwrap_or(0.0),
        wal,
    }
}

impl Sample {
    /// PostgreSQL's CPU seconds since `before`: (this database's processes, the others: the
    /// shared WAL writer, checkpointer… and whatever else uses the server).
    /// A process that exited in between is lost; one that started counts whole.
    fn postgres_since(&self, before: &Sample) -> (f64, f64) {
        let (mut mine, mut other) = (0.0, 0.0);
        for (pid, (is_mine, cpu)) in &self.postgres {
            let d = cpu - before.postgres.get(pid).map_or(0.0, |p| p.1);
            if *is_mine {
                mine += d;
            } else {
                other += d;
            }
        }
        (mine, other)
    }

    fn metric(&self, node: usize, name: &str) -> f64 {
        self.metrics[node].get(name).copied().unwrap_or(0.0)
    }
}

/// Cluster mode, before the nodes stop (a stopped node's games move to the others): the
/// games whose owner in the database is not the node that created them.
async fn moved_games(servers: &Servers, stats: &Stats) -> Result<(usize, Vec<String>), BoxError> {
    use sqlx::Row;
    let store = arbiter_server::Store::connect(&servers.db).await?;
    let rows = sqlx::query("SELECT id, owner_node FROM games")
        .fetch_all(store.pool())
        .await?;
    let mut owner_of = HashMap::new();
    for r in rows {
        let id: String = r.try_get("id")?;
        let owner: Option<String> = r.try_get("owner_node")?;
        owner_of.insert(id, owner.unwrap_or_default());
    }
    store.close().await;
    let owners = stats.owners.lock().unwrap();
    let mut moved: Vec<String> = owners
        .iter()
        .filter(|(id, &k)| owner_of.get(*id).map(String::as_str) != Some(&servers.nodes[k].name))
        .map(|(id, _)| id.clone())
        .collect();
    moved.sort();
    Ok((owners.len(), moved))
}

/// One run's figures, for the side-by-side table of `--lichess`.
struct Summary {
    moves_per_s: f64,
    /// Send → acknowledgement (native) or → `200` (lichess): p50, p99, max in ms.
    latency: [f64; 3],
    /// Send → the opponent's socket or stream shows the move.
    opponent: [f64; 3],
    rss_peak_kib: u64,
    hwm_kib: u64,
    server_cpu_ms_per_move: f64,
    load_generator_cpu_ms_per_move: f64,
    acked: usize,
    missing: usize,
    duplicated: usize,
    wrong: usize,
    errors: u64,
}

/// p50, p99 and max of sorted microseconds, in ms.
fn percentiles(sorted: &[u32]) -> [f64; 3] {
    [
        percentile(sorted, 0.5),
        percentile(sorted, 0.99),
        percentile(sorted, 1.0),
    ]
}

async fn bench(opts: Opts) -> Result<Summary, BoxError> {
    let mut servers = if opts.cluster > 0 {
        Servers::cluster(&opts)?
    } else {
        Servers::single(&opts)?
    };
    let target = Arc::new(Target {
        addrs: servers.nodes.iter().map(|n| n.addr).collect(),
        names: servers.nodes.iter().map(|n| n.name.clone()).collect(),
        attach: opts.attach,
    });
    let nodes = target.addrs.len();

    let opts = Arc::new(opts);
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(AtomicBool::new(false));
    // With accounts, every player signs up before the games start (the password hashing is
    // timed here, not in the measured window).
    let mut cookies: Vec<Option<[String; 2]>> = vec![None; opts.games];
    if opts.accounts {
        let t = Instant::now();
        let tag = std::process::id();
        let signups = (0..opts.games).map(|i| {
            let addr = target.addrs[i % nodes];
            async move {
                let w = sign_up(addr, &format!("lt{tag}x{i}w")).await?;
                let b = sign_up(addr, &format!("lt{tag}x{i}b")).await?;
                Ok::<_, BoxError>([w, b])
            }
        });
        let pairs = futures_util::future::join_all(signups).await;
        for (slot, pair) in cookies.iter_mut().zip(pairs) {
            *slot = Some(pair?);
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "sign-ups                  {} in {secs:.1} s ({:.0}/s, argon2id on one thread per core)",
            2 * opts.games,
            2.0 * opts.games as f64 / secs
        );
    }
    let mut tasks = Vec::new();
    for (i, cookies) in cookies.into_iter().enumerate() {
        tasks.push(tokio::spawn(run_games(
            target.clone(),
            i % nodes,
            opts.clone(),
            cookies,
            0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1),
            stats.clone(),
            stop.clone(),
        )));
        if i % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    // Warm-up: wait until every game has connected and played, then measure.
    tokio::time::sleep(Duration::from_secs(opts.warmup)).await;
    let set_up = stats.owners.lock().unwrap().len();
    if set_up < opts.games {
        eprintln!(
            "warm-up: only {set_up} of {} games set up (try a longer --warmup)",
            opts.games
        );
    }
    let stats_db = if servers.db.starts_with("postgres") {
        Some(arbiter_server::Store::connect(&servers.db).await?)
    } else {
        None
    };
    let before = sample(&servers, stats_db.as_ref()).await;
    stats.latencies_us.lock().unwrap().clear();
    stats.opp_latencies_us.lock().unwrap().clear();
    let m0 = stats.moves.load(Ordering::Relaxed);
    let t0 = Instant::now();
    let mut peak_rss = vec![0; nodes];
    for _ in 0..opts.seconds {
        tokio::time::sleep(Duration::from_secs(1)).await;
        for (peak, n) in peak_rss.iter_mut().zip(&servers.nodes) {
            *peak = (*peak).max(mem_kb(n.pid, "VmRSS:").unwrap_or(0));
        }
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let moves = stats.moves.load(Ordering::Relaxed) - m0;
    let mut lat = stats.latencies_us.lock().unwrap().clone();
    let mut opp = stats.opp_latencies_us.lock().unwrap().clone();
    let after = sample(&servers, stats_db.as_ref()).await;
    if let Some(store) = stats_db {
        store.close().await;
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = t.await;
    }
    lat.sort_unstable();
    opp.sort_unstable();
    let hwm: Vec<u64> = servers
        .nodes
        .iter()
        .map(|n| mem_kb(n.pid, "VmHWM:").unwrap_or(0))
        .collect();
    let ownership = if opts.cluster > 0 {
        Some(moved_games(&servers, &stats).await?)
    } else {
        None
    };

    // Stop the server (SIGTERM: graceful), then audit the database.
    servers.stop();
    let db = servers.db.clone();
    let store = arbiter_server::Store::connect(&db).await?;
    let acked = std::mem::take(&mut *stats.acked.lock().unwrap());
    let mut by_game: HashMap<&str, Vec<&Acked>> = HashMap::new();
    for a in &acked {
        by_game.entry(&a.game).or_default().push(a);
    }
    let (mut missing, mut duplicated, mut wrong) = (0usize, 0usize, 0usize);
    let mut bad_games = Vec::new();
    for (game, acks) in &by_game {
        let errors_before = missing + duplicated + wrong;
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
        if missing + duplicated + wrong > errors_before {
            bad_games.push(*game);
        }
    }
    let rating_audit = if opts.accounts {
        Some(audit_ratings(&store).await?)
    } else {
        None
    };
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
    if opts.script_plies > 0 {
        println!(
            "move → opponent's socket  {:.2} / {:.2} / {:.2} ms (p50 / p99 / max)",
            percentile(&opp, 0.5),
            percentile(&opp, 0.99),
            percentile(&opp, 1.0)
        );
    }
    let secs = |cpu: f64| cpu / moves.max(1) as f64 * 1000.0;
    let nodes_cpu: Vec<f64> = (0..nodes)
        .map(|k| after.nodes_cpu[k] - before.nodes_cpu[k])
        .collect();
    if opts.cluster == 0 {
        println!(
            "server RSS peak / HWM     {:.1} / {:.1} MiB",
            peak_rss[0] as f64 / 1024.0,
            hwm[0] as f64 / 1024.0
        );
    } else {
        let how = match opts.attach {
            Attach::Owner => "to the game's owner",
            Attach::Other => "to another node than the owner (moves forwarded over NATS)",
        };
        println!("cluster                   {nodes} nodes, players connected {how}");
        for (k, n) in servers.nodes.iter().enumerate() {
            let delta = |name: &str| after.metric(k, name) - before.metric(k, name);
            println!(
                "node {:<20} RSS peak / HWM {:.1} / {:.1} MiB; CPU {:.1} s ({:.0} % of a core); \
                 committed {:.0} moves, forwarded {:.0} requests, owns {:.0} games",
                n.name,
                peak_rss[k] as f64 / 1024.0,
                hwm[k] as f64 / 1024.0,
                nodes_cpu[k],
                nodes_cpu[k] / elapsed * 100.0,
                delta("arbiter_moves_total"),
                delta("arbiter_forwarded_total"),
                after.metric(k, "arbiter_games_owned"),
            );
        }
    }
    let (pg_mine, pg_other) = after.postgres_since(&before);
    let postgres = if database == "PostgreSQL" {
        format!(
            ", PostgreSQL {:.3} (this database's processes; other PostgreSQL processes {:.3})",
            secs(pg_mine),
            secs(pg_other)
        )
    } else {
        String::new()
    };
    let nats = if opts.cluster > 0 {
        format!(
            ", nats-server {:.3}",
            secs(after.nats_cpu - before.nats_cpu)
        )
    } else {
        String::new()
    };
    println!(
        "CPU per move (ms)         server{} {:.3}{nats}{postgres}, load generator {:.3}",
        if nodes > 1 { "s" } else { "" },
        secs(nodes_cpu.iter().sum()),
        secs(after.me - before.me)
    );
    if let (Some(a), Some(b)) = (after.wal, before.wal) {
        let (commits, syncs, bytes) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
        println!(
            "PostgreSQL                {:.0} commits/s in this database ({:.1} moves each), \
             {:.0} WAL fsyncs/s ({:.1} moves each), {:.0} WAL bytes per move (the last two: \
             the whole server)",
            commits / elapsed,
            moves as f64 / commits.max(1.0),
            syncs / elapsed,
            moves as f64 / syncs.max(1.0),
            bytes / moves.max(1) as f64
        );
    }
    println!(
        "load average              {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    if let Some((games, moved)) = &ownership {
        let counter = |name: &str| -> f64 { (0..nodes).map(|k| after.metric(k, name)).sum() };
        println!(
            "ownership                 {games} games, {} owned by another node than their creator \
             {:?}; takeovers {:.0}, fenced commits {:.0}, lease losses {:.0}",
            moved.len(),
            &moved[..moved.len().min(5)],
            counter("arbiter_takeovers_total"),
            counter("arbiter_fenced_commits_total"),
            counter("arbiter_lease_losses_total"),
        );
    }
    println!(
        "games finished            {}",
        stats.games_done.load(Ordering::Relaxed)
    );
    println!(
        "client errors             {}",
        stats.errors.load(Ordering::Relaxed)
    );
    println!("audit: {} acknowledged moves in {} games; missing {missing}, duplicated {duplicated}, wrong {wrong}", acked.len(), by_game.len());
    if !bad_games.is_empty() {
        bad_games.sort_unstable();
        println!("audit: games in error {bad_games:?}");
    }
    if missing + duplicated + wrong > 0 {
        return Err("the database does not hold every acknowledged move exactly once".into());
    }
    if let Some((rated, with_change, rating_games)) = rating_audit {
        println!(
            "ratings audit: {rated} rated games ended with a result, {with_change} with their \
             rating change, {rating_games} rated games counted over all players (2 each)"
        );
        if rated != with_change || rating_games != 2 * with_change {
            return Err("a rated game was not rated exactly once".into());
        }
    }
    if opts.db.is_none() {
        let _ = std::fs::remove_dir_all(&servers.dir);
    }
    Ok(Summary {
        moves_per_s: moves as f64 / elapsed,
        latency: percentiles(&lat),
        opponent: percentiles(&opp),
        rss_peak_kib: peak_rss[0],
        hwm_kib: hwm[0],
        server_cpu_ms_per_move: secs(nodes_cpu.iter().sum()),
        load_generator_cpu_ms_per_move: secs(after.me - before.me),
        acked: acked.len(),
        missing,
        duplicated,
        wrong,
        errors: stats.errors.load(Ordering::Relaxed),
    })
}

fn tempfile_dir() -> Result<String, BoxError> {
    let base = std::env::temp_dir().join(format!("arbiter-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&base)?;
    Ok(base.to_string_lossy().into_owned())
}

/// Rated games that ended with a result (not aborted), those with their rating change stored,
/// and the rated games counted in the players' ratings (each game counts for two players).
async fn audit_ratings(store: &arbiter_server::Store) -> Result<(i64, i64, i64), BoxError> {
    use sqlx::Row;
    let row = sqlx::query(
        "SELECT \
           (SELECT COUNT(*) FROM games WHERE rated = 1 AND status = 'finished' \
              AND result IN ('1-0', '0-1', '1/2-1/2') AND termination <> 'aborted') AS rated, \
           (SELECT COUNT(*) FROM games WHERE white_rating_diff IS NOT NULL) AS with_change, \
           (SELECT COALESCE(SUM(games), 0) FROM ratings) AS rating_games",
    )
    .fetch_one(store.pool())
    .await?;
    Ok((
        row.try_get("rated")?,
        row.try_get("with_change")?,
        row.try_get("rating_games")?,
    ))
}

/// A logged-in player of the lobby benchmark: its cookie and the games started for it.
struct LobbyPlayer {
    cookie: String,
    started: mpsc::UnboundedReceiver<(String, Instant)>,
}

async fn lobby_player(addr: SocketAddr, name: String) -> Result<LobbyPlayer, BoxError> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let cookie = sign_up(addr, &name).await?;
    let mut req = format!("ws://{addr}/api/lobby/ws").into_client_request()?;
    req.headers_mut().insert("cookie", cookie.parse()?);
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse()?);
    let tcp = TcpStream::connect(addr).await?;
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (ws, _) = tokio_tungstenite::client_async_with_config(req, tcp, Some(config)).await?;
    let (_sink, mut stream) = ws.split();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let _keep = _sink;
        while let Some(Ok(msg)) = stream.next().await {
            if let Message::Text(t) = msg {
                if t.as_str().contains("\"game_started\"") {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
                    let game = v["game"].as_str().unwrap_or("").to_owned();
                    if tx.send((game, Instant::now())).is_err() {
                        break;
                    }
                }
            }
        }
    });
    Ok(LobbyPlayer {
        cookie,
        started: rx,
    })
}

fn report(what: &str, mut us: Vec<u32>) {
    us.sort_unstable();
    println!(
        "{what:<34} n {:>5}   p50 {:>7.2}   p99 {:>7.2}   max {:>7.2} ms",
        us.len(),
        percentile(&us, 0.5),
        percentile(&us, 0.99),
        percentile(&us, 1.0)
    );
}

fn micros(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// `--lobby N`: N logged-in players with lobby sockets join and leave pools, are paired, then
/// post and accept seeks.
async fn lobby_bench(opts: Opts) -> Result<(), BoxError> {
    const POOLS: [&str; 9] = [
        "1%2B0", "3%2B0", "3%2B2", "5%2B0", "5%2B3", "10%2B0", "10%2B5", "15%2B10", "30%2B0",
    ];
    let n = opts.lobby - opts.lobby % 2;
    let (mut child, pid, addr, _db, dir) = start_server(&opts)?;
    let t0 = Instant::now();
    let mut players = Vec::with_capacity(n);
    let run = format!("{:x}", std::process::id());
    for chunk in (0..n).collect::<Vec<_>>().chunks(16) {
        let made = futures_util::future::join_all(
            chunk
                .iter()
                .map(|i| lobby_player(addr, format!("lb{run}x{i}"))),
        )
        .await;
        for p in made {
            players.push(p?);
        }
    }
    println!(
        "lobby players             {n} (signed up and connected in {:.1} s)",
        t0.elapsed().as_secs_f64()
    );

    // Join a pool and leave it again, every player at once.
    let calls = players.iter().enumerate().map(|(i, p)| async move {
        let pool = POOLS[(i / 2) % POOLS.len()]; // two by two: every pool even
        let t = Instant::now();
        http_as(
            addr,
            Some(&p.cookie),
            "POST",
            &format!("/api/pools/{pool}/join"),
            &json!({}),
        )
        .await?;
        let joined = micros(t.elapsed());
        let t = Instant::now();
        http_as(addr, Some(&p.cookie), "DELETE", "/api/pools", &json!({})).await?;
        Ok::<_, BoxError>((joined, micros(t.elapsed())))
    });
    let mut join_us = Vec::new();
    let mut leave_us = Vec::new();
    for r in futures_util::future::join_all(calls).await {
        let (j, l) = r?;
        join_us.push(j);
        leave_us.push(l);
    }
    report("pool join (HTTP)", join_us);
    report("pool leave (HTTP)", leave_us);
    // A wave may have paired two players between their join and their leave: those games
    // are real; they are counted and set aside.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let mut early = 0;
    for p in &mut players {
        while p.started.try_recv().is_ok() {
            early += 1;
        }
    }
    println!("paired between join and leave  {} games", early / 2);

    // Join for real: everyone is paired; time from the join's answer to game_started.
    let joins = players.iter().enumerate().map(|(i, p)| async move {
        let pool = POOLS[(i / 2) % POOLS.len()]; // two by two: every pool even
        http_as(
            addr,
            Some(&p.cookie),
            "POST",
            &format!("/api/pools/{pool}/join"),
            &json!({}),
        )
        .await?;
        Ok::<_, BoxError>(Instant::now())
    });
    let joined: Vec<Instant> = futures_util::future::join_all(joins)
        .await
        .into_iter()
        .collect::<Result<_, _>>()?;
    let mut match_us = Vec::new();
    let mut games: HashMap<String, usize> = HashMap::new();
    let mut unmatched = 0;
    for (p, at) in players.iter_mut().zip(&joined) {
        match tokio::time::timeout(Duration::from_secs(20), p.started.recv()).await {
            Ok(Some((game, when))) => {
                match_us.push(micros(when.saturating_duration_since(*at)));
                *games.entry(game).or_default() += 1;
            }
            _ => unmatched += 1,
        }
    }
    report("pool join → game_started", match_us);
    let pairs_ok = games.values().all(|&c| c == 2);
    println!(
        "pool games                {} (each with two players: {pairs_ok}); unmatched players {unmatched}",
        games.len()
    );
    // The pool games' clocks run on (their flags fall in due course): the server carries them
    // through the seek phase, as a site would.

    // Seeks: the first half posts, the second half accepts one each.
    let half = n / 2;
    let posts = players[..half].iter().map(|p| async move {
        let t = Instant::now();
        let (seek, _) = http_as(
            addr,
            Some(&p.cookie),
            "POST",
            "/api/seeks",
            &json!({"time_control": "5+3", "rated": false}),
        )
        .await?;
        Ok::<_, BoxError>((
            seek["id"].as_str().unwrap_or("").to_owned(),
            micros(t.elapsed()),
        ))
    });
    let mut seek_ids = Vec::new();
    let mut post_us = Vec::new();
    for r in futures_util::future::join_all(posts).await {
        let (id, us) = r?;
        seek_ids.push(id);
        post_us.push(us);
    }
    report("seek post (HTTP)", post_us);
    let (seekers, acceptors) = players.split_at_mut(half);
    let accepts = acceptors.iter().zip(&seek_ids).map(|(p, id)| async move {
        let t = Instant::now();
        let r = http_as(
            addr,
            Some(&p.cookie),
            "POST",
            &format!("/api/seeks/{id}/accept"),
            &json!({}),
        )
        .await;
        r.map(|_| (t, micros(t.elapsed())))
    });
    let mut accept_us = Vec::new();
    let mut sent = Vec::new();
    let mut failed = 0;
    for r in futures_util::future::join_all(accepts).await {
        match r {
            Ok((t, us)) => {
                accept_us.push(us);
                sent.push(Some(t));
            }
            Err(e) => {
                eprintln!("accept: {e}");
                failed += 1;
                sent.push(None);
            }
        }
    }
    report("seek accept (HTTP, game created)", accept_us);
    let mut told_us = Vec::new();
    for (p, t) in seekers.iter_mut().zip(&sent) {
        let Some(t) = t else { continue };
        if let Ok(Some((_, when))) =
            tokio::time::timeout(Duration::from_secs(20), p.started.recv()).await
        {
            told_us.push(micros(when.saturating_duration_since(*t)));
        }
    }
    report("accept sent → seeker told", told_us);
    println!("failed accepts            {failed}");
    println!(
        "server RSS HWM            {:.1} MiB",
        mem_kb(pid, "VmHWM:").unwrap_or(0) as f64 / 1024.0
    );
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let _ = child.wait();
    if opts.db.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    if unmatched > 0 || !pairs_ok || failed > 0 {
        return Err("the lobby lost a player or paired one twice".into());
    }
    Ok(())
}

/// `--export N`: N short rated games between two players, then the profile reads and the PGN
/// export of all of them, timed, with the server's resident memory sampled during the export.
async fn export_bench(opts: Opts) -> Result<(), BoxError> {
    let (mut child, pid, addr, _db, dir) = start_server(&opts)?;
    let tag = std::process::id();
    let (wname, bname) = (format!("exw{tag}"), format!("exb{tag}"));
    let white = Arc::new(sign_up(addr, &wname).await?);
    let black = Arc::new(sign_up(addr, &bname).await?);
    let started = Instant::now();
    let workers = 32.min(opts.export);
    let mut tasks = Vec::new();
    for w in 0..workers {
        let (white, black) = (white.clone(), black.clone());
        let n = opts.export / workers + usize::from(w < opts.export % workers);
        tasks.push(tokio::spawn(async move {
            for _ in 0..n {
                let (g, _) = http_as(
                    addr,
                    Some(&white),
                    "POST",
                    "/api/games",
                    &json!({"time_control": "5+3", "rated": true, "color": "white"}),
                )
                .await?;
                let id = g["id"].as_str().ok_or("no id")?.to_owned();
                let path = |what: &str| format!("/api/games/{id}/{what}");
                http_as(addr, Some(&black), "POST", &path("join"), &json!({})).await?;
                http_as(
                    addr,
                    Some(&white),
                    "POST",
                    &path("move"),
                    &json!({"move": "e4"}),
                )
                .await?;
                http_as(
                    addr,
                    Some(&black),
                    "POST",
                    &path("move"),
                    &json!({"move": "e5"}),
                )
                .await?;
                http_as(addr, Some(&black), "POST", &path("resign"), &json!({})).await?;
            }
            Ok::<(), BoxError>(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    println!(
        "set-up: {} rated games in {:.1} s",
        opts.export,
        started.elapsed().as_secs_f64()
    );
    let timed = |path: String| async move {
        let t = Instant::now();
        let (v, _) = http_as(addr, None, "GET", &path, &Value::Null).await?;
        Ok::<(Value, f64), BoxError>((v, t.elapsed().as_secs_f64() * 1000.0))
    };
    let (profile, ms) = timed(format!("/api/users/{wname}")).await?;
    println!(
        "profile                 {ms:7.2} ms  (games {}, blitz rating {})",
        profile["count"]["games"], profile["ratings"]["blitz"]["rating"]
    );
    let (page, ms) = timed(format!("/api/users/{wname}/games")).await?;
    let last = (page["total"].as_i64().unwrap_or(1) + 19) / 20;
    println!(
        "game list, page 1       {ms:7.2} ms  (total {})",
        page["total"]
    );
    let (_, ms) = timed(format!("/api/users/{wname}/games?page={last}")).await?;
    println!("game list, page {last:<7} {ms:7.2} ms");
    let (_, ms) = timed(format!(
        "/api/users/{wname}/games?result=win&page={}",
        last / 2
    ))
    .await?;
    println!("game list, wins, middle {ms:7.2} ms");

    // The export: count bytes and games as they stream; sample the server's memory meanwhile.
    let rss_before = mem_kb(pid, "VmRSS:").unwrap_or(0);
    let sampling = Arc::new(AtomicBool::new(true));
    let sampler = {
        let sampling = sampling.clone();
        tokio::spawn(async move {
            let mut peak = 0;
            while sampling.load(Ordering::Relaxed) {
                peak = peak.max(mem_kb(pid, "VmRSS:").unwrap_or(0));
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            peak
        })
    };
    let t = Instant::now();
    let mut s = TcpStream::connect(addr).await?;
    let req = format!(
        "GET /api/users/{wname}/games.pgn HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await?;
    let mut buf = vec![0u8; 64 * 1024];
    let (mut bytes, mut games, mut first) = (0usize, 0usize, None);
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let n = s.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        first.get_or_insert_with(|| t.elapsed());
        bytes += n;
        // Count game starts across chunk boundaries.
        tail.extend_from_slice(&buf[..n]);
        games += tail.windows(8).filter(|w| w == b"[Event \"").count();
        let keep = tail.len().min(7);
        tail.drain(..tail.len() - keep);
    }
    let total = t.elapsed();
    sampling.store(false, Ordering::Relaxed);
    let peak = sampler.await?;
    println!(
        "PGN export              {:7.1} ms  ({games} games, {:.2} MB, first byte after {:.1} ms, \
         {:.0} games/s)",
        total.as_secs_f64() * 1000.0,
        bytes as f64 / 1e6,
        first.unwrap_or_default().as_secs_f64() * 1000.0,
        games as f64 / total.as_secs_f64()
    );
    println!(
        "server memory           {:.1} MB before the export, {:.1} MB at its peak",
        rss_before as f64 / 1024.0,
        peak as f64 / 1024.0
    );
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(dir);
    if games != opts.export {
        return Err(format!("exported {games} games of {}", opts.export).into());
    }
    Ok(())
}
