//! The typed front door of games for the other domains (lila's `lila.core.round`): a
//! [`NewGame`] to create one, a [`GameEnded`] to hear how it ended, its [`Status`]. With the
//! [`Hub`](super::Hub)'s methods (the commands of a game), this is all a lobby, a tournament or
//! the lichess API needs: never an HTTP body or a JSON field.

use arbiter_game::{GameResult, Rules, Termination, TimeControl};
use serde::Deserialize;
use serde_json::Value;

pub use super::status::{Status, UnknownStatus};
use super::wire::{ColorChoice, ComputerRequest, CreateGame, Variant};
use crate::error::{ApiResult, AppError};
use crate::ratings::Category;

/// A game to create, as another domain asks for it (a seek, a pool, a tournament's board, a
/// challenge) or as `POST /api/games` ([`CreateGame`]) reads once parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    /// The time control.
    pub time_control: TimeControl,
    /// Standard chess or Chess960.
    pub variant: Variant,
    /// Chess960 start position number 0–959 (random when `None`).
    pub chess960_position: Option<u32>,
    /// A start position in FEN (Shredder-FEN castling letters are accepted for Chess960).
    pub fen: Option<String>,
    /// The creator's seat (a game created with both seats taken names them instead).
    pub color: ColorChoice,
    /// The rules of the competition.
    pub rules: Rules,
    /// Play the computer: its seat is the other one.
    pub computer: Option<ComputerRequest>,
    /// A rated game (Glicko-2).
    pub rated: bool,
}

impl NewGame {
    /// A casual game of standard chess from the start position with `time_control`, the
    /// default rules, the creator's colour drawn at random, between people.
    pub fn new(time_control: TimeControl) -> Self {
        Self {
            time_control,
            variant: Variant::Standard,
            chess960_position: None,
            fen: None,
            color: ColorChoice::Random,
            rules: Rules::default(),
            computer: None,
            rated: false,
        }
    }

    /// The rating category of the game (`None`: untimed, never rated).
    pub fn category(&self) -> Option<Category> {
        crate::ratings::category::of(&self.time_control, self.variant == Variant::Chess960)
    }
}

/// Read a time control in its human form (`5+3`, `30s/move`, `untimed`, …).
///
/// # Errors
/// 400 `bad_time_control`.
pub fn parse_time_control(text: &str) -> ApiResult<TimeControl> {
    text.parse()
        .map_err(|e: arbiter_game::ParseTimeControlError| {
            AppError::bad_request("bad_time_control", e.to_string())
        })
}

impl TryFrom<CreateGame> for NewGame {
    type Error = AppError;

