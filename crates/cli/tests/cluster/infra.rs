//! The processes of the cluster test: a throw-away PostgreSQL cluster, one nats-server and the
//! `arbiter serve --cluster` nodes. [`Procs`] owns them all and kills them when dropped, also
//! when the test panics (then it prints the tail of every log and keeps the folder).

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `n` distinct free TCP ports on the loopback interface (each bound at once, then released).
pub fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// A program in `PATH`, else in one of `extra`.
pub fn find_program(name: &str, extra: &[PathBuf]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(extra.iter().cloned())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The folders of Debian's PostgreSQL binaries, newest first.
pub fn postgres_bin_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir("/usr/lib/postgresql")
        .map(|rd| rd.flatten().map(|e| e.path().join("bin")).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs.reverse();
    dirs
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn append(path: &Path) -> File {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap_or_else(|e| panic!("open {}: {e}", path.display()))
}

/// The last `lines` lines of a file (at most its last 64 KiB).
pub fn tail(path: &Path, lines: usize) -> String {
    let Ok(mut f) = File::open(path) else {
        return format!("({} missing)", path.display());
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(64 * 1024)));
    let mut s = String::new();
    let mut bytes = Vec::new();
    let _ = f.read_to_end(&mut bytes);
    s.push_str(&String::from_utf8_lossy(&bytes));
    let all: Vec<&str> = s.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

fn signal(pid: u32, sig: &str) -> Result<(), String> {
    let st = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .map_err(|e| format!("kill {sig} {pid}: {e}"))?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("kill {sig} {pid}: {st}"))
    }
}

/// Whether something accepts TCP connections at `addr`.
pub fn listening(addr: SocketAddr) -> bool {
    TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok()
}

/// A throw-away PostgreSQL cluster (its folders and port; cheap to clone into a blocking task).
#[derive(Clone, Debug)]
pub struct Pg {
    bin: PathBuf,
    data: PathBuf,
    run: PathBuf,
    pub port: u16,
    as_postgres: bool,
}

impl Pg {
    fn cmd(&self, prog: &str) -> Command {
        let path = self.bin.join(prog);
        if self.as_postgres {
            // initdb and postgres refuse to run as root.
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    fn run(&self, mut c: Command, what: &str) -> Result<(), String> {
        let out = self.run.join("pg_ctl.out");
        let st = c
            .stdin(Stdio::null())
            .stdout(append(&out))
            .stderr(append(&out))
            .status()
            .map_err(|e| format!("{what}: {e}"))?;
        if st.success() {
            Ok(())
        } else {
            Err(format!(
                "{what}: {st}\n{}\n{}",
                tail(&out, 20),
                tail(&self.log(), 20)
            ))
        }
    }

    /// `initdb` (trust authentication) in `base/pgdata`, then start it on `port`.
    pub fn init(base: &Path, bin: PathBuf, port: u16) -> Result<Pg, String> {
        let data = base.join("pgdata");
        let run = base.join("pgrun");
        for d in [&data, &run] {
            fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        let as_postgres = is_root();
        if as_postgres {
            let st = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&data)
                .arg(&run)
                .status()
                .map_err(|e| format!("chown: {e}"))?;
            if !st.success() {
                return Err(format!("chown postgres: {st}"));
            }
        }
        let pg = Pg {
            bin,
            data,
            run,
            port,
            as_postgres,
        };
        let mut c = pg.cmd("initdb");
        c.arg("-D").arg(&pg.data).args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-sync",
        ]);
        pg.run(c, "initdb")?;
        pg.start()?;
        Ok(pg)
    }

    /// The server's log.
    pub fn log(&self) -> PathBuf {
        self.run.join("postgres.log")
    }

    /// `pg_ctl start -w`. fsync is off: the test kills processes, never the machine, and what
    /// a process has written survives it.
    pub fn start(&self) -> Result<(), String> {
        let mut c = self.cmd("pg_ctl");
        c.arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(self.log())
            .arg("-o")
            .arg(format!(
                "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                self.port,
                self.run.display()
            ))
            .args(["-w", "-t", "60", "start"]);
        self.run(c, "pg_ctl start")
    }

    /// `pg_ctl -m immediate stop`: the server stops at once, as in a crash.
    pub fn stop_immediate(&self) -> Result<(), String> {
        let mut c = self.cmd("pg_ctl");
        c.arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "-w", "-t", "30", "stop"]);
        self.run(c, "pg_ctl stop")
    }

    /// The URL of database `db`.
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }
}

/// One nats-server.
pub struct Nats {
    bin: PathBuf,
    pub port: u16,
    log: PathBuf,
    child: Option<Child>,
}

