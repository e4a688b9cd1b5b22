//! The checks after the run: the recorded history of every client against the database.

use std::collections::{BTreeMap, HashMap, HashSet};

use arbiter_server::games::replay::replay;
use arbiter_server::Store;
use serde_json::Value;
use sqlx::postgres::PgPool;

use super::play::GameLog;

/// A node's fault whose games others must take over.
#[derive(Debug, Clone)]
pub struct Takeover {
    /// `kill -9` or `SIGSTOP`.
    pub fault: &'static str,
    pub node: String,
    /// The node's epoch before the fault.
    pub epoch: i64,
    /// Unix ms of the fault.
    pub at_ms: i64,
    /// The games it owned that were playing, just before.
    pub games: Vec<String>,
}

/// One stored event.
struct Ev {
    seq: i64,
    kind: String,
    wire: Value,
    created_at: i64,
    epoch: Option<i64>,
}

/// One stored game.
struct GameDb {
    status: String,
    events: Vec<Ev>,
}

/// What the checks found.
#[derive(Default)]
pub struct Outcome {
    pub failures: Vec<String>,
    pub notes: Vec<String>,
    /// Takeover delays after `kill -9` (ms).
    pub kill_delays: Vec<i64>,
    /// Takeover delays after `SIGSTOP` (ms), not asserted.
    pub stop_delays: Vec<i64>,
    pub games_in_db: usize,
    pub finished: usize,
    pub move_events: usize,
    pub events: usize,
    pub streams: usize,
    pub streamed_events: usize,
    /// Fields where a socket's event differed from the stored one, with counts.
    pub differing_fields: BTreeMap<String, usize>,
    /// Finished games by time control and termination.
    pub terminations: BTreeMap<(String, String), usize>,
}

impl Outcome {
    fn fail(&mut self, msg: String) {
        self.failures.push(msg);
    }
}

/// Fields of a socket's event allowed to differ from the stored event (none so far).
const IGNORED_FIELDS: &[&str] = &[];

