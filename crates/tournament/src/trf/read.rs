//! The lenient TRF reader: every line it can understand is used, every one it cannot is named
//! (line, column, what), and nothing in the input makes it panic.

use std::collections::HashMap;

use super::diagnostic::{Diagnostic, Severity};
use super::layout;
use crate::model::{
    Bye, Colour, ForbiddenPairs, GameResult, Player, Points, RoundEntry, ScoringSystem, StartNo,
    Title, Tournament,
};

/// A tournament read from TRF, with what the reader had to say about the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfRead {
    /// Everything that could be read.
    pub tournament: Tournament,
    /// Warnings and errors, in line order.
    pub diagnostics: Vec<Diagnostic>,
}

impl TrfRead {
    /// Whether any diagnostic is an error (part of the file was left out).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Reads a TRF file (TRF-2026, TRF-16 and the `XX` records of pairing programs) from bytes:
/// UTF-8, or Latin-1 when the bytes are not UTF-8 (older national programs write it).
pub fn read_bytes(bytes: &[u8]) -> TrfRead {
    match std::str::from_utf8(bytes) {
        Ok(text) => read(text),
        Err(e) => {
            let text: String = bytes.iter().map(|&b| char::from(b)).collect();
            let mut result = read(&text);
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            result.diagnostics.insert(
                0,
                Diagnostic {
                    line,
                    column: 1,
                    severity: Severity::Warning,
                    message: "the file is not UTF-8; read as Latin-1".into(),
                },
            );
            result
        }
    }
}

/// Reads a TRF file from text. Line ends may be CR, LF or CR LF.
pub fn read(text: &str) -> TrfRead {
    let mut reader = Reader::default();
    for (number, line) in split_lines(text) {
        reader.line(number, line);
    }
    reader.finish()
}

/// The lines with their numbers (from 1); CR, LF and CR LF each end one line.
fn split_lines(text: &str) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                lines.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .collect()
}

/// A line as characters, so that columns count characters (names may be UTF-8).
struct Line {
    number: usize,
    chars: Vec<char>,
}

impl Line {
    /// Characters `start..end` (0-based, end exclusive), trimmed; missing ones are empty.
    fn field(&self, start: usize, end: usize) -> String {
        let end = end.min(self.chars.len());
        if start >= end {
            return String::new();
        }
        self.chars[start..end]
            .iter()
            .collect::<String>()
            .trim()
            .to_string()
    }

    /// Everything from character `start`, trimmed at the end only.
    fn rest(&self, start: usize) -> String {
        self.field_untrimmed(start, self.chars.len())
            .trim_end()
            .to_string()
    }

    fn field_untrimmed(&self, start: usize, end: usize) -> String {
        let end = end.min(self.chars.len());
        if start >= end {
            return String::new();
        }
        self.chars[start..end].iter().collect()
    }

    fn char_at(&self, index: usize) -> char {
        self.chars.get(index).copied().unwrap_or(' ')
    }
}

/// The most points a scoring record may give one result (keeps every sum far from overflow).
const MAX_SCORING_VALUE: Points = Points::from_int(1000);

#[derive(Default)]
struct Reader {
    tournament: Tournament,
    diagnostics: Vec<Diagnostic>,
    /// The line each player came from, to place consistency errors.
    player_lines: HashMap<StartNo, usize>,
    /// Byes announced by `240` records: (line, round, player, bye).
    announced_byes: Vec<(usize, u32, StartNo, Bye)>,
    /// Scoring values from `162`/`BBx` records, by TRF letter.
    scoring_values: Vec<(char, Points)>,
}

impl Reader {
    fn report(&mut self, line: usize, column: usize, severity: Severity, message: String) {
        self.diagnostics.push(Diagnostic {
            line,
            column,
            severity,
            message,
        });
    }

