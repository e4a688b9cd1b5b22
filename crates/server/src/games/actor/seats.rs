//! The seats: a person joins (Art. 6.6: the game starts when the second seat is taken), the
//! creator withdraws a game nobody joined.

use serde_json::json;

use super::super::api::Status;
use super::super::feed::Lifecycle;
use super::super::players::Credentials;
use super::super::wire::{Seat, SeatGrant};
use super::GameActor;
use crate::auth::Account;
use crate::db::{self, Write};
use crate::error::{ApiResult, AppError};
use crate::ratings::{self, Category};
use crate::token;

impl GameActor {
    /// Art. 6.6: the game starts when the second seat is taken. A game created with both
    /// seats taken (against the computer, from a seek or a pool, a rematch) starts as soon as
    /// it is loaded, as when a person joins.
    pub(super) async fn auto_start(&mut self) {
        if self.referee.is_started()
            || self.referee.is_over()
            || self.withdrawn
            || !(self.seats.taken(Seat::White) && self.seats.taken(Seat::Black))
        {
            return;
        }
        if let Err(e) = self.start(None).await {
            tracing::error!(game = %self.id, error = %e, "cannot store the start of a game");
        }
    }

    /// Start the game now (both seats taken; `taken` is the seat taken just now), with the
    /// players' ratings at the start of a rated game.
    async fn start(&mut self, taken: Option<Seat>) -> ApiResult<i64> {
        if self.seats.row.rated {
            let category = self
                .seats
                .row
                .category
                .as_deref()
                .and_then(|c| c.parse::<Category>().ok())
                .ok_or_else(|| AppError::Internal("a rated game without a category".into()))?;
            let now = db::now_unix_ms();
            let pool = self.ctx.store.pool();
            for seat in [Seat::White, Seat::Black] {
                let Some(account) = self.seats.account(seat) else {
                    continue;
                };
                let r = ratings::rating_of(pool, account, category, now).await?;
                let at_start = Some((r.rating, r.provisional));
                match seat {
                    Seat::White => self.seats.row.white_rating = at_start,
                    Seat::Black => self.seats.row.black_rating = at_start,
                }
            }
        }
        let t = self.now_t();
        let n0 = self.referee.event_count();
        let ply0 = self.referee.ply();
        // The clock of the side to move starts now.
        self.referee.start(t)?;
        match self.commit(n0, ply0, taken).await {
            Ok(seq) => {
                self.tell_feed(Lifecycle::Started);
                Ok(seq)
            }
            Err(e) => {
                self.undo(n0);
                Err(e)
            }
        }
    }

    pub(super) async fn join(&mut self, account: Option<Account>) -> ApiResult<SeatGrant> {
        if self.withdrawn {
            return Err(AppError::conflict("withdrawn", "the game was withdrawn"));
        }
        let seat = match (self.seats.taken(Seat::White), self.seats.taken(Seat::Black)) {
            (false, _) => Seat::White,
            (_, false) => Seat::Black,
            _ => return Err(AppError::conflict("seats_taken", "both seats are taken")),
        };
        if self.seats.row.rated && account.is_none() {
            return Err(AppError::Unauthorized("log in to play a rated game".into()));
        }
        if let Some(a) = &account {
            if self.seats.account(seat.other()) == Some(a.id.as_str()) {
                return Err(AppError::conflict(
                    "own_game",
                    "you hold the other seat of this game",
                ));
            }
        }
        let tok = token::generate();
        self.seats
            .take(seat, Some(token::hash(&tok)), account.as_ref());
        // Art. 6.6: the game starts when the second seat is taken.
        if let Err(e) = self.start(Some(seat)).await {
            self.seats.free(seat);
            return Err(e);
        }
        Ok(SeatGrant {
            id: self.id.clone(),
            seat,
            token: tok,
        })
    }

    pub(super) async fn withdraw(&mut self, who: &Credentials) -> ApiResult<()> {
        let seat = self.seats.seat_of(who).ok_or_else(|| {
            AppError::Unauthorized("only the game's creator can withdraw it".into())
        })?;
        if self.status() != Status::Waiting {
            return Err(AppError::conflict(
                "not_waiting",
                "the game has started: it can no longer be withdrawn",
            ));
        }
        debug_assert!(self.seats.taken(seat));
        self.write(Write::Withdraw(self.id.clone())).await?;
        self.withdrawn = true;
        self.stored_status = Status::Withdrawn;
        self.notice(json!({"type": "withdrawn"})).await;
        Ok(())
    }
}
