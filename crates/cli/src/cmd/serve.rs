//! `arbiter serve [--addr 127.0.0.1:8080] [--db arbiter.db | sqlite://… | postgres://…]
//! [--engine-threads N] [--engine-max-think S] [--uci-engine NAME=PATH]…
//! [--uci-option NAME:OPTION=VALUE]… [--secure-cookies] [--public-origin URL]…
//! [--sign-up-limit BURST/SECONDS|off] [--trusted-proxy IP]…
//! [--cluster nats://HOST:PORT --node-id NAME [--lease-ms MS]]
//! [--analysis-nodes N | --analysis-depth N] [--analysis-engine NAME]
//! [--analysis-max-pending N] [--analysis-max-per-day N]`

use std::net::SocketAddr;
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

/// Arguments of `arbiter serve`.
#[derive(Parser)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "ARBITER_ADDR")]
    addr: SocketAddr,
    /// Database: a file path or sqlite:// URL (embedded SQLite, created if missing), or a
    /// postgres:// URL. Migrations run at start.
    #[arg(long, default_value = "arbiter.db", env = "ARBITER_DB")]
    db: String,
    /// Largest network lag credited to a move, in ms (also the grace before a flag is declared).
    #[arg(long, default_value_t = arbiter_server::games::LAG_ALLOWANCE_MS)]
    lag_allowance_ms: u64,
    /// SQLite: fsync every commit before acknowledging it (survives a power cut, not only a
    /// crash of the server); without it a commit is acknowledged once in the WAL file.
    #[arg(long)]
    sqlite_sync_full: bool,
    /// Computer players' searches that may run at once, each on its own thread (default: the
    /// number of CPUs); more games against the computer wait their turn.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    engine_threads: Option<u16>,
    /// The longest a computer player thinks about one move, in seconds, whatever its clock
    /// allows.
    #[arg(long, value_name = "S", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    engine_max_think: u64,
    /// An external UCI engine players may choose as the computer, by NAME (repeatable). The
    /// program is started once at start-up to check it.
    #[arg(long = "uci-engine", value_name = "NAME=PATH")]
    uci_engines: Vec<String>,
    /// A UCI option set on the engine NAME at every start (repeatable), e.g.
    /// `stockfish:UCI_Elo=1500`; the engine must advertise it.
    #[arg(long = "uci-option", value_name = "NAME:OPTION=VALUE")]
    uci_options: Vec<String>,
    /// Mark the session cookie Secure: the site is served over TLS (e.g. behind a proxy).
    #[arg(long, env = "ARBITER_SECURE_COOKIES")]
    secure_cookies: bool,
    /// The site's public origin (repeatable), e.g. `https://chess.example`, accepted by the
    /// cross-site check when the proxy in front does not pass the public Host header.
    #[arg(long = "public-origin", value_name = "URL")]
    public_origins: Vec<String>,
    /// Sign-ups allowed per client address: BURST at once, then one every SECONDS (default
    /// 30/30), or `off`.
    #[arg(long = "sign-up-limit", value_name = "BURST/SECONDS|off", value_parser = sign_up_limit)]
    sign_up_limit: Option<SignUpLimit>,
    /// A reverse proxy (repeatable) whose `X-Forwarded-For` names the client, for the limits
    /// on logins and sign-ups; without it, the TCP peer is the client.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Cluster mode: several nodes over one PostgreSQL (`--db postgres://…`), joined by this
    /// NATS server; any node serves any client, and a dead node's games move to the others.
    #[arg(long, value_name = "NATS_URL", env = "ARBITER_CLUSTER")]
    cluster: Option<String>,
    /// Cluster mode: this node's id (letters, digits, '-', '_'; unique in the cluster).
    /// Default: the host name.
    #[arg(
        long,
        value_name = "NAME",
        env = "ARBITER_NODE_ID",
        requires = "cluster"
    )]
    node_id: Option<String>,
    /// Cluster mode: the lease's length in ms; a dead node's games move after at most this
    /// long (plus a second).
    #[arg(long, value_name = "MS", default_value_t = 5000, requires = "cluster",
          value_parser = clap::value_parser!(u64).range(500..))]
    lease_ms: u64,
    /// Computer analysis: nodes searched per position (default 400000, about half a second
    /// on a 2020s CPU core; deterministic). With --analysis-depth, both limits apply.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    analysis_nodes: Option<u64>,
    /// Computer analysis: search depth per position (instead of the default node budget,
    /// unless --analysis-nodes is given too).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    analysis_depth: Option<u32>,
    /// Computer analysis by the external engine NAME (one of --uci-engine) instead of the
    /// built-in engine.
    #[arg(long, value_name = "NAME")]
    analysis_engine: Option<String>,
    /// Computer analyses a player may have queued or running at once.
    #[arg(long, value_name = "N", default_value_t = arbiter_server::analysis::DEFAULT_MAX_PENDING)]
    analysis_max_pending: u32,
    /// Computer analyses a player may request per 24 hours.
    #[arg(long, value_name = "N", default_value_t = arbiter_server::analysis::DEFAULT_MAX_PER_DAY)]
    analysis_max_per_day: u32,
}

