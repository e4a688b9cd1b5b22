//! `arbiter-server`: online chess under the FIDE Laws over HTTP and WebSocket.
//!
//! The server is the clock: it timestamps every action when it arrives, runs a timer per
//! game that ends it on a flag fall even if nobody moves, and acknowledges an action only
//! after it is committed to the database (SQLite or PostgreSQL). Every Law — legality,
//! clocks, flags, offers, claims, results — is applied by [`arbiter_game`]; this crate
//! only transports, authenticates, stores and times.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let config = arbiter_server::Config {
//!     addr: "127.0.0.1:0".parse()?,
//!     db: "/tmp/arbiter-demo.db".into(),
//!     ..arbiter_server::Config::default()
//! };
//! let server = arbiter_server::start(config).await?;
//! println!("listening on {}", server.addr());
//! server.shutdown().await;
//! # Ok(()) }
//! ```

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

// Shared pieces, below every domain.
pub mod auth;
pub mod cluster;
pub mod db;
pub mod error;
pub mod extract;
pub mod metrics;
pub mod token;

// Domains, each with its handlers, wire types, logic and queries; each imports only the ones
// listed before it.
pub mod accounts;
pub mod games;
pub mod lobby;
pub mod profiles;
pub mod ratings;
pub mod tournaments;
// Computer analysis of finished games (after games, accounts).
pub mod analysis;
// PGN import and opening names (after games, accounts).
pub mod imports;
// lichess's HTTP API over the same games, lobby and accounts (after all of them).
pub mod lichess;

// The top: the web UI's files, the API document, health and metrics.
mod assets;
pub mod coordinated;
pub mod openapi;
pub mod operations;

pub use db::Store;
pub use error::{AppError, ErrorBody};
pub use games::computer;
pub use games::Hub;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on.
    pub addr: SocketAddr,
    /// Database: a file path or `sqlite:` URL (embedded SQLite), or a `postgres://` URL.
    pub db: String,
    /// Largest network lag credited to a move, ms (see [`games::LAG_ALLOWANCE_MS`]).
    pub lag_allowance_ms: u64,
    /// Largest request body accepted, bytes.
    pub max_body_bytes: usize,
    /// SQLite durability (see [`db::Sync`]).
    pub sqlite_sync: db::Sync,
    /// Computer players' searches that may run at once, each on its own blocking thread
    /// (default: the number of CPUs).
    pub engine_threads: usize,
    /// The longest a computer player thinks about one move, whatever its clock allows.
    pub engine_max_think: Duration,
    /// External UCI engines players may choose as the computer (operator configuration;
    /// each is started once at start-up to check it).
    pub uci_engines: Vec<computer::UciEngineConfig>,
    /// Mark the session cookie `Secure` (the site is served over TLS, e.g. behind a proxy).
    pub secure_cookies: bool,
    /// The site's public origins (e.g. `https://chess.example`), accepted by the cross-site
    /// check besides the request's own `Host`.
    pub public_origins: Vec<String>,
    /// Sign-ups allowed per client address (`None`: not limited).
    pub sign_ups_per_address: Option<accounts::limits::RateLimit>,
    /// Reverse proxies whose `X-Forwarded-For` header names the client (for the limits on
    /// logins and sign-ups); empty: the TCP peer is the client.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Cluster mode (PostgreSQL and NATS); `None`: a single process owns every game.
    pub cluster: Option<cluster::ClusterConfig>,
    /// Computer analysis: search limit, engine, per-player limits.
    pub analysis: analysis::AnalysisConfig,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: "arbiter.db".into(),
            lag_allowance_ms: games::LAG_ALLOWANCE_MS,
            max_body_bytes: 16 * 1024,
            sqlite_sync: db::Sync::default(),
            engine_threads: computer::default_engine_threads(),
            engine_max_think: computer::DEFAULT_MAX_THINK,
            uci_engines: Vec::new(),
            secure_cookies: false,
            public_origins: Vec::new(),
            sign_ups_per_address: Some(accounts::limits::SIGN_UPS_PER_ADDRESS),
            trusted_proxies: Vec::new(),
            cluster: None,
            analysis: analysis::AnalysisConfig::default(),
        }
    }
}

