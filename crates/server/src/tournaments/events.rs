//! A tournament's history: the events stored in its log, in order, from which its state is
//! rebuilt (see [`super::state`]).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The tournament's rules as the director chose them, normalised (every field set).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct Settings {
    /// Name.
    pub name: String,
    /// `swiss` (FIDE Dutch, C.04.3), `round_robin` or `double_round_robin` (C.05).
    pub system: System,
    /// Swiss: the number of rounds; a round robin: `null` (known at the start).
    pub rounds: Option<u32>,
    /// Time control (human form, normalised).
    pub time_control: String,
    /// The games are rated (Glicko-2).
    pub rated: bool,
    /// Online games are created for boards whose two players have accounts; `false`: an
    /// over-the-board event, results typed by the director.
    pub online: bool,
    /// When the tournament starts by itself, unix ms; `null`: the director starts it.
    pub starts_at: Option<i64>,
    /// Swiss: players may still register until this round is paired (0: not after the start).
    pub late_entry_until_round: u32,
    /// C.07 tie-breaks by abbreviation, in order.
    pub tiebreaks: Vec<String>,
    /// `2026` or `2024` (the edition of C.07).
    pub tiebreak_rules: String,
    /// Art. 6.7.1 default time, seconds.
    pub default_time_secs: i64,
    /// Pause between rounds before the next is paired by itself, seconds; `null`: the
    /// director pairs each round.
    pub pause_secs: Option<i64>,
    /// Points of each result.
    pub scoring: ScoringSettings,
    /// Art. 11.3: the players of a game may use its players' chat room while it is played.
    /// Default (FIDE's): no — the room is closed during play and opens when the game ends.
    #[serde(default)]
    pub players_chat: bool,
}

/// Points of each result (Art. 10.1: 1, ½, 0 unless the competition says otherwise).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct ScoringSettings {
    /// A win (also a win by forfeit and a full-point bye).
    #[serde(default = "one")]
    pub win: f64,
    /// A draw (also a half-point bye).
    #[serde(default = "half")]
    pub draw: f64,
    /// A loss.
    #[serde(default)]
    pub loss: f64,
    /// The pairing-allocated bye (C.04.1: a win's points unless the rules say otherwise).
    #[serde(default = "one")]
    pub bye: f64,
}

fn one() -> f64 {
    1.0
}
fn half() -> f64 {
    0.5
}

impl Default for ScoringSettings {
    fn default() -> Self {
        Self {
            win: 1.0,
            draw: 0.5,
            loss: 0.0,
            bye: 1.0,
        }
    }
}

/// The pairing system.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// FIDE Dutch system (C.04.3).
    #[default]
    Swiss,
    /// Everyone meets everyone once (C.05, Berger tables).
    RoundRobin,
    /// Everyone meets everyone twice (C.05).
    DoubleRoundRobin,
}

impl System {
    /// A round robin of either kind.
    pub fn is_round_robin(self) -> bool {
        self != System::Swiss
    }
}

/// A bye's kind (C.04.1, C.07 §16).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ByeKind {
    /// The pairing-allocated bye (odd number of players in a Swiss round).
    PairingAllocated,
    /// A full-point bye granted by the director.
    Full,
    /// A half-point bye granted by the director.
    Half,
    /// A zero-point bye (an announced absence).
    Zero,
    /// A round robin's free round (the player meeting the dummy number): no game, no points.
    Free,
}

/// A board as paired.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct PairedBoard {
    /// Board number, from 1.
    pub board: u32,
    /// White's start number.
    pub white: u32,
    /// Black's start number.
    pub black: u32,
    /// The online game.
    pub game: Option<String>,
}

/// One entry of a tournament's log.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// The director created the tournament.
    Created {
        /// The rules.
        settings: Settings,
        /// The director's account id (never shown).
        director: String,
        /// The director's username.
        director_name: String,
        /// Self-registration open.
        registration_open: bool,
    },
    /// A player registered (an account) or was entered by the director (a name).
    Registered {
        /// The number given (the next free one).
        player: u32,
        /// Name.
        name: String,
        /// The account id, if any (never shown).
        account: Option<String>,
        /// Rating.
        rating: Option<u16>,
        /// FIDE title (`GM`, `IM`, …).
        title: Option<String>,
        /// Federation.
        federation: String,
        /// FIDE id.
        fide_id: Option<u64>,
    },
    /// A player withdrew or was withdrawn: not paired from `from_round` on.
    Withdrawn {
        /// Start number.
        player: u32,
        /// The first round the player is not paired in.
        from_round: u32,
        /// Why (`player`, `director`, `default`: lost by default, Art. 6.7.1).
        reason: String,
    },
    /// A withdrawn player is back.
    Readmitted {
        /// Start number.
        player: u32,
    },
    /// A bye granted for a round not paired yet.
    Bye {
        /// Start number.
        player: u32,
        /// Round.
        round: u32,
        /// Kind.
        bye: ByeKind,
    },
    /// Two players may not be paired together (from the next round).
    Forbidden {
        /// The two start numbers.
        players: [u32; 2],
    },
    /// Self-registration opened or closed.
    Registration {
        /// Open.
        open: bool,
    },
    /// No round is paired by itself.
    Paused,
    /// Automatic pairing again.
    Resumed,
    /// The tournament started: the players numbered by rating.
    Started {
        /// The old numbers in the new order (new number = position + 1); players withdrawn
        /// before the start are left out.
        order: Vec<u32>,
        /// Rounds planned.
        rounds: u32,
    },
    /// A round was paired and its games created.
    RoundPaired {
        /// Round.
        round: u32,
        /// Boards.
        boards: Vec<PairedBoard>,
        /// Byes: (player, kind).
        byes: Vec<(u32, ByeKind)>,
        /// How the pairing was made.
        explanation: Vec<String>,
        /// When absent players lose by default (Art. 6.7.1), unix ms; `None`: no online game.
        deadline: Option<i64>,
    },
    /// A player checked in for a round (Art. 6.7.1: arrived at the board).
    Present {
        /// Round.
        round: u32,
        /// Start number.
        player: u32,
    },
    /// A board's result, entered or corrected.
    Result {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// `1-0`, `1/2-1/2`, `0-1`, `+/-`, `-/+`, `-/-`.
        result: String,
        /// How the game ended.
        termination: Option<String>,
        /// `game`, `director`, `default` (Art. 6.7.1) or `withdrawal`.
        by: String,
    },
    /// The default time of a round has been applied (Art. 6.7.1).
    DefaultsApplied {
        /// Round.
        round: u32,
    },
    /// The last round is complete.
    Finished,
}

impl Event {
    /// The event's kind as stored and sent.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Created { .. } => "created",
            Event::Registered { .. } => "registered",
            Event::Withdrawn { .. } => "withdrawn",
            Event::Readmitted { .. } => "readmitted",
            Event::Bye { .. } => "bye",
            Event::Forbidden { .. } => "forbidden",
            Event::Registration { .. } => "registration",
            Event::Paused => "paused",
            Event::Resumed => "resumed",
            Event::Started { .. } => "started",
            Event::RoundPaired { .. } => "round_paired",
            Event::Present { .. } => "present",
            Event::Result { .. } => "result",
            Event::DefaultsApplied { .. } => "defaults_applied",
            Event::Finished => "finished",
        }
    }
}
