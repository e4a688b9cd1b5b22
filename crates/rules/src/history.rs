//! A position with the moves that led to it: what the Laws need to decide repetition and the
//! fifty/seventy-five-move rules (Art. 9.2, 9.3, 9.6).

use crate::{Move, Outcome, PlayError, Position, RepetitionKey, Termination};

/// A starting position and the moves played from it.
#[derive(Clone, Debug)]
pub struct History {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    keys: Vec<RepetitionKey>,
}

impl History {
    /// A history starting at `start` with no moves.
    pub fn new(start: Position) -> History {
        History {
            start,
            position: start,
            moves: Vec::new(),
            keys: vec![start.repetition_key()],
        }
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`PlayError`] if the move is not legal; nothing changes.
    pub fn push(&mut self, m: Move) -> Result<(), PlayError> {
        self.position = self.position.play(m)?;
        self.moves.push(m);
        self.keys.push(self.position.repetition_key());
        Ok(())
    }

    /// Plays a move known to be legal.
    ///
    /// # Panics
    /// As [`Position::play_unchecked`].
    pub fn push_unchecked(&mut self, m: Move) {
        self.position.play_unchecked(m);
        self.moves.push(m);
        self.keys.push(self.position.repetition_key());
    }

    /// Takes back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.keys.pop();
        let mut pos = self.start;
        for &mv in &self.moves {
            pos.play_unchecked(mv);
        }
        self.position = pos;
        Some(m)
    }

    /// How many times the current position has appeared, this time included (Art. 9.2.2).
    /// Only positions since the last capture or pawn move can be the same.
    pub fn repetitions(&self) -> usize {
        let window = (self.position.halfmoves() as usize + 1).min(self.keys.len());
        let current = self.keys[self.keys.len() - 1];
        self.keys[self.keys.len() - window..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|k| **k == current)
            .count()
    }

    fn repetitions_after(&self, m: Move) -> usize {
        let mut after = self.position;
        after.play_unchecked(m);
        let key = after.repetition_key();
        let window = (after.halfmoves() as usize).min(self.keys.len());
        1 + self.keys[self.keys.len() - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|k| **k == key)
            .count()
    }

    /// Art. 9.6.1: the current position has appeared at least five times.
    pub fn is_fivefold_repetition(&self) -> bool {
        self.repetitions() >= 5
    }

    /// Art. 9.6.2: each player has made 75 moves without a pawn move or capture.
    pub fn is_seventyfive_moves(&self) -> bool {
        self.position.halfmoves() >= 150
    }

    /// Art. 9.2.1.2: the position has just appeared for at least the third time.
    pub fn is_threefold_repetition(&self) -> bool {
        self.repetitions() >= 3
    }

    /// Art. 9.3.2: the last 50 moves of each player had no pawn move and no capture.
    pub fn is_fifty_moves(&self) -> bool {
        self.position.halfmoves() >= 100
    }

    /// Art. 9.2.1.1: playing `m` (a legal move) would make the same position appear for at least
    /// the third time.
    pub fn threefold_with_move(&self, m: Move) -> bool {
        self.repetitions_after(m) >= 3
    }

    /// Art. 9.3.1: playing `m` (a legal move) would complete 50 moves by each player without a
    /// pawn move or capture.
    pub fn fifty_moves_with_move(&self, m: Move) -> bool {
        let mut after = self.position;
        after.play_unchecked(m);
        after.halfmoves() >= 100
    }

    /// The player to move could claim a draw by threefold repetition now or with some legal
    /// move (Art. 9.2.1). A position with no legal move is already decided (Art. 5).
    pub fn can_claim_threefold(&self) -> bool {
        if !self.position.has_legal_move() {
            return false;
        }
        self.is_threefold_repetition()
            || self
                .position
                .legal_moves()
                .iter()
                .any(|&m| self.threefold_with_move(m))
    }

    /// The player to move could claim a draw under the fifty-move rule now or with some legal
    /// move (Art. 9.3). As python-chess does, a claim with a move that leaves the opponent
    /// without a legal move (mate or stalemate) does not count: that move ends the game
    /// itself (Art. 5.1.1, 5.2.1).
    pub fn can_claim_fifty_moves(&self) -> bool {
        let moves = self.position.legal_moves();
        if moves.is_empty() {
            return false;
        }
        if self.is_fifty_moves() {
            return true;
        }
        if self.position.halfmoves() < 99 {
            return false;
        }
        moves.iter().any(|&m| {
            let mut after = self.position;
            after.play_unchecked(m);
            after.halfmoves() >= 100 && after.has_legal_move()
        })
    }

    /// The game is over without any claim: checkmate, stalemate, insufficient material, a dead
    /// position (quick analysis), seventy-five moves or fivefold repetition, in that order (a mate on the move that
    /// reaches 75 moves or a fivefold repetition stands, Art. 9.6).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.position.outcome() {
            return Some(o);
        }
        // Art. 5.2.2: a dead position ends the game at once (quick analysis: an `Unknown`
        // never ends a game).
        if crate::dead::is_dead(&self.position, crate::dead::Mode::Quick) == Some(true) {
            return Some(Outcome {
                winner: None,
                termination: Termination::DeadPosition,
            });
        }
        if self.is_seventyfive_moves() {
            return Some(Outcome {
                winner: None,
                termination: Termination::SeventyFiveMoves,
            });
        }
        if self.is_fivefold_repetition() {
            return Some(Outcome {
                winner: None,
                termination: Termination::FivefoldRepetition,
            });
        }
        None
    }
}
