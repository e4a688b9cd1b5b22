//! The search: iterative deepening with aspiration windows over a principal variation search
//! (negamax alpha-beta), with a transposition table, null-move pruning, late-move reductions,
//! check extensions, reverse futility, late-move and static-exchange pruning, and a
//! quiescence search over captures. Draws by repetition, the fifty-move rule and insufficient
//! material are scored as draws inside the tree (Art. 9.2, 9.3, 5.2.2).

use crate::eval;
use crate::movepick::{self, Picker};
use crate::nnue;
use crate::time::Instant;
use crate::tt::{Bound, Entry, Table};
use arbiter_rules::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// The score of giving mate now (mate in `n` plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 256;
const INF: i32 = MATE + 1;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// A search score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move gets mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

impl core::fmt::Display for Score {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// Progress reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Nominal depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the principal variation.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Transposition table use, in permille.
    pub hashfull: u32,
    /// Rank of this line among the best lines of the iteration, 1-based (multi-PV; always 1
    /// in an ordinary search). The lines of one iteration are reported together, best first.
    pub multipv: usize,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }
}

/// What one search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None` only if there is no legal move).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The score of `best`.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Per-search stopping conditions, resolved from limits, level and clock.
pub(crate) struct Stop<'a> {
    pub flag: &'a AtomicBool,
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: u32,
}

/// Tables that live across searches (killers are per search).
pub(crate) struct Heuristics {
    pub history: Box<[[[i32; 64]; 64]; 2]>,
    /// The quiet move that last refuted each move (by its from and to squares).
    pub counter: Box<[[Option<Move>; 64]; 64]>,
    /// Correction history: by side to move and pawn structure, a running average of how far
    /// the search's results have been from the static evaluation (centipawns ×
    /// [`CORR_GRAIN`]), added to the evaluation of later positions with those pawns. What the
    /// evaluation misjudges about a structure in this game is learnt while searching it.
    pub correction: Box<[[i32; CORR_SIZE]; 2]>,
}

/// Entries per side of the correction history.
const CORR_SIZE: usize = 16_384;
/// Fixed-point scale of the correction history's entries.
const CORR_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORR_LIMIT: i32 = 80;

/// A correction history entry moved toward `diff` centipawns (clamped to ±[`CORR_LIMIT`]) by a
/// search of `depth`: a weighted running average, deeper results weighing more.
fn blend_correction(entry: i32, depth: i32, diff: i32) -> i32 {
    let w = (depth + 1).clamp(1, 16);
    let target = diff.clamp(-CORR_LIMIT, CORR_LIMIT) * CORR_GRAIN;
    (entry * (256 - w) + target * w) / 256
}

/// The correction history's slot for the pawns of `pos`.
#[inline]
fn pawn_slot(pos: &Position) -> usize {
    let b = pos.board();
    let pawns = b.pawns();
    let white = (pawns & b.by_color(arbiter_rules::Color::White)).0;
    let black = (pawns & b.by_color(arbiter_rules::Color::Black)).0;
    (mix(white ^ mix(black ^ 0x9e37_79b9_7f4a_7c15)) % CORR_SIZE as u64) as usize
}

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            history: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[None; 64]; 64]),
            correction: vec![[0; CORR_SIZE]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two sides"),
        }
    }
    pub fn clear(&mut self) {
        *self.history = [[[0; 64]; 64]; 2];
        *self.counter = [[None; 64]; 64];
        for side in self.correction.iter_mut() {
            side.fill(0);
        }
    }
    fn age(&mut self) {
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 4;
                }
            }
        }
    }
}

fn lmr_table() -> &'static [[i32; 64]; 64] {
    static T: OnceLock<Box<[[i32; 64]; 64]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([[0; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, v) in row.iter_mut().enumerate().skip(1) {
                *v = (0.8 + (d as f64).ln() * (m as f64).ln() / 2.2) as i32;
            }
        }
        t
    })
}

