//! The typed commands of a game, run by its actor wherever it is (see [`super::routing`]).

use std::sync::Arc;
use std::time::Duration;

use super::super::actor::Cmd;
use super::super::api::GameEnded;
use super::super::players::Credentials;
use super::super::referee::{Action, ArbiterAction};
use super::super::remote::RemoteCmd;
use super::super::wire::{Ack, GameView, RematchAnswer, SeatGrant};
use super::Hub;
use crate::auth::Account;
use crate::error::{ApiResult, AppError};

impl Hub {
    /// Take the free seat; the game starts (Art. 6.6).
    ///
    /// # Errors
    /// 404 unknown game, 409 both seats taken.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        account: Option<&Account>,
    ) -> ApiResult<SeatGrant> {
        self.routed(
            id,
            |reply| Cmd::Join(account.cloned(), reply),
            || RemoteCmd::Join(account.cloned()),
        )
        .await
    }

    /// Withdraw a game still waiting for an opponent (its creator only).
    ///
    /// # Errors
    /// 401 not the creator, 404 unknown game, 409 `not_waiting`.
    pub async fn withdraw(self: &Arc<Self>, id: &str, who: Credentials) -> ApiResult<()> {
        self.routed(
            id,
            |reply| Cmd::Withdraw {
                who: who.clone(),
                reply,
            },
            || RemoteCmd::Withdraw(who.clone()),
        )
        .await
    }

    /// Offer or accept a rematch (`offer`), or decline or withdraw an offer. When the rematch
    /// starts, the new game is loaded (and so started) before this returns.
    ///
    /// # Errors
    /// 401 not a player, 404 unknown game, 409 `not_finished` or `opponent_left`.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        who: Credentials,
        offer: bool,
    ) -> ApiResult<RematchAnswer> {
        let answer = self
            .routed(
                id,
                |reply| Cmd::Rematch {
                    who: who.clone(),
                    offer,
                    reply,
                },
                || RemoteCmd::Rematch {
                    who: who.clone(),
                    offer,
                },
            )
            .await?;
        if let Some(game) = &answer.game {
            self.view(game).await?;
        }
        Ok(answer)
    }

    /// The whole state of a game, clocks as of now.
    ///
    /// # Errors
    /// 404 unknown game.
    pub async fn view(self: &Arc<Self>, id: &str) -> ApiResult<GameView> {
        self.routed(id, Cmd::View, || RemoteCmd::View).await
    }

    /// The game in PGN.
    ///
    /// # Errors
    /// 404 unknown game.
    pub async fn pgn(self: &Arc<Self>, id: &str) -> ApiResult<String> {
        self.routed(id, Cmd::Pgn, || RemoteCmd::Pgn).await
    }

    /// Perform `action` for the seat holding `token`; returns the event number and the state.
    ///
    /// # Errors
    /// 401 bad token, 404 unknown game, 409 out of turn / finished / not started, 422 illegal.
    pub async fn act(
        self: &Arc<Self>,
        id: &str,
        who: &Credentials,
        action: Action,
    ) -> ApiResult<Ack> {
        let (seq, game) = self
            .routed(
                id,
                |reply| Cmd::Act {
                    who: who.clone(),
                    action: action.clone(),
                    view: true,
                    reply,
                },
                || RemoteCmd::Act {
                    who: who.clone(),
                    action: action.clone(),
                    view: true,
                },
            )
            .await?;
        let game = game.ok_or_else(|| AppError::Internal("no view".into()))?;
        Ok(Ack { seq, game })
    }

    /// As [`Hub::act`], returning only the event number (the WebSocket path).
    ///
    /// # Errors
    /// As [`Hub::act`].
    pub async fn act_quiet(
        self: &Arc<Self>,
        id: &str,
        who: &Credentials,
        action: Action,
    ) -> ApiResult<i64> {
        self.routed(
            id,
            |reply| Cmd::Act {
                who: who.clone(),
                action: action.clone(),
                view: false,
                reply,
            },
            || RemoteCmd::Act {
                who: who.clone(),
                action: action.clone(),
                view: false,
            },
        )
        .await
        .map(|(seq, _): (i64, Option<GameView>)| seq)
    }

    /// The arbiter acts on a game (Art. 6.7.1 forfeits, Art. 12.9 penalties); returns the
    /// game event's number.
    ///
    /// # Errors
    /// 404 unknown game; 409 `game_over`, `untimed`.
    pub async fn arbiter(self: &Arc<Self>, id: &str, action: ArbiterAction) -> ApiResult<i64> {
        self.routed(
            id,
            |reply| Cmd::Arbiter { action, reply },
            || RemoteCmd::Arbiter(action),
        )
        .await
    }

    /// Wait until game `id` ends, and say how. It follows the game wherever it is played (here,
    /// or on its owner node in a cluster, across failovers), so that no end is missed, as the
    /// node-local [`Feed`](super::super::feed::Feed) may: a tournament waits on its boards so.
    /// Other failures (a node or the database unreachable) are retried every second.
    ///
    /// # Errors
    /// 404 unknown game.
    pub async fn ended(self: &Arc<Self>, id: &str) -> ApiResult<GameEnded> {
        loop {
            let mut sub = match self.subscribe(id, None).await {
                Ok(s) => s,
                Err(e @ AppError::NotFound(_)) => return Err(e),
                Err(e) => {
                    tracing::warn!(game = %id, error = %e, "cannot follow a game; retrying");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            };
            if let Some(ended) = sub.state.as_ref().and_then(GameEnded::of_state) {
                return Ok(ended);
            }
            // Until the subscriber falls behind or the game is unloaded: then look again.
            while let Ok(ev) = sub.rx.recv().await {
                if let Some(ended) = GameEnded::of_message(ev.json.as_str()) {
                    return Ok(ended);
                }
            }
        }
    }
}