/// Check everything; `lease_ms` and the lag allowance bound the takeover delays.
pub async fn check(
    url: &str,
    pool: &PgPool,
    logs: &[GameLog],
    takeovers: &[Takeover],
    abandoned: &[String],
    lease_ms: i64,
) -> Outcome {
    let mut out = Outcome::default();
    let store = Store::connect(url).await.expect("Store::connect");
    let ids: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT id, status, last_seq FROM games ORDER BY id")
            .fetch_all(pool)
            .await
            .expect("games");
    out.games_in_db = ids.len();
    let mut db: HashMap<String, GameDb> = HashMap::new();
    for (id, status, last_seq) in ids {
        let rows: Vec<(i64, String, String, i64, Option<i64>)> = sqlx::query_as(
            "SELECT seq, kind, data, created_at, epoch FROM events WHERE game_id = $1 ORDER BY seq",
        )
        .bind(&id)
        .fetch_all(pool)
        .await
        .expect("events");
        let mut events = Vec::with_capacity(rows.len());
        let (mut gap, mut no_epoch) = (false, false);
        for (i, (seq, kind, data, created_at, epoch)) in rows.into_iter().enumerate() {
            if seq != i as i64 + 1 && !gap {
                gap = true;
                out.fail(format!(
                    "game {id}: event {seq} where {} was due: a gap",
                    i + 1
                ));
            }
            if epoch.is_none() && !no_epoch {
                no_epoch = true;
                out.fail(format!("game {id}: event {seq} has no epoch"));
            }
            let wire = match serde_json::from_str::<Value>(&data) {
                Ok(v) => v["wire"].clone(),
                Err(e) => {
                    out.fail(format!("game {id}: event {seq}: bad data {e}"));
                    Value::Null
                }
            };
            events.push(Ev {
                seq,
                kind,
                wire,
                created_at,
                epoch,
            });
        }
        let max = events.last().map_or(0, |e| e.seq);
        if max != last_seq {
            out.fail(format!(
                "game {id}: games.last_seq {last_seq}, last event {max}"
            ));
        }
        // The log replays through arbiter-game.
        match (store.game(&id).await, store.events(&id, 0).await) {
            (Ok(Some(row)), Ok(evs)) => {
                if evs.len() != events.len() {
                    out.fail(format!(
                        "game {id}: Store::events gives {} events, SQL {}",
                        evs.len(),
                        events.len()
                    ));
                }
                if let Err(e) = replay(&row, &evs) {
                    out.fail(format!("game {id}: does not replay: {e}"));
                }
            }
            (row, evs) => out.fail(format!(
                "game {id}: Store cannot read it: {:?} / {:?}",
                row.map(|r| r.is_some()),
                evs.map(|e| e.len())
            )),
        }
        // Each game's epochs never come back: a node that lost a game commits nothing more.
        let mut seen: Vec<i64> = Vec::new();
        for e in &events {
            if let Some(ep) = e.epoch {
                if seen.last() != Some(&ep) {
                    if seen.contains(&ep) {
                        out.fail(format!(
                            "game {id}: event {} committed by epoch {ep} after epochs {seen:?} \
                             (a fenced owner committed)",
                            e.seq
                        ));
                    }
                    seen.push(ep);
                }
            }
        }
        // Move events: half-move numbers 1, 2, 3… in order, each once.
        let mut ply = 0;
        for e in events.iter().filter(|e| e.kind == "move") {
            ply += 1;
            if e.wire["ply"].as_i64() != Some(ply) {
                out.fail(format!(
                    "game {id}: move event {} has ply {}, expected {ply}",
                    e.seq, e.wire["ply"]
                ));
                break;
            }
        }
        out.move_events += ply as usize;
        out.events += events.len();
        if status == "finished" {
            out.finished += 1;
        }
        db.insert(id, GameDb { status, events });
    }

    let mut logged: HashSet<&str> = HashSet::new();
    for g in logs {
        logged.insert(&g.id);
        let Some(gdb) = db.get(&g.id) else {
            out.fail(format!("game {}: played but not in the database", g.id));
            continue;
        };
        let moves: Vec<&Ev> = gdb.events.iter().filter(|e| e.kind == "move").collect();
        // Move events by the half-moves before them (their `ply` is the count after).
        let mut by_ply: HashMap<u64, &Ev> = HashMap::new();
        for m in &moves {
            let Some(after) = m.wire["ply"].as_u64().filter(|p| *p > 0) else {
                out.fail(format!("game {}: move event {} without a ply", g.id, m.seq));
                continue;
            };
            if let Some(other) = by_ply.insert(after - 1, m) {
                out.fail(format!(
                    "game {}: two moves at ply {}: events {} and {}",
                    g.id,
                    after - 1,
                    other.seq,
                    m.seq
                ));
            }
        }
        let by_seq: HashMap<i64, &Ev> = gdb.events.iter().map(|e| (e.seq, e)).collect();
        let who = format!(
            "{}, created on n{}, owner at the start {:?}",
            g.time_control,
            g.created_on + 1,
            g.owner
        );
        // Every acknowledged move is stored once, at its ply, with the acknowledged number.
        for c in &g.clients {
            for a in &c.acks {
                let Some(m) = by_ply.get(&a.ply) else {
                    let sent: Vec<(usize, i64)> = c
                        .sent
                        .iter()
                        .filter(|s| s.ply == a.ply)
                        .map(|s| (s.node + 1, s.at_ms))
                        .collect();
                    out.fail(format!(
                        "game {} ({who}): {} {} at ply {} acknowledged by n{} at {} (seq {}) but \
                         not stored; sent (node, unix ms): {sent:?}",
                        g.id,
                        c.seat,
                        a.uci,
                        a.ply,
                        a.node + 1,
                        a.at_ms,
                        a.seq
                    ));
                    continue;
                };
                if m.wire["move"]["uci"].as_str() != Some(a.uci.as_str()) {
                    out.fail(format!(
                        "game {} ({who}): ply {}: {} acknowledged (seq {}), stored {} (seq {})",
                        g.id, a.ply, a.uci, a.seq, m.wire["move"]["uci"], m.seq
                    ));
                    continue;
                }
                if m.seq != a.seq {
                    // The ack names the last event of the commit holding the move.
                    let same_commit = m.seq < a.seq
                        && (m.seq + 1..=a.seq).all(|s| {
                            by_seq
                                .get(&s)
                                .is_some_and(|e| e.kind != "move" && e.created_at == m.created_at)
                        });
                    if same_commit {
                        out.notes.push(format!(
                            "game {}: the ack of ply {} names event {}, the move is {}",
                            g.id, a.ply, a.seq, m.seq
                        ));
                    } else {
                        out.fail(format!(
                            "game {} ({who}): {} at ply {} acknowledged with seq {}, stored as \
                             event {}",
                            g.id, a.uci, a.ply, a.seq, m.seq
                        ));
                    }
                }
            }
        }
        // Every stored move was sent by a player at that ply.
        let sent: HashSet<(u64, &str)> = g
            .clients
            .iter()
            .flat_map(|c| c.sent.iter().map(|s| (s.ply, s.uci.as_str())))
            .collect();
        for (ply, m) in &by_ply {
            let uci = m.wire["move"]["uci"].as_str().unwrap_or("?");
            if !sent.contains(&(*ply, uci)) {
                out.fail(format!(
                    "game {} ({who}): event {} is the move {uci} at ply {ply}, which no player \
                     sent",
                    g.id, m.seq
                ));
            }
        }
        // Every socket's stream: consecutive numbers, each event as stored.
        for c in &g.clients {
            for (k, conn) in c.conns.iter().enumerate() {
                if conn.events.is_empty() {
                    continue;
                }
                out.streams += 1;
                out.streamed_events += conn.events.len();
                let node = conn.node + 1;
                let Some(start) = conn.since.or(conn.state_seq) else {
                    out.fail(format!(
                        "game {} {} connection {k} (n{node}): events without a state first",
                        g.id, c.seat
                    ));
                    continue;
                };
                for (i, (seq, v)) in conn.events.iter().enumerate() {
                    let want = start + 1 + i as i64;
                    if *seq != want {
                        out.fail(format!(
                            "game {} {} connection {k} (n{node}, since {:?}, state {:?}): \
                             event {seq} where {want} was due; numbers {:?}",
                            g.id,
                            c.seat,
                            conn.since,
                            conn.state_seq,
                            conn.events
                                .iter()
                                .map(|(s, _)| *s)
                                .skip(i.saturating_sub(3))
                                .take(8)
                                .collect::<Vec<_>>()
                        ));
                        break;
                    }
                    let Some(stored) = by_seq.get(seq) else {
                        out.fail(format!(
                            "game {} {} connection {k} (n{node}): received event {seq}, \
                             not in the database (last {:?})",
                            g.id,
                            c.seat,
                            gdb.events.last().map(|e| e.seq)
                        ));
                        break;
                    };
                    let diff = differing(v, &stored.wire);
                    if !diff.is_empty() {
                        for f in &diff {
                            *out.differing_fields.entry(f.clone()).or_default() += 1;
                        }
                        let real: Vec<&String> = diff
                            .iter()
                            .filter(|f| !IGNORED_FIELDS.contains(&f.as_str()))
                            .collect();
                        if !real.is_empty() {
                            out.fail(format!(
                                "game {} {} connection {k} (n{node}): event {seq} differs from \
                                 the stored one in {real:?}: received {v}, stored {}",
                                g.id, c.seat, stored.wire
                            ));
                        }
                    }
                }
            }
        }
    }
    for (id, gdb) in &db {
        if !logged.contains(id.as_str()) && gdb.events.iter().any(|e| e.kind == "move") {
            out.fail(format!(
                "game {id}: has moves, but none of the players made it"
            ));
        }
    }

    // Takeovers: a game of a killed owner gets an event from another epoch in time.
    let by_id: HashMap<&str, &GameLog> = logs.iter().map(|g| (g.id.as_str(), g)).collect();
    for t in takeovers {
        let mut delays = Vec::new();
        let mut slowest: Option<(i64, &str)> = None;
        for id in &t.games {
            let Some(gdb) = db.get(id) else { continue };
            let next = gdb
                .events
                .iter()
                .find(|e| e.created_at >= t.at_ms && e.epoch != Some(t.epoch));
            // Players who think longer than 0.3 s a move get the difference.
            let think = by_id
                .get(id.as_str())
                .map_or(0, |g| g.think_ms.saturating_sub(300) as i64);
            let limit = lease_ms + 2000 + 300 + think;
            match next {
                Some(e) => {
                    let d = e.created_at - t.at_ms;
                    delays.push(d);
                    if slowest.is_none_or(|(s, _)| d > s) {
                        slowest = Some((d, id));
                    }
                    if t.fault == "kill -9" && d > limit {
                        out.fail(format!(
                            "game {id}: first event after the {} of {} (epoch {}) is {} by epoch \
                             {:?}, {d} ms after (limit {limit} ms)",
                            t.fault, t.node, t.epoch, e.seq, e.epoch
                        ));
                    }
                }
                None => {
                    let last = gdb.events.last();
                    let why = if last.is_some_and(|e| e.created_at < t.at_ms)
                        && gdb.status != "playing"
                    {
                        Some("it had ended just before")
                    } else if abandoned.contains(id) || !by_id.contains_key(id.as_str()) {
                        Some("it had no players")
                    } else {
                        None
                    };
                    match why {
                        Some(why) => out.notes.push(format!(
                            "game {id}: no event after the {} of {}: {why}",
                            t.fault, t.node
                        )),
                        None if t.fault == "kill -9" => out.fail(format!(
                            "game {id}: no event from another epoch after the {} of {} \
                             (epoch {}) at {}; status {}, last event {:?}",
                            t.fault,
                            t.node,
                            t.epoch,
                            t.at_ms,
                            gdb.status,
                            last.map(|e| (e.seq, e.created_at, e.epoch))
                        )),
                        None => out.notes.push(format!(
                            "game {id}: no event from another epoch after the {} of {}",
                            t.fault, t.node
                        )),
                    }
                }
            }
        }
        delays.sort_unstable();
        out.notes.push(format!(
            "{} of {} (epoch {}): {} games taken over, delays (ms) {:?}",
            t.fault,
            t.node,
            t.epoch,
            delays.len(),
            delays
        ));
        if let Some((d, id)) = slowest {
            if let Some(g) = by_id.get(id) {
                out.notes.push(format!(
                    "the slowest takeover after the {} of {}: game {id}, {d} ms; {}",
                    t.fault,
                    t.node,
                    timeline(g, t.at_ms, t.at_ms + d + 1000)
                ));
            }
        }
        if t.fault == "kill -9" {
            out.kill_delays.extend(delays);
        } else {
            out.stop_delays.extend(delays);
        }
    }
    let ends: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT time_control, termination FROM games WHERE status = 'finished'")
            .fetch_all(pool)
            .await
            .unwrap_or_default();
    for (tc, termination) in ends {
        *out.terminations
            .entry((tc, termination.unwrap_or_default()))
            .or_default() += 1;
    }
    store.close().await;
    out
}