pub(crate) struct Searcher<'a> {
    tt: &'a mut Table,
    heur: &'a mut Heuristics,
    stop: Stop<'a>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Hashes of the game's positions, then of the path searched (the current one last).
    hashes: Vec<u64>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// The move played at each ply of the current path (`None` for a null move).
    path: [Option<Move>; MAX_PLY + 1],
    /// The static evaluation at each ply of the current path (`-INF` when in check).
    evals: [i32; MAX_PLY + 1],
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    noise: i32,
    seed: u64,
    root_best: Option<(Move, i32)>,
    /// Root moves left out of this search: the first moves of the better lines already
    /// found in this iteration (multi-PV).
    root_excluded: Vec<Move>,
    /// Whether positions are evaluated by the network (full strength) or by the classical
    /// evaluation (the lower levels, measured with it).
    network: bool,
    /// The evaluation network's accumulators along the current path.
    nn: nnue::Stack,
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The score a table entry proves for this window, if its bound settles it.
#[inline]
fn tt_cutoff(e: Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

/// Art. 5.2.2 for locked pawn walls: when every pawn is blocked and only kings, pawns and
/// bishops remain, ask the rules crate's quick dead-position analysis (material and
/// reachability), which proves that neither side can ever mate. The precondition keeps the
/// analysis off the hot path.
fn is_frozen_dead(pos: &Position) -> bool {
    let b = pos.board();
    if (b.knights() | b.rooks() | b.queens()).any() || b.pawns().is_empty() {
        return false;
    }
    let white = b.pawns() & b.by_color(arbiter_rules::Color::White);
    let black = b.pawns() & b.by_color(arbiter_rules::Color::Black);
    let occ = b.occupied();
    let blocked = (white.shift_up() & !occ).is_empty() && (black.shift_down() & !occ).is_empty();
    blocked && arbiter_rules::dead::is_dead(pos, arbiter_rules::dead::Mode::Quick) == Some(true)
}

fn has_non_pawn_material(pos: &Position) -> bool {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    (ours & !(b.pawns() | b.kings())).any()
}

impl<'a> Searcher<'a> {
    pub fn new(
        tt: &'a mut Table,
        heur: &'a mut Heuristics,
        stop: Stop<'a>,
        game_hashes: Vec<u64>,
        noise: i32,
        seed: u64,
        network: bool,
    ) -> Searcher<'a> {
        Searcher {
            tt,
            heur,
            stop,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            hashes: game_hashes,
            killers: [[None; 2]; MAX_PLY + 1],
            path: [None; MAX_PLY + 1],
            evals: [-INF; MAX_PLY + 1],
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            noise,
            seed,
            root_best: None,
            root_excluded: Vec::new(),
            network,
            nn: nnue::Stack::new(MAX_PLY + 1),
        }
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let e = if self.network {
            let v = self.nn.evaluate(ply, pos.turn());
            // The accumulators kept along the path match fresh ones (sampled: a fresh
            // accumulation per node would slow debug builds' tests too much).
            debug_assert!(
                self.nodes % 64 != 0 || v == nnue::network().evaluate(pos),
                "ply {ply}"
            );
            if nnue::RESIDUAL {
                v + eval::evaluate(pos)
            } else {
                v
            }
        } else {
            eval::evaluate(pos)
        };
        if self.noise == 0 {
            e
        } else {
            let r = mix(pos.hash() ^ self.seed) % (2 * self.noise as u64 + 1);
            e + r as i32 - self.noise
        }
    }

    /// The static evaluation `raw` of `pos` with the correction history's adjustment.
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        let c = self.heur.correction[pos.turn().index()][pawn_slot(pos)] / CORR_GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction for the pawns of `pos` toward `diff` (a search result minus the
    /// raw static evaluation), the more the deeper the search.
    #[inline]
    fn learn_correction(&mut self, pos: &Position, depth: i32, diff: i32) {
        let e = &mut self.heur.correction[pos.turn().index()][pawn_slot(pos)];
        *e = blend_correction(*e, depth, diff);
    }

    #[inline]
    fn check_stop(&mut self) {
        if self.nodes & 1023 == 0 {
            if self.stop.flag.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            if let Some(hard) = self.stop.hard {
                if self.stop.start.elapsed() >= hard {
                    self.stopped = true;
                }
            }
        }
        if let Some(n) = self.stop.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
    }

    /// Repetition (any earlier occurrence since the last irreversible move), fifty moves
    /// and dead material are draws for the search.
    fn is_draw(&self, pos: &Position) -> bool {
        // Art. 9.3: fifty moves can be claimed (unless the last move mated, Art. 9.6.2).
        if pos.halfmoves() >= 100 && (!pos.is_check() || pos.has_legal_move()) {
            return true;
        }
        // Art. 5.2.2: no sequence of legal moves can mate.
        if pos.is_insufficient_material() || is_frozen_dead(pos) {
            return true;
        }
        // Art. 9.2: the same position again. Within the search one repetition is enough.
        let n = self.hashes.len();
        let key = pos.hash();
        let window = (pos.halfmoves() as usize).min(n.saturating_sub(1));
        let mut i = 4;
        while i <= window {
            if self.hashes[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn pv_line(&self) -> Vec<Move> {
        (0..self.pv_len[0]).filter_map(|i| self.pv[0][i]).collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        if ply > 0 && self.is_draw(pos) {
            return 0;
        }
        let in_check = pos.is_check();
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        if ply > 0 {
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let key = pos.hash();
        let tte = self.tt.probe(key);
        let tt_move = tte.and_then(|e| e.best);
        if let Some(e) = tte {
            if !pv_node && e.depth >= depth {
                if let Some(s) = tt_cutoff(e, ply, alpha, beta) {
                    return s;
                }
            }
        }

        // The table keeps the raw evaluation; the correction is applied afresh.
        let (raw_eval, static_eval) = if in_check {
            (-INF, -INF)
        } else {
            let raw = match tte {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            };
            (raw, self.corrected(pos, raw))
        };

        // Improving: the static evaluation rose since our previous move, so cuts are likelier
        // and fewer late moves need a look.
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility pruning: far above beta at low depth.
            if depth <= 6 && static_eval - 85 * (depth - i32::from(improving)) >= beta {
                return static_eval;
            }
            // Null-move pruning: passing still leaves us above beta.
            if allow_null && depth >= 3 && static_eval >= beta && has_non_pawn_material(pos) {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                let mut child = *pos;
                child.play_null();
                self.nn.enter(ply + 1, &child);
                self.path[ply] = None;
                self.hashes.push(child.hash());
                let s = -self.search(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.hashes.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        // Internal iterative reduction: without a hash move, ordering is poor.
        if tt_move.is_none() && depth >= 4 && !in_check {
            depth -= 1;
        }

        let us = pos.turn().index();
        let prev = if ply > 0 { self.path[ply - 1] } else { None };
        let counter = prev.and_then(|p| self.heur.counter[p.from.idx()][p.to.idx()]);
        let killers = self.killers[ply];
        // The hash move alone first, before any move is generated: when it cuts, as it mostly
        // does where it exists, the node costs no generation and no ordering.
        let hash_move = tt_move.filter(|&m| pos.is_legal(m));
        let mut picker = None;
        if hash_move.is_none() {
            let p = Picker::new(pos, None, killers, counter, &self.heur.history[us]);
            if p.is_empty() {
                // Art. 5.1.1 checkmate, Art. 5.2.1 stalemate.
                return if in_check { -MATE + ply as i32 } else { 0 };
            }
            picker = Some(p);
        }
        let mut hash_pending = hash_move;
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0;
        let mut quiets: [Option<Move>; 64] = [None; 64];
        let mut n_quiets = 0;
        let old_alpha = alpha;
        let lmr = lmr_table();

        loop {
            let (m, order) = match hash_pending.take() {
                Some(h) => (h, movepick::HASH_MOVE),
                None => {
                    let p = picker.get_or_insert_with(|| {
                        let mut p =
                            Picker::new(pos, hash_move, killers, counter, &self.heur.history[us]);
                        // The hash move, searched already, is the first.
                        p.next();
                        p
                    });
                    match p.next() {
                        Some(next) => next,
                        None => break,
                    }
                }
            };
            if ply == 0 && self.root_excluded.contains(&m) {
                continue;
            }
            let capture = pos.is_capture(m);
            let quiet = !capture && m.promotion.is_none();
            let mut child = *pos;
            child.play_unchecked(m);
            let gives_check = child.is_check();

            if ply > 0 && best > -MATE_BOUND && alpha < MATE_BOUND && !in_check && !gives_check {
                if quiet {
                    // Late-move pruning and futility pruning of quiet moves.
                    let late = (3 + depth * depth) / (2 - i32::from(improving));
                    if !pv_node && depth <= 8 && searched >= late {
                        continue;
                    }
                    if !pv_node && depth <= 5 && static_eval + 110 + 95 * depth <= alpha {
                        continue;
                    }
                    // A quiet move that loses material to the exchange on its square.
                    if depth <= 7 && movepick::see(pos, m) < -25 * depth * depth {
                        continue;
                    }
                } else if !pv_node
                    && depth <= 4
                    && order < 0
                    && movepick::see(pos, m) < -110 * depth
                {
                    continue;
                }
            }

            self.hashes.push(child.hash());
            self.nn.enter(ply + 1, &child);
            self.path[ply] = Some(m);
            let new_depth = depth - 1;
            let mut s;
            if searched == 0 {
                s = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true);
            } else {
                let mut r = 0;
                if depth >= 3 && searched > pv_node as i32 && quiet && !gives_check {
                    r = lmr[depth.min(63) as usize][(searched as usize).min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if order >= movepick::COUNTER_MOVE {
                        r -= 1; // killer or counter move
                    }
                    r -= (order / 6000).clamp(-2, 2);
                    r = r.clamp(0, new_depth - 1);
                }
                s = -self.search(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if s > alpha && r > 0 {
                    s = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
            }
            self.hashes.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;

            if s > best {
                best = s;
                if s > alpha {
                    best_move = Some(m);
                    alpha = s;
                    self.update_pv(ply, m);
                    if ply == 0 {
                        self.root_best = Some((m, s));
                    }
                    if s >= beta {
                        if quiet {
                            self.reward_quiet(pos, ply, depth, m, &quiets[..n_quiets]);
                            if let Some(p) = prev {
                                self.heur.counter[p.from.idx()][p.to.idx()] = Some(m);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = Some(m);
                n_quiets += 1;
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if ply == 0 && !self.root_excluded.is_empty() {
            // A search without some root moves does not know the root's true value.
            return best;
        }
        // Learn where the result says more than a bound on the wrong side of the evaluation,
        // from quiet best moves only (a capture's gain is not the structure's doing).
        let quiet_best = best_move.is_none_or(|m| !pos.is_capture(m) && m.promotion.is_none());
        if !in_check
            && quiet_best
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.learn_correction(pos, depth, best - raw_eval);
        }
        self.tt.store(
            key,
            Entry {
                best: best_move,
                score: to_tt(best, ply),
                eval: if in_check { 0 } else { raw_eval },
                depth,
                bound,
            },
        );
        best
    }

    fn reward_quiet(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        m: Move,
        tried: &[Option<Move>],
    ) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        let us = pos.turn().index();
        let bonus = (depth * depth * 8).min(1600);
        let h = &mut self.heur.history[us];
        let apply = |v: &mut i32, b: i32| {
            *v += b - *v * b.abs() / 16_384;
        };
        apply(&mut h[m.from.idx()][m.to.idx()], bonus);
        for q in tried.iter().flatten() {
            apply(&mut h[q.from.idx()][q.to.idx()], -bonus);
        }
    }

    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if pos.is_insufficient_material() {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let key = pos.hash();
        let tte = self.tt.probe(key);
        if let Some(s) = tte.and_then(|e| tt_cutoff(e, ply, alpha, beta)) {
            return s;
        }
        let mut best;
        let stand_pat;
        let mut raw_eval = 0;
        if in_check {
            best = -INF;
            stand_pat = -INF;
        } else {
            raw_eval = match tte {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            };
            stand_pat = self.corrected(pos, raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let picker = Picker::quiescence(pos, tte.and_then(|e| e.best));
        if in_check && picker.is_empty() {
            return -MATE + ply as i32;
        }
        let mut best_move = None;
        for (m, _) in picker {
            if !in_check {
                // Delta pruning and losing captures.
                let gain = pos
                    .captured_role(m)
                    .map_or(0, |r| eval::SEE_VALUE[r.index()])
                    + if m.promotion.is_some() { 800 } else { 0 };
                if stand_pat + gain + 200 <= alpha {
                    continue;
                }
                if movepick::see(pos, m) < 0 {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            self.nn.enter(ply + 1, &child);
            let s = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = Some(m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            Entry {
                best: best_move,
                score: to_tt(best, ply),
                eval: raw_eval,
                depth: 0,
                bound,
            },
        );
        best
    }

    /// Iterative deepening with aspiration windows. After every completed iteration calls
    /// `on_info` once per line, best first.
    ///
    /// With `multi_pv` lines, each iteration searches the root `multi_pv` times, each time
    /// without the first moves of the lines already found, so the lines start with distinct
    /// moves; the first line is the ordinary search's.
    pub fn run(
        &mut self,
        root: &Position,
        multi_pv: usize,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.tt.new_search();
        self.heur.age();
        self.nn.set_root(root);
        let root_moves = root.legal_moves();
        if root_moves.is_empty() {
            let score = if root.is_check() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            return SearchResult {
                best: None,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let n_lines = multi_pv.clamp(1, root_moves.len());
        let mut result = SearchResult {
            best: Some(root_moves[0]),
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: vec![root_moves[0]],
        };
        // Each line's score in the previous iteration, the centre of its aspiration window.
        let mut prev_scores: Vec<i32> = Vec::new();
        let mut prev_best: Option<Move> = None;
        let mut stability = 0;
        for depth in 1..=self.stop.depth.min(MAX_PLY as u32 - 4) {
            self.seldepth = 0;
            self.root_excluded.clear();
            // (score, pv) of each line found in this iteration.
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::with_capacity(n_lines);
            for k in 0..n_lines {
                self.root_best = None;
                let centre = prev_scores
                    .get(k)
                    .or(prev_scores.last())
                    .copied()
                    .unwrap_or(0);
                let Some(score) = self.aspiration(root, depth, centre) else {
                    break;
                };
                let pv = self.pv_line();
                let Some(first) = pv.first().copied().or(self.root_best.map(|(m, _)| m)) else {
                    break;
                };
                let pv = if pv.is_empty() { vec![first] } else { pv };
                self.root_excluded.push(first);
                lines.push((score, pv));
            }
            self.root_excluded.clear();
            if self.stopped && lines.is_empty() {
                // A root move proven better in the unfinished iteration is still usable.
                let prev_score = prev_scores.first().copied().unwrap_or(0);
                if let Some((m, s)) = self.root_best {
                    if depth > 1 && Some(m) != result.best && s > prev_score - 30 {
                        result.best = Some(m);
                        result.ponder = None;
                        result.pv = vec![m];
                    }
                }
                break;
            }
            if lines.is_empty() {
                break;
            }
            // The first line is the best unless a later search found more (instability):
            // order them by score, the earlier line first among equals.
            lines.sort_by_key(|(score, _)| core::cmp::Reverse(*score));
            let (score, pv) = &lines[0];
            let best = pv.first().copied();
            result.best = best;
            result.ponder = pv.get(1).copied();
            result.score = Score::from_internal(*score);
            result.depth = depth;
            result.pv = pv.clone();
            if self.stopped {
                // Only some lines of this iteration were finished: keep the best move (its
                // line was searched completely) but report nothing incomplete.
                break;
            }
            // How far the score fell since the last iteration: a falling score means trouble
            // the deeper search is starting to see, worth more time.
            let fall = prev_scores.first().map_or(0, |p| (p - *score).clamp(0, 80));
            prev_scores = lines.iter().map(|(s, _)| *s).collect();
            let elapsed = self.stop.start.elapsed();
            for (i, (score, pv)) in lines.iter().enumerate() {
                on_info(&Info {
                    depth,
                    seldepth: self.seldepth as u32,
                    score: Score::from_internal(*score),
                    nodes: self.nodes,
                    time: elapsed,
                    pv: pv.clone(),
                    hashfull: self.tt.hashfull(),
                    multipv: i + 1,
                });
            }
            if best == prev_best {
                stability = (stability + 1).min(6);
            } else {
                stability = 0;
            }
            prev_best = best;
            if let Some(soft) = self.stop.soft {
                // Stop early when the best move is stable, think longer when it changes.
                let stable = match stability {
                    0 => 1.4,
                    1 => 1.1,
                    2 => 0.9,
                    _ => 0.7,
                };
                let factor = stable * (1.0 + f64::from(fall) / 160.0);
                if elapsed.as_secs_f64() >= soft.as_secs_f64() * factor * 0.6 {
                    break;
                }
            }
            if let Score::Mate(n) = result.score {
                // A mate found at this depth will not get shorter much deeper.
                if n > 0 && depth as i32 >= 2 * n + 4 && self.stop.soft.is_some() {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// One root search at `depth` in a window around `centre` that widens until the score
    /// falls inside it. `None` if the search was stopped.
    fn aspiration(&mut self, root: &Position, depth: u32, centre: i32) -> Option<i32> {
        let mut delta = 20;
        let (mut alpha, mut beta) = if depth >= 5 {
            (centre - delta, centre + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let s = self.search(root, depth as i32, alpha, beta, 0, false);
            if self.stopped {
                return None;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
            } else if s >= beta {
                beta = (s + delta).min(INF);
            } else {
                return Some(s);
            }
            delta += delta / 2 + 10;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }
}

/// Hashes of the positions of a game, from its start, for repetition detection.
pub(crate) fn game_hashes(start: &Position, moves: &[Move]) -> (Position, Vec<u64>) {
    let mut pos = *start;
    let mut hashes = Vec::with_capacity(moves.len() + MAX_PLY + 2);
    hashes.push(pos.hash());
    for &m in moves {
        pos.play_unchecked(m);
        hashes.push(pos.hash());
    }
    (pos, hashes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_rules::CastlingMode;

    #[test]
    fn correction_history_learns_the_average_error_within_its_limit() {
        // Repeated results 50 cp above the evaluation: the correction approaches +50.
        let mut e = 0;
        for _ in 0..400 {
            e = blend_correction(e, 10, 50);
        }
        assert!((e / CORR_GRAIN - 50).abs() <= 1, "{}", e / CORR_GRAIN);
        // A deep result moves it more than a shallow one.
        let shallow = blend_correction(0, 1, -40);
        let deep = blend_correction(0, 15, -40);
        assert!(deep < shallow && shallow < 0, "{deep} {shallow}");
        // Mate-sized differences do not push it past the limit.
        let mut e = 0;
        for _ in 0..2000 {
            e = blend_correction(e, 20, 30_000);
        }
        assert!(e <= CORR_LIMIT * CORR_GRAIN && e / CORR_GRAIN >= CORR_LIMIT - 1);
    }

    #[test]
    fn pawn_slot_depends_on_the_pawns_only() {
        let a = Position::from_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            CastlingMode::Standard,
        )
        .unwrap();
        // Other pieces elsewhere, same pawns: same slot; one pawn moved: another slot.
        let b = Position::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 4 4",
            CastlingMode::Standard,
        )
        .unwrap();
        let c = Position::from_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3",
            CastlingMode::Standard,
        )
        .unwrap();
        assert_eq!(pawn_slot(&a), pawn_slot(&b));
        assert_ne!(pawn_slot(&a), pawn_slot(&c));
    }

    #[test]
    fn art_5_2_2_locked_pawn_wall_is_a_dead_draw() {
        // White has an extra pawn, but no king can cross the wall: nobody can ever mate.
        let fen = "8/2k5/8/1p1p2p1/1P1P2P1/6P1/2K5/8 w - - 0 1";
        let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        assert!(is_frozen_dead(&pos));
        let mut engine = crate::Engine::new();
        let stop = AtomicBool::new(false);
        let r = engine.search(&pos, &[], &crate::Limits::depth(8), &stop, &mut |_| {});
        assert_eq!(r.score, Score::Cp(0));
    }

    #[test]
    fn open_pawn_position_is_not_treated_as_dead() {
        let fen = "8/2k5/8/1p1p4/1P1P2P1/8/2K5/8 w - - 0 1";
        let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        assert!(!is_frozen_dead(&pos));
    }
}
