//! The wire format of games: the JSON bodies of requests and responses.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::status::Status;

/// Which variant the game is played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Standard chess.
    #[default]
    Standard,
    /// Chess960 (Guidelines III / FIDE Chess960 rules).
    Chess960,
}

impl Variant {
    /// `standard` or `chess960`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Standard => "standard",
            Self::Chess960 => "chess960",
        }
    }
}

/// The seat the creator asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn at random by the server.
    #[default]
    Random,
}

impl ColorChoice {
    /// The seat this choice gives its chooser; `Random` by the lowest bit of `random`.
    pub fn seat(self, random: u64) -> Seat {
        match self {
            Self::White => Seat::White,
            Self::Black => Seat::Black,
            Self::Random if random & 1 == 0 => Seat::White,
            Self::Random => Seat::Black,
        }
    }

    /// `white`, `black` or `random`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::White => "white",
            Self::Black => "black",
            Self::Random => "random",
        }
    }
}

/// A seat: `white` or `black`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// White.
    White,
    /// Black.
    Black,
}

impl Seat {
    /// The other seat.
    pub fn other(self) -> Self {
        match self {
            Self::White => Self::Black,
            Self::Black => Self::White,
        }
    }
    /// `white` or `black`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::White => "white",
            Self::Black => "black",
        }
    }
}

/// `POST /api/games`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// Human form of the time control: `5+3`, `45s+0`, `30s/move`, `90/40+30, 30+30`, `untimed`…
    #[schema(example = "5+3")]
    pub time_control: String,
    /// `standard` (default) or `chess960`.
    #[serde(default)]
    pub variant: Variant,
    /// Chess960 start position number 0–959 (random when omitted).
    #[serde(default)]
    pub chess960_position: Option<u32>,
    /// A start position in FEN (Shredder-FEN castling letters are accepted for Chess960).
    #[serde(default)]
    pub fen: Option<String>,
    /// The creator's seat: `white`, `black` or `random` (default).
    #[serde(default)]
    pub color: ColorChoice,
    /// Competition rules (arbiter-game `Rules`): `illegal_moves` (`reject` | `fide_penalties`),
    /// `draw_offers` (`allowed` | `never` | `{"not_before_move": n}`), `allow_abort`, …
    #[serde(default)]
    #[schema(value_type = Object)]
    pub rules: Option<serde_json::Value>,
    /// Play the computer: the other seat is taken by the server's engine at once and the game
    /// starts (no invitation). Omitted or null: a game between people.
    #[serde(default)]
    pub computer: Option<ComputerRequest>,
    /// A rated game (Glicko-2): needs a logged-in creator and opponent and a clock; never
    /// against the computer. Default: casual.
    #[serde(default)]
    pub rated: bool,
}

/// A player of a game, as shown beside the clock.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct PlayerView {
    /// The username.
    pub name: String,
    /// The rating in the game's category when the game started (rated games; null in a
    /// casual game).
    pub rating: Option<i64>,
    /// The rating was provisional (shown with "?").
    pub provisional: bool,
    /// The rating change, once a rated game has ended.
    pub rating_diff: Option<i64>,
    /// The account has been closed since (its games keep its name).
    pub closed: bool,
    /// The account's title: `BOT` for a bot account; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// Who holds the seats: an account's player, or null for an anonymous seat (or the
/// computer's, see `computer`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct PlayersView {
    /// White.
    pub white: Option<PlayerView>,
    /// Black.
    pub black: Option<PlayerView>,
}

/// A computer opponent asked for at creation: the built-in engine at a level
/// (`"computer": {"level": 5}`) or an external engine the server's operator configured
/// (`"computer": {"engine": "stockfish"}`, see `GET /api/engines`). Exactly one of the two
/// (else 400 `invalid_request`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ComputerRequest {
    /// Playing strength of the built-in engine: 1 (a beginner) to 8 (full strength).
    /// Outside 1–8: 400 `bad_computer_level`.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 8, example = 3)]
    pub level: Option<u8>,
    /// The name of a configured external engine. Not configured: 400 `unknown_engine`; a
    /// Chess960 game with an engine that does not play it: 400 `engine_cannot_play_chess960`.
    #[serde(default)]
    pub engine: Option<String>,
}

