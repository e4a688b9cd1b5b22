//! The server's counters, served at `GET /metrics` in Prometheus' text format.
//!
//! Process-wide atomics: cheap enough to bump on every move, read only when scraped.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds (seconds) of the commit-latency histogram's buckets.
const COMMIT_BUCKETS: [f64; 10] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0];

/// The counters.
pub struct Metrics {
    moves: AtomicU64,
    commit_buckets: [AtomicU64; COMMIT_BUCKETS.len()],
    commit_count: AtomicU64,
    commit_micros: AtomicU64,
    lease_renewals: AtomicU64,
    lease_losses: AtomicU64,
    takeovers: AtomicU64,
    forwarded: AtomicU64,
    fenced: AtomicU64,
}

/// The process' counters.
pub static METRICS: Metrics = Metrics {
    moves: AtomicU64::new(0),
    commit_buckets: [const { AtomicU64::new(0) }; COMMIT_BUCKETS.len()],
    commit_count: AtomicU64::new(0),
    commit_micros: AtomicU64::new(0),
    lease_renewals: AtomicU64::new(0),
    lease_losses: AtomicU64::new(0),
    takeovers: AtomicU64::new(0),
    forwarded: AtomicU64::new(0),
    fenced: AtomicU64::new(0),
};

/// Gauges read from the live server when scraped.
#[derive(Debug, Clone, Copy, Default)]
pub struct Gauges {
    /// Games whose actor runs on this node.
    pub games_owned: usize,
    /// The node's lease epoch (0: none; single-process mode).
    pub epoch: i64,
}

impl Metrics {
    /// Moves committed by games on this node.
    pub fn moves(&self, n: u64) {
        self.moves.fetch_add(n, Ordering::Relaxed);
    }

    /// One game commit took `took` (queue + transaction).
    pub fn commit(&self, took: Duration) {
        let s = took.as_secs_f64();
        for (b, bound) in self.commit_buckets.iter().zip(COMMIT_BUCKETS) {
            if s <= bound {
                b.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.commit_count.fetch_add(1, Ordering::Relaxed);
        self.commit_micros.fetch_add(
            u64::try_from(took.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// The lease was renewed.
    pub fn lease_renewed(&self) {
        self.lease_renewals.fetch_add(1, Ordering::Relaxed);
    }

    /// The lease was lost (expired before it could be renewed).
    pub fn lease_lost(&self) {
        self.lease_losses.fetch_add(1, Ordering::Relaxed);
    }

    /// Games taken over from nodes whose lease expired.
    pub fn takeovers(&self, n: u64) {
        self.takeovers.fetch_add(n, Ordering::Relaxed);
    }

    /// A request was forwarded to the game's owner.
    pub fn forwarded(&self) {
        self.forwarded.fetch_add(1, Ordering::Relaxed);
    }

    /// A commit was refused by its fencing token.
    pub fn fenced(&self) {
        self.fenced.fetch_add(1, Ordering::Relaxed);
    }

    /// The Prometheus text exposition.
    pub fn render(&self, g: Gauges) -> String {
        let mut out = String::with_capacity(2048);
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let lines: [(&str, &str, &str, String); 8] = [
            (
                "arbiter_games_owned",
                "gauge",
                "Games whose actor runs on this node.",
                g.games_owned.to_string(),
            ),
            (
                "arbiter_lease_epoch",
                "gauge",
                "This node's lease epoch (0: none).",
                g.epoch.to_string(),
            ),
            (
                "arbiter_moves_total",
                "counter",
                "Moves committed by games on this node.",
                get(&self.moves).to_string(),
            ),
            (
                "arbiter_lease_renewals_total",
                "counter",
                "Lease renewals.",
                get(&self.lease_renewals).to_string(),
            ),
            (
                "arbiter_lease_losses_total",
                "counter",
                "Leases lost (expired before renewal).",
                get(&self.lease_losses).to_string(),
            ),
            (
                "arbiter_takeovers_total",
                "counter",
                "Games taken over from nodes whose lease expired.",
                get(&self.takeovers).to_string(),
            ),
            (
                "arbiter_forwarded_total",
                "counter",
                "Requests forwarded to another node that owns the game.",
                get(&self.forwarded).to_string(),
            ),
            (
                "arbiter_fenced_commits_total",
                "counter",
                "Commits refused because this node no longer owned the game.",
                get(&self.fenced).to_string(),
            ),
        ];
        for (name, kind, help, value) in lines {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        }
        let _ = writeln!(
            out,
            "# HELP arbiter_commit_seconds Time from a game's action to its commit.\n\
             # TYPE arbiter_commit_seconds histogram"
        );
        for (b, bound) in self.commit_buckets.iter().zip(COMMIT_BUCKETS) {
            let _ = writeln!(
                out,
                "arbiter_commit_seconds_bucket{{le=\"{bound}\"}} {}",
                get(b)
            );
        }
        let count = get(&self.commit_count);
        let _ = writeln!(
            out,
            "arbiter_commit_seconds_bucket{{le=\"+Inf\"}} {count}\n\
             arbiter_commit_seconds_sum {}\narbiter_commit_seconds_count {count}",
            get(&self.commit_micros) as f64 / 1e6
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_fall_in_every_bucket_at_or_above_their_latency() {
        let m = Metrics {
            moves: AtomicU64::new(0),
            commit_buckets: [const { AtomicU64::new(0) }; COMMIT_BUCKETS.len()],
            commit_count: AtomicU64::new(0),
            commit_micros: AtomicU64::new(0),
            lease_renewals: AtomicU64::new(0),
            lease_losses: AtomicU64::new(0),
            takeovers: AtomicU64::new(0),
            forwarded: AtomicU64::new(0),
            fenced: AtomicU64::new(0),
        };
        m.commit(Duration::from_millis(3));
        m.commit(Duration::from_millis(300));
        m.moves(2);
        let text = m.render(Gauges {
            games_owned: 7,
            epoch: 3,
        });
        assert!(text.contains("arbiter_commit_seconds_bucket{le=\"0.002\"} 0\n"));
        assert!(text.contains("arbiter_commit_seconds_bucket{le=\"0.005\"} 1\n"));
        assert!(text.contains("arbiter_commit_seconds_bucket{le=\"0.5\"} 2\n"));
        assert!(text.contains("arbiter_commit_seconds_count 2\n"));
        assert!(text.contains("arbiter_moves_total 2\n"));
        assert!(text.contains("arbiter_games_owned 7\n"));
        assert!(text.contains("arbiter_commit_seconds_sum 0.303\n"));
    }
}
