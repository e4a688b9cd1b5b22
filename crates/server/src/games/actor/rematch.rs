//! Rematches (after the game): an offer, its acceptance (the computer always accepts), and the
//! new game with the colours swapped.

use serde_json::json;

use super::super::api::Status;
use super::super::computer::ComputerSeat;
use super::super::players::Credentials;
use super::super::wire::RematchAnswer;
use super::GameActor;
use crate::db::{self, GameRow, Write};
use crate::error::{ApiResult, AppError};
use crate::token;

impl GameActor {
    pub(super) async fn rematch(
        &mut self,
        who: &Credentials,
        offer: bool,
    ) -> ApiResult<RematchAnswer> {
        let seat = self.seats.seat_of(who).ok_or_else(|| {
            AppError::Unauthorized("only the players of a game can ask for a rematch".into())
        })?;
        if !self.referee.is_over() {
            return Err(AppError::conflict("not_finished", "the game is not over"));
        }
        if let Some(game) = &self.seats.row.rematch_id {
            return Ok(RematchAnswer {
                status: "started".into(),
                game: Some(game.clone()),
            });
        }
        if !offer {
            if self.rematch_offer.take().is_some() {
                self.notice(json!({"type": "rematch", "offer": null})).await;
            }
            return Ok(RematchAnswer {
                status: "declined".into(),
                game: None,
            });
        }
        let opponent = seat.other();
        let computer = self.computer.as_ref().map(|c| c.seat.clone());
        let vs_computer = computer.as_ref().is_some_and(|c| c.seat == opponent);
        if self.seats.name(opponent).is_some_and(|n| n.closed) {
            return Err(AppError::conflict(
                "opponent_left",
                "the opponent's account is closed",
            ));
        }
        // The computer always accepts.
        if !vs_computer && self.rematch_offer != Some(opponent) {
            if self.rematch_offer != Some(seat) {
                self.rematch_offer = Some(seat);
                self.notice(json!({"type": "rematch", "offer": seat})).await;
            }
            return Ok(RematchAnswer {
                status: "offered".into(),
                game: None,
            });
        }
        let game = self.rematch_row(computer)?;
        let new_id = game.id.clone();
        self.write(Write::Rematch {
            of: self.id.clone(),
            game,
        })
        .await?;
        self.seats.row.rematch_id = Some(new_id.clone());
        self.rematch_offer = None;
        self.notice(json!({"type": "rematch", "game": new_id}))
            .await;
        Ok(RematchAnswer {
            status: "started".into(),
            game: Some(new_id),
        })
    }

    /// The new game of a rematch: the same time control, variant, rules and rated-ness, the
    /// colours swapped; each seat held by the same token hash and account as before.
    fn rematch_row(&self, computer: Option<ComputerSeat>) -> ApiResult<GameRow> {
        let now = db::now_unix_ms();
        let old = &self.seats.row;
        let computer = computer.map(|c| ComputerSeat {
            seat: c.seat.other(),
            player: c.player,
        });
        Ok(GameRow {
            id: token::game_id(),
            created_at: now,
            updated_at: now,
            spec: serde_json::to_string(&self.spec)
                .map_err(|e| AppError::Internal(e.to_string()))?,
            time_control: self.spec.time_control.clone(),
            variant: self.spec.variant.as_str().to_owned(),
            white_hash: self.seats.black_hash.clone(),
            black_hash: self.seats.white_hash.clone(),
            // Both seats are taken: it is loaded at once and starts (Art. 6.6).
            status: Status::Playing.as_str().to_owned(),
            result: None,
            termination: None,
            last_seq: 0,
            computer: computer
                .map(|c| serde_json::to_string(&c))
                .transpose()
                .map_err(|e| AppError::Internal(e.to_string()))?,
            players: db::PlayersRow {
                white_account: old.black_account.clone(),
                black_account: old.white_account.clone(),
                rated: old.rated,
                category: old.category.clone(),
                ..db::PlayersRow::default()
            },
        })
    }
}