/// The computer opponents this server offers (`GET /api/engines`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct EnginesView {
    /// The built-in engine's levels (`"computer": {"level": n}`).
    pub levels: Vec<u8>,
    /// The external UCI engines the operator configured (`"computer": {"engine": name}`).
    pub external: Vec<ExternalEngineView>,
}

/// A configured external engine.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct ExternalEngineView {
    /// The name to ask for it by.
    pub name: String,
    /// The engine's own name (its UCI `id name`), as in the PGN.
    pub id_name: String,
}

/// The seat the server plays itself.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct ComputerView {
    /// The computer's seat.
    pub seat: Seat,
    /// Its level, 1–8 (the built-in engine).
    pub level: Option<u8>,
    /// The configured name of an external engine (absent for the built-in engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Its name, as in the PGN (`Arbiter level 5`, or an external engine's `id name`).
    pub name: String,
}

/// A seat and its secret token (shown once; send it as `Authorization: Bearer TOKEN`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatGrant {
    /// Game id.
    pub id: String,
    /// The seat taken.
    pub seat: Seat,
    /// The seat's token (256 random bits, hex).
    pub token: String,
}

/// A move of the game record.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct MoveView {
    /// UCI notation (`e2e4`; castling as king to destination, or king takes rook in Chess960).
    pub uci: String,
    /// SAN.
    pub san: String,
    /// The mover's clock after the move (increment included), ms; null when untimed.
    pub clock_ms: Option<i64>,
}

/// Both clocks as of the response.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Clocks {
    /// White's remaining time, ms.
    pub white_ms: Option<i64>,
    /// Black's remaining time, ms.
    pub black_ms: Option<i64>,
}

/// The whole state of a game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameView {
    /// Game id.
    pub id: String,
    /// `waiting`, `playing`, `adjourned`, `finished` or `withdrawn`.
    pub status: Status,
    /// `standard` or `chess960`.
    pub variant: Variant,
    /// Time control, human form.
    pub time_control: String,
    /// Rules of the competition in force.
    #[schema(value_type = Object)]
    pub rules: serde_json::Value,
    /// Start position.
    pub initial_fen: String,
    /// Current position.
    pub fen: String,
    /// The moves played, with the mover's clock after each.
    pub moves: Vec<MoveView>,
    /// Clocks as of this response.
    pub clocks: Clocks,
    /// Side to move.
    pub turn: Seat,
    /// `1-0`, `0-1`, `1/2-1/2`, … once finished; null before.
    pub result: Option<String>,
    /// How the game ended (`checkmate`, `resignation`, `time_forfeit`, …); null before.
    pub termination: Option<String>,
    /// The seat whose draw offer is pending, if any (Art. 9.1.2).
    pub draw_offer: Option<Seat>,
    /// Draws the side to move may claim now (Art. 9.2, 9.3): `threefold_repetition`, `fifty_moves`.
    pub claimable: Vec<String>,
    /// Which seats are taken.
    pub seats: SeatsTaken,
    /// The seat the server plays ("play the computer"); null in a game between people.
    pub computer: Option<ComputerView>,
    /// Number of the last event (the WebSocket stream continues after it).
    pub last_seq: i64,
    /// A rated game.
    pub rated: bool,
    /// The rating category (`bullet`, `blitz`, `rapid`, `standard`, `correspondence`,
    /// `chess960`); null for an untimed game.
    pub speed: Option<String>,
    /// The players (accounts) holding the seats.
    pub players: PlayersView,
    /// The game a rematch of this one started, once accepted.
    pub rematch: Option<String>,
    /// The seat whose rematch offer stands, after the game.
    pub rematch_offer: Option<Seat>,
    /// The opening of the game's line (ECO code and name, by position: the last named
    /// position of the moves so far); null when none is named or in Chess960.
    #[serde(default)]
    pub opening: Option<OpeningView>,
    /// An imported game (PGN import): not played here — no seats, clocks or events; its
    /// result and players come from the PGN's tags (`import`).
    #[serde(default)]
    pub imported: bool,
    /// What the import recorded (null for a game played here).
    #[serde(default)]
    pub import: Option<ImportView>,
    /// When the game was created, unix ms.
    #[serde(default)]
    pub created_at: i64,
}

