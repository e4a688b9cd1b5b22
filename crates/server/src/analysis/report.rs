//! The stored evaluations judged into what clients see: the analysis view, and the PGN export
//! with `[%eval]` comments, NAGs and "Mistake. Nf3 was best.".

use arbiter_engine::review::{self, GameReview, PositionReview, Thresholds};
use arbiter_rules::{CastlingMode, Move, Position};

use super::queries::JobRow;
use super::wire::{
    AnalysisView, MoveAnalysis, MoveRef, PlayerSummary, PositionView, Progress, StoredLimit,
    StoredPosition, Summary,
};

/// The game a job analyses.
#[derive(Debug, Clone)]
pub struct JobGame {
    /// Its start position.
    pub start: Position,
    /// Its moves.
    pub moves: Vec<Move>,
}

/// The game of a job, from its stored start position and moves.
///
/// # Errors
/// A message naming the bad FEN or the illegal move.
pub fn job_game(job: &JobRow) -> Result<JobGame, String> {
    let mode = if job.chess960 != 0 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let start = Position::from_fen(&job.initial_fen, mode)
        .map_err(|e| format!("bad start position: {e}"))?;
    let mut pos = start;
    let mut moves = Vec::new();
    for (i, uci) in job.moves.split_whitespace().enumerate() {
        let m = pos
            .parse_uci(uci)
            .map_err(|e| format!("move {} ({uci}): {e}", i + 1))?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(JobGame { start, moves })
}

/// The stored positions read back, in order from ply 0, up to the first one missing or
/// unreadable.
pub fn stored_positions(game: &JobGame, rows: &[(i64, String)]) -> Vec<PositionReview> {
    let mut out = Vec::new();
    let mut pos = game.start;
    for ply in 0..=game.moves.len() {
        let Some((_, data)) = rows.iter().find(|(p, _)| *p == ply as i64) else {
            break;
        };
        let Some(r) = serde_json::from_str::<StoredPosition>(data)
            .ok()
            .and_then(|s| read_position(&pos, ply, &s))
        else {
            break;
        };
        out.push(r);
        if let Some(&m) = game.moves.get(ply) {
            pos.play_unchecked(m);
        }
    }
    out
}

fn read_position(pos: &Position, ply: usize, s: &StoredPosition) -> Option<PositionReview> {
    let best = match &s.best {
        Some(u) => Some(pos.parse_uci(u).ok()?),
        None => None,
    };
    // The PV is kept as long as it is legal (it always is when written by the worker).
    let mut p = *pos;
    let mut pv = Vec::new();
    for u in &s.pv {
        let Ok(m) = p.parse_uci(u) else { break };
        p.play_unchecked(m);
        pv.push(m);
    }
    Some(PositionReview {
        ply,
        turn: pos.turn(),
        eval: s.eval.eval()?,
        best,
        pv,
        depth: s.depth,
        nodes: s.nodes,
    })
}

/// A position's result in its stored form.
pub fn store_form(pos: &Position, r: &PositionReview) -> StoredPosition {
    let mut p = *pos;
    let mut pv = Vec::new();
    for &m in &r.pv {
        if !p.is_legal(m) {
            break;
        }
        pv.push(p.uci(m));
        p.play_unchecked(m);
    }
    StoredPosition {
        eval: r.eval.into(),
        best: r.best.map(|m| pos.uci(m)),
        pv,
        depth: r.depth,
        nodes: r.nodes,
    }
}

fn move_ref(pos: &Position, m: Move) -> MoveRef {
    MoveRef {
        uci: pos.uci(m),
        san: pos.san(m),
    }
}

/// The analysis as clients see it.
pub fn view(
    job: &JobRow,
    game: &JobGame,
    positions: &[PositionReview],
    queue_position: Option<i64>,
    thresholds: &Thresholds,
) -> AnalysisView {
    let limit: StoredLimit = serde_json::from_str(&job.search_limit).unwrap_or(StoredLimit {
        depth: None,
        nodes: None,
    });
    let judged = review::judge(&game.start, &game.moves, positions, thresholds);
    let mut pos = game.start;
    let mut position_views = Vec::with_capacity(positions.len());
    let mut moves = Vec::with_capacity(game.moves.len());
    for ply in 0..=game.moves.len() {
        if let Some(p) = positions.get(ply) {
            position_views.push(PositionView {
                ply: ply as i64,
                eval: p.eval.into(),
                best: p.best.map(|m| move_ref(&pos, m)),
                pv: p
                    .pv
                    .iter()
                    .scan(pos, |q, &m| {
                        let u = q.uci(m);
                        q.play_unchecked(m);
                        Some(u)
                    })
                    .collect(),
                depth: p.depth,
            });
        }
        let Some(&m) = game.moves.get(ply) else { break };
        let j = &judged.moves[ply];
        moves.push(MoveAnalysis {
            ply: ply as i64 + 1,
            san: pos.san(m),
            uci: pos.uci(m),
            loss: j.loss,
            win_loss: j.win_loss.map(|w| (w * 10_000.0).round() / 10_000.0),
            mark: j.mark.map(|k| k.as_str().to_owned()),
            better: j.better.map(|b| move_ref(&pos, b)),
        });
        pos.play_unchecked(m);
    }
    let done = job.state == "done";
    AnalysisView {
        state: job.state.clone(),
        engine: job.engine.clone(),
        depth: limit.depth,
        nodes: limit.nodes,
        progress: Progress {
            done: positions.len() as i64,
            total: job.total,
        },
        queue_position: (job.state == "queued").then_some(queue_position).flatten(),
        error: job.error.clone(),
        positions: position_views,
        moves,
        summary: done.then(|| summary(&judged)).flatten(),
    }
}

fn summary(judged: &GameReview) -> Option<Summary> {
    let [w, b] = judged.summary.as_ref()?;
    let player = |s: &review::PlayerSummary| PlayerSummary {
        acpl: s.acpl,
        inaccuracies: s.inaccuracies,
        mistakes: s.mistakes,
        blunders: s.blunders,
        accuracy: s.accuracy,
    };
    Some(Summary {
        white: player(w),
        black: player(b),
    })
}

/// The game's PGN with the analysis written in (see [`review::annotate`]); `None` when the PGN
/// cannot be read or is not the analysed game (then it is served unchanged).
pub fn annotate_pgn(
    pgn: &str,
    game: &JobGame,
    positions: &[PositionReview],
    thresholds: &Thresholds,
) -> Option<String> {
    let mut record = arbiter_pgn::GameRecord::from_pgn(pgn).ok()?;
    let played: Vec<Move> = record.moves.moves().collect();
    if played != game.moves || record.start_position().ok()? != game.start {
        return None;
    }
    let judged = review::judge(&game.start, &game.moves, positions, thresholds);
    review::annotate(&mut record, positions, &judged);
    arbiter_pgn::Writer::export().write(&record).ok()
}
