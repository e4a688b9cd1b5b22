//! The computer's seat in a live game: its searches (started when it is its turn, stopped
//! when no longer wanted) and its answers, played through the same path as a person's moves.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::super::api::Status;
use super::super::computer::{self, ComputerPlayer, ComputerSeat, Engines, GameClock};
use super::super::referee::Action;
use super::super::wire::{DrawAction, DrawRequest, MoveRequest};
use super::{Cmd, ComputerAnswer, GameActor};
use crate::error::{ApiResult, AppError};

/// A computer seat in a live game.
pub(super) struct Computer {
    pub(super) seat: ComputerSeat,
    /// The player while it is not thinking (meanwhile it is on the engine thread).
    player: Option<Box<dyn ComputerPlayer>>,
    /// The search under way.
    thinking: Option<Thinking>,
    next_ticket: u64,
    /// A position (ply) for which the player gave no playable move: not asked again.
    stuck_at: Option<usize>,
    /// Errors of the player since its last move.
    failures: u32,
}

impl Computer {
    /// Let go of the player on a blocking thread: an external engine is told to quit, which
    /// may take a moment.
    fn release(&mut self) {
        if let Some(p) = self.player.take() {
            match tokio::runtime::Handle::try_current() {
                Ok(h) => {
                    h.spawn_blocking(move || drop(p));
                }
                Err(_) => drop(p),
            }
        }
    }
}

impl Drop for Computer {
    fn drop(&mut self) {
        self.release();
    }
}

/// A search under way, for the position after `ply` half-moves.
struct Thinking {
    ticket: u64,
    ply: usize,
    stop: Arc<AtomicBool>,
}

impl Computer {
    /// The seat's player, ready to think.
    pub(super) fn new(seat: ComputerSeat, engines: &Engines) -> ApiResult<Self> {
        Ok(Self {
            player: Some(seat.player.build(engines)?),
            seat,
            thinking: None,
            next_ticket: 1,
            stuck_at: None,
            failures: 0,
        })
    }
}

impl GameActor {
    /// The computer's part, looked at before every command: start a game whose seats the
    /// creator and the computer have taken, decline a draw offered to the computer, stop a
    /// search that is no longer wanted, and start one when it is the computer's turn.
    pub(super) async fn computer_step(&mut self) {
        let Some(seat) = self.computer.as_ref().map(|c| c.seat.seat) else {
            return;
        };
        // Art. 9.1.2: the computer never offers or claims a draw, and declines every offer
        // at once (the offer lapses; the person may offer again later).
        if self.status() == Status::Playing && self.referee.draw_offer() == Some(seat.other()) {
            let decline = Action::Draw(DrawRequest {
                action: DrawAction::Decline,
                mv: None,
            });
            let t = self.now_t();
            if let Err(e) = self.act_seat(seat, decline, t).await {
                tracing::warn!(game = %self.id, error = %e, "the computer cannot decline a draw");
            }
        }
        let its_turn = self.status() == Status::Playing && self.referee.turn() == seat;
        let ply = self.referee.ply();
        let Some(c) = self.computer.as_mut() else {
            return;
        };
        if let Some(th) = &c.thinking {
            // The game ended (flag, resignation, abort, agreement) or moved on: answer at once;
            // the answer will be discarded.
            if !its_turn || th.ply != ply {
                th.stop.store(true, Ordering::SeqCst);
            }
            return;
        }
        if self.referee.is_over() {
            // An external engine quits when the game ends, not when the game is unloaded.
            c.release();
            return;
        }
        if !its_turn || c.stuck_at == Some(ply) {
            return;
        }
        let Some(player) = c.player.take() else {
            return;
        };
        let ticket = c.next_ticket;
        c.next_ticket += 1;
        let stop = Arc::new(AtomicBool::new(false));
        c.thinking = Some(Thinking {
            ticket,
            ply,
            stop: stop.clone(),
        });
        let game = self.referee.game().clone();
        let clock = GameClock {
            base_t: self.base_t,
            base: self.base,
        };
        let engines = self.ctx.engines.clone();
        let closing = self.ctx.closing();
        let me = self.me.clone();
        tokio::spawn(async move {
            let answer = match computer::think(engines, player, game, clock, stop, closing).await {
                computer::Outcome::Answer(a) => Ok(a),
                computer::Outcome::Error(p) => Err(Some(p)),
                computer::Outcome::Failed => Err(None),
                computer::Outcome::Closed => return,
            };
            if let Some(tx) = me.and_then(|w| w.upgrade()) {
                let _ = tx.send(Cmd::Computer { ticket, answer }).await;
            }
        });
    }

