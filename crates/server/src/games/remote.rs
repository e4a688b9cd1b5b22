//! Cluster mode: a command to a game owned by another node, as it travels over NATS
//! (`arbiter.node.<owner>.games`), and the owner's answer.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::players::Credentials;
use super::referee::{Action, ArbiterAction};
use crate::auth::Account;
use crate::error::AppError;

/// The NATS service of games on each node.
pub const SERVICE: &str = "games";

/// A command for game `game`'s owner.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    /// The game.
    pub game: String,
    /// What to do.
    pub cmd: RemoteCmd,
}

/// The commands of [`super::hub::Hub`] that other nodes forward.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum RemoteCmd {
    /// Take the free seat.
    Join(Option<Account>),
    /// Withdraw a waiting game.
    Withdraw(Credentials),
    /// Offer/accept or decline/withdraw a rematch.
    Rematch {
        /// Who.
        who: Credentials,
        /// Offer or accept.
        offer: bool,
    },
    /// The state.
    View,
    /// The PGN.
    Pgn,
    /// A seat's action.
    Act {
        /// Who.
        who: Credentials,
        /// What.
        action: Action,
        /// Answer with the state too.
        view: bool,
    },
    /// The arbiter's action.
    Arbiter(ArbiterAction),
    /// A subscription's start: the state (or the events after `since`) and the last number.
    Subscribe {
        /// The last event the subscriber saw.
        since: Option<i64>,
    },
}

/// What a subscriber on another node starts from (its live events come over NATS).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RemoteSubscription {
    /// The state, when the subscriber gave no `since`.
    pub state: Option<Value>,
    /// The events after `since`: number and JSON.
    pub backlog: Vec<(i64, String)>,
    /// The last event's number.
    pub last_seq: i64,
}

/// The owner's answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Response {
    /// Done: the result as JSON.
    Ok(Value),
    /// Refused: the API error.
    Err {
        /// HTTP status.
        status: u16,
        /// Code.
        error: String,
        /// Message.
        message: String,
    },
    /// This node does not own the game; `node` does, as far as it knows.
    NotOwner {
        /// The owner.
        node: Option<String>,
    },
}

impl Response {
    /// The answer to a command that gave `r`.
    pub fn of<T: Serialize>(r: Result<T, AppError>) -> Self {
        match r.and_then(|v| serde_json::to_value(v).map_err(|e| AppError::Internal(e.to_string())))
        {
            Ok(v) => Self::Ok(v),
            Err(e) => {
                let body = e.body();
                Self::Err {
                    status: e.status().as_u16(),
                    error: body.error,
                    message: body.message,
                }
            }
        }
    }
}
