//! The shortest mating line within a node budget: a plain iterative-deepening helpmate search
//! (every move of both sides costs one ply), for showing a line to a reader. The analysis
//! itself needs only some line; the lines its searches find can wander for dozens of moves
//! where a mate in two exists.

use super::table::{key, Table};
use super::CheckSquares;
use crate::{Color, Move, Position};

/// A mating line for `side` from `pos` shorter than `line` (itself a mating line), the
/// shortest there is, if one is found within `budget` nodes; else `line` as it is.
///
/// Depths are tried in order, so the first line found is a shortest one; a depth that runs
/// out of budget ends the search.
pub fn shorter_line(pos: &Position, side: Color, line: &[Move], budget: u64) -> Vec<Move> {
    let mut s = Shortest {
        side,
        nodes: 0,
        budget,
        seen: Table::new(),
        line: Vec::new(),
    };
    // The winner gives the last move: with the winner to move, mates come at odd plies.
    let first = if pos.turn() == side { 1 } else { 2 };
    for plies in (first..line.len()).step_by(2) {
        s.seen.clear();
        s.line.clear();
        match s.mate_within(pos, plies as u32) {
            Some(true) => return s.line,
            Some(false) => {}
            None => break,
        }
    }
    line.to_vec()
}

struct Shortest {
    side: Color,
    nodes: u64,
    budget: u64,
    /// Positions searched in this iteration, with the plies that were left: none of them
    /// leads to a mate within that many plies.
    seen: Table<u32>,
    line: Vec<Move>,
}

impl Shortest {
    /// `Some(true)`: a mate within `plies` (the line is in `self.line`); `Some(false)`: none;
    /// `None`: the budget ran out.
    fn mate_within(&mut self, pos: &Position, plies: u32) -> Option<bool> {
        let winners_turn = pos.turn() == self.side;
        // The loser cannot give the mating move, and with no ply left nothing happens.
        if plies == 0 || (plies == 1 && !winners_turn) {
            return Some(false);
        }
        let k = key(pos);
        if self.seen.get(&k).is_some_and(|left| left >= plies) {
            return Some(false);
        }
        let checks = if winners_turn {
            CheckSquares::new(pos, self.side)
        } else {
            CheckSquares::NONE
        };
        let mut moves = Vec::with_capacity(64);
        pos.generate(|pm| {
            pm.for_each(|m| moves.push((m, pm.role)));
            false
        });
        for (m, role) in moves {
            // The last ply must be a check (and then mate).
            let check = winners_turn && checks.gives_check(pos, m, role);
            if plies == 1 && !check {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.budget {
                return None;
            }
            let mut child = *pos;
            child.play_with_role(m, role);
            self.line.push(m);
            if check && !child.has_legal_move() {
                return Some(true);
            }
            let hopeless = pos.is_capture(m) && child.has_insufficient_material(self.side);
            if !hopeless && self.mate_within(&child, plies - 1)? {
                return Some(true);
            }
            self.line.pop();
        }
        self.seen.insert(&k, plies);
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::line::mates;
    use crate::dead::{can_checkmate, Mode, Verdict};
    use crate::CastlingMode;

    #[test]
    fn art_5_1_1_after_1_e4_e5_white_mates_in_two_moves_and_black_in_two_too() {
        let root = Position::from_fen(
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            CastlingMode::Standard,
        )
        .unwrap();
        for (side, plies) in [(Color::White, 3), (Color::Black, 4)] {
            let Verdict::Yes(found) = can_checkmate(&root, side, Mode::Full) else {
                panic!("{side} can mate");
            };
            assert!(found.len() > plies, "the analysis' own line is longer");
            let short = shorter_line(&root, side, &found, 100_000);
            assert!(mates(&root, side, &short), "{side}: still mates");
            // The shortest helpmates, by python-chess over all lines of up to 4 plies:
            // 2. Qh5 Ke7 3. Qxe5# and 2. Nh3 Qh4 3. Ke2 Qxe4#.
            assert_eq!(short.len(), plies, "{side}");
        }
    }

    #[test]
    fn a_line_is_kept_when_the_budget_is_too_small() {
        let root =
            Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", CastlingMode::Standard).unwrap();
        let Verdict::Yes(found) = can_checkmate(&root, Color::White, Mode::Full) else {
            panic!("K+R mates");
        };
        assert_eq!(shorter_line(&root, Color::White, &found, 10), found);
    }
}
