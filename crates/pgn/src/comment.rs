//! Commands embedded in comments: `[%clk h:mm:ss(.f)]` (the clock after the move, Art. 6) and
//! `[%emt h:mm:ss(.f)]` (the time the move took), and the draw-offer mark `(=)` of
//! Art. 9.1.2.2.

use std::time::Duration;

/// The draw-offer mark a player writes on the score sheet (Art. 9.1.2.2: "mark the offer on
/// the score sheet with a symbol (=)").
pub const DRAW_OFFER_MARK: &str = "(=)";

/// A comment taken apart: the commands this library understands, and the rest of the text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedComment {
    /// The text without the understood commands and marks, whitespace-normalised (line breaks
    /// become spaces, trimmed).
    pub text: String,
    /// `[%clk …]`: the time left on the mover's clock after the move.
    pub clock: Option<Duration>,
    /// `[%emt …]`: the time the move took.
    pub emt: Option<Duration>,
    /// The comment held the draw-offer mark `(=)` as a word of its own.
    pub draw_offer: bool,
}

/// The words of a comment: split at spaces, tabs and line breaks (the only whitespace PGN
/// knows; other characters, such as a no-break space, stay inside words).
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split([' ', '\t', '\n', '\r'])
        .filter(|w| !w.is_empty())
}

/// Reads `h:mm:ss` or `h:mm:ss.f…` (any number of hour digits; up to 9 fraction digits are
/// kept, exactly).
pub fn parse_duration(s: &str) -> Option<Duration> {
    let mut parts = s.trim().split(':');
    let h = parts.next()?;
    let m = parts.next()?;
    let sec = parts.next()?;
    if parts.next().is_some() {
        return None;
    }
    let digits = |t: &str| !t.is_empty() && t.len() <= 12 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(h) || !digits(m) {
        return None;
    }
    let (whole, frac) = match sec.split_once('.') {
        Some((w, f)) => (w, f),
        None => (sec, ""),
    };
    if !digits(whole) || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    let w: u64 = whole.parse().ok()?;
    let mut nanos: u32 = 0;
    for (i, b) in frac
        .bytes()
        .chain(core::iter::repeat(b'0'))
        .take(9)
        .enumerate()
    {
        let _ = i;
        nanos = nanos * 10 + u32::from(b - b'0');
    }
    let secs = h
        .checked_mul(3600)?
        .checked_add(m.checked_mul(60)?)?
        .checked_add(w)?;
    Some(Duration::new(secs, nanos))
}

/// Writes a duration as `h:mm:ss`, with as many fraction digits as it needs (`0:05:00`,
/// `1:02:03.5`). [`parse_duration`] reads it back exactly.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    let mut out = format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    let n = d.subsec_nanos();
    if n != 0 {
        let mut frac = format!("{n:09}");
        while frac.ends_with('0') {
            frac.pop();
        }
        out.push('.');
        out.push_str(&frac);
    }
    out
}

/// Takes a comment apart: `[%clk …]` and `[%emt …]` commands become values, a `(=)` word
/// becomes [`ParsedComment::draw_offer`], other text (including other `[%…]` commands such as
/// `[%eval …]`) is kept. A malformed `[%clk …]` is kept as text.
pub fn parse_comment(raw: &str) -> ParsedComment {
    let mut out = ParsedComment::default();
    let mut text = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(i) = rest.find("[%") {
        text.push_str(&rest[..i]);
        let cmd = &rest[i..];
        let Some(end) = cmd.find(']') else {
            text.push_str(cmd);
            rest = "";
            break;
        };
        let body = &cmd[2..end];
        let (name, arg) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        let value = match name {
            "clk" | "emt" => parse_duration(arg),
            _ => None,
        };
        match (name, value) {
            ("clk", Some(d)) => out.clock = Some(d),
            ("emt", Some(d)) => out.emt = Some(d),
            _ => text.push_str(&cmd[..=end]),
        }
        text.push(' ');
        rest = &cmd[end + 1..];
    }
    text.push_str(rest);
    // Whitespace: line breaks inside a comment are only line breaks of the file (PGN 8.2.5),
    // and the writer breaks long comments at spaces.
    let mut normal = String::with_capacity(text.len());
    let mut first = true;
    for word in words(&text) {
        if word == DRAW_OFFER_MARK {
            out.draw_offer = true;
            continue;
        }
        if !first {
            normal.push(' ');
        }
        first = false;
        normal.push_str(word);
    }
    out.text = normal;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_comment_gives_clock_and_leaves_text() {
        let c = parse_comment(" [%clk 0:05:00] [%eval 0.17] good ");
        assert_eq!(c.clock, Some(Duration::from_secs(300)));
        assert_eq!(c.text, "[%eval 0.17] good");
        assert!(!c.draw_offer);
    }

    #[test]
    fn clock_with_fraction_round_trips_exactly() {
        let d = parse_duration("1:02:03.25").unwrap();
        assert_eq!(d, Duration::new(3723, 250_000_000));
        assert_eq!(format_duration(d), "1:02:03.25");
        assert_eq!(format_duration(Duration::from_secs(59)), "0:00:59");
    }

    #[test]
    fn emt_and_draw_offer_mark_are_read() {
        let c = parse_comment("[%emt 0:00:07.5] (=)");
        assert_eq!(c.emt, Some(Duration::new(7, 500_000_000)));
        assert!(c.draw_offer);
        assert_eq!(c.text, "");
    }

    #[test]
    fn malformed_clock_stays_text() {
        let c = parse_comment("[%clk 5 minutes]");
        assert_eq!(c.clock, None);
        assert_eq!(c.text, "[%clk 5 minutes]");
    }
}
