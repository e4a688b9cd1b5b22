//! Time controls (Art. 6.3, Appendices A.1 and B.1) and their two text forms.
//!
//! # The human form (UI, API, `FromStr`/`Display`)
//!
//! ```text
//! control  := "untimed" | "hourglass" SP dur | dur "/move" | period ("," period)*
//! period   := dur ["/" MOVES] ["+" inc] [SP ("d" | "sd") inc]
//! dur      := NUMBER [unit]     a bare number is MINUTES
//! inc      := NUMBER [unit]     a bare number is SECONDS (as in "5+3")
//! unit     := "s" | "m" | "h" | "d"
//! ```
//!
//! Examples: `5+3`, `45s+0`, `90/40+30, 30+30` (90 minutes for 40 moves, then 30 minutes for
//! the rest of the game, 30 seconds added per move from move 1), `5 d3` (5 minutes, Bronstein
//! delay of 3 s), `5 sd3` (simple or "US" delay), `30s/move`, `3d/move` (correspondence),
//! `hourglass 3`, `untimed`. Numbers may have a decimal part (`1.5+0`) as long as the result
//! is a whole number of milliseconds.
//!
//! # The PGN form (the `TimeControl` tag, all in seconds)
//!
//! `?` (unknown), `-` (untimed), `300` (sudden death), `300+2` (increment), `40/5400`
//! (moves/seconds), `*180` (hourglass, "sandclock"), periods joined by `:`
//! (`40/5400+30:1800+30`). Two extensions, needed to write every control this crate knows:
//! a delay as `300d3` (Bronstein) or `300sd3` (simple), and a maximum time per move as
//! `30/move`.

use crate::Millis;
use core::fmt;
use core::str::FromStr;

/// How a delay (Art. 6.3.2, "delay mode") is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DelayKind {
    /// Bronstein: the main time runs at once, and the part of the delay the player did not
    /// use is given back when the clock is pressed (at most the time used).
    Bronstein,
    /// Simple ("US") delay, the wording of Art. 6.3.2: the main time does not start until the
    /// delay has run out; a move within the delay leaves the main time unchanged.
    Simple,
}

/// A delay per move (Art. 6.3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Delay {
    /// Bronstein or simple.
    pub kind: DelayKind,
    /// The delay per move.
    pub ms: Millis,
}

/// One period of a clock-based control (Art. 6.3.1).
///
/// The time of a period is added to the player's clock when the player completes the last
/// move of the previous period, i.e. presses the clock after it (counted by the clock's move
/// counter: the player's own moves made in this game); unused time carries over (Art. 6.3.2).
/// Why then: Art. 6.3.1 requires a number of moves *within* the period, so the next period's
/// time may not be used for them; adding it the moment the last of them is completed is
/// exactly what an electronic clock with a move counter does, and it is also when the flag
/// check of Art. 6.4 ("immediately after a flag falls, the requirements of 6.3.1 must be
/// checked") would otherwise be made. A last period with a move count repeats (PGN
/// convention: `40/7200` is 2 hours for every 40 moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Period {
    /// Moves to complete in this period; `None` for "the rest of the game".
    pub moves: Option<u32>,
    /// Time of the period.
    pub time_ms: Millis,
    /// Fischer increment (Art. 6.3.1, "cumulative mode"), added after each completed move.
    pub increment_ms: Millis,
    /// Delay (Art. 6.3.2), if this is a delay-mode period.
    pub delay: Option<Delay>,
}

impl Period {
    /// A sudden-death period of `time_ms` with `increment_ms` per move.
    pub const fn new(time_ms: Millis, increment_ms: Millis) -> Period {
        Period {
            moves: None,
            time_ms,
            increment_ms,
            delay: None,
        }
    }
}

/// A time control.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// Not known (PGN `?`); played without clocks.
    Unknown,
    /// No clock (PGN `-`).
    Untimed,
    /// Chess clock with one or more periods: sudden death, increment, delay, multi-period.
    Periods(Vec<Period>),
    /// A maximum time per move, reset at every move; nothing carries over (seed 004's
    /// "maximum time per move"; days per move for correspondence).
    PerMove(Millis),
    /// Hourglass: the time one player uses is added to the other's; both start with this.
    Hourglass(Millis),
}

