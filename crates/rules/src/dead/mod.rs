//! Exact dead positions: can a side still checkmate by any series of legal moves?
//! (Art. 5.2.2 dead position, Art. 6.9 and 7.5.5 "cannot checkmate by any series of legal
//! moves", Art. 9.6.)
//!
//! [`can_checkmate`] answers with a [`Verdict`]: `Yes` with a legal line that ends in mate (a
//! helpmate — both sides cooperate), `No` when it is proved that no such line exists, or
//! `Unknown` when the budget ran out. The analysis is **sound**: `No` is only returned with a
//! proof, so a game is never drawn, and a flag fall never forgiven, when a mate exists.
//!
//! Four layers, cheapest first:
//! 1. **Material** ([`Position::has_insufficient_material`]): a bare king, a lone knight, or
//!    bishops of one colour only (with the conditions stated there).
//! 2. **Reachability** (`reach`): a fixpoint over where every piece can ever go, which squares
//!    can ever be vacated (a piece that never moves and is never captured is a wall), pawns
//!    locked on their file, and squares kings can never enter. If no man of the winning side
//!    can ever attack a square the losing king can reach, or if at every such square some
//!    flight square can neither be attacked nor blocked, the side can never mate.
//!    **The kings' duel** (`duel`) follows, when men are locked, only the two kings exactly
//!    (every other man summarised by the fixpoint): it proves the tempo cases, where the boxed
//!    king would be stalemated (Art. 5.2.1), or would stalemate the other side by taking a
//!    locked pawn, before any mate.
//! 3. **Helpmate finder** (`helpmate`): an iterative-deepening search in which moves that make
//!    progress toward a corner mate cost no depth. Finds most mates in a few thousand nodes;
//!    an iteration that never hit its limits proves `No`.
//! 4. **Exhaustive search**: a depth-first walk over every position reachable from here, both
//!    sides cooperating, with an exact table of positions already seen (`table`), moves
//!    ordered toward mate, and every position pruned at once when layer 1 (or, after a capture
//!    or pawn move, layer 2) proves it hopeless. Finding a mate gives `Yes(line)`; exhausting
//!    the reachable positions proves `No`; running out of budget gives `Unknown`.
//!
//! Quick mode runs layers 1 and 2 only (cheap enough after every move); full mode adds the
//! searches with a node budget, taken in turns: a short one of the finder (1/200), a short
//! one of the exhaustive search (1/100; on a board of 24 men or more it has a shorter turn
//! before the finder's), the finder's full turn (1/20), the search resumed where it stopped
//! (the rest), then, if that ran out, a last deeper turn of the finder.
//!
//! ```
//! use arbiter_rules::{CastlingMode, Color, Position};
//! use arbiter_rules::dead::{can_checkmate, Mode, Verdict};
//! // A pawn wall with kings only: nobody can ever mate.
//! let pos = Position::from_fen("8/2k5/8/1p1p2p1/1P1P2P1/8/2K5/8 w - - 0 1", CastlingMode::Standard).unwrap();
//! assert_eq!(can_checkmate(&pos, Color::White, Mode::Quick), Verdict::No);
//! assert_eq!(can_checkmate(&pos, Color::Black, Mode::Full), Verdict::No);
//! ```

use crate::{attacks, Bitboard, Color, Move, Position, Role, Square};

mod duel;
mod helpmate;
mod line;
mod reach;
mod shortest;
mod table;

pub use shortest::shorter_line;
use table::{key, Table};

/// The answer to "can this side still checkmate?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Yes: a legal line of moves from the position that ends with this side checkmating.
    Yes(Vec<Move>),
    /// No: proved impossible.
    No,
    /// The budget ran out before a proof either way.
    Unknown,
}

impl Verdict {
    /// `"yes"`, `"no"` or `"unknown"`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Yes(_) => "yes",
            Verdict::No => "no",
            Verdict::Unknown => "unknown",
        }
    }
}

/// How much work the analysis may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Material and reachability tests only: for every move of every game.
    Quick,
    /// Adds the search with the default node budget: for rulings (flag, penalties, claims).
    Full,
    /// Adds the search with the given node budget.
    Budget(u64),
}

