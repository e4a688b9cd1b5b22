//! The helpmate finder: an iterative-deepening search for a line in which `side` mates, both
//! sides cooperating, where moves that make progress toward a mate cost no depth.
//!
//! A typical helpmate is long but simple: the losing king walks to a corner, the winner's king
//! and pieces follow, a pawn promotes. A plain depth-limited search would need the full length
//! of such a line as its depth; here a move that makes progress (a capture or an advanced pawn
//! push by the winner — any push when it has nothing but pawns to mate with —, a king or
//! knight stepping toward its place in a corner mate, the loser's
//! pawn walking to promote when the winner needs it to) is free, a move that works against the
//! mate (the loser capturing) costs extra, and any other move costs one ply. Each iteration
//! allows one more ply. The same position is never searched twice in an iteration with as
//! many plies left (a table of positions seen).
//!
//! Every move of both sides is still tried, so an iteration that never stopped at its depth
//! limit (nor at the node limit) and found no mate has proved that there is none.

use super::table::{key, Table};
use crate::{Bitboard, Color, Move, Position, Rank, Role, Square};

/// What the finder concluded.
pub(super) enum Found {
    /// A mating line.
    Mate(Vec<Move>),
    /// Proved: no mate.
    None,
    /// Ran out of depth or nodes.
    Unknown,
}

/// The node limit of one iteration: past it, deeper iterations rarely pay.
const ITERATION_NODES: u64 = 20_000;

pub(super) struct Finder {
    side: Color,
    /// Nodes spent in all iterations.
    pub(super) nodes: u64,
    budget: u64,
    iteration_nodes: u64,
    max_depth: i32,
    interrupted: bool,
    seen: Table<i32>,
    line: Vec<Move>,
    buffers: Vec<Vec<(Kind, Move, Role)>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Normal,
    Reward,
    Punish,
}

/// The memory of a finished finder, kept for the next one on this thread (see
/// `super::Spare`: fresh memory costs more than a small finder's whole search).
struct Spare {
    seen: Table<i32>,
    line: Vec<Move>,
    buffers: Vec<Vec<(Kind, Move, Role)>>,
}

thread_local! {
    static SPARE: std::cell::RefCell<Option<Spare>> = const { std::cell::RefCell::new(None) };
}

impl Finder {
    pub(super) fn new(side: Color, budget: u64) -> Finder {
        let spare = SPARE.with(|s| s.borrow_mut().take());
        let (seen, line, buffers) = match spare {
            Some(Spare {
                mut seen,
                line,
                buffers,
            }) => {
                seen.recycle();
                (seen, line, buffers)
            }
            None => (Table::new(), Vec::new(), Vec::new()),
        };
        Finder {
            side,
            nodes: 0,
            budget,
            iteration_nodes: 0,
            max_depth: 0,
            interrupted: false,
            seen,
            line,
            buffers,
        }
    }

    /// Keeps this finder's memory for the next one, if it is not too large.
    pub(super) fn recycle(self) {
        if self.seen.bytes() <= super::SPARE_BYTES {
            let spare = Spare {
                seen: self.seen,
                line: self.line,
                buffers: self.buffers,
            };
            SPARE.with(|s| *s.borrow_mut() = Some(spare));
        }
    }

    /// Deepens until a mate is found, the absence of one is proved, or the budget is spent.
    pub(super) fn run(&mut self, root: &Position) -> Found {
        for max_depth in 2..=1000 {
            self.max_depth = max_depth;
            self.interrupted = false;
            self.iteration_nodes = 0;
            self.seen.clear();
            self.line.clear();
            if self.search(root, 0, false) {
                return Found::Mate(std::mem::take(&mut self.line));
            }
            if !self.interrupted {
                return Found::None;
            }
            if self.nodes >= self.budget {
                break;
            }
        }
        Found::Unknown
    }

    fn search(&mut self, pos: &Position, depth: i32, past_progress: bool) -> bool {
        let left = self.max_depth - depth;
        let k = key(pos);
        if let Some(seen_left) = self.seen.get(&k) {
            if seen_left >= left {
                return false;
            }
        }
        if left <= 0 || self.nodes >= self.budget || self.iteration_nodes >= ITERATION_NODES {
            self.interrupted = true;
            return false;
        }
        self.seen.insert(&k, left);
        let winner = self.side;
        let ply = self.line.len();
        if self.buffers.len() <= ply {
            self.buffers.push(Vec::with_capacity(64));
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.generate(|pm| {
            pm.for_each(|m| moves.push((Kind::Normal, m, pm.role)));
            false
        });
        let targets = Targets::new(pos, winner);
        let winners_turn = pos.turn() == winner;
        let need_loser_promotion = need_loser_promotion(pos, winner);
        for entry in moves.iter_mut() {
            entry.0 = classify(
                pos,
                entry.1,
                entry.2,
                winners_turn,
                need_loser_promotion,
                &targets,
            );
        }
        let mut found = false;
        let checks = if winners_turn {
            super::CheckSquares::new(pos, winner)
        } else {
            super::CheckSquares::NONE
        };
        // Progress first, then the ordinary moves, then those that work against the mate; in
        // each group the order of generation (a pass per group costs less than a sort).
        'groups: for group in [Kind::Reward, Kind::Normal, Kind::Punish] {
            for &(kind, m, role) in moves.iter() {
                if kind != group {
                    continue;
                }
                let next = match kind {
                    Kind::Reward => depth,
                    Kind::Punish => (depth + 3).min(self.max_depth),
                    Kind::Normal if past_progress => depth,
                    Kind::Normal => depth + 1,
                };
                // A child at the depth limit is not searched; it only matters as a mate, or to
                // mark the iteration as stopped by its limit (not a proof). Once the iteration is
                // marked, a move that cannot give check need not even be played.
                let at_limit = next >= self.max_depth;
                let check = winners_turn && checks.gives_check(pos, m, role);
                if at_limit && self.interrupted && !check {
                    continue;
                }
                let mut child = *pos;
                child.play_with_role(m, role);
                self.nodes += 1;
                self.iteration_nodes += 1;
                self.line.push(m);
                if check && !child.has_legal_move() {
                    found = true;
                    break 'groups;
                }
                // Material only after a capture; the reachability test is left to the
                // exhaustive search, which needs it to end, while the finder looks for mates.
                let hopeless = pos.is_capture(m) && child.has_insufficient_material(winner);
                let skipped = at_limit && self.interrupted;
                let searched = !hopeless && !skipped;
                if searched && self.search(&child, next, kind == Kind::Reward) {
                    found = true;
                    break 'groups;
                }
                self.line.pop();
            }
        }
        self.buffers[ply] = moves;
        found
    }
}