/// Errors that stop the server from starting.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Store(#[from] db::StoreError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The cluster cannot be joined.
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    /// A configured external engine cannot be used.
    #[error("UCI engine '{name}': {reason}")]
    Engine {
        /// The configured name.
        name: String,
        /// Why.
        reason: String,
    },
    /// Serving failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// Shared state of the handlers; each domain's handlers take the part they need
/// ([`FromRef`](axum::extract::FromRef)).
#[derive(Clone)]
pub struct AppState {
    /// The live games.
    pub hub: Arc<Hub>,
    /// Sessions and tokens.
    pub auth: Arc<auth::Auth>,
    /// Accounts.
    pub accounts: Arc<accounts::Accounts>,
    /// Seeks and pools.
    pub lobby: Arc<lobby::Lobby>,
    /// Tournaments.
    pub tournaments: Arc<tournaments::Tournaments>,
    /// The cross-site check's accepted origins.
    pub origins: auth::csrf::Origins,
    /// Computer analysis (its worker is started by [`start`]).
    pub analyses: Arc<analysis::Analyses>,
    /// PGN imports (imported games are shown by the games' routes too).
    pub imports: Arc<imports::Imports>,
    /// Who is online (lichess's API: connections to `/api/stream/event`).
    pub presence: Arc<lichess::Presence>,
    /// lichess's API: challenges, chat, the Board and Bot APIs' state.
    pub lichess: Arc<lichess::Lichess>,
}

impl AppState {
    /// The state over a hub's database, as `config` says (cookies, origins, limits, proxies).
    pub fn new(hub: Arc<Hub>, config: &Config) -> Self {
        Self::with_tournaments(hub.clone(), tournaments::Tournaments::new(hub), config)
    }

    /// As [`AppState::new`], with the tournaments' registry given (the server restores it).
    pub fn with_tournaments(
        hub: Arc<Hub>,
        tournaments: Arc<tournaments::Tournaments>,
        config: &Config,
    ) -> Self {
        let auth = auth::Auth::new(hub.store().pool().clone(), config.secure_cookies);
        let accounts = Arc::new(accounts::Accounts {
            auth: auth.clone(),
            limits: accounts::limits::LoginLimits::default()
                .with_sign_ups(config.sign_ups_per_address),
            trusted_proxies: config.trusted_proxies.clone(),
            origins: auth::csrf::Origins {
                public: config.public_origins.clone(),
            },
        });
        let public_origins = config.public_origins.clone();
        let lobby = lobby::Lobby::start(hub.clone());
        let presence = lichess::Presence::new();
        Self {
            lichess: lichess::Lichess::new(hub.clone(), lobby.clone(), presence.clone()),
            analyses: analysis::Analyses::new(hub.clone(), config.analysis.clone()),
            imports: imports::Imports::new(hub.store().pool().clone()),
            presence,
            lobby,
            tournaments,
            hub,
            auth,
            accounts,
            origins: auth::csrf::Origins {
                public: public_origins,
            },
        }
    }
}

macro_rules! part_of_state {
    ($t:ty, $field:ident) => {
        impl axum::extract::FromRef<AppState> for $t {
            fn from_ref(s: &AppState) -> Self {
                s.$field.clone()
            }
        }
    };
}
part_of_state!(Arc<Hub>, hub);
part_of_state!(Arc<auth::Auth>, auth);
part_of_state!(Arc<accounts::Accounts>, accounts);
part_of_state!(Arc<lobby::Lobby>, lobby);
part_of_state!(Arc<tournaments::Tournaments>, tournaments);
part_of_state!(Arc<analysis::Analyses>, analyses);
part_of_state!(Arc<imports::Imports>, imports);
part_of_state!(Arc<lichess::Presence>, presence);
part_of_state!(Arc<lichess::Lichess>, lichess);

