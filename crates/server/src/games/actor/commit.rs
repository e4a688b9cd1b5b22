//! Committing: the game events just applied are stored (under the actor's fence) before they
//! are acknowledged and published; the wire JSON of events and notices; undoing what could not
//! be stored.

use std::sync::Arc;

use serde_json::{json, Value};

use super::super::api::Status;
use super::super::feed::{GameChange, Lifecycle};
use super::super::referee::Referee;
use super::super::wire::Seat;
use super::{GameActor, WireEvent};
use crate::db::{self, EventRow, GameUpdate, StoreError, Write};
use crate::error::{ApiResult, AppError};
use crate::metrics::METRICS;

impl GameActor {
    /// Tell the players' followers that the game started or ended (after its commit).
    pub(super) fn tell_feed(&self, what: Lifecycle) {
        self.ctx.feed.publish(GameChange {
            game: self.id.clone(),
            white: self.seats.account(Seat::White).map(str::to_owned),
            black: self.seats.account(Seat::Black).map(str::to_owned),
            what,
        });
    }

    /// Send every subscriber a message that is not a game event (not numbered, not stored).
    pub(super) async fn notice(&mut self, msg: Value) {
        let ev = Arc::new(WireEvent {
            seq: 0,
            json: msg.to_string().into(),
        });
        if let Some(c) = &self.ctx.cluster {
            c.publish_event(&self.id, ev.to_bus()).await;
        }
        let _ = self.events.send(ev);
    }

    /// Commit `write` under this actor's fence; a refused fence or an unconfirmed commit
    /// stops the actor.
    pub(super) async fn write(&mut self, write: Write) -> ApiResult<db::Committed> {
        let started = std::time::Instant::now();
        let r = self.ctx.store.write_fenced(write, self.fence.clone()).await;
        METRICS.commit(started.elapsed());
        r.map_err(|e| {
            match &e {
                StoreError::Fenced => {
                    tracing::warn!(game = %self.id, "fenced: another node owns the game now");
                    METRICS.fenced();
                    self.stale = true;
                }
                StoreError::Unconfirmed(why) => {
                    tracing::warn!(game = %self.id, error = %why,
                        "commit not confirmed: the game will be loaded again from the database");
                    self.stale = true;
                }
                _ => {}
            }
            AppError::from(e)
        })
    }

    /// Forget the game events from index `n0`, whose commit failed: the game is as if the
    /// action had not been made (it was not acknowledged).
    pub(super) fn undo(&mut self, n0: usize) {
        match self.referee.truncated(n0) {
            Ok(r) => self.referee = r,
            Err(e) => tracing::error!(game = %self.id, error = %e, "cannot undo an unstored event"),
        }
    }

    /// The public JSON of the game event `ev` (number `seq`), with the state after it.
    fn wire(&self, seq: i64, ev: &arbiter_game::TimedEvent, ply0: usize) -> Value {
        let (kind, fields) = Referee::describe(ev);
        let mut data = json!({
            "type": "event",
            "seq": seq,
            "kind": kind,
            "t_ms": ev.at,
            "status": self.status(),
            "turn": self.referee.turn(),
            "clocks": self.referee.clocks(ev.at),
            "draw_offer": self.referee.draw_offer(),
            "result": self.referee.result(),
            "termination": self.referee.termination(),
            "ply": self.referee.ply(),
        });
        if self.referee.ply() > ply0 {
            data["move"] = serde_json::to_value(self.referee.move_at(self.referee.ply() - 1))
                .unwrap_or(Value::Null);
            data["fen"] = Value::String(self.referee.fen());
        }
        if let (Value::Object(d), Value::Object(x)) = (&mut data, fields) {
            d.extend(x);
        }
        data
    }

    /// Store the game events from index `n0` (just applied), then publish them; `taken` is a
    /// seat taken with them (a join). A rated game that ends here is rated in the same
    /// transaction, and its last event carries the rating changes.
    pub(super) async fn commit(
        &mut self,
        n0: usize,
        ply0: usize,
        taken: Option<Seat>,
    ) -> ApiResult<i64> {
        let first = self.last_seq() + 1;
        let now = db::now_unix_ms();
        let mut rows = Vec::new();
        let mut wires = Vec::new();
        for (i, ev) in self.referee.events_from(n0).iter().enumerate() {
            let seq = first + i as i64;
            let wire = self.wire(seq, ev, ply0).to_string();
            let (kind, _) = Referee::describe(ev);
            let timed = serde_json::to_string(ev).map_err(|e| AppError::Internal(e.to_string()))?;
            let data = format!("{{\"timed\":{timed},\"wire\":{wire}}}");
            rows.push(EventRow {
                game_id: self.id.clone(),
                seq,
                kind: kind.to_owned(),
                t_ms: i64::try_from(ev.at).unwrap_or(i64::MAX),
                data,
                created_at: now,
            });
            wires.push(Arc::new(WireEvent {
                seq,
                json: wire.into(),
            }));
        }
        // The game's row changes only with its status (start, end, adjournment) or seats.
        let status = self.status();
        let result = self.referee.result();
        let termination = self.referee.termination();
        // The game ends with this commit.
        let ended = self
            .referee
            .ended()
            .filter(|_| status == Status::Finished && self.stored_status != Status::Finished);
        let rated_end = ended.and_then(|e| self.seats.rated_end(&e));
        let row = &self.seats.row;
        let start_ratings = match (row.rated, row.white_rating, row.black_rating) {
            (true, Some(w), Some(b)) if !self.start_ratings_stored => Some([w, b]),
            _ => None,
        };
        let seat_hash = |seat: Seat| {
            (taken == Some(seat))
                .then(|| self.seats.hash(seat))
                .flatten()
        };
        let seat_account = |seat: Seat| {
            (taken == Some(seat))
                .then(|| self.seats.account(seat))
                .flatten()
        };
        // A game created with both seats taken (a seek, a pool, a rematch) is stored as
        // playing already: its start changes no status but stores the ratings.
        let update = (status != self.stored_status || taken.is_some() || start_ratings.is_some())
            .then(|| GameUpdate {
                status: status.as_str().to_owned(),
                result,
                termination,
                white_hash: seat_hash(Seat::White).map(str::to_owned),
                black_hash: seat_hash(Seat::Black).map(str::to_owned),
                white_account: seat_account(Seat::White).map(str::to_owned),
                black_account: seat_account(Seat::Black).map(str::to_owned),
                start_ratings,
                rated_end,
            });
        let committed = self.write(Write::Append(rows, update)).await?;
        if let Some(ended) = ended {
            self.tell_feed(Lifecycle::Ended(ended));
        }
        METRICS.moves(self.referee.ply().saturating_sub(ply0) as u64);
        self.stored_status = status;
        self.start_ratings_stored |= start_ratings.is_some();
        if let Some((white, black)) = committed.rating_diffs {
            self.seats.row.white_rating_diff = Some(white);
            self.seats.row.black_rating_diff = Some(black);
            // The last event as stored carries the changes (the writer added them); the live
            // one says the same.
            if let Some(last) = wires.pop() {
                let json = db::with_rating_diffs(last.json.as_str(), (white, black));
                wires.push(Arc::new(WireEvent {
                    seq: last.seq,
                    json: json.into(),
                }));
            }
        }
        for ev in wires {
            if let Some(c) = &self.ctx.cluster {
                c.publish_event(&self.id, ev.to_bus()).await;
            }
            self.log.push(ev.clone());
            let _ = self.events.send(ev);
        }
        Ok(self.last_seq())
    }
}