/// Where the pieces go in the corner mate the search steers toward: the losing king in a
/// corner of the winner's far rank (of the colour the winner's bishops need; with no bishop on
/// the board, the corner on the losing king's side), the winning king
/// two squares in front of it, the loser's other men next to it (blocking), the winner's men
/// at the corner.
struct Targets {
    corner: Square,
    winner_king: Square,
    loser_blocker: Square,
    /// The winner has only its king and pawns: it must promote, so every push is progress.
    must_promote: bool,
}

impl Targets {
    fn new(pos: &Position, winner: Color) -> Targets {
        let b = pos.board();
        let winner_bishops = b.bishops() & b.by_color(winner);
        let loser_bishops = b.bishops() & b.by_color(!winner);
        let dark = (winner_bishops & Bitboard::DARK).any()
            || (winner_bishops.is_empty() && (loser_bishops & Bitboard::LIGHT).any());
        // h8 is dark, a8 light (for White; Black's corners are the mirror images).
        let h_side = if winner_bishops.is_empty() && loser_bishops.is_empty() {
            pos.king(!winner).file().index() >= 4
        } else {
            dark == (winner == Color::White)
        };
        let (file, side_file, king_file) = if h_side { (7i8, 6i8, 7i8) } else { (0, 1, 0) };
        let rank = |r: u8| {
            Rank::new(r)
                .map(|r| r.relative_to(winner))
                .unwrap_or(Rank::FIRST)
        };
        let sq = |f: i8, r: u8| {
            Square::from_coords(crate::File::new(f as u8).unwrap_or(crate::File::A), rank(r))
        };
        Targets {
            corner: sq(file, 7),
            winner_king: sq(king_file, 5),
            loser_blocker: sq(side_file, 7),
            must_promote: (b.by_color(winner) & !b.pawns()).count() == 1,
        }
    }
}

fn knight_distance(a: Square, b: Square) -> u8 {
    // Cheap lower bound of knight moves, good enough to say "closer".
    let df = a.file().distance(b.file());
    let dr = a.rank().index().abs_diff(b.rank().index());
    let d = df.max(dr);
    d.div_ceil(2) + u8::from(d == 1 && df + dr == 1) * 2
}

fn closer(role: Role, m: Move, target: Square) -> bool {
    match role {
        Role::King => m.to.distance(target) < m.from.distance(target),
        Role::Knight => knight_distance(m.to, target) < knight_distance(m.from, target),
        _ => false,
    }
}

fn classify(
    pos: &Position,
    m: Move,
    role: Role,
    winners_turn: bool,
    need_loser_promotion: bool,
    t: &Targets,
) -> Kind {
    let capture = pos.is_capture(m);
    if winners_turn {
        let advanced_push = role == Role::Pawn
            && !capture
            && (t.must_promote || m.to.rank().relative_to(pos.turn()).index() >= 4);
        let target = if role == Role::King {
            t.winner_king
        } else {
            t.corner
        };
        if advanced_push || capture || m.promotion.is_some() || closer(role, m, target) {
            Kind::Reward
        } else {
            Kind::Normal
        }
    } else {
        let target = if role == Role::King {
            t.corner
        } else {
            t.loser_blocker
        };
        let mut kind = Kind::Normal;
        if need_loser_promotion {
            let heavy = matches!(m.promotion, Some(Role::Queen | Role::Rook));
            kind = if role == Role::Pawn && !heavy {
                Kind::Reward
            } else {
                Kind::Punish
            };
        }
        if closer(role, m, target) {
            Kind::Reward
        } else if capture {
            Kind::Punish
        } else {
            kind
        }
    }
}

/// The winner's material alone cannot mate, so the loser must promote (to a piece that can
/// block): the winner has a lone knight and the loser no minor piece or rook, or the winner has
/// bishops of one colour only and the loser no knight nor bishop of the other colour.
fn need_loser_promotion(pos: &Position, winner: Color) -> bool {
    let b = pos.board();
    let ours = b.by_color(winner);
    let theirs = b.by_color(!winner);
    let minors = b.knights() | b.bishops();
    if ours.count() == 2
        && (ours & b.knights()).count() == 1
        && (theirs & (minors | b.rooks())).is_empty()
    {
        return true;
    }
    let bishops = ours & b.bishops();
    if bishops.any() && ours.count() == bishops.count() + 1 {
        let other = if (bishops & Bitboard::DARK).any() {
            Bitboard::LIGHT
        } else {
            Bitboard::DARK
        };
        return (b.bishops() & other).is_empty() && (theirs & b.knights()).is_empty();
    }
    false
}
