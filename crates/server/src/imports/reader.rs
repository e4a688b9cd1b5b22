//! A PGN text read for import: each well-formed game with its own text, each broken game as
//! an error with its place — exactly as `arbiter pgn check` reports it (the same reader,
//! `arbiter_pgn::Reader` with its `GameBuilder`; nothing is parsed twice).

use arbiter_openings::{Opening, Openings};
use arbiter_pgn::{
    board_result, check_result, GameBuilder, GameRecord, GameResult, Reader, ResultConflict,
};
use arbiter_rules::{CastlingMode, Position};

use super::wire::ImportErrorView;

/// The most games one import may hold.
pub const MAX_GAMES: usize = 100;

/// A game ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedGame {
    /// Its number in the input, 1-based.
    pub number: u64,
    /// Chess960 (`[Variant "Chess960"]`).
    pub chess960: bool,
    /// The start position (FEN; Shredder-FEN castling in Chess960).
    pub initial_fen: String,
    /// The final position of the main line.
    pub final_fen: String,
    /// The main line: (UCI, SAN) per move.
    pub moves: Vec<(String, String)>,
    /// The tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The result as the PGN gives it (`Result` tag, else the termination marker).
    pub result: String,
    /// The `Termination` tag, if any.
    pub termination: Option<String>,
    /// The opening of the main line.
    pub opening: Option<&'static Opening>,
    /// The game's text in the input, as it was (comments and variations kept).
    pub text: String,
}

/// What an input holds.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The well-formed games.
    pub games: Vec<ParsedGame>,
    /// The broken games, one error each.
    pub errors: Vec<ImportErrorView>,
}

/// Read every game of `text` (at most [`MAX_GAMES`]; a game beyond is an error).
pub fn read(text: &str) -> Parsed {
    let mut reader = Reader::new(text.as_bytes());
    let mut builder = GameBuilder::default();
    let mut out = Parsed::default();
    let mut start = 0usize;
    // Reading from memory fails only at the end.
    while let Ok(Some(read)) = reader.read_game(&mut builder) {
        let number = reader.games_read();
        let end = usize::try_from(reader.bytes_read())
            .unwrap_or(text.len())
            .min(text.len());
        let game_text = text.get(start..end).unwrap_or("").trim();
        start = end;
        if number > MAX_GAMES as u64 {
            out.errors.push(ImportErrorView {
                game: number,
                line: 0,
                column: 0,
                message: format!(
                    "more than {MAX_GAMES} games in one import; import the rest separately"
                ),
            });
            break;
        }
        match read {
            Ok(record) => match parsed(number, &record, game_text) {
                Ok(g) => out.games.push(g),
                Err(Refused::Replay(message)) => out.errors.push(ImportErrorView {
                    game: number,
                    line: 0,
                    column: 0,
                    message,
                }),
                // Named at the game's termination marker, or its Result tag without one.
                Err(Refused::Result(conflict)) => {
                    let at = reader.result_location().unwrap_or_default();
                    out.errors.push(ImportErrorView {
                        game: number,
                        line: at.line,
                        column: at.column,
                        message: conflict.to_string(),
                    });
                }
            },
            Err(e) => out.errors.push(ImportErrorView {
                game: e.game(),
                line: e.line(),
                column: e.column(),
                message: e.kind.to_string(),
            }),
        }
    }
    out
}

/// Why a game the reader accepted is not stored.
enum Refused {
    /// It does not replay (cannot happen after the reader's checks; kept as an error, not a
    /// panic).
    Replay(String),
    /// Its written result is contradicted by its own record (Art. 5.1.1, 5.2.1).
    Result(ResultConflict),
}

/// A record the reader accepted, replayed for storage (every move was checked by the reader).
fn parsed(number: u64, record: &GameRecord, text: &str) -> Result<ParsedGame, Refused> {
    let start = record
        .start_position()
        .map_err(|e| Refused::Replay(format!("bad FEN tag: {e}")))?;
    let fen = |p: &Position| {
        if p.mode() == CastlingMode::Chess960 {
            p.fen_shredder()
        } else {
            p.fen()
        }
    };
    let openings = Openings::get();
    let mut pos = start;
    let mut opening = openings.lookup(&pos);
    let mut moves = Vec::with_capacity(record.moves.len());
    for m in record.moves.moves() {
        moves.push((pos.uci(m), pos.san(m)));
        pos = pos
            .play(m)
            .map_err(|_| Refused::Replay(format!("move {} does not replay", moves.len())))?;
        opening = openings.lookup(&pos).or(opening);
    }
    let tag = record.tags.get("Result").and_then(|r| r.parse().ok());
    if let Some(conflict) = check_result(tag, Some(record.result), &pos) {
        return Err(Refused::Result(conflict));
    }
    // A record that leaves the result open (`*`) but ends in checkmate or stalemate has the
    // result the board fixes, also in its tags and its text.
    let mut tags: Vec<(String, String)> = record
        .tags
        .iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let (result, text) = match (record.effective_result(), board_result(&pos)) {
        (GameResult::Unknown, Some((board, _))) => {
            match tags.iter_mut().find(|(k, _)| k == "Result") {
                Some((_, v)) => *v = board.as_str().to_owned(),
                None => tags.push(("Result".to_owned(), board.as_str().to_owned())),
            }
            (board, with_result(text, board.as_str()))
        }
        (written, _) => (written, text.to_owned()),
    };
    Ok(ParsedGame {
        number,
        chess960: start.mode() == CastlingMode::Chess960,
        initial_fen: fen(&start),
        final_fen: fen(&pos),
        moves,
        tags,
        result: result.as_str().to_owned(),
        termination: record.tags.get("Termination").map(str::to_owned),
        opening,
        text,
    })
}