impl Nats {
    /// Start it and wait until it accepts connections.
    pub fn start(&mut self) -> Result<(), String> {
        let child = Command::new(&self.bin)
            .args(["-p", &self.port.to_string(), "-a", "127.0.0.1"])
            .stdin(Stdio::null())
            .stdout(append(&self.log))
            .stderr(append(&self.log))
            .spawn()
            .map_err(|e| format!("nats-server: {e}"))?;
        self.child = Some(child);
        let addr: SocketAddr = ([127, 0, 0, 1], self.port).into();
        let t = Instant::now();
        while !listening(addr) {
            if t.elapsed() > Duration::from_secs(10) {
                return Err(format!(
                    "nats-server does not listen:\n{}",
                    tail(&self.log, 20)
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    /// SIGKILL.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// The URL nodes connect to.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }
}

/// One `arbiter serve --cluster` node; its name and address stay the same across restarts.
pub struct Node {
    pub name: String,
    pub addr: SocketAddr,
    pub log: PathBuf,
    args: Vec<String>,
    child: Option<Child>,
    stopped: bool,
}

impl Node {
    /// Start the process (logs appended to its file).
    pub fn start(&mut self, bin: &str) -> Result<(), String> {
        let child = Command::new(bin)
            .args(&self.args)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(append(&self.log))
            .stderr(append(&self.log))
            .spawn()
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.child = Some(child);
        self.stopped = false;
        Ok(())
    }

    /// Its process id while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Whether the process has exited by itself (its status, if so).
    pub fn exited(&mut self) -> Option<String> {
        match self.child.as_mut().map(Child::try_wait) {
            Some(Ok(Some(st))) => Some(st.to_string()),
            _ => None,
        }
    }

    /// `kill -9`, and reap it.
    pub fn kill9(&mut self) {
        if let Some(mut c) = self.child.take() {
            if self.stopped {
                let _ = signal(c.id(), "-CONT");
            }
            let _ = c.kill();
            let _ = c.wait();
        }
        self.stopped = false;
    }

    /// SIGSTOP: the process freezes, its sockets stay open.
    pub fn stop(&mut self) -> Result<(), String> {
        let pid = self.pid().ok_or("not running")?;
        signal(pid, "-STOP")?;
        self.stopped = true;
        Ok(())
    }

    /// SIGCONT.
    pub fn cont(&mut self) -> Result<(), String> {
        let pid = self.pid().ok_or("not running")?;
        signal(pid, "-CONT")?;
        self.stopped = false;
        Ok(())
    }
}

/// Everything the test started. Dropping it kills the nodes, nats-server and PostgreSQL.
pub struct Procs {
    pub dir: PathBuf,
    pub bin: String,
    pub pg: Pg,
    pub db_url: String,
    pub nats: Nats,
    pub nodes: Vec<Node>,
    /// Keep the folder (set on failure).
    pub keep: bool,
}

impl Procs {
    /// A fresh folder, PostgreSQL initialised and started, nats-server started; nodes
    /// configured (not started). PostgreSQL's port, nats' and the nodes' are `ports[0]`,
    /// `ports[1]`, `ports[2..]`.
    pub fn new(
        bin: &str,
        pg_bin: PathBuf,
        nats_bin: PathBuf,
        nodes: usize,
        lease_ms: u64,
    ) -> Result<Procs, String> {
        let dir = std::env::temp_dir().join(format!(
            "arbiter-cluster-{}-{}",
            std::process::id(),
            now_ms()
        ));
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let ports = free_ports(2 + nodes);
        // A placeholder until PostgreSQL is up, so that a failure below still cleans up.
        let mut procs = Procs {
            dir: dir.clone(),
            bin: bin.to_owned(),
            pg: Pg {
                bin: pg_bin.clone(),
                data: dir.join("pgdata"),
                run: dir.join("pgrun"),
                port: ports[0],
                as_postgres: false,
            },
            db_url: String::new(),
            nats: Nats {
                bin: nats_bin,
                port: ports[1],
                log: dir.join("nats.log"),
                child: None,
            },
            nodes: Vec::new(),
            keep: false,
        };
        procs.pg = Pg::init(&dir, pg_bin, ports[0])?;
        procs.db_url = procs.pg.url("arbiter");
        procs.nats.start()?;
        let nats_url = procs.nats.url();
        for (i, port) in ports[2..].iter().enumerate() {
            let name = format!("n{}", i + 1);
            let addr: SocketAddr = ([127, 0, 0, 1], *port).into();
            let args = vec![
                "serve".to_owned(),
                "--db".to_owned(),
                procs.db_url.clone(),
                "--cluster".to_owned(),
                nats_url.clone(),
                "--node-id".to_owned(),
                name.clone(),
                "--addr".to_owned(),
                addr.to_string(),
                "--lease-ms".to_owned(),
                lease_ms.to_string(),
            ];
            procs.nodes.push(Node {
                log: dir.join(format!("{name}.log")),
                name,
                addr,
                args,
                child: None,
                stopped: false,
            });
        }
        Ok(procs)
    }

    /// The tails of every log.
    pub fn tails(&self, lines: usize) -> String {
        let mut s = String::new();
        for n in &self.nodes {
            s += &format!(
                "---- {} ({})\n{}\n",
                n.name,
                n.log.display(),
                tail(&n.log, lines)
            );
        }
        s += &format!("---- nats-server\n{}\n", tail(&self.nats.log, lines / 2));
        s += &format!("---- postgres\n{}\n", tail(&self.pg.log(), lines / 2));
        s
    }
}

impl Drop for Procs {
    fn drop(&mut self) {
        for n in &mut self.nodes {
            n.kill9();
        }
        self.nats.kill();
        if self.pg.data.join("postmaster.pid").exists() {
            let _ = self.pg.stop_immediate();
        }
        if std::thread::panicking() || self.keep {
            eprintln!("{}", self.tails(40));
            eprintln!("cluster test: logs and data kept in {}", self.dir.display());
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}