/// Speed class of a control (Appendices A.1, B.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Speed {
    /// B.1: base + 60 × increment ≤ 10 minutes.
    Blitz,
    /// A.1: more than 10 and less than 60 minutes.
    Rapid,
    /// Everything slower (standard play, Art. 1–12 without appendices).
    Standard,
    /// A maximum of one day or more per move.
    Correspondence,
    /// No clock.
    Untimed,
}

impl Speed {
    /// `blitz`, `rapid`, `standard`, `correspondence` or `untimed`.
    pub const fn name(self) -> &'static str {
        match self {
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Standard => "standard",
            Speed::Correspondence => "correspondence",
            Speed::Untimed => "untimed",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A time control that could not be read, with what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTimeControlError {
    /// The text that was read.
    pub input: String,
    /// What is wrong with it.
    pub reason: String,
}

impl ParseTimeControlError {
    fn new(input: &str, reason: impl Into<String>) -> ParseTimeControlError {
        ParseTimeControlError {
            input: input.to_string(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid time control {:?}: {}", self.input, self.reason)
    }
}

impl std::error::Error for ParseTimeControlError {}

const SECOND: Millis = 1_000;
const MINUTE: Millis = 60 * SECOND;
const HOUR: Millis = 60 * MINUTE;
const DAY: Millis = 24 * HOUR;
/// Longest duration accepted anywhere (1000 days), so sums cannot overflow.
const MAX_DURATION: Millis = 1000 * DAY;

impl TimeControl {
    /// Sudden death with an increment, both in milliseconds.
    pub fn fischer(base_ms: Millis, increment_ms: Millis) -> TimeControl {
        TimeControl::Periods(vec![Period::new(base_ms, increment_ms)])
    }

    /// `true` if the game is played with a clock.
    pub fn is_timed(&self) -> bool {
        !matches!(self, TimeControl::Unknown | TimeControl::Untimed)
    }

    /// The time each player starts with (`None` without a clock).
    pub fn initial_ms(&self) -> Option<Millis> {
        match self {
            TimeControl::Unknown | TimeControl::Untimed => None,
            TimeControl::Periods(p) => Some(p.first().map_or(0, |p| p.time_ms)),
            TimeControl::PerMove(ms) | TimeControl::Hourglass(ms) => Some(*ms),
        }
    }

    /// The time a player has for 60 moves: the periods that begin within the first 60 moves
    /// plus 60 × the increment or delay in force (A.1, B.1: "base + 60 × increment").
    pub fn estimated_ms_for_60_moves(&self) -> Option<Millis> {
        match self {
            TimeControl::Unknown | TimeControl::Untimed => None,
            TimeControl::Hourglass(ms) => Some(*ms),
            TimeControl::PerMove(ms) => Some(ms.saturating_mul(60)),
            TimeControl::Periods(periods) => {
                let mut total: Millis = 0;
                for k in 0..60u32 {
                    let (index, first) = period_of_move(periods, k);
                    let Some(p) = periods.get(index) else { break };
                    if first {
                        total = total.saturating_add(p.time_ms);
                    }
                    total = total
                        .saturating_add(p.increment_ms)
                        .saturating_add(p.delay.map_or(0, |d| d.ms));
                }
                Some(total)
            }
        }
    }

    /// Speed class per Appendices A.1 and B.1.
    pub fn speed(&self) -> Speed {
        if let TimeControl::PerMove(ms) = self {
            if *ms >= DAY {
                return Speed::Correspondence;
            }
        }
        match self.estimated_ms_for_60_moves() {
            None => Speed::Untimed,
            Some(t) if t <= 10 * MINUTE => Speed::Blitz,
            Some(t) if t < 60 * MINUTE => Speed::Rapid,
            Some(_) => Speed::Standard,
        }
    }

    /// Reads the PGN `TimeControl` tag form (seconds); see the module docs.
    ///
    /// # Errors
    /// [`ParseTimeControlError`] naming the part that is wrong.
    pub fn from_pgn(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let t = s.trim();
        match t {
            "" => return Err(ParseTimeControlError::new(s, "empty")),
            "?" => return Ok(TimeControl::Unknown),
            "-" => return Ok(TimeControl::Untimed),
            _ => {}
        }
        if let Some(rest) = t.strip_prefix('*') {
            let ms = pgn_seconds(s, rest)?;
            if ms == 0 {
                return Err(ParseTimeControlError::new(s, "an hourglass needs time"));
            }
            return Ok(TimeControl::Hourglass(ms));
        }
        if let Some(rest) = t.strip_suffix("/move") {
            let ms = pgn_seconds(s, rest)?;
            if ms == 0 {
                return Err(ParseTimeControlError::new(
                    s,
                    "time per move must be positive",
                ));
            }
            return Ok(TimeControl::PerMove(ms));
        }
        let mut periods = Vec::new();
        for field in t.split(':') {
            let (moves, rest) = match field.split_once('/') {
                Some((m, r)) => (Some(parse_moves(s, m)?), r),
                None => (None, field),
            };
            let (time, bonus) = match rest.split_once('+') {
                Some((a, b)) => (a, Some(b)),
                None => (rest, None),
            };
            let (time, delay) = if let Some((a, d)) = time.split_once("sd") {
                (a, Some((DelayKind::Simple, d)))
            } else if let Some((a, d)) = time.split_once('d') {
                (a, Some((DelayKind::Bronstein, d)))
            } else {
                (time, None)
            };
            let time_ms = pgn_seconds(s, time)?;
            let increment_ms = match bonus {
                Some(b) => pgn_seconds(s, b)?,
                None => 0,
            };
            let delay = match delay {
                Some((kind, d)) => Some(Delay {
                    kind,
                    ms: pgn_seconds(s, d)?,
                }),
                None => None,
            };
            periods.push(Period {
                moves,
                time_ms,
                increment_ms,
                delay,
            });
        }
        validate_periods(s, periods)
    }

    /// Writes the PGN `TimeControl` tag form (seconds); see the module docs.
    pub fn to_pgn(&self) -> String {
        match self {
            TimeControl::Unknown => "?".to_string(),
            TimeControl::Untimed => "-".to_string(),
            TimeControl::Hourglass(ms) => format!("*{}", fmt_seconds(*ms)),
            TimeControl::PerMove(ms) => format!("{}/move", fmt_seconds(*ms)),
            TimeControl::Periods(periods) => {
                let mut out = String::new();
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        out.push(':');
                    }
                    if let Some(m) = p.moves {
                        out.push_str(&format!("{m}/"));
                    }
                    out.push_str(&fmt_seconds(p.time_ms));
                    if let Some(d) = p.delay {
                        let tag = match d.kind {
                            DelayKind::Bronstein => "d",
                            DelayKind::Simple => "sd",
                        };
                        out.push_str(&format!("{tag}{}", fmt_seconds(d.ms)));
                    }
                    if p.increment_ms > 0 {
                        out.push_str(&format!("+{}", fmt_seconds(p.increment_ms)));
                    }
                }
                out
            }
        }
    }
}

/// Which period move `k` (0-based count of the player's own moves) falls in, and whether it
/// is the first move of that period. A last period with a move count repeats.
pub(crate) fn period_of_move(periods: &[Period], k: u32) -> (usize, bool) {
    let mut start = 0u32;
    for (i, p) in periods.iter().enumerate() {
        match p.moves {
            Some(m) if i + 1 < periods.len() => {
                if k < start + m {
                    return (i, k == start);
                }
                start += m;
            }
            Some(m) => {
                // The last period repeats every `m` moves.
                return (i, (k - start) % m.max(1) == 0);
            }
            None => return (i, k == start),
        }
    }
    (periods.len(), false)
}

fn validate_periods(
    input: &str,
    periods: Vec<Period>,
) -> Result<TimeControl, ParseTimeControlError> {
    for (i, p) in periods.iter().enumerate() {
        if p.moves.is_none() && i + 1 < periods.len() {
            return Err(ParseTimeControlError::new(
                input,
                "only the last period can be for the rest of the game; give the others a move count",
            ));
        }
        if p.moves == Some(0) {
            return Err(ParseTimeControlError::new(
                input,
                "a period needs at least one move",
            ));
        }
        if p.delay.is_some() && p.increment_ms > 0 {
            return Err(ParseTimeControlError::new(
                input,
                "a period has either an increment or a delay (Art. 6.3.1, 6.3.2), not both",
            ));
        }
    }
    match periods.first() {
        None => Err(ParseTimeControlError::new(input, "no period")),
        Some(p) if p.time_ms == 0 && p.increment_ms == 0 && p.delay.is_none() => Err(
            ParseTimeControlError::new(input, "the first period gives no time at all"),
        ),
        Some(_) => Ok(TimeControl::Periods(periods)),
    }
}

fn parse_moves(input: &str, s: &str) -> Result<u32, ParseTimeControlError> {
    let s = s.trim();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseTimeControlError::new(
            input,
            format!("{s:?} is not a number of moves"),
        ));
    }
    s.parse::<u32>()
        .ok()
        .filter(|&m| m > 0 && m <= 10_000)
        .ok_or_else(|| ParseTimeControlError::new(input, format!("{s} moves is out of range")))
}

