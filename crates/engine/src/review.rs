//! Computer analysis of a played game ("game review"): every position evaluated by the engine,
//! every move judged against the engine's best, marks (inaccuracy, mistake, blunder), a
//! summary per player, and the PGN annotations (`[%eval]`, NAGs, "Mistake. Nf3 was best.").
//!
//! The evaluation of the positions ([`analyse_position`]) is the expensive part and is kept
//! apart from the judgement ([`judge`]), which is cheap and derived only from the stored
//! evaluations: a server stores the positions as they are computed and judges on reading, so
//! changing the thresholds never needs a new search.
//!
//! **Winning chances** are lichess's: `2 / (1 + exp(-0.00368208 · cp)) − 1` on a scale from −1
//! (lost) to +1 (won), centipawns clamped to ±1000, a mate ±1 (lila `WinningChances.scala`).
//! A move's `win_loss` is the drop of the mover's **win probability** (`(chances + 1) / 2`, from
//! 0 to 1) from the position before it (the engine's best play) to the position after it.
//! Marks ([`Thresholds`]) default to lichess's 0.1 / 0.2 / 0.3 on the −1…+1 scale, that is 5 %, 10 %
//! and 15 % of win probability (lila `Advice.scala`).
//!
//! ```
//! use arbiter_engine::review::{analyse_game, judge, Mark, Thresholds};
//! use arbiter_engine::Limits;
//! use arbiter_rules::Position;
//!
//! // 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#: Black's third move allows mate in one.
//! let start = Position::new();
//! let mut pos = start;
//! let mut moves = Vec::new();
//! for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
//!     let m = pos.parse_san(san).unwrap();
//!     pos.play_unchecked(m);
//!     moves.push(m);
//! }
//! let positions = analyse_game(&start, &moves, &Limits::depth(6));
//! let review = judge(&start, &moves, &positions, &Thresholds::default());
//! assert_eq!(review.moves[5].mark, Some(Mark::Blunder));
//! ```

use std::sync::atomic::AtomicBool;

use arbiter_pgn::{GameRecord, Nag};
use arbiter_rules::{Color, Move, Position};

use crate::{Engine, Level, Limits, Score};

/// An evaluation from **White's** point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (positive: White is better).
    Cp(i32),
    /// Mate in this many moves: positive, White mates; negative, Black mates. `Mate(0)`: the
    /// side to move is checkmated (Art. 5.1.1) — which side that is follows from the position.
    Mate(i32),
}

impl Eval {
    /// An engine score (from the side to move's point of view) seen from White's.
    pub fn from_score(score: Score, turn: Color) -> Eval {
        let sign = if turn == Color::White { 1 } else { -1 };
        match score {
            Score::Cp(cp) => Eval::Cp(cp * sign),
            Score::Mate(m) => Eval::Mate(m * sign),
        }
    }

    /// White's winning chances, −1 (lost) to +1 (won); `turn` is the side to move in the
    /// evaluated position (needed only for `Mate(0)`).
    pub fn white_chances(self, turn: Color) -> f64 {
        match self {
            Eval::Cp(cp) => {
                let cp = f64::from(cp.clamp(-CP_CEILING, CP_CEILING));
                2.0 / (1.0 + (-WIN_CHANCE_SLOPE * cp).exp()) - 1.0
            }
            Eval::Mate(m) if m > 0 => 1.0,
            Eval::Mate(m) if m < 0 => -1.0,
            Eval::Mate(_) if turn == Color::White => -1.0,
            Eval::Mate(_) => 1.0,
        }
    }

    /// Centipawns for the centipawn loss: clamped to ±1000, a mate counted as ±1000 (as
    /// lichess's average centipawn loss does).
    pub fn ceiled_cp(self, turn: Color) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate(m) if m > 0 => CP_CEILING,
            Eval::Mate(m) if m < 0 => -CP_CEILING,
            Eval::Mate(_) if turn == Color::White => -CP_CEILING,
            Eval::Mate(_) => CP_CEILING,
        }
    }

    /// The PGN comment command's value: pawns with two decimals (`0.25`, `-1.50`) or `#N`
    /// (`#3`, `#-2`), as lichess and ChessBase write `[%eval …]`.
    pub fn to_pgn(self) -> String {
        match self {
            Eval::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let a = cp.unsigned_abs();
                format!("{sign}{}.{:02}", a / 100, a % 100)
            }
            Eval::Mate(m) => format!("#{m}"),
        }
    }

    /// Reads the value of a `[%eval …]` command (`0.25`, `-3`, `#4`, `#-1`); a depth after a
    /// comma (`0.25,18`) is ignored.
    pub fn from_pgn(s: &str) -> Option<Eval> {
        let s = s.trim();
        let s = s.split_once(',').map_or(s, |(v, _)| v).trim();
        if let Some(m) = s.strip_prefix('#') {
            return m.parse().ok().map(Eval::Mate);
        }
        let pawns: f64 = s.parse().ok()?;
        if !pawns.is_finite() || pawns.abs() > 1.0e6 {
            return None;
        }
        Some(Eval::Cp((pawns * 100.0).round() as i32))
    }
}