/// The application router: API, WebSocket, OpenAPI document and web UI. Tests can drive it
/// without a socket (`tower::ServiceExt::oneshot`).
pub fn app(state: AppState, max_body_bytes: usize) -> Router {
    let node = state
        .hub
        .cluster()
        .map(|c| c.node().to_owned())
        .unwrap_or_default();
    let api = Router::new()
        .route("/api/openapi.json", get(openapi::serve))
        .merge(operations::routes())
        .merge(accounts::routes())
        .merge(games::routes())
        .merge(profiles::routes())
        .merge(analysis::routes())
        .merge(imports::routes())
        .merge(lichess::routes())
        .merge(
            // Cluster mode: run on the coordinator (passed on from other nodes).
            lobby::routes().merge(tournaments::routes()).route_layer(
                axum::middleware::from_fn_with_state(state.hub.clone(), coordinated::guard),
            ),
        )
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(max_body_bytes));
    Router::new()
        .route("/", get(assets::index))
        .route("/game/{id}", get(assets::index))
        .route("/game/{id}/analysis", get(assets::index))
        .route("/analysis", get(assets::index))
        .route("/import", get(assets::index))
        .route("/@/{name}", get(assets::index))
        .route("/signup", get(assets::index))
        .route("/login", get(assets::index))
        .route("/account", get(assets::index))
        .route("/leaderboard", get(assets::index))
        .route("/tournaments", get(assets::index))
        .route("/tournament/{id}", get(assets::index))
        .route("/assets/{*path}", get(assets::asset))
        .merge(api)
        .fallback(assets::fallback)
        // `GET /api/games/{id}/pgn?evals=true` writes the stored analysis in.
        .layer(axum::Extension(games::handlers::PgnAnnotations(
            state.analyses.clone(),
        )))
        // Imported games are shown by `GET /api/games/{id}` and its PGN.
        .layer(axum::Extension(games::handlers::Archive(
            state.imports.clone(),
        )))
        .layer(axum::middleware::from_fn_with_state(
            state.origins.clone(),
            auth::csrf::guard,
        ))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .layer(operations::node_header(&node))
        .with_state(state)
}

async fn method_not_allowed() -> AppError {
    AppError::bad_request("method_not_allowed", "method not allowed on this path")
}

/// A running server (see [`start`]).
pub struct Running {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<(), std::io::Error>>,
    hub: Arc<Hub>,
    tournaments: Arc<tournaments::Tournaments>,
}

impl Running {
    /// The bound address (useful with port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The live games.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Stop accepting, let requests in flight finish, close the database.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        self.tournaments.shutdown();
        self.hub.shutdown().await;
        // Other nodes take this node's games at once rather than after the lease.
        if let Some(c) = self.hub.cluster() {
            c.leave().await;
        }
        match tokio::time::timeout(Duration::from_secs(10), self.task).await {
            Ok(Ok(Err(e))) => tracing::warn!(error = %e, "server stopped with an error"),
            Ok(_) => {}
            Err(_) => tracing::warn!("connections still open after 10 s; stopping anyway"),
        }
        self.hub.store().close().await;
    }

    /// Wait until the server stops by itself (it does not, except on an I/O error).
    pub async fn wait(self) -> Result<(), ServerError> {
        match self.task.await {
            Ok(r) => r.map_err(ServerError::Io),
            Err(e) => Err(ServerError::Io(std::io::Error::other(e))),
        }
    }
}

