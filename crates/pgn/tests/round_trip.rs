//! Round trip: write (export format) → read gives the same game: tags, moves, comments, NAGs,
//! variations, clock values and draw-offer marks. Self-made games here and generated games
//! (proptest); the whole shared corpus in the ignored test (needs `ARBITER_DATA`).

use arbiter_pgn::{read_all, GameRecord, GameResult, Line, Nag, Node, Reader, Writer, MAX_LINE};
use arbiter_rules::{CastlingMode, Move, Position};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The record as the export format must give it back: the roster tags filled in, the Result
/// tag equal to the result.
fn normalized(g: &GameRecord) -> GameRecord {
    let mut n = g.clone();
    let result = g.effective_result();
    for (name, value) in g.tags.export_order() {
        if n.tags.get(name).is_none() {
            n.tags.set(name, value);
        }
    }
    n.tags.set("Result", result.as_str());
    n.result = result;
    n
}

fn assert_export_layout(text: &str, game: &GameRecord) {
    let mut lines = text.lines();
    for name in arbiter_pgn::SEVEN_TAG_ROSTER {
        let line = lines.next().unwrap();
        assert!(
            line.starts_with(&format!("[{name} \"")),
            "{line} in\n{text}"
        );
    }
    for line in text.lines() {
        if line.chars().count() > MAX_LINE {
            // Only a tag pair, a single token too long to break, or a `;` comment (a comment
            // holding `}`) may be longer.
            assert!(
                line.starts_with('[') || !line.contains(' ') || line.contains(';'),
                "long line: {line}"
            );
        }
    }
    let result = game.effective_result().as_str();
    assert!(
        text.trim_end().ends_with(result),
        "result token {result} at the end of\n{text}"
    );
}

fn round_trip(game: &GameRecord) {
    let text = Writer::export().write(game).unwrap();
    assert_export_layout(&text, game);
    let back = GameRecord::from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let want = normalized(game);
    assert_eq!(back.tags, reorder(&want, &back), "tags\n{text}");
    assert_eq!(back.moves, want.moves, "moves\n{text}");
    assert_eq!(back.result, want.result, "result\n{text}");
}

/// The wanted tags in the order the export format writes them (roster first, then ASCII).
fn reorder(want: &GameRecord, _back: &GameRecord) -> arbiter_pgn::Tags {
    want.tags.export_order().into_iter().collect()
}

fn play(pos: &mut Position, san: &str) -> Move {
    let m = pos.parse_san(san).unwrap();
    pos.play_unchecked(m);
    m
}

#[test]
fn pgn_8_2_export_round_trip_keeps_comments_nags_variations_and_clocks() {
    let mut g = GameRecord::new();
    g.tags.set("White", "Kasparov, G.");
    g.tags.set("Black", "Deep \"Blue\" \\ IBM");
    g.tags.set("Annotator", "Ä Latin and UTF-8");
    g.tags.set("Result", "1-0");
    g.moves
        .comments
        .push("A game comment before the first move.".into());
    let mut pos = Position::new();
    let before_e4 = pos;
    let e4 = play(&mut pos, "e4");
    let mut node = Node::new(e4).with_clock(Duration::from_millis(5_400_500));
    node.nags = vec![Nag::GOOD_MOVE, Nag(146)];
    node.comments = vec!["Best by test.".into(), "Second comment".into()];
    node.emt = Some(Duration::from_secs(3));
    // A variation (1. d4 d5 (1... Nf6)) with a nested one.
    let mut vpos = before_e4;
    let mut var = Line::new();
    var.comments.push("Or the queen's pawn".into());
    var.push(play(&mut vpos, "d4"));
    let before_d5 = vpos;
    var.push(play(&mut vpos, "d5")).draw_offer = true;
    let mut inner = Line::new();
    let mut ipos = before_d5;
    inner
        .push(play(&mut ipos, "Nf6"))
        .nags
        .push(Nag::DUBIOUS_MOVE);
    var.nodes[1].variations.push(inner);
    node.variations.push(var);
    g.moves.nodes.push(node);
    g.moves.push(play(&mut pos, "e5")).comments.push(
        "A long comment that certainly does not fit on one line of the export format, so the \
         writer has to break it at spaces without changing a single word of it."
            .into(),
    );
    g.moves.push(play(&mut pos, "Nf3")).draw_offer = true;
    g.result = GameResult::WhiteWins;
    round_trip(&g);

    let text = Writer::export().write(&g).unwrap();
    // Black's move number is repeated after a comment or a variation (PGN 8.2.2.2).
    assert!(text.contains("1... e5"), "{text}");
    assert!(text.contains("$1 $146"), "{text}");
    assert!(text.contains("{[%clk 1:30:00.5]"), "{text}");
    assert!(text.contains("[%emt 0:00:03] Best"), "{text}");
    assert!(text.contains("Deep \\\"Blue\\\" \\\\ IBM"), "{text}");
}