/// A game's `text` whose result was left open (`*`, or no termination marker) with `result`
/// written in: in its `Result` tag (however the tag was spaced, and wherever it stands on its
/// line; added after the other tags if it had none) and as its termination marker.
fn with_result(text: &str, result: &str) -> String {
    let tag = format!("[Result \"{result}\"]");
    let mut lines: Vec<String> = Vec::new();
    let (mut in_header, mut tagged, mut last_tag) = (true, false, None);
    for line in text.lines() {
        let trimmed = line.trim();
        if in_header && trimmed.starts_with('[') {
            let mut rewritten = String::with_capacity(line.len());
            for (segment, is_tag) in tag_segments(line) {
                if is_tag && !tagged && is_result_tag(segment) {
                    rewritten.push_str(&tag);
                    tagged = true;
                } else {
                    rewritten.push_str(segment);
                }
            }
            lines.push(rewritten);
            last_tag = Some(lines.len());
            continue;
        }
        if !trimmed.is_empty() {
            in_header = false;
        }
        lines.push(line.to_owned());
    }
    if let (false, Some(after)) = (tagged, last_tag) {
        lines.insert(after, tag);
    }
    let joined = lines.join("\n");
    let body = joined.trim_end();
    match body.strip_suffix('*') {
        Some(moves) => format!("{moves}{result}"),
        None => format!("{body} {result}"),
    }
}

/// A header line cut into its tag pairs (`[Name "value"]`, `true`) and what lies between them
/// (`false`), so that a line holding several tags can have one of them replaced. A `]` inside
/// a quoted value (with `\"` escapes) does not close the tag.
fn tag_segments(line: &str) -> Vec<(&str, bool)> {
    let mut segments = Vec::new();
    let (mut start, mut open, mut quoted, mut escaped) = (0, None, false, false);
    for (i, c) in line.char_indices() {
        match open {
            None if c == '[' => {
                if i > start {
                    segments.push((&line[start..i], false));
                }
                open = Some(i);
            }
            None => {}
            Some(from) => {
                if escaped {
                    escaped = false;
                } else if quoted && c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    quoted = !quoted;
                } else if c == ']' && !quoted {
                    segments.push((&line[from..=i], true));
                    start = i + 1;
                    open = None;
                }
            }
        }
    }
    let rest = open.unwrap_or(start);
    if rest < line.len() {
        segments.push((&line[rest..], false));
    }
    segments
}

