//! The commands a game actor answers (sent by the hub, or by the actor's own computer
//! player); the hub's methods are the typed door to them.

use std::sync::Arc;

use tokio::sync::oneshot;

use super::super::computer::{self, ComputerPlayer};
use super::super::players::Credentials;
use super::super::referee::{Action, ArbiterAction};
use super::super::wire::{GameView, RematchAnswer, SeatGrant};
use super::{Subscription, WireEvent};
use crate::auth::Account;
use crate::error::ApiResult;

/// Where an actor sends its answer.
pub type Reply<T> = oneshot::Sender<ApiResult<T>>;

/// A command to a game actor.
pub enum Cmd {
    /// Take the free seat, for an account if logged in.
    Join(Option<Account>, Reply<SeatGrant>),
    /// Withdraw a game still waiting for an opponent (its creator).
    Withdraw {
        /// Who asks.
        who: Credentials,
        /// Done.
        reply: Reply<()>,
    },
    /// Offer or accept a rematch (`offer`), or decline or withdraw an offer.
    Rematch {
        /// Who asks.
        who: Credentials,
        /// Offer/accept (true) or decline/withdraw (false).
        offer: bool,
        /// What happened; a new game to load when it started.
        reply: Reply<RematchAnswer>,
    },
    /// The whole state.
    View(Reply<GameView>),
    /// An action of the seat these credentials hold; the answer has the state when `view`.
    Act {
        /// A seat token and/or an account.
        who: Credentials,
        /// What to do.
        action: Action,
        /// Answer with the state too.
        view: bool,
        /// The event number (and the state).
        reply: Reply<(i64, Option<GameView>)>,
    },
    /// Subscribe to the events after `since` (or a state snapshot).
    Subscribe {
        /// Last event number the subscriber saw.
        since: Option<i64>,
        /// The subscription.
        reply: Reply<Subscription>,
    },
    /// The events after `after` (a lagging subscriber catching up).
    Since {
        /// Last event number seen.
        after: i64,
        /// The events.
        reply: Reply<Vec<Arc<WireEvent>>>,
    },
    /// The game in PGN.
    Pgn(Reply<String>),
    /// The arbiter (a tournament's director, or its default-time rule) acts on the game.
    Arbiter {
        /// What to do.
        action: ArbiterAction,
        /// The event number.
        reply: Reply<i64>,
    },
    /// The computer player's answer (see [`computer::think`]); `None` if it failed.
    Computer {
        /// The search it answers.
        ticket: u64,
        /// The answer.
        answer: ComputerAnswer,
    },
}

/// What a computer's search gave the actor: an answer, or an error with the player back
/// (`Some`), or nothing (the player panicked and is lost).
pub type ComputerAnswer = Result<computer::Answer, Option<Box<dyn ComputerPlayer>>>;