/// A decimal number times `unit` milliseconds, exactly.
fn parse_number(input: &str, s: &str, unit: Millis) -> Result<Millis, ParseTimeControlError> {
    let bad = || ParseTimeControlError::new(input, format!("{s:?} is not a number"));
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if int.is_empty() && frac.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || int.len() > 9
        || frac.len() > 9
    {
        return Err(bad());
    }
    let int_v: Millis = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| bad())?
    };
    let mut total = int_v.checked_mul(unit).ok_or_else(bad)?;
    if !frac.is_empty() {
        let frac_v: u128 = frac.parse().map_err(|_| bad())?;
        let scale = 10u128.pow(frac.len() as u32);
        let num = frac_v * unit as u128;
        if num % scale != 0 {
            return Err(ParseTimeControlError::new(
                input,
                format!("{s:?} is not a whole number of milliseconds"),
            ));
        }
        total += (num / scale) as Millis;
    }
    if total > MAX_DURATION {
        return Err(ParseTimeControlError::new(
            input,
            format!("{s:?} is longer than 1000 days"),
        ));
    }
    Ok(total)
}

fn pgn_seconds(input: &str, s: &str) -> Result<Millis, ParseTimeControlError> {
    parse_number(input, s.trim(), SECOND)
}

/// A duration with an optional unit; `default_unit` applies to a bare number.
fn parse_duration(
    input: &str,
    s: &str,
    default_unit: Millis,
) -> Result<Millis, ParseTimeControlError> {
    let s = s.trim();
    let (num, unit) = match s.char_indices().last() {
        Some((i, 's')) => (&s[..i], SECOND),
        Some((i, 'm')) => (&s[..i], MINUTE),
        Some((i, 'h')) => (&s[..i], HOUR),
        Some((i, 'd')) => (&s[..i], DAY),
        Some((_, c)) if c.is_ascii_digit() => (s, default_unit),
        Some((_, c)) => {
            return Err(ParseTimeControlError::new(
                input,
                format!("unknown unit {c:?} in {s:?}; use s, m, h or d"),
            ))
        }
        None => return Err(ParseTimeControlError::new(input, "a duration is missing")),
    };
    parse_number(input, num.trim(), unit)
}