#[test]
fn chess960_game_from_fen_tag_round_trips_with_castling() {
    let mut g = GameRecord::new();
    g.tags.set("Variant", "Chess960");
    g.tags.set("SetUp", "1");
    // King on b1/b8, rooks on a and e: both castlings are legal at once (Guideline II).
    let fen = "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1";
    g.tags.set("FEN", fen);
    let mut pos = Position::from_fen(fen, CastlingMode::Chess960).unwrap();
    for san in ["O-O", "O-O-O"] {
        g.moves.push(play(&mut pos, san));
    }
    round_trip(&g);
    let text = Writer::export().write(&g).unwrap();
    assert!(text.contains("1. O-O O-O-O *"), "{text}");
    let end = g.end_position().unwrap();
    assert_eq!(end.fen(), "2krr3/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2");
}

#[test]
fn game_starting_with_black_to_move_writes_ellipsis_number() {
    let mut g = GameRecord::new();
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    g.tags.set("FEN", fen);
    g.tags.set("SetUp", "1");
    let mut pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
    g.moves.push(play(&mut pos, "c5"));
    g.moves.push(play(&mut pos, "Nf3"));
    let text = Writer::export().write(&g).unwrap();
    assert!(text.contains("\n1... c5 2. Nf3 *"), "{text}");
    round_trip(&g);
}

#[test]
fn display_writer_uses_national_letters() {
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 *";
    let g = GameRecord::from_pgn(text).unwrap();
    let de = Writer::display(arbiter_rules::Lang::German)
        .write(&g)
        .unwrap();
    assert!(de.contains("2. Sf3 Sc6 3. Lb5"), "{de}");
    let fig = Writer::display(arbiter_rules::Lang::Figurine)
        .write(&g)
        .unwrap();
    assert!(fig.contains("2. ♘f3 ♞c6"), "{fig}");
}

#[test]
fn reader_tolerates_bom_crlf_latin1_zero_castling_and_missing_blank_lines() {
    let mut bytes = b"\xef\xbb\xbf[Event \"M\xfcnchen\"]\r\n[White \"A\"]\r\n\r\n".to_vec();
    bytes.extend_from_slice(b"1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.0-0 {Castled with zeros} 1-0\r\n");
    bytes.extend_from_slice(b"[Event \"Second\"]\r\n1. d4 d5\r\n");
    let games: Vec<_> = Reader::new(&bytes[..])
        .into_games()
        .map(|g| g.unwrap().unwrap())
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tags.get("Event"), Some("München"));
    assert_eq!(games[0].moves.len(), 7);
    assert_eq!(games[0].moves.nodes[6].comments, vec!["Castled with zeros"]);
    assert_eq!(games[0].result, GameResult::WhiteWins);
    assert_eq!(games[1].tags.get("Event"), Some("Second"));
    assert_eq!(games[1].moves.len(), 2);
    assert_eq!(games[1].result, GameResult::Unknown);
}

#[test]
fn art_8_illegal_move_reported_with_game_line_column_then_next_game_read() {
    let text = "[Event \"One\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[Event \"Two\"]\n\n1. d4 *\n";
    let games = read_all(text);
    assert_eq!(games.len(), 2);
    let err = games[0].as_ref().unwrap_err();
    assert_eq!((err.game(), err.line(), err.column()), (1, 3, 13));
    assert_eq!(
        err.to_string(),
        "game 1, 3:13: illegal move 'Ke3': expected a legal move for White (move 2.)"
    );
    assert_eq!(games[1].as_ref().unwrap().moves.len(), 1);
}