/// Open the database (running migrations), restore running games, bind, and serve in the
/// background.
///
/// # Errors
/// The database cannot be opened or the address cannot be bound.
pub async fn start(mut config: Config) -> Result<Running, ServerError> {
    let mut external = Vec::new();
    for e in std::mem::take(&mut config.uci_engines) {
        let name = e.name.clone();
        if external
            .iter()
            .any(|x: &computer::ExternalEngine| x.config.name == name)
        {
            return Err(ServerError::Engine {
                name,
                reason: "configured twice".into(),
            });
        }
        // Started once on a blocking thread (the handshake waits for the program).
        let checked = tokio::task::spawn_blocking(move || computer::check_engine(e))
            .await
            .map_err(|e| ServerError::Engine {
                name: name.clone(),
                reason: e.to_string(),
            })?
            .map_err(|reason| ServerError::Engine {
                name: name.clone(),
                reason,
            })?;
        tracing::info!(engine = %name, id_name = %checked.id_name, "external engine ready");
        external.push(checked);
    }
    let store = Store::connect_with(&config.db, config.sqlite_sync).await?;
    let engines =
        computer::Engines::with_external(config.engine_threads, config.engine_max_think, external);
    let listener = TcpListener::bind(config.addr)
        .await
        .map_err(|source| ServerError::Bind {
            addr: config.addr,
            source,
        })?;
    let addr = listener.local_addr()?;
    let hub = match &config.cluster {
        None => Hub::new(store, config.lag_allowance_ms, engines),
        Some(c) => {
            let cluster = cluster::Cluster::join(&store, c, &addr.to_string()).await?;
            Hub::clustered(store, config.lag_allowance_ms, engines, cluster).await?
        }
    };
    tracing::info!(
        backend = ?hub.store().backend(),
        engine_threads = hub.engines().permits(),
        node = hub.cluster().map(|c| c.node()),
        "database ready"
    );
    let (stop, mut stopped) = watch::channel(false);
    let tournaments = tournaments::Tournaments::new(hub.clone());
    if let Some(name) = &config.analysis.engine {
        if hub.engines().external(name).is_none() {
            return Err(ServerError::Engine {
                name: name.clone(),
                reason: "--analysis-engine names no configured --uci-engine".into(),
            });
        }
    }
    let state = AppState::with_tournaments(hub.clone(), tournaments.clone(), &config);
    state.analyses.spawn_worker();
    let router = app(state, config.max_body_bytes);
    if let Some(cluster) = hub.cluster() {
        coordinated::serve(cluster, router.clone()).await?;
    }
    let router = router.into_make_service_with_connect_info::<SocketAddr>();
    let hub2 = hub.clone();
    let task = tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async move {
                let _ = stopped.wait_for(|s| *s).await;
                // WebSockets are long-lived: tell their sessions to close.
                hub2.close_sockets();
            })
            .await
    });
    tracing::info!(%addr, "listening");
    // Running games come back in the background, once the server accepts requests: each
    // game's clock resumes when that game is loaded (a request for a game not loaded yet loads
    // it at once), so the time spent restoring many games is counted against nobody.
    // In a cluster, the games of a node that stopped are taken over by the survivors (and by
    // itself once back) as their owner's lease expires.
    let hub3 = hub.clone();
    if hub.cluster().is_none() {
        tokio::spawn(async move {
            match hub3.restore_running().await {
                Ok(n) => tracing::info!(restored = n, "running games restored"),
                Err(e) => tracing::error!(error = %e, "cannot restore running games"),
            }
        });
    }
    // Tournaments resume their timers (start, default time, pause between rounds); in a
    // cluster, on the coordinator, whenever a node becomes it.
    let tournaments2 = tournaments.clone();
    match hub.cluster() {
        None => {
            tokio::spawn(async move {
                match tournaments2.restore().await {
                    Ok(n) => tracing::info!(restored = n, "tournaments restored"),
                    Err(e) => tracing::error!(error = %e, "cannot restore tournaments"),
                }
            });
        }
        Some(cluster) => {
            let cluster = cluster.clone();
            tokio::spawn(async move {
                let mut coordinators = cluster.coordinators();
                let mut was = false;
                loop {
                    let is = cluster.is_coordinator();
                    if is && !was {
                        match tournaments2.restore().await {
                            Ok(n) => {
                                tracing::info!(restored = n, "coordinator: tournaments restored")
                            }
                            Err(e) => tracing::error!(error = %e, "cannot restore tournaments"),
                        }
                    }
                    was = is;
                    if coordinators.changed().await.is_err() {
                        return;
                    }
                }
            });
        }
    }
    Ok(Running {
        addr,
        stop,
        task,
        hub,
        tournaments,
    })
}

/// Initialise `tracing` (RUST_LOG, default `info`) for a binary.
pub fn init_tracing() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,tower_http=warn,sqlx=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
}

/// Serve until SIGTERM or Ctrl-C, then shut down gracefully. This is `arbiter serve`.
///
/// # Errors
/// Start-up failures ([`start`]) and I/O errors while serving.
pub fn run(config: Config) -> Result<(), ServerError> {
    init_tracing();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let r = rt.block_on(async move {
        let server = start(config).await?;
        let addr = server.addr();
        eprintln!("arbiter: serving on http://{addr}/ (Ctrl-C or SIGTERM to stop)");
        shutdown_signal().await;
        tracing::info!("shutting down");
        server.shutdown().await;
        tracing::info!("stopped");
        Ok(())
    });
    // Everything acknowledged is committed; do not wait for idle background threads.
    rt.shutdown_timeout(Duration::from_millis(500));
    r
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