fn fmt_seconds(ms: Millis) -> String {
    if ms % SECOND == 0 {
        format!("{}", ms / SECOND)
    } else {
        let s = format!("{}.{:03}", ms / SECOND, ms % SECOND);
        s.trim_end_matches('0').to_string()
    }
}

/// Base time: bare minutes when whole minutes, else seconds with `s`.
fn fmt_base(ms: Millis) -> String {
    if ms % MINUTE == 0 {
        format!("{}", ms / MINUTE)
    } else {
        format!("{}s", fmt_seconds(ms))
    }
}

/// A duration always with its unit (per-move limits).
fn fmt_with_unit(ms: Millis) -> String {
    if ms >= DAY && ms % DAY == 0 {
        format!("{}d", ms / DAY)
    } else if ms >= HOUR && ms % HOUR == 0 {
        format!("{}h", ms / HOUR)
    } else if ms >= MINUTE && ms % MINUTE == 0 {
        format!("{}m", ms / MINUTE)
    } else {
        format!("{}s", fmt_seconds(ms))
    }
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// Reads the human form; see the module docs.
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let t = s.trim().to_ascii_lowercase();
        if t.is_empty() {
            return Err(ParseTimeControlError::new(s, "empty"));
        }
        if t == "untimed" || t == "-" || t == "none" {
            return Ok(TimeControl::Untimed);
        }
        if t == "?" {
            return Ok(TimeControl::Unknown);
        }
        // Spaces around `+` and `/` are allowed: `5 + 3`, `90 / 40 + 30`.
        let mut t = t;
        for op in ["+", "/"] {
            while t.contains(&format!(" {op}")) || t.contains(&format!("{op} ")) {
                t = t
                    .replace(&format!(" {op}"), op)
                    .replace(&format!("{op} "), op);
            }
        }
        if let Some(rest) = t.strip_prefix("hourglass") {
            let ms = parse_duration(s, rest, MINUTE)?;
            if ms == 0 {
                return Err(ParseTimeControlError::new(s, "an hourglass needs time"));
            }
            return Ok(TimeControl::Hourglass(ms));
        }
        if let Some(rest) = t.strip_suffix("/move") {
            let ms = parse_duration(s, rest, MINUTE)?;
            if ms == 0 {
                return Err(ParseTimeControlError::new(
                    s,
                    "time per move must be positive",
                ));
            }
            return Ok(TimeControl::PerMove(ms));
        }
        let mut periods = Vec::new();
        for part in t.split(',') {
            let mut tokens = part.split_whitespace();
            let Some(main) = tokens.next() else {
                return Err(ParseTimeControlError::new(s, "empty period"));
            };
            let delay = match tokens.next() {
                None => None,
                Some(tok) => {
                    let (kind, d) = if let Some(d) = tok.strip_prefix("sd") {
                        (DelayKind::Simple, d)
                    } else if let Some(d) = tok.strip_prefix('d') {
                        (DelayKind::Bronstein, d)
                    } else {
                        return Err(ParseTimeControlError::new(
                            s,
                            format!(
                                "{tok:?}: expected a delay such as d3 (Bronstein) or sd3 (simple)"
                            ),
                        ));
                    };
                    Some(Delay {
                        kind,
                        ms: parse_duration(s, d, SECOND)?,
                    })
                }
            };
            if let Some(extra) = tokens.next() {
                return Err(ParseTimeControlError::new(
                    s,
                    format!("unexpected {extra:?}; separate periods with commas"),
                ));
            }
            let (main, inc) = match main.split_once('+') {
                Some((a, b)) => (a, Some(b)),
                None => (main, None),
            };
            let (time, moves) = match main.split_once('/') {
                Some((a, m)) => (a, Some(parse_moves(s, m)?)),
                None => (main, None),
            };
            let time_ms = parse_duration(s, time, MINUTE)?;
            let increment_ms = match inc {
                Some(i) => parse_duration(s, i, SECOND)?,
                None => 0,
            };
            periods.push(Period {
                moves,
                time_ms,
                increment_ms,
                delay,
            });
        }
        validate_periods(s, periods)
    }
}