#[test]
fn appendix_c10_ambiguous_move_lists_candidates() {
    let games = read_all("1. Nc3 a6 2. Ne4 a5 3. Nf3 h6 4. Ng5 *");
    let err = games[0].as_ref().unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("ambiguous move 'Ng5'"), "{msg}");
    assert!(msg.contains("Neg5") && msg.contains("Nfg5"), "{msg}");
}

#[test]
fn bad_fen_tag_is_reported_at_the_tag() {
    let games = read_all("[Event \"x\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n");
    let err = games[0].as_ref().unwrap_err();
    assert_eq!((err.line(), err.column()), (2, 1));
    assert!(err.to_string().contains("bad FEN tag"), "{err}");
}

// ---------------------------------------------------------------- generated games (proptest)

/// A game built from a stream of choices: random legal moves, comments, NAGs, clocks, draw
/// offers and (nested) variations.
fn build(choices: &[u16], chess960: Option<u16>) -> GameRecord {
    let mut g = GameRecord::new();
    let start = match chess960 {
        Some(n) => {
            let p = Position::chess960(n % 960).unwrap();
            g.tags.set("Variant", "Chess960");
            g.tags.set("SetUp", "1");
            g.tags.set("FEN", p.fen());
            p
        }
        None => Position::new(),
    };
    let mut it = choices.iter().copied();
    g.tags
        .set("Site", format!("Site {}", it.next().unwrap_or(0)));
    g.tags.set("ECO", "A00");
    g.result = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ][usize::from(it.next().unwrap_or(0) % 4)];
    g.moves = line(&mut it, start, 0, 60);
    g
}

const WORDS: &[&str] = &[
    "good", "bad", "the", "[%eval", "0.17]", "Ä", "x", "(", ")", "%", ";", "1-0", "\"q\"", "e4",
    "$5", "!", "[%cal", "Ge2e4]", "…",
];

fn text(it: &mut impl Iterator<Item = u16>) -> String {
    let n = 1 + it.next().unwrap_or(0) % 30;
    (0..n)
        .map(|_| WORDS[usize::from(it.next().unwrap_or(0)) % WORDS.len()])
        .collect::<Vec<_>>()
        .join(" ")
}

fn line(it: &mut impl Iterator<Item = u16>, mut pos: Position, depth: u32, max: usize) -> Line {
    let mut l = Line::new();
    if it.next().unwrap_or(0) % 8 == 0 {
        l.comments.push(text(it));
    }
    for _ in 0..max {
        let moves = pos.legal_moves();
        let Some(c) = it.next() else { break };
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(c) % moves.len()];
        let mut node = Node::new(m);
        let flags = it.next().unwrap_or(0);
        if flags & 1 != 0 {
            node.clock = Some(Duration::from_millis(
                u64::from(it.next().unwrap_or(0)) * 100,
            ));
        }
        if flags & 2 != 0 {
            node.emt = Some(Duration::from_secs(u64::from(it.next().unwrap_or(0))));
        }
        if flags & 4 != 0 {
            node.nags.push(Nag((it.next().unwrap_or(0) % 256) as u8));
        }
        if flags & 8 != 0 {
            node.comments.push(text(it));
        }
        if flags & 16 != 0 {
            node.draw_offer = true;
        }
        if flags & 32 != 0 && depth < 3 {
            node.variations.push(line(it, pos, depth + 1, 6));
        }
        l.nodes.push(node);
        pos.play_unchecked(m);
    }
    // A variation needs a move; an empty one is written "()" and read back the same.
    l
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_games_round_trip(choices in proptest::collection::vec(any::<u16>(), 0..600)) {
        round_trip(&build(&choices, None));
    }

    #[test]
    fn generated_chess960_games_round_trip(
        n in 0u16..960,
        choices in proptest::collection::vec(any::<u16>(), 0..300),
    ) {
        round_trip(&build(&choices, Some(n)));
    }
}