/// Default node budget of [`Mode::Full`]. With a budget of `n` nodes the finder gets a short
/// turn of `n / 200` and then `n / 20`, the exhaustive search the rest (a short turn of
/// `n / 100` between the finder's — `n / 1000` of it before them on a crowded board —, resumed
/// after them), and, if the search ran out, the finder a last `3n / 4`.
pub const FULL_BUDGET: u64 = 200_000;

/// Can `side` checkmate from `pos` by some series of legal moves (of both sides)?
pub fn can_checkmate(pos: &Position, side: Color, mode: Mode) -> Verdict {
    if is_mated(pos, !side) {
        return Verdict::Yes(Vec::new());
    }
    if static_no(pos, side) {
        return Verdict::No;
    }
    let budget = match mode {
        Mode::Quick => 0,
        Mode::Full => FULL_BUDGET,
        Mode::Budget(n) => n,
    };
    if budget == 0 {
        return Verdict::Unknown;
    }
    let mut search = Search::new(side, 0);
    let verdict = turns(pos, side, budget, &mut search);
    search.recycle();
    if verdict != Verdict::Unknown {
        return verdict;
    }
    // A last, deeper turn of the finder (three quarters of the budget again, in its cheaper
    // nodes): some long helpmates (walls of bishops opened one by one) are found there.
    finder_turn(pos, side, budget / 4 * 3).0
}

/// From this many men on the board, the exhaustive search has the first turn.
const CROWDED: u32 = 24;

/// The turns of the finder and the exhaustive search before the finder's last one. Short
/// turns first: the helpmate finder (most mates of real games, in a few hundred nodes), then
/// the search (the mates that the finder's corner heuristics miss, found by its checks-first
/// ordering); on a crowded board the search goes first, since a mate is near and its ordering
/// finds one in a few dozen positions where the finder would walk a king to a corner. Then the
/// finder's full turn, then the search resumed with the rest of the budget, which proves `No`
/// (or finds the harder mates).
fn turns(pos: &Position, side: Color, budget: u64, search: &mut Search) -> Verdict {
    let opening = if pos.board().occupied().count() >= CROWDED {
        budget / 1000
    } else {
        0
    };
    if opening > 0 {
        search.extend(opening);
        let verdict = search.run(pos);
        if verdict != Verdict::Unknown {
            return verdict;
        }
    }
    let (verdict, _) = finder_turn(pos, side, budget / 200);
    if verdict != Verdict::Unknown {
        return verdict;
    }
    search.extend(budget / 100 - opening);
    let verdict = search.run(pos);
    if verdict != Verdict::Unknown {
        return verdict;
    }
    let (verdict, finder_nodes) = finder_turn(pos, side, budget / 20);
    if verdict != Verdict::Unknown {
        return verdict;
    }
    search.extend(budget.saturating_sub(finder_nodes + search.budget));
    search.run(pos)
}

/// Runs the finder with `budget` nodes: its mating line (shortened), its proof that there is
/// none, or `Unknown`; and the nodes it spent.
fn finder_turn(pos: &Position, side: Color, budget: u64) -> (Verdict, u64) {
    let mut finder = helpmate::Finder::new(side, budget);
    let found = finder.run(pos);
    let nodes = finder.nodes;
    finder.recycle();
    let verdict = match found {
        helpmate::Found::Mate(line) => Verdict::Yes(line::shorten(pos, &line)),
        helpmate::Found::None => Verdict::No,
        helpmate::Found::Unknown => Verdict::Unknown,
    };
    (verdict, nodes)
}

/// Is the position dead (Art. 5.2.2): can neither side checkmate? `Some(true)` proved dead,
/// `Some(false)` proved not dead, `None` unknown.
pub fn is_dead(pos: &Position, mode: Mode) -> Option<bool> {
    let white = can_checkmate(pos, Color::White, mode);
    if matches!(white, Verdict::Yes(_)) {
        return Some(false);
    }
    let black = can_checkmate(pos, Color::Black, mode);
    match (white, black) {
        (_, Verdict::Yes(_)) => Some(false),
        (Verdict::No, Verdict::No) => Some(true),
        _ => None,
    }
}