    /// The computer has answered: play its move through the same path as a person's, at the
    /// game time it answered, unless the game has moved on meanwhile (then it is discarded).
    pub(super) async fn computer_answer(&mut self, ticket: u64, answer: ComputerAnswer) {
        let Some(c) = self.computer.as_mut() else {
            return;
        };
        let answer = match answer {
            Ok(a) => a,
            Err(Some(player)) => {
                // The player could not choose (an external engine's error, logged; the engine
                // is dropped and restarted at the next search, a few times at most): ask
                // again. Once the player gives up, its every answer is an error at once: then
                // this position is not asked about again (the computer's flag will fall).
                c.player = Some(player);
                if let Some(th) = c.thinking.take_if(|th| th.ticket == ticket) {
                    c.failures += 1;
                    tracing::warn!(game = %self.id, ply = th.ply, failures = c.failures, "the computer could not choose a move");
                    if c.failures > computer::MAX_ENGINE_RESTARTS {
                        c.stuck_at = Some(th.ply);
                    }
                }
                return;
            }
            Err(None) => {
                // The player failed (and was lost with its thread): a fresh one, which will
                // not be asked about this position again (the computer's flag will fall).
                tracing::error!(game = %self.id, "the computer player failed");
                c.player = c.seat.player.build(&self.ctx.engines).ok();
                if let Some(th) = c.thinking.take_if(|th| th.ticket == ticket) {
                    c.stuck_at = Some(th.ply);
                }
                return;
            }
        };
        c.player = Some(answer.player);
        if c.thinking.as_ref().map(|th| th.ticket) != Some(ticket) {
            return;
        }
        let Some(th) = c.thinking.take() else { return };
        let seat = c.seat.seat;
        if self.status() != Status::Playing
            || self.referee.turn() != seat
            || self.referee.ply() != th.ply
        {
            tracing::debug!(game = %self.id, "stale computer move discarded");
            return;
        }
        let Some(uci) = answer.uci else {
            tracing::error!(game = %self.id, ply = th.ply, "the computer found no move");
            if let Some(c) = self.computer.as_mut() {
                c.stuck_at = Some(th.ply);
            }
            return;
        };
        // Events are in time order: a draw offer stored while the engine thought is earlier.
        let t = answer
            .t
            .max(self.referee.game().last_event_at().unwrap_or(0));
        let mv = Action::Move(MoveRequest {
            mv: uci.clone(),
            offer_draw: false,
            ply: u32::try_from(th.ply).ok(),
            lag_ms: None,
        });
        match self.act_seat(seat, mv, t).await {
            Ok(_) => {
                if let Some(c) = self.computer.as_mut() {
                    c.failures = 0;
                }
            }
            Err(AppError::Internal(e) | AppError::Unavailable(e)) => {
                // Not stored (the database): think again a little later.
                tracing::error!(game = %self.id, error = %e, "cannot store the computer's move");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => {
                tracing::error!(game = %self.id, %uci, error = %e, "the computer's move was refused");
                if let Some(c) = self.computer.as_mut() {
                    c.stuck_at = Some(th.ply);
                }
            }
        }
    }
}
