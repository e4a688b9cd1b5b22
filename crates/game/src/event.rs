//! The event log: a game is its configuration plus the timestamped events applied to it.
//! Storing a [`GameRecord`] and replaying it ([`crate::Game::from_record`]) gives back the
//! same game, clocks included, because nothing in this crate reads the system clock.

use crate::result::{GameResult, Termination};
use crate::rules::Rules;
use crate::time_control::TimeControl;
use crate::Millis;
use arbiter_rules::Color;

/// How a game is set up: start position, time control, competition rules.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameConfig {
    /// FEN of the start position; `None` for the standard position (Art. 2.3).
    #[cfg_attr(feature = "serde", serde(default))]
    pub start_fen: Option<String>,
    /// Chess960 (Guideline II): castling as king takes rook, PGN `Variant` tag.
    #[cfg_attr(feature = "serde", serde(default))]
    pub chess960: bool,
    /// The time control.
    pub time_control: TimeControl,
    /// The rules of the competition.
    #[cfg_attr(feature = "serde", serde(default))]
    pub rules: Rules,
}

impl GameConfig {
    /// Standard start position, FIDE defaults, the given time control.
    pub fn new(time_control: TimeControl) -> GameConfig {
        GameConfig {
            start_fen: None,
            chess960: false,
            time_control,
            rules: Rules::default(),
        }
    }
}

/// Something that happened in a game. Moves are kept in UCI notation (king takes rook for
/// Chess960 castling is accepted as well as king two squares).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum Event {
    /// Art. 6.6: the clock of the side to move is started (both seats taken).
    Start,
    /// A move, pressed on the clock (Art. 6.2.1).
    Move {
        /// Who moved.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
        /// The move in UCI notation.
        uci: String,
        /// Made together with a draw offer (Art. 9.1.2.1).
        #[cfg_attr(feature = "serde", serde(default))]
        offer_draw: bool,
        /// Network lag the server credited to this move.
        #[cfg_attr(feature = "serde", serde(default))]
        lag_credit_ms: Millis,
    },
    /// A draw offer without a move.
    OfferDraw {
        /// Who offered.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
    },
    /// A standing offer accepted.
    AcceptDraw {
        /// Who accepted.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
    },
    /// A standing offer declined.
    DeclineDraw {
        /// Who declined.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
    },
    /// A draw claim under Art. 9.2 or 9.3, optionally with an intended move (UCI).
    ClaimDraw {
        /// Who claimed.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
        /// The intended move, written and not played.
        #[cfg_attr(feature = "serde", serde(default))]
        intended: Option<String>,
    },
    /// Art. 5.1.2.
    Resign {
        /// Who resigned.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
    },
    /// Online convention: abort before both players have moved.
    Abort {
        /// Who aborted.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
    },
    /// A flag was found fallen (Art. 6.8) by a call to `check_time`.
    Flag,
    /// Time added by the arbiter (Art. 6.10.2, 12.9.2).
    AddTime {
        /// Whose clock.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
        /// How much.
        ms: Millis,
    },
    /// The arbiter sets a clock (Art. 6.10.2), e.g. when a game is rebuilt from a record.
    SetClock {
        /// Whose clock.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
        /// The time it shows afterwards.
        ms: Millis,
    },
    /// Guideline III.4: a request for 5 seconds per move for both players.
    QuickplayIncrement {
        /// Who asked.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
    },
    /// Guideline I.1: the player to move seals a move and the game is adjourned.
    Adjourn {
        /// Who sealed.
        #[cfg_attr(feature = "serde", serde(with = "color_serde"))]
        color: Color,
        /// The sealed move as written (SAN or UCI), possibly ambiguous or illegal (I.8).
        sealed: String,
    },
    /// Guideline I.9.1: resumption; the sealed move is played.
    Resume,
    /// A result declared by the arbiter: forfeits (`+/-`, `-/+`, `-/-`) or decisions
    /// (Art. 12.9).
    Declare {
        /// The result.
        result: GameResult,
        /// Why.
        termination: Termination,
    },
}

/// An event and the monotonic instant (milliseconds) it happened at.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TimedEvent {
    /// Monotonic timestamp in milliseconds.
    pub at: Millis,
    /// What happened.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub event: Event,
}

/// Everything needed to rebuild a game: store it, then [`crate::Game::from_record`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRecord {
    /// The setup.
    pub config: GameConfig,
    /// The events, in order.
    pub events: Vec<TimedEvent>,
}

#[cfg(feature = "serde")]
pub(crate) mod color_serde {
    use arbiter_rules::Color;

    pub fn serialize<S: serde::Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let s = <String as serde::Deserialize>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