    fn line(&mut self, number: usize, text: &str) {
        let line = Line {
            number,
            chars: text.chars().collect(),
        };
        if line.chars.iter().all(|c| c.is_whitespace()) {
            return;
        }
        let code: String = line.chars.iter().take(3).collect();
        let value = line.rest(4);
        let t = &mut self.tournament;
        match code.as_str() {
            "001" => self.player(&line),
            "012" => t.name = value,
            "022" => t.city = value,
            "032" => t.federation = value,
            "042" => t.start_date = value,
            "052" => t.end_date = value,
            // Counts of players and rated players, and of teams: derived from the players.
            "062" | "072" | "082" => {}
            "092" => t.system = value,
            "102" => t.chief_arbiter = value,
            "112" if !value.is_empty() => t.deputy_arbiters.push(value),
            "112" => {}
            "122" => t.time_control = value,
            "132" => self.round_dates(&line),
            "142" | "XXR" => self.planned_rounds(&line),
            "152" => self.initial_colour_152(&line),
            "XXC" => self.configuration(&line),
            "162" => self.scoring_162(&line),
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => self.scoring_bbp(&line, &code),
            "240" => self.byes_240(&line),
            "260" => self.forbidden_260(&line),
            "XXP" => self.forbidden_xxp(&line),
            _ if code.starts_with("###") => {}
            "013" | "310" | "320" | "330" | "300" | "299" | "801" | "802" | "362" | "352" => {
                self.report(
                    number,
                    1,
                    Severity::Warning,
                    format!("record {code} (team competitions, abnormal points) is not supported; skipped"),
                );
            }
            _ => self.report(
                number,
                1,
                Severity::Warning,
                format!("unknown record {code:?}; skipped"),
            ),
        }
    }

    fn round_dates(&mut self, line: &Line) {
        let mut dates = Vec::new();
        let mut start = layout::FIRST_ROUND_COLUMN;
        while start < line.chars.len() {
            dates.push(line.field(start, start + layout::ROUND_WIDTH));
            start += layout::ROUND_STRIDE;
        }
        while dates.last().is_some_and(|d| d.is_empty()) {
            dates.pop();
        }
        self.tournament.round_dates = dates;
    }

    fn planned_rounds(&mut self, line: &Line) {
        let text = line.field(3, line.chars.len());
        match text.parse::<u32>() {
            Ok(n) if (1..=999).contains(&n) => self.tournament.planned_rounds = Some(n),
            _ => self.report(
                line.number,
                5,
                Severity::Error,
                format!("expected the number of rounds, found {text:?}"),
            ),
        }
    }

    fn initial_colour_152(&mut self, line: &Line) {
        match line
            .field(4, line.chars.len())
            .to_ascii_uppercase()
            .as_str()
        {
            "W" => self.tournament.initial_colour = Some(Colour::White),
            "B" => self.tournament.initial_colour = Some(Colour::Black),
            other => self.report(
                line.number,
                5,
                Severity::Error,
                format!("expected the initial colour W or B, found {other:?}"),
            ),
        }
    }

    fn configuration(&mut self, line: &Line) {
        let text = line.rest(3);
        for token in text.split_whitespace() {
            match token.to_ascii_lowercase().as_str() {
                "white1" => self.tournament.initial_colour = Some(Colour::White),
                "black1" => self.tournament.initial_colour = Some(Colour::Black),
                _ => {
                    let column = find_column(line, token);
                    self.report(
                        line.number,
                        column,
                        Severity::Warning,
                        format!("XXC option {token:?} is not supported; ignored"),
                    );
                }
            }
        }
    }

    /// `162 W 1.0 D 0.5 …`: a letter, then its value; read as tokens, whatever the spacing.
    fn scoring_162(&mut self, line: &Line) {
        let text: Vec<char> = line.chars.iter().skip(3).copied().collect();
        let mut i = 0;
        while i < text.len() {
            let c = text[i];
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            let column = i + 4;
            let symbol = c.to_ascii_uppercase();
            let mut j = i + 1;
            while j < text.len() && text[j] == ' ' {
                j += 1;
            }
            let start = j;
            while j < text.len() && (text[j].is_ascii_digit() || matches!(text[j], '.' | ',')) {
                j += 1;
            }
            let number: String = text[start..j].iter().collect();
            match number.parse::<Points>() {
                Ok(points) if points > MAX_SCORING_VALUE => self.report(
                    line.number,
                    column,
                    Severity::Error,
                    format!(
                        "{number} points for {c:?} is more than any scoring system gives; ignored"
                    ),
                ),
                Ok(points) if "WDLZPUFH+-".contains(symbol) => {
                    self.scoring_values.push((symbol, points))
                }
                Ok(_) => self.report(
                    line.number,
                    column,
                    Severity::Warning,
                    format!("unknown result letter {c:?} in the scoring system; ignored"),
                ),
                Err(_) => self.report(
                    line.number,
                    column,
                    Severity::Error,
                    format!("expected a result letter and its points, found {c:?} {number:?}"),
                ),
            }
            i = j.max(i + 1);
        }
    }