fn is_mated(pos: &Position, loser: Color) -> bool {
    pos.turn() == loser && pos.is_checkmate()
}

/// Layers 1 and 2: a proof that `side` can never checkmate, or `false` if none was found.
fn static_no(pos: &Position, side: Color) -> bool {
    pos.has_insufficient_material(side) || reach::reach_no(pos, side) || duel::duel_no(pos, side)
}

struct Search {
    side: Color,
    budget: u64,
    nodes: u64,
    seen: Table<()>,
    scored: Vec<(Move, Role)>,
    keys: Vec<u64>,
    sorted: Vec<u64>,
    /// The path (see [`Frame`]).
    stack: Vec<Frame>,
    /// The root has been set up (a later [`Search::run`] resumes the walk).
    started: bool,
    moves: Vec<(Move, Role)>,
}

/// The memory of a finished search, kept for the next one on this thread when it is not too
/// large: fresh memory costs a page fault per page (4 KiB), which was a quarter of the time of
/// a search that spends the whole [`FULL_BUDGET`] (about 60 MB touched).
struct Spare {
    seen: Table<()>,
    stack: Vec<Frame>,
    moves: Vec<(Move, Role)>,
    /// The move ordering's scratch buffers (a few hundred bytes).
    scratch: (Vec<(Move, Role)>, Vec<u64>, Vec<u64>),
}

/// At most this many bytes are kept by [`Spare`] (per thread; a larger search's memory is
/// freed). A search of the whole [`FULL_BUDGET`] touches up to 88 MB; keeping that much on
/// every thread that ever ruled on a constructed position (a server's workers) costs more
/// than the page faults it saves, so only the memory of searches of real-game size (a few
/// thousand nodes) and middling ones is kept.
const SPARE_BYTES: usize = 16 << 20;

thread_local! {
    static SPARE: std::cell::RefCell<Option<Spare>> = const { std::cell::RefCell::new(None) };
}

/// A position on the search's path. Its moves, in the order they are tried and with the
/// moving piece's role, are `moves[start..end]` of the search's move stack (one buffer for the
/// whole path, which can be as long as the search: a depth-first walk rarely turns back).
struct Frame {
    pos: Position,
    start: usize,
    end: usize,
    next: usize,
}

impl Search {
    fn new(side: Color, budget: u64) -> Search {
        let spare = SPARE.with(|s| s.borrow_mut().take());
        let (seen, stack, moves, (scored, keys, sorted)) = match spare {
            Some(Spare {
                mut seen,
                mut stack,
                mut moves,
                scratch,
            }) => {
                seen.recycle();
                stack.clear();
                moves.clear();
                (seen, stack, moves, scratch)
            }
            None => (
                Table::new(),
                Vec::new(),
                Vec::new(),
                (Vec::new(), Vec::new(), Vec::new()),
            ),
        };
        Search {
            side,
            budget,
            nodes: 0,
            seen,
            scored,
            keys,
            sorted,
            stack,
            started: false,
            moves,
        }
    }

    /// Keeps this search's memory for the next one, if it is not too large.
    fn recycle(self) {
        let bytes = self.seen.bytes()
            + self.stack.capacity() * std::mem::size_of::<Frame>()
            + self.moves.capacity() * std::mem::size_of::<(Move, Role)>();
        if bytes <= SPARE_BYTES {
            let spare = Spare {
                seen: self.seen,
                stack: self.stack,
                moves: self.moves,
                scratch: (self.scored, self.keys, self.sorted),
            };
            SPARE.with(|s| *s.borrow_mut() = Some(spare));
        }
    }