impl fmt::Display for TimeControl {
    /// Writes the human form (canonical: `5+3`, `90/40+30, 30+30`, `5 d3`, `30s/move`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Untimed => f.write_str("untimed"),
            TimeControl::Hourglass(ms) => write!(f, "hourglass {}", fmt_base(*ms)),
            TimeControl::PerMove(ms) => write!(f, "{}/move", fmt_with_unit(*ms)),
            TimeControl::Periods(periods) => {
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(&fmt_base(p.time_ms))?;
                    if let Some(m) = p.moves {
                        write!(f, "/{m}")?;
                    }
                    if p.delay.is_none() || p.increment_ms > 0 {
                        write!(f, "+{}", fmt_increment(p.increment_ms))?;
                    }
                    if let Some(d) = p.delay {
                        let tag = match d.kind {
                            DelayKind::Bronstein => "d",
                            DelayKind::Simple => "sd",
                        };
                        write!(f, " {tag}{}", fmt_increment(d.ms))?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// Increment/delay: bare seconds, or minutes with `m` when whole minutes over a minute.
fn fmt_increment(ms: Millis) -> String {
    if ms >= MINUTE && ms % MINUTE == 0 {
        format!("{}m", ms / MINUTE)
    } else {
        fmt_seconds(ms)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TimeControl, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