    /// bbpPairings' `BBW pp.p` (win), `BBD` (draw), `BBL` (loss), `BBZ` (zero-point bye),
    /// `BBF` (forfeit loss), `BBU` (pairing-allocated bye).
    fn scoring_bbp(&mut self, line: &Line, code: &str) {
        let text = line.field(3, line.chars.len());
        let Ok(points) = text.parse::<Points>().map_err(|_| ()).and_then(|p| {
            if (Points::ZERO..=MAX_SCORING_VALUE).contains(&p) {
                Ok(p)
            } else {
                Err(())
            }
        }) else {
            self.report(
                line.number,
                5,
                Severity::Error,
                format!("expected points, found {text:?}"),
            );
            return;
        };
        let symbol = match code {
            "BBW" => 'W',
            "BBD" => 'D',
            "BBL" => 'L',
            "BBZ" => 'Z',
            "BBF" => '-',
            _ => 'U',
        };
        self.scoring_values.push((symbol, points));
    }

    /// `240 T rrr pppp pppp …`: byes of type `T` (`F`, `H`, `Z` or blank) announced for round
    /// `rrr`.
    fn byes_240(&mut self, line: &Line) {
        let bye = match line.char_at(4).to_ascii_uppercase() {
            'F' => Bye::FullPoint,
            'H' => Bye::HalfPoint,
            'Z' | ' ' => Bye::ZeroPoint,
            other => {
                self.report(
                    line.number,
                    5,
                    Severity::Error,
                    format!("expected the bye type F, H or Z, found {other:?}"),
                );
                return;
            }
        };
        let Some(round) = self.number_field(line, 6, 9, "round") else {
            return;
        };
        let mut start = 10;
        while start < line.chars.len() {
            if let Some(player) = self.number_field(line, start, start + 4, "start number") {
                self.announced_byes
                    .push((line.number, round, StartNo(player), bye));
            }
            start += 5;
        }
    }

    /// `260 fff lll pppp pppp …`: the players may not meet from round `fff` to round `lll`.
    fn forbidden_260(&mut self, line: &Line) {
        let (Some(first), Some(last)) = (
            self.number_field(line, 4, 7, "first round"),
            self.number_field(line, 8, 11, "last round"),
        ) else {
            return;
        };
        let mut players = Vec::new();
        let mut start = 12;
        while start < line.chars.len() {
            if let Some(player) = self.number_field(line, start, start + 4, "start number") {
                players.push(StartNo(player));
            }
            start += 5;
        }
        self.tournament.forbidden_pairs.push(ForbiddenPairs {
            players,
            rounds: Some((first, last.max(first))),
        });
    }

    /// `XXP a b c …` (JaVaFo, bbpPairings): none of these players may meet, in any round.
    fn forbidden_xxp(&mut self, line: &Line) {
        let mut players = Vec::new();
        for token in line.rest(3).split_whitespace() {
            match token.parse::<u32>() {
                Ok(n) if n > 0 => players.push(StartNo(n)),
                _ => {
                    let column = find_column(line, token);
                    self.report(
                        line.number,
                        column,
                        Severity::Error,
                        format!("expected a start number, found {token:?}"),
                    );
                }
            }
        }
        self.tournament.forbidden_pairs.push(ForbiddenPairs {
            players,
            rounds: None,
        });
    }

    /// A right-aligned whole number in characters `start..end`; reports and gives `None` when
    /// it is missing or not a number.
    fn number_field(&mut self, line: &Line, start: usize, end: usize, what: &str) -> Option<u32> {
        let text = line.field(start, end);
        match text.parse::<u32>() {
            Ok(n) if n > 0 => Some(n),
            _ => {
                self.report(
                    line.number,
                    start + 1,
                    Severity::Error,
                    format!("expected a {what}, found {text:?}"),
                );
                None
            }
        }
    }