// ---------------------------------------------------------------- the corpus (ignored)

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            pgn_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "pgn") {
            out.push(p);
        }
    }
}

#[test]
#[ignore = "needs ARBITER_DATA"]
fn corpus_games_round_trip_through_the_export_format() {
    let data = PathBuf::from(std::env::var("ARBITER_DATA").expect("ARBITER_DATA"));
    let mut files = Vec::new();
    pgn_files(&data.join("pgn"), &mut files);
    assert!(files.len() > 1000);
    let (mut games, mut checked) = (0, 0);
    for path in files {
        let reader = Reader::new(std::fs::File::open(&path).unwrap());
        for game in reader.into_games() {
            games += 1;
            let Ok(game) = game.unwrap() else { continue };
            checked += 1;
            round_trip(&game);
        }
    }
    assert!(checked > 4000, "{checked} of {games} games checked");
}

/// Regression (fuzz): a `[%command …]` too long for one line was kept whole with its inner
/// space, giving a line over 79 characters that could have been broken.
#[test]
fn pgn_8_2_writer_breaks_a_command_too_long_for_one_line() {
    let long = "3".repeat(75);
    let pgn = format!("1. e4 {{[%eval {long}]}} *");
    let g = GameRecord::from_pgn(&pgn).unwrap();
    let text = Writer::export().write(&g).unwrap();
    for line in text.lines() {
        assert!(
            line.chars().count() <= MAX_LINE || !line.contains(' '),
            "{line}"
        );
    }
    round_trip(&g);
    // A short command stays on one line.
    let g = GameRecord::from_pgn("1. e4 {[%eval 0.25] good} *").unwrap();
    assert!(Writer::export()
        .write(&g)
        .unwrap()
        .contains("{[%eval 0.25] good}"));
}

/// Regression (fuzz): a `;` comment holding `}` was written in braces with `}` replaced, so it
/// did not read back the same. It is now written as a `;` comment.
#[test]
fn pgn_8_2_comment_with_closing_brace_round_trips_as_rest_of_line_comment() {
    let g = GameRecord::from_pgn("1. e4 ;a {b} c\n1... e5 *").unwrap();
    assert_eq!(g.moves.nodes[0].comments, vec!["a {b} c"]);
    let text = Writer::export().write(&g).unwrap();
    assert!(text.contains("1. e4 ;a {b} c\n1... e5 *"), "{text}");
    round_trip(&g);
}

#[test]
fn reader_reads_escape_lines_semicolon_comments_nags_clocks_and_nested_variations() {
    let pgn = "% an escape line\n[Event \"E\"]\n[Variant \"Fischer Random\"]\n[SetUp \"1\"]\n\
               [FEN \"rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1\"]\n\n\
               1. O-O! $14 {[%clk 1:59:58.3] [%emt 0:00:02]} ; rest of line\n\
               % escape inside movetext\n\
               1... a6 ( 1... O-O-O?! {(=)} ( 1... a5 ) 2. a3 ) 2. a3 1/2-1/2\n";
    let g = GameRecord::from_pgn(pgn).unwrap();
    assert!(g.tags.is_chess960());
    let first = &g.moves.nodes[0];
    assert_eq!(first.nags, vec![Nag::GOOD_MOVE, Nag(14)]);
    assert_eq!(first.clock, Some(Duration::new(7198, 300_000_000)));
    assert_eq!(first.emt, Some(Duration::from_secs(2)));
    assert_eq!(first.comments, vec!["rest of line"]);
    let second = &g.moves.nodes[1];
    assert_eq!(second.variations.len(), 1);
    let var = &second.variations[0];
    assert_eq!(var.nodes.len(), 2);
    assert_eq!(var.nodes[0].nags, vec![Nag::DUBIOUS_MOVE]);
    assert!(var.nodes[0].draw_offer);
    assert_eq!(var.nodes[0].variations[0].nodes.len(), 1);
    assert_eq!(g.moves.len(), 3);
    assert_eq!(g.result, GameResult::Draw);
    round_trip(&g);
}