/// Lichess's slope of the winning-chances logistic (lila `WinningChances.scala`).
pub const WIN_CHANCE_SLOPE: f64 = 0.003_682_08;

/// Centipawns beyond this count as this much (winning chances, centipawn loss).
pub const CP_CEILING: i32 = 1000;

/// One position of the game as the engine saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionReview {
    /// 0 for the start position, then one per move played.
    pub ply: usize,
    /// The side to move.
    pub turn: Color,
    /// The evaluation, White's point of view.
    pub eval: Eval,
    /// The engine's best move (`None` when the side to move has no legal move).
    pub best: Option<Move>,
    /// The principal variation from this position (starts with `best`).
    pub pv: Vec<Move>,
    /// The depth the search completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// An engine at full strength for analysis (no evaluation noise, a fixed seed).
pub fn analysis_engine() -> Engine {
    let mut engine = Engine::new();
    engine.set_level(Level::MAX);
    engine.set_seed(Some(0));
    engine
}

impl PositionReview {
    /// A position without a legal move, judged without a search: checkmate is `Mate(0)` (the
    /// side to move is mated, Art. 5.1.1), stalemate `Cp(0)` (a draw, Art. 5.2.1).
    pub fn game_over(pos: &Position, ply: usize) -> PositionReview {
        PositionReview {
            ply,
            turn: pos.turn(),
            eval: if pos.is_check() {
                Eval::Mate(0)
            } else {
                Eval::Cp(0)
            },
            best: None,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
        }
    }
}

/// The position after `moves` from `start`, evaluated with `engine` within `limits`.
/// A checkmate is `Mate(0)` and a stalemate `Cp(0)` without a search (Art. 5.1.1, 5.2.1).
///
/// # Panics
/// If a move of `moves` is not legal in its position.
pub fn analyse_position(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    limits: &Limits,
    stop: &AtomicBool,
) -> PositionReview {
    let mut pos = *start;
    for &m in moves {
        assert!(pos.is_legal(m), "illegal move in the game");
        pos.play_unchecked(m);
    }
    let turn = pos.turn();
    if !pos.has_legal_move() {
        return PositionReview::game_over(&pos, moves.len());
    }
    let r = engine.search(start, moves, limits, stop, &mut |_| {});
    PositionReview {
        ply: moves.len(),
        turn,
        eval: Eval::from_score(r.score, turn),
        best: r.best,
        pv: r.pv,
        depth: r.depth,
        nodes: r.nodes,
    }
}

/// Every position of the game (ply 0 to `moves.len()`), analysed in order by one
/// [`analysis_engine`].
///
/// # Panics
/// If a move is not legal in its position.
pub fn analyse_game(start: &Position, moves: &[Move], limits: &Limits) -> Vec<PositionReview> {
    let mut engine = analysis_engine();
    let stop = AtomicBool::new(false);
    (0..=moves.len())
        .map(|ply| analyse_position(&mut engine, start, &moves[..ply], limits, &stop))
        .collect()
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// Lost at least [`Thresholds::inaccuracy`] of win probability.
    Inaccuracy,
    /// Lost at least [`Thresholds::mistake`].
    Mistake,
    /// Lost at least [`Thresholds::blunder`].
    Blunder,
}

impl Mark {
    /// `inaccuracy`, `mistake`, `blunder`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The NAG of the PGN standard: `$6` (?!), `$2` (?), `$4` (??).
    pub fn nag(self) -> Nag {
        match self {
            Mark::Inaccuracy => Nag::DUBIOUS_MOVE,
            Mark::Mistake => Nag::MISTAKE,
            Mark::Blunder => Nag::BLUNDER,
        }
    }