    /// Parse the HTTP body: its time control, then its rules.
    ///
    /// # Errors
    /// 400 `bad_time_control`, `bad_rules`.
    fn try_from(req: CreateGame) -> ApiResult<NewGame> {
        let time_control = parse_time_control(&req.time_control)?;
        let rules = match req.rules {
            None | Some(Value::Null) => Rules::default(),
            Some(v) => serde_json::from_value(v)
                .map_err(|e| AppError::bad_request("bad_rules", format!("rules: {e}")))?,
        };
        Ok(NewGame {
            time_control,
            variant: req.variant,
            chess960_position: req.chess960_position,
            fen: req.fen,
            color: req.color,
            rules,
            computer: req.computer,
            rated: req.rated,
        })
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnded {
    /// `1-0`, `0-1`, `1/2-1/2`, a forfeit's `+/-`, `-/+`, `-/-`, or `*` (aborted).
    pub result: GameResult,
    /// How (checkmate, resignation, a flag's fall, …).
    pub termination: Option<Termination>,
}

/// The fields of the game's state, and of each of its events, that tell whether it has ended.
#[derive(Deserialize)]
struct Ending {
    status: Status,
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    termination: Option<String>,
}

impl Ending {
    fn ended(self) -> Option<GameEnded> {
        (self.status == Status::Finished).then(|| GameEnded {
            // A finished game always has a result; an unreadable one counts as none.
            result: self
                .result
                .and_then(|r| r.parse().ok())
                .unwrap_or(GameResult::Unfinished),
            termination: self.termination.and_then(|t| t.parse().ok()),
        })
    }
}

impl GameEnded {
    /// The end told by a game's state (a [`GameView`](super::wire::GameView) as JSON), if it
    /// has ended.
    pub(super) fn of_state(state: &Value) -> Option<GameEnded> {
        Ending::deserialize(state).ok()?.ended()
    }

    /// The end told by a message of the game's socket (a game event tells the state after
    /// it; other messages tell nothing), if the game ended.
    pub(super) fn of_message(json: &str) -> Option<GameEnded> {
        serde_json::from_str::<Ending>(json).ok()?.ended()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::referee::Spec;
    use super::*;

    fn body(v: Value) -> CreateGame {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_create_game_body_becomes_the_same_new_game() {
        let req = body(json!({
            "time_control": "5+3",
            "variant": "chess960",
            "chess960_position": 518,
            "color": "black",
            "rules": {"allow_abort": false},
            "computer": {"level": 3},
        }));
        let game = NewGame::try_from(req).unwrap();
        assert_eq!(game.time_control, "5+3".parse().unwrap());
        assert_eq!(game.variant, Variant::Chess960);
        assert_eq!(game.chess960_position, Some(518));
        assert_eq!(game.color, ColorChoice::Black);
        assert!(!game.rules.allow_abort);
        assert_eq!(
            Rules {
                allow_abort: true,
                ..game.rules.clone()
            },
            Rules::default()
        );
        assert_eq!(game.computer.and_then(|c| c.level), Some(3));
        assert!(!game.rated);
    }

    #[test]
    fn a_bare_create_game_body_is_new_games_default() {
        let game = NewGame::try_from(body(json!({"time_control": "untimed"}))).unwrap();
        assert_eq!(game, NewGame::new("untimed".parse().unwrap()));
        let game = NewGame::try_from(body(json!({"time_control": "3+2", "rules": null}))).unwrap();
        assert_eq!(game.rules, Rules::default());
    }

    #[test]
    fn a_bad_time_control_is_named_before_bad_rules() {
        let e = NewGame::try_from(body(json!({"time_control": "5+", "rules": {"x": 1}})));
        assert_eq!(e.unwrap_err().code(), "bad_time_control");
        let e = NewGame::try_from(body(json!({"time_control": "5+3", "rules": 7})));
        assert_eq!(e.unwrap_err().code(), "bad_rules");
    }

    #[test]
    fn a_new_game_makes_the_spec_the_body_made() {
        let mut game = NewGame::new(parse_time_control("5+3").unwrap());
        game.rules.allow_adjournment = false;
        let spec = Spec::new(&game, 0).unwrap();
        assert_eq!(spec.time_control, game.time_control.to_string());
        assert_eq!(spec.variant, Variant::Standard);
        assert_eq!(spec.start_fen, None);
        assert_eq!(spec.rules["allow_adjournment"], json!(false));
        assert_eq!(spec.category(), game.category());
        let req = body(json!({"time_control": "5+3", "rules": {"allow_adjournment": false}}));
        let via_body = Spec::new(&NewGame::try_from(req).unwrap(), 0).unwrap();
        assert_eq!(
            serde_json::to_value(&via_body).unwrap(),
            serde_json::to_value(&spec).unwrap()
        );
    }

    #[test]
    fn a_chess960_new_game_without_a_number_draws_one() {
        let mut game = NewGame::new(parse_time_control("10+0").unwrap());
        game.variant = Variant::Chess960;
        let spec = Spec::new(&game, 518).unwrap();
        assert_eq!(spec.chess960_position, Some(518));
        game.variant = Variant::Standard;
        game.chess960_position = Some(3);
        assert_eq!(Spec::new(&game, 0).unwrap_err().code(), "bad_variant");
    }

    #[test]
    fn the_end_is_read_from_the_state_and_the_events() {
        let state = json!({"id": "g", "status": "playing", "result": null});
        assert_eq!(GameEnded::of_state(&state), None);
        let ev = r#"{"type":"event","seq":9,"status":"finished","result":"0-1","termination":"checkmate"}"#;
        assert_eq!(
            GameEnded::of_message(ev),
            Some(GameEnded {
                result: GameResult::BlackWins,
                termination: Some(Termination::Checkmate),
            })
        );
        assert_eq!(
            GameEnded::of_message(r#"{"type":"rematch","offer":"white"}"#),
            None
        );
        assert_eq!(GameEnded::of_message(r#"{"type":"withdrawn"}"#), None);
    }
}