/// Whether a tag pair (`[ Result "*" ]`, however spaced) is the `Result` tag.
fn is_result_tag(segment: &str) -> bool {
    segment[1..]
        .trim_start()
        .strip_prefix("Result")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_whitespace() || c == '"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES_ONE_BROKEN: &str = "[Event \"A\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"0-1\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bc4 {the Italian} (3. Bb5 a6) 3... Nf6 0-1\n\n\
[Event \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n\
[Event \"C\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n\n1. e4 Kd7 1/2-1/2\n";

    #[test]
    fn broken_game_is_reported_and_the_others_are_read() {
        let p = read(TWO_GAMES_ONE_BROKEN);
        assert_eq!(p.games.len(), 2);
        assert_eq!(p.errors.len(), 1);
        let e = &p.errors[0];
        // `arbiter pgn check` names the same place: game 2, line 11, column 13 (`Ke3`).
        assert_eq!((e.game, e.line, e.column), (2, 11, 13), "{e:?}");
        assert!(e.message.starts_with("illegal move 'Ke3'"), "{}", e.message);
        let a = &p.games[0];
        assert_eq!(a.number, 1);
        assert_eq!(a.result, "0-1");
        assert_eq!(a.moves.len(), 6);
        assert_eq!(a.moves[4], ("f1c4".to_owned(), "Bc4".to_owned()));
        let o = a.opening.unwrap();
        assert_eq!(o.eco, "C55");
        assert!(
            a.text.starts_with("[Event \"A\"]") && a.text.ends_with("Nf6 0-1"),
            "{}",
            a.text
        );
        assert!(a.text.contains("(3. Bb5 a6)"));
        let c = &p.games[1];
        assert_eq!(c.number, 3);
        assert_eq!(c.initial_fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(c.opening, None);
        assert!(c.text.starts_with("[Event \"C\"]"));
    }

    #[test]
    fn chess960_game_is_read_with_its_start_position() {
        let text = "[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n\
9. g3 cxb2 *\n";
        let p = read(text);
        assert_eq!(p.errors.len(), 1, "cxb2 is illegal: {:?}", p.errors);
        let text = text.replace("cxb2", "Nd7");
        let p = read(&text);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert!(p.games[0].chess960);
        assert_eq!(p.games[0].opening, None);
        assert_eq!(p.games[0].moves.len(), 2);
    }

    #[test]
    fn art_5_1_1_a_result_the_checkmate_contradicts_is_refused() {
        let mate = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#";
        let text = format!(
            "[Event \"A\"]\n[Result \"0-1\"]\n\n{mate} 0-1\n\n\
[Event \"B\"]\n[Result \"*\"]\n\n{mate} *\n\n\
[Event \"C\"]\n[Result \"1-0\"]\n\n1. e4 e5 0-1\n"
        );
        let p = read(&text);
        assert_eq!(p.errors.len(), 2, "{:?}", p.errors);
        let (a, c) = (&p.errors[0], &p.errors[1]);
        assert_eq!((a.game, a.line, a.column), (1, 4, 41), "{a:?}");
        assert!(a.message.contains("Black is checkmated"), "{}", a.message);
        assert!(a.message.contains("1-0"), "{}", a.message);
        assert_eq!((c.game, c.line, c.column), (3, 14, 10), "{c:?}");
        assert!(c.message.contains("Result tag says 1-0"), "{}", c.message);
        // Left open, the result is the one the board fixes, in the tags and text too.
        assert_eq!(p.games.len(), 1);
        let b = &p.games[0];
        assert_eq!(b.number, 2);
        assert_eq!(b.result, "1-0");
        assert!(b.tags.contains(&("Result".to_owned(), "1-0".to_owned())));
        assert!(b.text.contains("[Result \"1-0\"]"), "{}", b.text);
        assert!(b.text.ends_with("Qxf7# 1-0"), "{}", b.text);
        // Without a marker, the result is written at the end, and in a Result tag added
        // after the others.
        let p = read(&format!("[Event \"D\"]\n\n{mate}\n"));
        let d = &p.games[0];
        assert_eq!(d.result, "1-0");
        assert!(d.text.ends_with("Qxf7# 1-0"), "{}", d.text);
        assert!(
            d.text
                .starts_with("[Event \"D\"]\n[Result \"1-0\"]\n\n1. e4"),
            "{}",
            d.text
        );
        assert!(d.tags.contains(&("Result".to_owned(), "1-0".to_owned())));
        // A Result tag spaced otherwise is rewritten too, and only in the header.
        let p = read(&format!(
            "[Event \"E\"]\n[ Result   \"*\" ]\n\n{{[Result \"*\"]}} {mate} *\n"
        ));
        let e = &p.games[0];
        assert!(
            e.text
                .starts_with("[Event \"E\"]\n[Result \"1-0\"]\n\n{[Result \"*\"]} 1. e4"),
            "{}",
            e.text
        );
        assert!(e.text.ends_with("Qxf7# 1-0"), "{}", e.text);
        // Several tags on one line: the Result tag among them is rewritten, not doubled.
        let p = read(&format!(
            "[Event \"F]\"] [Result \"*\"] [Site \"?\"]\n\n{mate} *\n"
        ));
        let f = &p.games[0];
        assert!(
            f.text
                .starts_with("[Event \"F]\"] [Result \"1-0\"] [Site \"?\"]\n\n1. e4"),
            "{}",
            f.text
        );
        assert_eq!(f.text.matches("Result").count(), 1, "{}", f.text);
    }

    #[test]
    fn art_5_1_1_without_a_marker_the_contradicted_result_tag_is_named() {
        let text = "[Event \"A\"]\n[Site \"?\"]\n[Result \"0-1\"]\n\n\
1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#\n";
        let p = read(text);
        assert!(p.games.is_empty(), "{:?}", p.games.len());
        let e = &p.errors[0];
        assert_eq!((e.game, e.line, e.column), (1, 3, 1), "{e:?}");
        assert!(e.message.contains("Black is checkmated"), "{}", e.message);
    }

    #[test]
    fn too_many_games_are_refused_beyond_the_limit() {
        let text = "1. e4 *\n\n".repeat(MAX_GAMES + 3);
        let p = read(&text);
        assert_eq!(p.games.len(), MAX_GAMES);
        assert_eq!(p.errors.len(), 1);
        assert_eq!(p.errors[0].game, MAX_GAMES as u64 + 1);
    }
}