    /// `Inaccuracy`, `Mistake`, `Blunder` (the word of the PGN comment).
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "Inaccuracy",
            Mark::Mistake => "Mistake",
            Mark::Blunder => "Blunder",
        }
    }
}

/// The drops of the mover's win probability (0 to 1) that earn a mark. The defaults are
/// lichess's 0.1 / 0.2 / 0.3 on its −1…+1 winning-chances scale, i.e. 5 %, 10 %, 15 %.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// An inaccuracy from this drop on.
    pub inaccuracy: f64,
    /// A mistake from this drop on.
    pub mistake: f64,
    /// A blunder from this drop on.
    pub blunder: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            inaccuracy: 0.05,
            mistake: 0.10,
            blunder: 0.15,
        }
    }
}

impl Thresholds {
    /// The mark a drop of `win_loss` earns.
    pub fn mark(&self, win_loss: f64) -> Option<Mark> {
        if win_loss >= self.blunder {
            Some(Mark::Blunder)
        } else if win_loss >= self.mistake {
            Some(Mark::Mistake)
        } else if win_loss >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// One move of the game judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// 1 for the first move played.
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move.
    pub mv: Move,
    /// Centipawn loss against the engine's best (0 to [`CP_CEILING`]); `None` until both
    /// positions around the move are analysed.
    pub loss: Option<i32>,
    /// Drop of the mover's win probability (0 to 1); `None` as for `loss`.
    pub win_loss: Option<f64>,
    /// The mark, if the drop earns one.
    pub mark: Option<Mark>,
    /// The engine's best move in the position before, when the move is marked.
    pub better: Option<Move>,
    /// Lichess's accuracy of this move (0 to 100): `103.1668 · exp(−0.04354 · d) − 3.1669` with
    /// `d` the drop of win probability in percent.
    pub accuracy: Option<f64>,
}

/// A player's figures over the game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSummary {
    /// Average centipawn loss (each move's loss capped at [`CP_CEILING`]), rounded.
    pub acpl: i32,
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
    /// The mean of the player's move accuracies (see [`MoveReview::accuracy`]), one decimal;
    /// `None` when the player made no move.
    pub accuracy: Option<f64>,
}

/// The judgement of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    /// One per move played.
    pub moves: Vec<MoveReview>,
    /// White's and Black's figures; `None` unless every position is analysed.
    pub summary: Option<[PlayerSummary; 2]>,
}

/// Judges every move from the evaluations of the positions around it. `positions[i]` is the
/// position after `i` moves; a prefix is enough (the moves after it are left unjudged).
/// No mark for a move that was the only legal move or the engine's best.
///
/// # Panics
/// If a move is not legal in its position.
pub fn judge(
    start: &Position,
    moves: &[Move],
    positions: &[PositionReview],
    thresholds: &Thresholds,
) -> GameReview {
    let mut pos = *start;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mover = pos.turn();
        let only_move = pos.legal_moves().len() == 1;
        let mut r = MoveReview {
            ply: i + 1,
            mover,
            mv,
            loss: None,
            win_loss: None,
            mark: None,
            better: None,
            accuracy: None,
        };
        if let (Some(before), Some(after)) = (positions.get(i), positions.get(i + 1)) {
            let sign = if mover == Color::White { 1 } else { -1 };
            let engine_best = before.best == Some(mv);
            let (loss, win_loss) = if engine_best {
                // The engine's own move loses nothing; a difference would be the horizon of
                // two searches, not the player's fault.
                (0, 0.0)
            } else {
                let cp =
                    sign * (before.eval.ceiled_cp(before.turn) - after.eval.ceiled_cp(after.turn));
                let chances = f64::from(sign)
                    * (before.eval.white_chances(before.turn)
                        - after.eval.white_chances(after.turn));
                (cp.clamp(0, CP_CEILING), (chances / 2.0).max(0.0))
            };
            r.loss = Some(loss);
            r.win_loss = Some(win_loss);
            r.accuracy = Some(move_accuracy(win_loss));
            if !engine_best && !only_move {
                r.mark = thresholds.mark(win_loss);
                if r.mark.is_some() {
                    r.better = before.best;
                }
            }
        }
        out.push(r);
        assert!(pos.is_legal(mv), "illegal move in the game");
        pos.play_unchecked(mv);
    }
    let summary = (positions.len() > moves.len())
        .then(|| [summarise(&out, Color::White), summarise(&out, Color::Black)]);
    GameReview {
        moves: out,
        summary,
    }
}