    /// Appends the moves of `pos` to `out`, ordered toward a mate by `self.side` (best first;
    /// equal scores keep the order of generation).
    fn ordered_moves(&mut self, pos: &Position, out: &mut Vec<(Move, Role)>) {
        let winner = self.side;
        let loser_king = pos.king(!winner);
        let mut moves = std::mem::take(&mut self.scored);
        moves.clear();
        pos.generate(|pm| {
            pm.for_each(|m| moves.push((m, pm.role)));
            false
        });
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let winners_turn = pos.turn() == winner;
        let checks = if winners_turn {
            CheckSquares::new(pos, winner)
        } else {
            CheckSquares::NONE
        };
        for (i, &(m, role)) in moves.iter().enumerate() {
            let captured = pos.captured_role(m);
            let mut score = 0i32;
            if winners_turn {
                if let Some(p) = m.promotion {
                    score += if p == Role::Queen { 60 } else { 5 };
                }
                if captured.is_some() {
                    score += 30;
                }
                let before = m.from.distance(loser_king) as i32;
                let after = m.to.distance(loser_king) as i32;
                if role != Role::King || captured.is_some() {
                    score += 4 * (before - after);
                } else {
                    score += 3 * (before - after);
                }
                if role == Role::Pawn {
                    score += 8;
                }
                // Checks first, mates before everything.
                let check = checks.gives_check(pos, m, role);
                debug_assert_eq!(check, {
                    let mut child = *pos;
                    child.play_unchecked(m);
                    child.is_check()
                });
                if check {
                    let mut child = *pos;
                    child.play_with_role(m, role);
                    score += if child.has_legal_move() { 25 } else { 10_000 };
                }
            } else {
                // The loser cooperates: keeps the winner's material, walks its king to the
                // edge, promotes to pieces that can block its own king.
                if let Some(c) = captured {
                    score -= if c == Role::Pawn { 10 } else { 40 };
                }
                if role == Role::King {
                    score += 4 * (edge_distance(m.from) as i32 - edge_distance(m.to) as i32);
                } else {
                    // Pieces gather round their own king, where they can block its flight.
                    score +=
                        2 * (m.from.distance(loser_king) as i32 - m.to.distance(loser_king) as i32);
                }
                if let Some(p) = m.promotion {
                    score += if p == Role::Queen { 0 } else { 10 };
                }
                if role == Role::Pawn {
                    score += 6;
                }
            }
            // Best score first, then the order of generation (at most 218 moves).
            keys.push((((1 << 20) - score) as u64) << 8 | i as u64);
        }
        sort_keys(&mut keys, &mut self.sorted);
        out.extend(keys.iter().map(|&k| moves[(k & 0xff) as usize]));
        self.scored = moves;
        self.keys = keys;
    }

    /// Walks on from where the last call stopped (from `root` on the first call) until a
    /// mate is found, every reachable position has been seen, or the budget is spent. After
    /// `Unknown`, [`Search::extend`] and another call resume the same walk: the path and the
    /// positions seen are kept, so nothing is lost and nothing is searched twice.
    fn run(&mut self, root: &Position) -> Verdict {
        let mut stack = std::mem::take(&mut self.stack);
        let mut moves = std::mem::take(&mut self.moves);
        if !self.started {
            self.started = true;
            self.seen.insert(&key(root), ());
            self.ordered_moves(root, &mut moves);
            stack.push(Frame {
                pos: *root,
                start: 0,
                end: moves.len(),
                next: 0,
            });
        }
        let verdict = self.walk(root, &mut stack, &mut moves);
        if verdict != Verdict::Unknown {
            stack.clear();
            moves.clear();
        }
        self.stack = stack;
        self.moves = moves;
        verdict
    }

    /// Allows `extra` more nodes.
    fn extend(&mut self, extra: u64) {
        self.budget += extra;
    }