    fn player(&mut self, line: &Line) {
        let n = line.number;
        let start_text = line.field(layout::START_NO.0, layout::START_NO.1);
        let start_no = match start_text.parse::<u32>() {
            Ok(k) if (1..=9999).contains(&k) => StartNo(k),
            _ => {
                self.report(
                    n,
                    layout::START_NO.0 + 1,
                    Severity::Error,
                    format!("expected a start number, found {start_text:?}; player skipped"),
                );
                return;
            }
        };
        if self.player_lines.contains_key(&start_no) {
            self.report(
                n,
                layout::START_NO.0 + 1,
                Severity::Error,
                format!("start number {start_no} is used twice; this line skipped"),
            );
            return;
        }
        let mut player = Player::new(start_no.0, line.field(layout::NAME.0, layout::NAME.1));
        player.sex = Some(line.char_at(layout::SEX)).filter(|c| !c.is_whitespace());
        player.title = Title::parse(&line.field(layout::TITLE.0, layout::TITLE.1));
        player.federation = line.field(layout::FEDERATION.0, layout::FEDERATION.1);
        player.birth_date = line.field(layout::BIRTH_DATE.0, layout::BIRTH_DATE.1);
        player.rating = self
            .optional_number(line, layout::RATING, "rating")
            .and_then(|r| u16::try_from(r).ok())
            .filter(|&r| r > 0);
        player.fide_id = self.optional_number(line, layout::FIDE_ID, "FIDE ID");
        player.reported_rank = self
            .optional_number(line, layout::RANK, "rank")
            .and_then(|r| u32::try_from(r).ok());
        let points_text = line.field(layout::POINTS.0, layout::POINTS.1);
        if !points_text.is_empty() {
            match points_text.parse::<Points>() {
                Ok(points) => player.reported_points = Some(points),
                Err(_) => self.report(
                    n,
                    layout::POINTS.0 + 1,
                    Severity::Error,
                    format!("expected the points, found {points_text:?}"),
                ),
            }
        }
        let mut start = layout::FIRST_ROUND_COLUMN;
        let mut round = 1u32;
        while start < line.chars.len() && round <= layout::MAX_ROUNDS {
            let block = line.field_untrimmed(start, start + layout::ROUND_WIDTH);
            let separator = line.field(start + layout::ROUND_WIDTH, start + layout::ROUND_STRIDE);
            if !separator.is_empty() {
                self.report(
                    n,
                    start + layout::ROUND_WIDTH + 1,
                    Severity::Error,
                    format!("round {round}: the round blocks are misaligned (found {separator:?} between blocks)"),
                );
            }
            match parse_block(&block) {
                Ok((entry, warning)) => {
                    if let Some((offset, message)) = warning {
                        self.report(
                            n,
                            start + offset + 1,
                            Severity::Warning,
                            format!("round {round}: {message}"),
                        );
                    }
                    player.set_entry(round, entry);
                }
                Err((offset, message)) => {
                    self.report(
                        n,
                        start + offset + 1,
                        Severity::Error,
                        format!("round {round}: {message}; read as not paired"),
                    );
                    player.set_entry(round, RoundEntry::NotPaired);
                }
            }
            start += layout::ROUND_STRIDE;
            round += 1;
        }
        if start < line.chars.len() {
            self.report(
                n,
                start + 1,
                Severity::Error,
                format!(
                    "more than {} rounds; the rest of the line skipped",
                    layout::MAX_ROUNDS
                ),
            );
        }
        self.player_lines.insert(start_no, n);
        self.tournament.players.push(player);
    }

    fn optional_number(
        &mut self,
        line: &Line,
        (start, end): (usize, usize),
        what: &str,
    ) -> Option<u64> {
        let text = line.field(start, end);
        if text.is_empty() {
            return None;
        }
        match text.parse::<u64>() {
            Ok(value) => Some(value),
            Err(_) => {
                self.report(
                    line.number,
                    start + 1,
                    Severity::Error,
                    format!("expected the {what}, found {text:?}"),
                );
                None
            }
        }
    }