/// The host name, as a node id (characters NATS subjects cannot carry become '-').
fn host_name() -> String {
    let name = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "node".to_owned());
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// `--sign-up-limit`: a rate, or no limit.
#[derive(Clone, Copy, Debug)]
struct SignUpLimit(Option<arbiter_server::accounts::limits::RateLimit>);

fn sign_up_limit(s: &str) -> Result<SignUpLimit, String> {
    if s.eq_ignore_ascii_case("off") {
        return Ok(SignUpLimit(None));
    }
    let bad = || format!("{s:?}: BURST/SECONDS (e.g. 30/30) or off");
    let (burst, secs) = s.split_once('/').ok_or_else(bad)?;
    let burst: u32 = burst.trim().parse().map_err(|_| bad())?;
    let secs: u64 = secs.trim().parse().map_err(|_| bad())?;
    if burst == 0 || secs == 0 {
        return Err(bad());
    }
    Ok(SignUpLimit(Some(
        arbiter_server::accounts::limits::RateLimit {
            burst,
            every: std::time::Duration::from_secs(secs),
        },
    )))
}

/// The engines of `--uci-engine` with their `--uci-option`s.
fn uci_engines(
    engines: &[String],
    options: &[String],
) -> Result<Vec<arbiter_server::computer::UciEngineConfig>> {
    let mut out: Vec<arbiter_server::computer::UciEngineConfig> = Vec::new();
    for e in engines {
        let Some((name, path)) = e
            .split_once('=')
            .filter(|(n, p)| !n.is_empty() && !p.is_empty())
        else {
            anyhow::bail!("--uci-engine {e}: expected NAME=PATH");
        };
        out.push(arbiter_server::computer::UciEngineConfig {
            name: name.to_owned(),
            path: path.into(),
            options: Vec::new(),
        });
    }
    for o in options {
        let parsed = o
            .split_once(':')
            .and_then(|(n, rest)| rest.split_once('=').map(|(k, v)| (n, k, v)))
            .filter(|(n, k, _)| !n.is_empty() && !k.is_empty());
        let Some((name, key, value)) = parsed else {
            anyhow::bail!("--uci-option {o}: expected NAME:OPTION=VALUE");
        };
        let Some(engine) = out.iter_mut().find(|e| e.name == name) else {
            anyhow::bail!("--uci-option {o}: no --uci-engine named '{name}'");
        };
        engine.options.push((key.to_owned(), value.to_owned()));
    }
    Ok(out)
}

/// Runs the server until SIGTERM or Ctrl-C (graceful shutdown).
pub fn run(args: Args) -> Result<ExitCode> {
    let analysis = arbiter_server::analysis::AnalysisConfig {
        depth: args.analysis_depth,
        nodes: match (args.analysis_nodes, args.analysis_depth) {
            (None, None) => Some(arbiter_server::analysis::DEFAULT_NODES),
            (nodes, _) => nodes,
        },
        engine: args.analysis_engine,
        max_pending_per_account: args.analysis_max_pending,
        max_per_day: args.analysis_max_per_day,
        ..arbiter_server::analysis::AnalysisConfig::default()
    };
    let config = arbiter_server::Config {
        addr: args.addr,
        db: args.db,
        lag_allowance_ms: args.lag_allowance_ms,
        sqlite_sync: if args.sqlite_sync_full {
            arbiter_server::db::Sync::Full
        } else {
            arbiter_server::db::Sync::Normal
        },
        engine_threads: args.engine_threads.map_or_else(
            arbiter_server::computer::default_engine_threads,
            usize::from,
        ),
        engine_max_think: std::time::Duration::from_secs(args.engine_max_think),
        uci_engines: uci_engines(&args.uci_engines, &args.uci_options)?,
        secure_cookies: args.secure_cookies,
        public_origins: args.public_origins,
        sign_ups_per_address: args.sign_up_limit.map_or(
            Some(arbiter_server::accounts::limits::SIGN_UPS_PER_ADDRESS),
            |l| l.0,
        ),
        trusted_proxies: args.trusted_proxies,
        cluster: args
            .cluster
            .map(|nats_url| arbiter_server::cluster::ClusterConfig {
                nats_url,
                node_id: args.node_id.unwrap_or_else(host_name),
                lease: std::time::Duration::from_millis(args.lease_ms),
            }),
        analysis,
        ..arbiter_server::Config::default()
    };
    arbiter_server::run(config)?;
    Ok(ExitCode::SUCCESS)
}