    fn walk(
        &mut self,
        root: &Position,
        stack: &mut Vec<Frame>,
        moves: &mut Vec<(Move, Role)>,
    ) -> Verdict {
        while !stack.is_empty() {
            // Checked before a move is taken, so that a resumed walk goes on exactly here.
            if self.nodes >= self.budget {
                return Verdict::Unknown;
            }
            let shallow = stack.len() <= 2;
            let Some(top) = stack.last_mut() else { break };
            if top.next >= top.end {
                moves.truncate(top.start);
                stack.pop();
                continue;
            }
            let (m, role) = moves[top.next];
            top.next += 1;
            let mut child = top.pos;
            child.play_with_role(m, role);
            if self.seen.insert(&key(&child), ()).is_some() {
                continue;
            }
            self.nodes += 1;
            if child.turn() != self.side && child.is_checkmate() {
                let line: Vec<Move> = stack.iter().map(|f| moves[f.next - 1].0).collect();
                return Verdict::Yes(line::shorten(root, &line));
            }
            // The reachability test only after a change of structure (a capture or a pawn
            // move): a piece move rarely turns a position hopeless, and the test is not free.
            let structural = shallow || role == Role::Pawn || top.pos.is_capture(m);
            if child.has_insufficient_material(self.side)
                || (structural && reach::reach_no(&child, self.side))
            {
                continue;
            }
            let start = moves.len();
            self.ordered_moves(&child, moves);
            if moves.len() == start {
                continue; // Stalemate or mate of the winner: no way on from here.
            }
            stack.push(Frame {
                pos: child,
                start,
                end: moves.len(),
                next: start,
            });
        }
        Verdict::No
    }
}

/// Sorts move keys (priority above bit 8, a distinct index below) ascending: by counting
/// when there are many moves with priorities in a narrow range (the usual case with several
/// free pieces), else by comparison. Either way the order is the same.
fn sort_keys(keys: &mut [u64], scratch: &mut Vec<u64>) {
    const SPAN: usize = 64;
    if keys.len() < 24 {
        keys.sort_unstable();
        return;
    }
    let (lo, hi) = keys.iter().fold((u64::MAX, 0), |(lo, hi), &k| {
        (lo.min(k >> 8), hi.max(k >> 8))
    });
    if (hi - lo) as usize >= SPAN {
        keys.sort_unstable();
        return;
    }
    // The indices below bit 8 come in increasing order (the order of generation), so a
    // stable counting sort by priority sorts the whole keys.
    debug_assert!(keys.windows(2).all(|w| (w[0] & 0xff) < (w[1] & 0xff)));
    let mut counts = [0u16; SPAN + 1];
    for &k in keys.iter() {
        counts[((k >> 8) - lo) as usize + 1] += 1;
    }
    for i in 1..=SPAN {
        counts[i] += counts[i - 1];
    }
    scratch.clear();
    scratch.resize(keys.len(), 0);
    for &k in keys.iter() {
        let c = &mut counts[((k >> 8) - lo) as usize];
        scratch[*c as usize] = k;
        *c += 1;
    }
    keys.copy_from_slice(scratch);
}

/// What a move of the winner needs in order to give check (Art. 3.9), computed once per
/// position so that the move ordering need not play every move.
struct CheckSquares {
    /// The losing king.
    king: Square,
    /// The winner's men that stand alone between one of its sliders and the losing king:
    /// moving one off that line discovers a check.
    discoverers: Bitboard,
    /// By role: the squares from which a man of the winner attacks the losing king, given the
    /// men on the board now (see [`CheckSquares::gives_check`] for why that is exact).
    direct: [Bitboard; 6],
}

impl CheckSquares {
    /// For the loser's turn: no move is ever tested.
    const NONE: CheckSquares = CheckSquares {
        king: Square::A1,
        discoverers: Bitboard::EMPTY,
        direct: [Bitboard::EMPTY; 6],
    };

    fn new(pos: &Position, winner: Color) -> CheckSquares {
        let b = pos.board();
        let king = pos.king(!winner);
        let ours = b.by_color(winner);
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & b.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & b.bishops_and_queens()))
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(king, s) & b.occupied();
            if blockers.count() == 1 {
                discoverers |= blockers & ours;
            }
        }
        let occ = b.occupied();
        let (diagonal, straight) = (
            attacks::bishop_attacks(king, occ),
            attacks::rook_attacks(king, occ),
        );
        let direct = [
            attacks::pawn_attacks(!winner, king),
            attacks::knight_attacks(king),
            diagonal,
            straight,
            diagonal | straight,
            Bitboard::EMPTY,
        ];
        CheckSquares {
            king,
            discoverers,
            direct,
        }
    }

    /// Does the legal move `m` of the side to move (the winner) give check? Castling, en
    /// passant and promotions, which move, remove or change a second man, are played out.
    ///
    /// Otherwise a check is direct or discovered. Direct: the man attacks the king from its
    /// destination. The squares it attacks from are taken with the men on the board before
    /// the move, which differs only in its origin being empty: a slider's origin can only lie
    /// between its destination and the king on the line it moved along, and then it already
    /// attacked the king from there (no legal position has the side not to move in check) or
    /// was blocked by another man that still blocks.
    #[inline]
    fn gives_check(&self, pos: &Position, m: Move, role: Role) -> bool {
        if m.promotion.is_some()
            || (role == Role::King && pos.is_castling(m))
            || (role == Role::Pawn && pos.is_en_passant(m))
        {
            let mut child = *pos;
            child.play_unchecked(m);
            return child.is_check();
        }
        self.direct[role.index()].contains(m.to)
            || (self.discoverers.contains(m.from) && !attacks::aligned(self.king, m.from, m.to))
    }
}