/// Lichess's move accuracy from the drop of win probability (lila `AccuracyPercent.scala`).
fn move_accuracy(win_loss: f64) -> f64 {
    let d = win_loss * 100.0;
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * d).exp() - 3.166_924_740_191_411)
        .clamp(0.0, 100.0)
}

fn summarise(moves: &[MoveReview], side: Color) -> PlayerSummary {
    let mine: Vec<&MoveReview> = moves.iter().filter(|m| m.mover == side).collect();
    let count = |mark| mine.iter().filter(|m| m.mark == Some(mark)).count() as u32;
    let losses: Vec<i32> = mine.iter().filter_map(|m| m.loss).collect();
    let accuracies: Vec<f64> = mine.iter().filter_map(|m| m.accuracy).collect();
    let acpl = if losses.is_empty() {
        0
    } else {
        let sum: i64 = losses.iter().map(|&l| i64::from(l)).sum();
        (sum as f64 / losses.len() as f64).round() as i32
    };
    let accuracy = (!accuracies.is_empty()).then(|| {
        let mean = accuracies.iter().sum::<f64>() / accuracies.len() as f64;
        (mean * 10.0).round() / 10.0
    });
    PlayerSummary {
        acpl,
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
        accuracy,
    }
}

/// Writes the analysis into the record's main line (which must be the game analysed): after
/// each move, `[%eval …]` with the evaluation of the position it reached (none after a
/// checkmate, where the game is over), and for a marked move its NAG and a comment
/// "Mistake. Nf3 was best.". Moves without an analysed position get nothing.
pub fn annotate(record: &mut GameRecord, positions: &[PositionReview], review: &GameReview) {
    let Ok(mut pos) = record.start_position() else {
        return;
    };
    for (i, node) in record.moves.nodes.iter_mut().enumerate() {
        if !pos.is_legal(node.mv) {
            return;
        }
        if let Some(after) = positions.get(i + 1) {
            if after.eval != Eval::Mate(0) {
                node.comments
                    .push(format!("[%eval {}]", after.eval.to_pgn()));
            }
        }
        if let Some(r) = review.moves.get(i).filter(|r| r.mv == node.mv) {
            if let Some(mark) = r.mark {
                node.nags.push(mark.nag());
                match r.better.filter(|&b| pos.is_legal(b)) {
                    Some(b) => {
                        node.comments
                            .push(format!("{}. {} was best.", mark.word(), pos.san(b)))
                    }
                    None => node.comments.push(format!("{}.", mark.word())),
                }
            }
        }
        pos.play_unchecked(node.mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(start: &Position, sans: &[&str]) -> Vec<Move> {
        let mut pos = *start;
        sans.iter()
            .map(|s| {
                let m = pos.parse_san(s).unwrap_or_else(|e| panic!("{s}: {e}"));
                pos.play_unchecked(m);
                m
            })
            .collect()
    }

    fn fen(f: &str) -> Position {
        Position::from_fen(f, Default::default()).unwrap()
    }

    fn limit() -> Limits {
        Limits {
            depth: Some(6),
            ..Limits::default()
        }
    }

    #[test]
    fn winning_chances_follow_lichess_logistic() {
        assert_eq!(Eval::Cp(0).white_chances(Color::White), 0.0);
        // python: 2 / (1 + math.exp(-0.00368208 * 300)) - 1 = 0.5022510018766968
        let c = Eval::Cp(300).white_chances(Color::Black);
        assert!((c - 0.502_251).abs() < 1e-6, "{c}");
        assert_eq!(
            Eval::Cp(-5000).white_chances(Color::White),
            Eval::Cp(-1000).white_chances(Color::White)
        );
        assert_eq!(Eval::Mate(3).white_chances(Color::White), 1.0);
        assert_eq!(Eval::Mate(-1).white_chances(Color::White), -1.0);
        // Mate(0): the side to move is mated.
        assert_eq!(Eval::Mate(0).white_chances(Color::Black), 1.0);
        assert_eq!(Eval::Mate(0).white_chances(Color::White), -1.0);
    }

    #[test]
    fn pgn_eval_values_round_trip() {
        for (e, s) in [
            (Eval::Cp(25), "0.25"),
            (Eval::Cp(-5), "-0.05"),
            (Eval::Cp(-150), "-1.50"),
            (Eval::Cp(0), "0.00"),
            (Eval::Cp(1234), "12.34"),
            (Eval::Mate(3), "#3"),
            (Eval::Mate(-2), "#-2"),
        ] {
            assert_eq!(e.to_pgn(), s);
            assert_eq!(Eval::from_pgn(s), Some(e));
        }
        assert_eq!(Eval::from_pgn("0.3,18"), Some(Eval::Cp(30)));
        assert_eq!(Eval::from_pgn("x"), None);
        assert_eq!(Eval::from_pgn("#"), None);
    }

    #[test]
    fn thresholds_mark_by_win_probability_drop() {
        let t = Thresholds::default();
        assert_eq!(t.mark(0.049), None);
        assert_eq!(t.mark(0.05), Some(Mark::Inaccuracy));
        assert_eq!(t.mark(0.1), Some(Mark::Mistake));
        assert_eq!(t.mark(0.2), Some(Mark::Blunder));
    }

    /// White's queen can take Black's undefended queen (Qxd8 wins it for nothing); White plays
    /// a quiet king move instead and Black's queen escapes.
    #[test]
    fn missing_a_free_queen_is_a_blunder_with_the_capture_as_better() {
        let start = fen("3q2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1");
        // Qxd8+ wins the queen; after h3 it is Black who takes on d1.
        let moves = line(&start, &["h3", "Qxd1+", "Kh2"]);
        let positions = analyse_game(&start, &moves, &limit());
        let review = judge(&start, &moves, &positions, &Thresholds::default());
        let first = &review.moves[0];
        assert_eq!(first.mark, Some(Mark::Blunder), "{first:?}");
        assert_eq!(start.uci(first.better.unwrap()), "d1d8");
        assert!(first.loss.unwrap() >= 800, "{first:?}");
        // Black took the queen: the engine's best, no mark.
        assert_eq!(review.moves[1].mark, None);
        let summary = review.summary.as_ref().unwrap();
        assert_eq!(summary[0].blunders, 1);
        assert_eq!(summary[1].blunders, 0);
        assert!(summary[0].acpl > summary[1].acpl);
        assert!(summary[0].accuracy.unwrap() < summary[1].accuracy.unwrap());
    }

    /// Hanging the queen: 1. e4 e5 2. Qg4 d6 3. Qxg7?? Bxg7 (the bishop on f8 guards g7).
    #[test]
    fn hanging_the_queen_is_a_blunder() {
        let start = Position::new();
        let moves = line(&start, &["e4", "e5", "Qg4", "d6", "Qxg7"]);
        let positions = analyse_game(&start, &moves, &limit());
        let review = judge(&start, &moves, &positions, &Thresholds::default());
        let last = review.moves.last().unwrap();
        assert_eq!(last.mark, Some(Mark::Blunder), "{last:?}");
        assert!(last.better.is_some());
        assert!(review.summary.is_some());
    }

    #[test]
    fn the_engines_own_moves_earn_no_marks() {
        let start = Position::new();
        let mut engine = analysis_engine();
        let stop = AtomicBool::new(false);
        let mut moves = Vec::new();
        let mut positions = Vec::new();
        for _ in 0..8 {
            let p = analyse_position(&mut engine, &start, &moves, &limit(), &stop);
            moves.push(p.best.unwrap());
            positions.push(p);
        }
        positions.push(analyse_position(
            &mut engine,
            &start,
            &moves,
            &limit(),
            &stop,
        ));
        let review = judge(&start, &moves, &positions, &Thresholds::default());
        for m in &review.moves {
            assert_eq!((m.mark, m.loss, m.better), (None, Some(0), None), "{m:?}");
        }
        let s = review.summary.unwrap();
        assert_eq!((s[0].acpl, s[0].accuracy), (0, Some(100.0)));
        assert_eq!((s[1].blunders, s[1].mistakes, s[1].inaccuracies), (0, 0, 0));
    }

    #[test]
    fn an_only_move_is_never_marked() {
        // The engine's best (a mate) is no mistake.
        let start = fen("7k/6pp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        let moves = line(&start, &["Rd8#"]);
        let positions = analyse_game(&start, &moves, &limit());
        assert_eq!(positions[0].eval, Eval::Mate(1));
        assert_eq!(positions[1].eval, Eval::Mate(0));
        assert_eq!(positions[1].best, None);
        let review = judge(&start, &moves, &positions, &Thresholds::default());
        assert_eq!(review.moves[0].mark, None);

        // The black king in check from the rook on a8 has one move, Kh7; judged from made-up
        // evaluations (a level position, then mate in one for White), it still gets no mark.
        let start = fen("R6k/6p1/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(start.legal_moves().len(), 1);
        let moves = line(&start, &["Kh7"]);
        let positions = vec![
            PositionReview {
                ply: 0,
                turn: Color::Black,
                eval: Eval::Cp(0),
                best: None,
                pv: vec![],
                depth: 1,
                nodes: 1,
            },
            PositionReview {
                ply: 1,
                turn: Color::White,
                eval: Eval::Mate(1),
                best: None,
                pv: vec![],
                depth: 1,
                nodes: 1,
            },
        ];
        let review = judge(&start, &moves, &positions, &Thresholds::default());
        assert_eq!(review.moves[0].win_loss, Some(0.5));
        assert_eq!(review.moves[0].mark, None);
    }

    #[test]
    fn mate_evals_are_signed_from_whites_side() {
        // Black to move mates in one on the back rank.
        let start = fen("3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1");
        let p = analyse_position(
            &mut analysis_engine(),
            &start,
            &[],
            &limit(),
            &AtomicBool::new(false),
        );
        assert_eq!(p.eval, Eval::Mate(-1), "{p:?}");
        assert_eq!(start.uci(p.best.unwrap()), "d8d1");
        // White mates in two (a ladder mate).
        let start = fen("6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1");
        let p = analyse_position(
            &mut analysis_engine(),
            &start,
            &[],
            &limit(),
            &AtomicBool::new(false),
        );
        assert_eq!(p.eval, Eval::Mate(2), "{p:?}");
        assert_eq!(p.pv.first(), p.best.as_ref());
    }

    #[test]
    fn a_stalemate_at_the_end_is_a_draw_without_a_move() {
        let start = fen("7k/8/6QK/8/8/8/8/8 w - - 0 1");
        let moves = line(&start, &["Qg5"]);
        let positions = analyse_game(&start, &moves, &limit());
        assert_eq!(positions[1].eval, Eval::Cp(0));
        assert_eq!(positions[1].best, None);
        let review = judge(&start, &moves, &positions, &Thresholds::default());
        // From a won position (mate in a few) to a draw: a blunder.
        assert_eq!(review.moves[0].mark, Some(Mark::Blunder));
        assert!(review.moves[0].better.is_some());
    }

    #[test]
    fn evals_in_pgn_are_read_back_with_marks_and_mate_form() {
        let start = Position::new();
        let moves = line(&start, &["f3", "e5", "g4", "Qh4#"]);
        let positions = analyse_game(&start, &moves, &limit());
        let review = judge(&start, &moves, &positions, &Thresholds::default());
        let mut record = GameRecord::new();
        for &m in &moves {
            record.moves.push(m);
        }
        record.tags.set("Result", "0-1");
        annotate(&mut record, &positions, &review);
        let pgn = arbiter_pgn::Writer::export().write(&record).unwrap();
        assert!(pgn.contains("[%eval #-1]"), "{pgn}");
        // 3. g4?? allows mate in one (the writer may break the line between move and NAG).
        assert!(pgn.replace('\n', " ").contains("g4 $4"), "{pgn}");

        let back = GameRecord::from_pgn(&pgn).unwrap();
        assert_eq!(back.moves.len(), 4);
        for (i, node) in back.moves.nodes.iter().enumerate() {
            let evals: Vec<Eval> = node
                .comments
                .iter()
                .filter_map(|c| c.strip_prefix("[%eval ")?.split_once(']'))
                .filter_map(|(v, _)| Eval::from_pgn(v))
                .collect();
            if i == 3 {
                // After the mate the game is over: no evaluation.
                assert!(evals.is_empty(), "{node:?}");
            } else {
                assert_eq!(evals, vec![positions[i + 1].eval], "ply {}", i + 1);
            }
            assert_eq!(
                node.nags.first().copied(),
                review.moves[i].mark.map(Mark::nag)
            );
        }
        assert_eq!(back.moves.nodes[2].nags, vec![Nag::BLUNDER]);
        let better = start.play(moves[0]).unwrap().play(moves[1]).unwrap();
        let better = better.san(review.moves[2].better.unwrap());
        assert!(
            back.moves.nodes[2]
                .comments
                .contains(&format!("Blunder. {better} was best.")),
            "{pgn}"
        );
    }
}