/// An opening: ECO code and name (the lichess chess-openings data, CC0).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct OpeningView {
    /// The ECO code, e.g. `C50`.
    #[schema(example = "C50")]
    pub eco: String,
    /// The name, e.g. `Italian Game`.
    #[schema(example = "Italian Game")]
    pub name: String,
}

impl From<&arbiter_openings::Opening> for OpeningView {
    fn from(o: &arbiter_openings::Opening) -> Self {
        Self {
            eco: o.eco.to_owned(),
            name: o.name.to_owned(),
        }
    }
}

/// The record of an imported game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct ImportView {
    /// The PGN's tag pairs in their order, `[name, value]`.
    pub tags: Vec<(String, String)>,
    /// The account that imported it (null: imported anonymously).
    pub importer: Option<String>,
    /// When it was imported, unix ms.
    pub imported_at: i64,
}

/// Which seats are taken.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
pub struct SeatsTaken {
    /// White's seat is taken.
    pub white: bool,
    /// Black's seat is taken.
    pub black: bool,
}

/// A game in the lobby.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    /// Game id.
    pub id: String,
    /// `waiting` or `playing`.
    pub status: Status,
    /// Time control, human form.
    pub time_control: String,
    /// `standard` or `chess960`.
    pub variant: String,
    /// The seat still free, for a waiting game.
    pub open_seat: Option<Seat>,
    /// The seat the server plays, if any.
    pub computer: Option<ComputerView>,
    /// Creation time, unix ms.
    pub created_at: i64,
    /// A rated game.
    pub rated: bool,
    /// The username of the player waiting (or null: anonymous).
    pub creator: Option<String>,
}

/// `POST /api/games/{id}/rematch`: what happened.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct RematchAnswer {
    /// `offered` (waiting for the opponent) or `started` (the new game is `game`).
    pub status: String,
    /// The new game, once started.
    pub game: Option<String>,
}

/// `GET /api/games`: open games waiting for an opponent, running games to watch.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Lobby {
    /// Games waiting for a second player.
    pub open: Vec<GameSummary>,
    /// Games being played.
    pub playing: Vec<GameSummary>,
}

/// `POST /api/games/{id}/move`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move in SAN (`Nf3`, `O-O`) or UCI (`g1f3`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Offer a draw with this move (Art. 9.1.2.1: make the move, then offer).
    #[serde(default)]
    pub offer_draw: bool,
    /// The number of half-moves played before this one; if given and different, the move is
    /// refused (409 `stale_ply`), making retries safe.
    #[serde(default)]
    pub ply: Option<u32>,
    /// The client's estimate of its one-way network lag, ms; credited up to the server's
    /// allowance (see README).
    #[serde(default)]
    pub lag_ms: Option<u32>,
}

/// What to do about a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    /// Offer a draw (Art. 9.1.2).
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline the opponent's offer.
    Decline,
    /// Claim a draw (Art. 9.2, 9.3), optionally with the intended move.
    Claim,
}

/// `POST /api/games/{id}/draw`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    /// `offer`, `accept`, `decline` or `claim`.
    pub action: DrawAction,
    /// For a claim: the intended move (Art. 9.2.1.1, 9.3.1), written not played.
    #[serde(default, rename = "move")]
    pub mv: Option<String>,
}

/// `POST /api/games/{id}/adjourn`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdjournRequest {
    /// The sealed move (Guideline I.1), SAN or UCI.
    #[serde(rename = "move")]
    pub mv: String,
}

/// The acknowledgement of an action: the event number it was committed as, and the new state.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Ack {
    /// Number of the (last) event the action produced.
    pub seq: i64,
    /// The game after the action.
    pub game: GameView,
}

/// `?since=N` of the WebSocket.
#[derive(Debug, Clone, Deserialize, IntoParams)]
pub struct WsQuery {
    /// Last event number the client saw; the events after it are sent first.
    pub since: Option<i64>,
    /// A seat token (browsers cannot set headers on a WebSocket).
    pub token: Option<String>,
}
