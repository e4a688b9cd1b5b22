//! `POST /api/board/seek`: a Board API seek, held open (keep-alive lines) until it is paired,
//! and cancelled when the client goes away. Two compatible seeks pair each other, as in
//! lichess's lobby; the seek is the lobby's, visible and acceptable there too. The game's
//! start reaches the client by its event stream (`gameStart`), as on lichess.

use std::sync::Arc;

use axum::extract::State;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::body::{flag, number, FormOrJson};
use super::error::LichessResult;
use super::ndjson;
use super::service::{Lichess, PlayApi};
use crate::auth::{Account, LoggedIn};
use crate::error::{ApiResult, AppError};
use crate::games::wire::{ColorChoice, Variant};
use crate::lobby::service::SeekOutcome;
use crate::lobby::wire::SeekRequest;
use crate::lobby::Lobby;

/// The seek's form.
#[derive(Debug, Default, Deserialize)]
pub struct SeekForm {
    /// Initial time, minutes (real time).
    #[serde(default, deserialize_with = "number")]
    pub time: Option<f64>,
    /// Increment, seconds.
    #[serde(default, deserialize_with = "number")]
    pub increment: Option<f64>,
    /// Days per move (correspondence).
    #[serde(default, deserialize_with = "number")]
    pub days: Option<f64>,
    /// Rated (default casual).
    #[serde(default, deserialize_with = "flag")]
    pub rated: Option<bool>,
    /// `standard` or `chess960`.
    #[serde(default)]
    pub variant: Option<String>,
    /// `white`, `black`, `random`.
    #[serde(default)]
    pub color: Option<String>,
    /// `1500-1800`: the opponents' ratings accepted.
    #[serde(default, rename = "ratingRange")]
    pub rating_range: Option<String>,
}

impl SeekForm {
    /// The lobby's seek of this form.
    ///
    /// # Errors
    /// 400 naming the bad field.
    pub fn request(&self) -> ApiResult<SeekRequest> {
        let bad = |m: String| AppError::bad_request("bad_seek", m);
        let time_control = match (self.time, self.days) {
            (Some(_), Some(_)) => return Err(bad("give time and increment, or days".into())),
            (None, Some(d)) if d >= 1.0 && d.fract() == 0.0 && d <= 14.0 => {
                format!("{d}d/move")
            }
            (None, Some(d)) => return Err(bad(format!("days is 1 to 14, not {d}"))),
            (Some(t), None) => {
                let inc = self.increment.unwrap_or(0.0);
                if !(0.0..=180.0).contains(&t)
                    || !(0.0..=180.0).contains(&inc)
                    || inc.fract() != 0.0
                {
                    return Err(bad(format!(
                        "time is 0 to 180 minutes and increment 0 to 180 whole seconds, not {t} and {inc}"
                    )));
                }
                let secs = (t * 60.0).round();
                if secs % 60.0 == 0.0 && secs > 0.0 {
                    format!("{}+{inc}", secs / 60.0)
                } else {
                    format!("{secs}s+{inc}")
                }
            }
            (None, None) => return Err(bad("a seek needs time (minutes) or days".into())),
        };
        let variant = match self.variant.as_deref().unwrap_or("standard") {
            "standard" => Variant::Standard,
            "chess960" => Variant::Chess960,
            other => {
                return Err(bad(format!(
                    "variant is standard or chess960, not {other:?}"
                )))
            }
        };
        let color = match self.color.as_deref().unwrap_or("random") {
            "white" => ColorChoice::White,
            "black" => ColorChoice::Black,
            "random" | "" => ColorChoice::Random,
            other => {
                return Err(bad(format!(
                    "color is white, black or random, not {other:?}"
                )))
            }
        };
        let (rating_min, rating_max) = match self.rating_range.as_deref().map(str::trim) {
            None | Some("") => (None, None),
            Some(r) => {
                let (lo, hi) = r
                    .split_once('-')
                    .ok_or_else(|| bad(format!("ratingRange is like 1500-1800, not {r:?}")))?;
                let n = |x: &str| {
                    x.trim()
                        .parse::<i64>()
                        .map_err(|_| bad(format!("ratingRange is like 1500-1800, not {r:?}")))
                };
                (Some(n(lo)?), Some(n(hi)?))
            }
        };
        Ok(SeekRequest {
            time_control,
            variant,
            rated: self.rated.unwrap_or(false),
            color,
            rating_min,
            rating_max,
        })
    }
}

/// The seek while its client waits: gone with the client.
struct Waiting {
    lobby: Arc<Lobby>,
    account: Account,
    seek: String,
    socket: u64,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let _ = self.lobby.remove_seek(&self.account, &self.seek);
        self.lobby.unsubscribe(Some(&self.account), self.socket);
    }
}

/// `POST /api/board/seek`.
pub async fn seek(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    FormOrJson(form): FormOrJson<SeekForm>,
) -> LichessResult<Response> {
    PlayApi::Board.check(&who)?;
    let req = form.request()?;
    let correspondence = form.days.is_some();
    // The lobby counts this stream as the seeker's presence (its seeks stay while it is open).
    let sub = l.lobby.subscribe(Some(&who.account));
    let socket = sub.id;
    let outcome = match l.lobby.seek_or_pair(&who.account, req).await {
        Ok(o) => o,
        Err(e) => {
            l.lobby.unsubscribe(Some(&who.account), socket);
            return Err(e.into());
        }
    };
    let seek = match outcome {
        SeekOutcome::Paired(_) => {
            l.lobby.unsubscribe(Some(&who.account), socket);
            return Ok(ndjson::stream(l.hub.closing(), |_| async {}));
        }
        SeekOutcome::Waiting(s) => s,
    };
    if correspondence {
        // A correspondence seek stays in the lobby; lichess answers its id at once.
        l.lobby.unsubscribe(Some(&who.account), socket);
        return Ok(axum::response::IntoResponse::into_response(Json(
            json!({"id": seek.id}),
        )));
    }
    let waiting = Waiting {
        lobby: l.lobby.clone(),
        account: who.account.clone(),
        seek: seek.id.clone(),
        socket,
    };
    let mut private = sub.private;
    Ok(ndjson::stream(l.hub.closing(), move |_lines| async move {
        let _waiting = waiting;
        // Paired (by the lobby, another seek, a pool): the stream ends.
        while let Some(msg) = private.recv().await {
            if msg.as_str().contains("\"game_started\"") {
                return;
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(body: &str) -> SeekForm {
        super::super::body::parse(body.as_bytes(), false).unwrap()
    }

    #[test]
    fn a_board_seek_in_minutes_becomes_the_lobby_time_control() {
        let r = form("time=5&increment=3&rated=true&ratingRange=1200-1800")
            .request()
            .unwrap();
        assert_eq!(r.time_control, "5+3");
        assert!(r.rated);
        assert_eq!((r.rating_min, r.rating_max), (Some(1200), Some(1800)));
        assert_eq!(
            form("time=0.5&increment=0").request().unwrap().time_control,
            "30s+0"
        );
    }

    #[test]
    fn a_bad_seek_is_refused() {
        for body in [
            "",
            "time=5&days=2",
            "time=500",
            "time=5&variant=atomic",
            "time=5&ratingRange=abc",
            "time=5&color=red",
        ] {
            assert_eq!(form(body).request().unwrap_err().status(), 400, "{body}");
        }
    }
}