    fn finish(mut self) -> TrfRead {
        self.tournament.players.sort_by_key(|p| p.start_no);
        self.tournament.scoring = scoring_from(&self.scoring_values);
        for (line, round, start_no, bye) in std::mem::take(&mut self.announced_byes) {
            if round > layout::MAX_ROUNDS {
                self.report(
                    line,
                    7,
                    Severity::Error,
                    format!("round {round} is out of range"),
                );
                continue;
            }
            match self.tournament.player_mut(start_no) {
                None => self.report(
                    line,
                    1,
                    Severity::Error,
                    format!("bye for {start_no}, who is not a player"),
                ),
                Some(player) => match player.entry(round) {
                    RoundEntry::NotPaired => player.set_entry(round, RoundEntry::Bye(bye)),
                    existing if existing == RoundEntry::Bye(bye) => {}
                    existing => self.report(
                        line,
                        1,
                        Severity::Error,
                        format!(
                            "bye for {start_no} in round {round}, who already has {existing:?}"
                        ),
                    ),
                },
            }
        }
        // Every row as long as the longest: a missing block is a round not paired.
        let rounds = self
            .tournament
            .players
            .iter()
            .map(|p| p.rounds.len())
            .max()
            .unwrap_or(0);
        for player in &mut self.tournament.players {
            player.rounds.resize(rounds, RoundEntry::NotPaired);
        }
        for problem in self.tournament.check() {
            let line = self.player_lines.get(&problem.player).copied().unwrap_or(0);
            let column = if problem.round == 0 {
                1
            } else {
                layout::FIRST_ROUND_COLUMN + (problem.round as usize - 1) * layout::ROUND_STRIDE + 1
            };
            self.report(
                line,
                column,
                Severity::Error,
                format!("round {}: {}", problem.round, problem.message),
            );
        }
        self.diagnostics.sort_by_key(|d| (d.line, d.column));
        TrfRead {
            tournament: self.tournament,
            diagnostics: self.diagnostics,
        }
    }
}

/// The column (from 1) where `token` first appears in the line.
fn find_column(line: &Line, token: &str) -> usize {
    let text: String = line.chars.iter().collect();
    text.find(token)
        .map(|byte| text[..byte].chars().count() + 1)
        .unwrap_or(1)
}

/// The scoring system from the letters read: W, D, L set a win, draw and loss and the byes
/// and forfeits that follow them (FIDE's defaults); the other letters set one value each.
fn scoring_from(values: &[(char, Points)]) -> ScoringSystem {
    let get = |letter: char| values.iter().rev().find(|(c, _)| *c == letter).map(|v| v.1);
    let standard = ScoringSystem::standard();
    let mut scoring = ScoringSystem::with_game_points(
        get('W').unwrap_or(standard.win),
        get('D').unwrap_or(standard.draw),
        get('L').unwrap_or(standard.loss),
    );
    if let Some(points) = get('Z') {
        // bbpPairings: Z is the zero-point bye and the forfeit loss.
        scoring.zero_point_bye = points;
        scoring.forfeit_loss = points;
    }
    let set = |slot: &mut Points, letter: char| {
        if let Some(points) = get(letter) {
            *slot = points;
        }
    };
    set(&mut scoring.pairing_allocated_bye, 'U');
    set(&mut scoring.pairing_allocated_bye, 'P');
    set(&mut scoring.full_point_bye, 'F');
    set(&mut scoring.half_point_bye, 'H');
    set(&mut scoring.forfeit_win, '+');
    set(&mut scoring.forfeit_loss, '-');
    scoring
}

/// A warning or an error about a round block: the character offset within the block and the
/// message.
type BlockNote = (usize, String);