fn edge_distance(sq: Square) -> u8 {
    let f = sq.file().index();
    let r = sq.rank().index();
    f.min(7 - f).min(r).min(7 - r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;

    fn search(fen: &str, side: Color, budget: u64) -> Verdict {
        let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        let mut search = Search::new(side, budget);
        let verdict = search.run(&pos);
        search.recycle();
        verdict
    }

    #[test]
    fn move_keys_sort_the_same_by_counting_as_by_comparison() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut scratch = Vec::new();
        for n in [0usize, 1, 23, 24, 40, 100, 218] {
            for span in [1u64, 5, 63, 64, 65, 20_000] {
                let mut keys: Vec<u64> = (0..n as u64)
                    .map(|i| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        ((1 << 20) + x % span) << 8 | i
                    })
                    .collect();
                let mut expected = keys.clone();
                expected.sort_unstable();
                sort_keys(&mut keys, &mut scratch);
                assert_eq!(keys, expected, "{n} moves, span {span}");
            }
        }
    }

    #[test]
    fn art_5_2_2_a_search_resumed_in_small_turns_walks_exactly_as_one_run() {
        let cases = [
            // Proved `No` after a thousand positions or so.
            (
                "8/8/8/1k3p1p/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1",
                Color::White,
            ),
            (
                "7k/8/1p6/1Pp5/2Pp4/pB1Pp1p1/P1B1P1P1/1B1B2K1 b - - 0 1",
                Color::Black,
            ),
            // Mates found by the search.
            ("8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1", Color::Black),
            ("rk6/1P6/2K5/8/8/8/8/8 w - - 0 1", Color::White),
        ];
        for (fen, side) in cases {
            let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
            let mut whole = Search::new(side, 50_000);
            let expected = whole.run(&pos);
            assert_ne!(expected, Verdict::Unknown, "{fen}");
            let mut turns = Search::new(side, 7);
            let mut calls = 0;
            let verdict = loop {
                calls += 1;
                match turns.run(&pos) {
                    Verdict::Unknown => turns.extend(7),
                    decided => break decided,
                }
            };
            assert!(calls > 1, "{fen}: more than one turn");
            assert_eq!(verdict, expected, "{fen}");
            assert_eq!(turns.nodes, whole.nodes, "{fen}");
        }
    }

    #[test]
    fn art_5_2_2_a_search_on_reused_memory_walks_exactly_as_a_fresh_one() {
        let cases = [
            // Locked pawns and bishops of one colour: the search exhausts the positions.
            (
                "k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1",
                Color::White,
                20_000,
            ),
            // A mate exists.
            ("8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1", Color::Black, 20_000),
            ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", Color::White, 5_000),
        ];
        SPARE.with(|s| *s.borrow_mut() = None);
        let fresh: Vec<Verdict> = cases
            .iter()
            .map(|&(fen, side, budget)| {
                SPARE.with(|s| *s.borrow_mut() = None);
                search(fen, side, budget)
            })
            .collect();
        assert!(fresh.iter().any(|v| matches!(v, Verdict::Yes(_))));
        for round in 0..2 {
            for (i, &(fen, side, budget)) in cases.iter().enumerate() {
                assert!(SPARE.with(|s| s.borrow().is_some()));
                assert_eq!(search(fen, side, budget), fresh[i], "round {round}: {fen}");
            }
        }
    }
}
