//! Who is online, as lichess's API shows it (`online` in a user's JSON, `GET /api/bot/online`):
//! an account is online while one of its connections is open (its `/api/stream/event`), and a
//! little after, so that a client reconnecting does not blink offline.
//!
//! In memory and per process: in a cluster each node knows its own connections only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an account counts as online after its last connection closed.
pub const LINGER: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Copy)]
struct Seen {
    /// Connections open now.
    open: usize,
    /// When the last one closed (or the first opened).
    at: Instant,
}

/// The open connections per account id.
#[derive(Debug, Default)]
pub struct Presence {
    accounts: Mutex<HashMap<String, Seen>>,
}

/// An open connection: the account counts as online until it is dropped (and [`LINGER`]
/// after).
#[derive(Debug)]
pub struct PresenceGuard {
    presence: Arc<Presence>,
    account_id: String,
}

impl Presence {
    /// Nobody online.
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Count a connection of `account_id` open until the guard is dropped.
    pub fn connect(self: &Arc<Self>, account_id: &str) -> PresenceGuard {
        let mut map = self.accounts.lock().expect("presence");
        let now = Instant::now();
        if map.len() > 100_000 {
            // Forget accounts long gone so that the map stays as large as who is online.
            map.retain(|_, s| s.open > 0 || now.duration_since(s.at) < LINGER);
        }
        let seen = map
            .entry(account_id.to_owned())
            .or_insert(Seen { open: 0, at: now });
        seen.open += 1;
        seen.at = now;
        PresenceGuard {
            presence: self.clone(),
            account_id: account_id.to_owned(),
        }
    }

    /// Is `account_id` online: a connection open now, or one closed less than [`LINGER`] ago?
    pub fn online(&self, account_id: &str) -> bool {
        self.accounts
            .lock()
            .expect("presence")
            .get(account_id)
            .is_some_and(|s| s.open > 0 || s.at.elapsed() < LINGER)
    }

    /// The accounts online now (see [`Presence::online`]), in no order.
    pub fn online_ids(&self) -> Vec<String> {
        self.accounts
            .lock()
            .expect("presence")
            .iter()
            .filter(|(_, s)| s.open > 0 || s.at.elapsed() < LINGER)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// When `account_id` was last seen connected: now if a connection is open, else when the
    /// last one closed; `None` if not since the server started.
    pub fn last_seen(&self, account_id: &str) -> Option<Instant> {
        self.accounts
            .lock()
            .expect("presence")
            .get(account_id)
            .map(|s| if s.open > 0 { Instant::now() } else { s.at })
    }
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        let mut map = self.presence.accounts.lock().expect("presence");
        if let Some(s) = map.get_mut(&self.account_id) {
            s.open = s.open.saturating_sub(1);
            s.at = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_online_while_a_connection_is_open_and_a_minute_after() {
        let p = Presence::new();
        assert!(!p.online("a"));
        let one = p.connect("a");
        let two = p.connect("a");
        assert!(p.online("a") && !p.online("b"));
        drop(one);
        assert!(p.online("a"));
        drop(two);
        // Closed just now: still online for LINGER.
        assert!(p.online("a"));
        assert_eq!(p.online_ids(), ["a"]);
        // Closed long ago: offline.
        p.accounts.lock().unwrap().get_mut("a").unwrap().at =
            Instant::now() - LINGER - Duration::from_secs(1);
        assert!(!p.online("a"));
        assert!(p.online_ids().is_empty());
    }
}