/// Reads one 8-character round block: opponent (4), space, colour, space, result.
fn parse_block(block: &str) -> Result<(RoundEntry, Option<BlockNote>), BlockNote> {
    let chars: Vec<char> = block
        .chars()
        .chain(std::iter::repeat(' '))
        .take(8)
        .collect();
    let opponent_text: String = chars[0..4].iter().collect::<String>().trim().to_string();
    let opponent = if opponent_text.is_empty() || opponent_text.bytes().all(|b| b == b'0') {
        None
    } else {
        match opponent_text.parse::<u32>() {
            Ok(n) => Some(StartNo(n)),
            Err(_) => return Err((0, format!("expected an opponent, found {opponent_text:?}"))),
        }
    };
    let colour = match chars[5] {
        'w' | 'W' => Some(Colour::White),
        'b' | 'B' => Some(Colour::Black),
        '-' | ' ' => None,
        other => return Err((5, format!("expected the colour w, b or -, found {other:?}"))),
    };
    let code = chars[7].to_ascii_uppercase();
    let game = |result: GameResult, rated: bool| match (opponent, colour) {
        (Some(opponent), Some(colour)) => Ok((
            RoundEntry::Game {
                opponent,
                colour,
                result,
                rated,
            },
            None,
        )),
        (None, _) => Err((7, format!("result {code:?} needs an opponent"))),
        (Some(_), None) => Err((5, format!("a played game ({code:?}) needs a colour"))),
    };
    match (code, opponent) {
        ('1', _) => game(GameResult::Win, true),
        ('=', Some(_)) => game(GameResult::Draw, true),
        ('0', _) => game(GameResult::Loss, true),
        ('W', _) => game(GameResult::Win, false),
        ('D', _) => game(GameResult::Draw, false),
        ('L', _) => game(GameResult::Loss, false),
        ('+', Some(opponent)) => Ok((
            RoundEntry::Forfeit {
                opponent,
                colour,
                won: true,
            },
            None,
        )),
        ('-', Some(opponent)) => Ok((
            RoundEntry::Forfeit {
                opponent,
                colour,
                won: false,
            },
            None,
        )),
        (' ', Some(opponent)) => match colour {
            Some(colour) => Ok((RoundEntry::Pending { opponent, colour }, None)),
            None => Err((5, "a pairing without a result needs a colour".into())),
        },
        (' ', None) => Ok((RoundEntry::NotPaired, None)),
        ('U', None) => Ok((RoundEntry::Bye(Bye::PairingAllocated), None)),
        // TRF(x) as JaVaFo wrote it: `0000 - +` is the pairing-allocated bye.
        ('+', None) => Ok((RoundEntry::Bye(Bye::PairingAllocated), None)),
        ('F', None) => Ok((RoundEntry::Bye(Bye::FullPoint), None)),
        ('H', None) | ('=', None) => Ok((RoundEntry::Bye(Bye::HalfPoint), None)),
        ('Z', None) | ('-', None) => Ok((RoundEntry::Bye(Bye::ZeroPoint), None)),
        ('U' | 'F' | 'H' | 'Z', Some(opponent)) => {
            let bye = match code {
                'U' => Bye::PairingAllocated,
                'F' => Bye::FullPoint,
                'H' => Bye::HalfPoint,
                _ => Bye::ZeroPoint,
            };
            Ok((
                RoundEntry::Bye(bye),
                Some((
                    0,
                    format!("a bye ({code}) names opponent {opponent}; opponent ignored"),
                )),
            ))
        }
        (other, _) => Err((7, format!("unknown result code {other:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_read_every_trf_2026_code() {
        let cases = [
            (
                "  12 w 1",
                "Game { opponent: StartNo(12), colour: White, result: Win, rated: true }",
            ),
            (
                "  12 b =",
                "Game { opponent: StartNo(12), colour: Black, result: Draw, rated: true }",
            ),
            (
                "  12 b L",
                "Game { opponent: StartNo(12), colour: Black, result: Loss, rated: false }",
            ),
            (
                "  12 w +",
                "Forfeit { opponent: StartNo(12), colour: Some(White), won: true }",
            ),
            (
                "  12 - -",
                "Forfeit { opponent: StartNo(12), colour: None, won: false }",
            ),
            (
                "  12 b  ",
                "Pending { opponent: StartNo(12), colour: Black }",
            ),
            ("0000 - U", "Bye(PairingAllocated)"),
            ("0000 - F", "Bye(FullPoint)"),
            ("0000 - H", "Bye(HalfPoint)"),
            ("0000 - Z", "Bye(ZeroPoint)"),
            ("        ", "NotPaired"),
            ("     - Z", "Bye(ZeroPoint)"),
        ];
        for (block, expected) in cases {
            let (entry, warning) = parse_block(block).unwrap();
            assert_eq!(format!("{entry:?}"), expected, "{block:?}");
            assert!(warning.is_none());
        }
        for bad in ["  12 x 1", "0000 - 1", "  12 - 1", "  1a w 1", "  12 w ?"] {
            assert!(parse_block(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn line_ends_cr_lf_and_crlf_count_one_line_each() {
        let lines = split_lines("a\rb\r\nc\nd");
        assert_eq!(lines, vec![(1, "a"), (2, "b"), (3, "c"), (4, "d")]);
        assert_eq!(split_lines("a\r\r\nb").len(), 3);
    }
}
