//! Exact dead positions: can a side still checkmate by any series of legal moves?
//! (Art. 5.2.2 dead position, Art. 6.9 and 7.5.5 "cannot checkmate by any series of legal
//! moves", Art. 9.6.)
//!
//! [`can_checkmate`] answers with a [`Verdict`]: `Yes` with a legal line that ends in mate (a
//! helpmate — both sides cooperate), `No` when it is proved that no such line exists, or
//! `Unknown` when the budget ran out. The analysis is **sound**: `No` is only returned with a
//! proof, so a game is never drawn, and a flag fall never forgiven, when a mate exists.
//!
//! Three layers, cheapest first:
//! 1. **Material** ([`Position::has_insufficient_material`]): a bare king, a lone knight, or
//!    bishops of one colour only (with the conditions stated there).
//! 2. **Frozen structure** (`frozen_no`): assume no pawn ever moves again and nothing is ever
//!    captured. Under that assumption every piece stays inside the region it can reach with
//!    the pawns as walls (kings also avoid squares enemy pawns attack). If, with those regions,
//!    no capture and no pawn move is in fact ever possible, the assumption holds forever (by
//!    induction on the moves), and if then no piece of the winning side can ever attack a
//!    square the losing king can reach, the side can never even give check.
//! 3. **Search**: a depth-first walk over every position reachable from here, both sides
//!    cooperating, with a table of positions already seen, moves ordered toward mate (captures
//!    and promotions by the winner, the winner's pieces closing in, the loser's king walking to
//!    an edge, the loser avoiding captures), and every position pruned at once when layer 1 or
//!    2 proves it hopeless. Finding a mate gives `Yes(line)`; exhausting the reachable positions
//!    proves `No`; running out of budget gives `Unknown`.
//!
//! Quick mode runs layers 1 and 2 only (cheap enough after every move); full mode adds the
//! search with a node budget.
//!
//! ```
//! use arbiter_rules::{CastlingMode, Color, Position};
//! use arbiter_rules::dead::{can_checkmate, Mode, Verdict};
//! // A pawn wall with kings only: nobody can ever mate.
//! let pos = Position::from_fen("8/2k5/8/1p1p2p1/1P1P2P1/8/2K5/8 w - - 0 1", CastlingMode::Standard).unwrap();
//! assert_eq!(can_checkmate(&pos, Color::White, Mode::Quick), Verdict::No);
//! assert_eq!(can_checkmate(&pos, Color::Black, Mode::Full), Verdict::No);
//! ```

use crate::{Bitboard, Board, Color, Move, Position, Role, Square};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

mod helpmate;
mod reach;

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
    /// Material and frozen-structure tests only: for every move of every game.
    Quick,
    /// Adds the search with the default node budget: for rulings (flag, penalties, claims).
    Full,
    /// Adds the search with the given node budget.
    Budget(u64),
}

/// Default node budget of [`Mode::Full`].
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
    let mut finder = helpmate::Finder::new(side, budget / 4);
    let found = finder.run(pos);
    if std::env::var_os("ARBITER_DEAD_TRACE").is_some() {
        eprintln!(
            "finder nodes {} result {}",
            finder.nodes,
            match &found {
                helpmate::Found::Mate(l) => format!("mate {}", l.len()),
                helpmate::Found::None => "none".into(),
                helpmate::Found::Unknown => "unknown".into(),
            }
        );
    }
    match found {
        helpmate::Found::Mate(line) => return Verdict::Yes(shorten(pos, line)),
        helpmate::Found::None => return Verdict::No,
        helpmate::Found::Unknown => {}
    }
    Search::new(side, budget.saturating_sub(finder.nodes)).run(pos)
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
    pos.has_insufficient_material(side) || reach::reach_no(pos, side)
}

/// A position key for the table of positions seen: compared exactly, hashed by Zobrist.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    hash: u64,
    board: Board,
    turn: Color,
    castles: Bitboard,
    ep: Option<Square>,
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b) ^ (self.0 >> 56);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

fn key(pos: &Position) -> Key {
    Key {
        hash: pos.hash(),
        board: *pos.board(),
        turn: pos.turn(),
        castles: pos.castles().mask(),
        ep: pos.pseudo_ep_square(),
    }
}

struct Search {
    side: Color,
    budget: u64,
    nodes: u64,
    seen: HashSet<Key, BuildHasherDefault<ZobristHasher>>,
}

