//! Moves and other actions: a player's (by credentials), a seat's (the one path of a person's
//! and the computer's actions), the arbiter's, and the flag's fall.

use std::time::Duration;

use super::super::players::Credentials;
use super::super::referee::{Action, ArbiterAction};
use super::super::wire::Seat;
use super::GameActor;
use crate::error::{ApiResult, AppError};

impl GameActor {
    pub(super) async fn act(&mut self, who: &Credentials, action: Action) -> ApiResult<i64> {
        let seat = self.seats.seat_of(who).ok_or_else(|| {
            AppError::Unauthorized(if who.is_empty() {
                "send a seat token (Authorization: Bearer) or log in".into()
            } else {
                "these credentials hold no seat in this game".into()
            })
        })?;
        if !self.referee.is_started() {
            return Err(AppError::conflict(
                "not_started",
                "the game has not started: a seat is still free",
            ));
        }
        let t = self.now_t();
        self.act_seat(seat, action, t).await
    }

    /// Perform `action` for `seat` at game time `t`: the one path of every action, a person's
    /// or the computer's.
    pub(super) async fn act_seat(&mut self, seat: Seat, action: Action, t: u64) -> ApiResult<i64> {
        let n0 = self.referee.event_count();
        let ply0 = self.referee.ply();
        // A flag that has fallen (Art. 6.9) or a penalised illegal move (7.5.5) brings a
        // ruling, which runs the full dead-position analysis.
        let game = self.referee.game();
        let may_rule = game.next_deadline().is_some_and(|d| d <= t)
            || game.config().rules.illegal_moves == arbiter_game::IllegalMovePolicy::FidePenalties;
        let lag = self.ctx.lag_allowance_ms;
        let referee = &mut self.referee;
        let r = off_the_runtime(may_rule, || referee.act(seat, action, t, lag));
        // A refused action changes nothing, except that the game may have found the mover's
        // flag fallen first (Art. 6.8): that event is stored like any other.
        if self.referee.event_count() > n0 {
            if let Err(e) = self.commit(n0, ply0, None).await {
                self.undo(n0);
                return Err(e);
            }
        }
        match r {
            Ok(()) => Ok(self.last_seq()),
            Err(e)
                if e.code() == "game_over"
                    && self
                        .referee
                        .termination()
                        .as_deref()
                        .is_some_and(|t| t.starts_with("timeout")) =>
            {
                Err(AppError::conflict(
                    "game_over",
                    format!(
                        "the game is over: {}",
                        self.referee.termination().unwrap_or_default()
                    ),
                ))
            }
            Err(e) => Err(e),
        }
    }

    /// The arbiter's action, stored and published like a player's.
    pub(super) async fn arbiter(&mut self, action: ArbiterAction) -> ApiResult<i64> {
        let t = self
            .now_t()
            .max(self.referee.game().last_event_at().unwrap_or(0));
        let n0 = self.referee.event_count();
        let ply0 = self.referee.ply();
        // A flag that fell before the arbiter acts ends the game first (Art. 6.9).
        let referee = &mut self.referee;
        off_the_runtime(true, || referee.check_flag(t));
        let r = if self.referee.is_over() {
            Err(AppError::conflict("game_over", "the game is over"))
        } else {
            self.referee.arbiter(action, t)
        };
        if self.referee.event_count() > n0 {
            if let Err(e) = self.commit(n0, ply0, None).await {
                self.undo(n0);
                return Err(e);
            }
        }
        r.map(|()| self.last_seq())
    }

    pub(super) async fn check_flag(&mut self) {
        let t = self.now_t();
        let n0 = self.referee.event_count();
        let ply0 = self.referee.ply();
        let referee = &mut self.referee;
        if off_the_runtime(true, || referee.check_flag(t)) {
            if let Err(e) = self.commit(n0, ply0, None).await {
                tracing::error!(game = %self.id, error = %e, "cannot store a flag fall");
                self.undo(n0);
                // Try again a little later rather than spinning.
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        } else {
            // Not fallen yet; the next alarm is recomputed.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// Runs `f`. When it `may_take_long` (a ruling's full dead-position analysis: microseconds for
/// a real game, up to a few hundred milliseconds for a constructed position), without stalling
/// the other tasks of this worker thread: on a multi-threaded runtime the worker hands them to
/// another thread for the duration.
fn off_the_runtime<R>(may_take_long: bool, f: impl FnOnce() -> R) -> R {
    let multi = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if may_take_long && multi {
        tokio::task::block_in_place(f)
    } else {
        f()
    }
}