/// The top-level fields where `a` and `b` differ (`(type)` if either is not an object).
fn differing(a: &Value, b: &Value) -> Vec<String> {
    let (Value::Object(a), Value::Object(b)) = (a, b) else {
        return if a == b {
            Vec::new()
        } else {
            vec!["(type)".to_owned()]
        };
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect()
}

/// What `g`'s players did from `from` to `to` (unix ms), in ms after `from`.
fn timeline(g: &GameLog, from: i64, to: i64) -> String {
    let mut items: Vec<(i64, String)> = Vec::new();
    for c in &g.clients {
        for conn in &c.conns {
            if conn.ended_ms >= from && conn.opened_ms <= to {
                items.push((
                    conn.opened_ms - from,
                    format!(
                        "{} on n{} until +{}: {}",
                        c.seat,
                        conn.node + 1,
                        conn.ended_ms - from,
                        conn.end
                    ),
                ));
            }
        }
        for s in c.sent.iter().filter(|s| (from..=to).contains(&s.at_ms)) {
            items.push((
                s.at_ms - from,
                format!(
                    "{} sent {} (ply {}) to n{}",
                    c.seat,
                    s.uci,
                    s.ply,
                    s.node + 1
                ),
            ));
        }
        for a in c.acks.iter().filter(|a| (from..=to).contains(&a.at_ms)) {
            items.push((
                a.at_ms - from,
                format!("{} ack of ply {} (seq {})", c.seat, a.ply, a.seq),
            ));
        }
        for (at, e) in c.errors.iter().filter(|(at, _)| (from..=to).contains(at)) {
            let e: String = e.chars().take(160).collect();
            items.push((at - from, format!("{} {e}", c.seat)));
        }
    }
    items.sort();
    items
        .iter()
        .map(|(ms, what)| format!("+{ms}: {what}"))
        .collect::<Vec<_>>()
        .join("; ")
}