struct Frame {
    pos: Position,
    moves: Vec<Move>,
    next: usize,
}

impl Search {
    fn new(side: Color, budget: u64) -> Search {
        Search {
            side,
            budget,
            nodes: 0,
            seen: HashSet::default(),
        }
    }

    /// Orders moves toward a mate by `self.side` (best first).
    fn ordered_moves(&self, pos: &Position) -> Vec<Move> {
        let winner = self.side;
        let b = pos.board();
        let loser_king = pos.king(!winner);
        let mut scored: Vec<(i32, Move)> = pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let role = b.role_at(m.from).unwrap_or(Role::Pawn);
                let captured = pos.captured_role(m);
                let mut score = 0i32;
                if pos.turn() == winner {
                    if let Some(p) = m.promotion {
                        score += if p == Role::Queen { 60 } else { 5 };
                    }
                    if captured.is_some() {
                        score += 30;
                    }
                    if role != Role::King || captured.is_some() {
                        let before = m.from.distance(loser_king) as i32;
                        let after = m.to.distance(loser_king) as i32;
                        score += 4 * (before - after);
                    } else {
                        let before = m.from.distance(loser_king) as i32;
                        let after = m.to.distance(loser_king) as i32;
                        score += 3 * (before - after);
                    }
                    if role == Role::Pawn {
                        score += 8;
                    }
                    // Checks first, mates before everything.
                    let mut child = *pos;
                    child.play_unchecked(m);
                    if child.is_check() {
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
                        let own_king = pos.king(!winner);
                        score +=
                            2 * (m.from.distance(own_king) as i32 - m.to.distance(own_king) as i32);
                    }
                    if let Some(p) = m.promotion {
                        score += if p == Role::Queen { 0 } else { 10 };
                    }
                    if role == Role::Pawn {
                        score += 6;
                    }
                }
                (score, m)
            })
            .collect();
        scored.sort_by_key(|s| core::cmp::Reverse(s.0));
        scored.into_iter().map(|(_, m)| m).collect()
    }

    fn run(&mut self, root: &Position) -> Verdict {
        let mut stack: Vec<Frame> = Vec::new();
        self.seen.insert(key(root));
        stack.push(Frame {
            pos: *root,
            moves: self.ordered_moves(root),
            next: 0,
        });
        let mut exhausted = true;
        while let Some(top) = stack.last_mut() {
            if top.next >= top.moves.len() {
                stack.pop();
                continue;
            }
            let m = top.moves[top.next];
            top.next += 1;
            let mut child = top.pos;
            child.play_unchecked(m);
            if !self.seen.insert(key(&child)) {
                continue;
            }
            self.nodes += 1;
            if child.turn() != self.side && child.is_checkmate() {
                let line: Vec<Move> = stack.iter().map(|f| f.moves[f.next - 1]).collect();
                return Verdict::Yes(shorten(root, line));
            }
            if self.nodes >= self.budget {
                exhausted = false;
                break;
            }
            if static_no(&child, self.side) {
                continue;
            }
            let moves = self.ordered_moves(&child);
            if moves.is_empty() {
                continue; // Stalemate or mate of the winner: no way on from here.
            }
            stack.push(Frame {
                pos: child,
                moves,
                next: 0,
            });
        }
        if exhausted {
            Verdict::No
        } else {
            Verdict::Unknown
        }
    }
}

/// Shortens a mating line by jumping ahead whenever a position later in the line can be
/// reached in one move from an earlier one (the depth-first search wanders).
fn shorten(root: &Position, line: Vec<Move>) -> Vec<Move> {
    let mut positions = Vec::with_capacity(line.len() + 1);
    let mut cur = *root;
    positions.push(cur);
    for &m in &line {
        cur.play_unchecked(m);
        positions.push(cur);
    }
    let index: std::collections::HashMap<Key, usize> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (key(p), i))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < positions.len() {
        let mut best = (i + 1, line[i]);
        for m in positions[i].legal_moves().iter() {
            let mut next = positions[i];
            next.play_unchecked(*m);
            if let Some(&j) = index.get(&key(&next)) {
                if j > best.0 {
                    best = (j, *m);
                }
            }
        }
        out.push(best.1);
        i = best.0;
    }
    out
}

fn edge_distance(sq: Square) -> u8 {
    let f = sq.file().index();
    let r = sq.rank().index();
    f.min(7 - f).min(r).min(7 - r)
}
