//! What a player's past rounds say for the next pairing: colours, opponents, byes (C.04.1).

use super::entry::{Bye, Colour, RoundEntry};
use super::player::{Player, StartNo};
use super::tournament::Tournament;

impl Player {
    /// The colours of the games played over the board in rounds 1 to `rounds`, in order.
    /// Forfeited games and byes have no colour for the pairing rules (C.04.1: only games
    /// played count for colours).
    pub fn colours_played(&self, rounds: u32) -> Vec<Colour> {
        (1..=rounds)
            .filter_map(|r| match self.entry(r) {
                RoundEntry::Game { colour, .. } => Some(colour),
                _ => None,
            })
            .collect()
    }

    /// Everyone the player was paired against in rounds 1 to `rounds`, forfeits included, in
    /// round order.
    pub fn opponents(&self, rounds: u32) -> Vec<StartNo> {
        (1..=rounds)
            .filter_map(|r| self.entry(r).opponent())
            .collect()
    }

    /// Whether the player met `other` over the board in rounds 1 to `rounds` (C.04.1.b: two
    /// players shall not play each other more than once).
    pub fn has_played(&self, other: StartNo, rounds: u32) -> bool {
        (1..=rounds).any(
            |r| matches!(self.entry(r), RoundEntry::Game { opponent, .. } if opponent == other),
        )
    }

    /// Whether the player already scored without playing as much as a win gives — a
    /// pairing-allocated or full-point bye, or a win by forfeit — in rounds 1 to `rounds`
    /// (C.04.1.d: such a player shall not receive the pairing-allocated bye).
    pub fn scored_without_playing(&self, rounds: u32) -> bool {
        (1..=rounds).any(|r| {
            matches!(
                self.entry(r),
                RoundEntry::Bye(Bye::PairingAllocated | Bye::FullPoint)
                    | RoundEntry::Forfeit { won: true, .. }
            )
        })
    }
}

impl Tournament {
    /// The colour of the top player in round 1: [`Tournament::initial_colour`] (TRF `XXC`)
    /// when given, else inferred from the crosstable as bbpPairings and JaVaFo infer it — in
    /// the first round in which anyone had a colour, the colour of the highest player (by
    /// start number) who took part in the pairing of that round or an earlier one, reversed
    /// once for every higher such player without a colour in that round. `None` when no round
    /// has colours yet.
    pub fn initial_colour_or_inferred(&self) -> Option<Colour> {
        if self.initial_colour.is_some() {
            return self.initial_colour;
        }
        let first = (1..=self.rounds_paired())
            .find(|&r| self.players.iter().any(|p| p.entry(r).colour().is_some()))?;
        let mut reversed = false;
        for player in &self.players {
            if !(1..=first).any(|r| player.entry(r).is_paired()) {
                continue;
            }
            if let Some(colour) = player.entry(first).colour() {
                return Some(if reversed { colour.opposite() } else { colour });
            }
            reversed = !reversed;
        }
        None
    }

    /// The tournament as it stood before round `round + 1` was paired: rounds 1 to `round`
    /// as they were, and of round `round + 1` only the byes players had asked for (half-point,
    /// full-point and zero-point byes, announced in advance), which the pairing must respect.
    /// The points and ranks the source reported are dropped (they were for the full file).
    pub fn cut_after(&self, round: u32) -> Tournament {
        let mut cut = self.clone();
        for player in &mut cut.players {
            let next = player.entry(round + 1);
            player.rounds.truncate(round as usize);
            player.rounds.resize(round as usize, RoundEntry::NotPaired);
            if let RoundEntry::Bye(bye @ (Bye::HalfPoint | Bye::FullPoint | Bye::ZeroPoint)) = next
            {
                player.set_entry(round + 1, RoundEntry::Bye(bye));
            }
            player.reported_points = None;
            player.reported_rank = None;
        }
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::GameResult;

    fn game(opponent: u32, colour: Colour) -> RoundEntry {
        RoundEntry::Game {
            opponent: StartNo(opponent),
            colour,
            result: GameResult::Draw,
            rated: true,
        }
    }

    #[test]
    fn history_ignores_forfeits_for_colours_but_not_for_opponents() {
        let mut p = Player::new(1, "A");
        p.set_entry(1, game(2, Colour::White));
        p.set_entry(
            2,
            RoundEntry::Forfeit {
                opponent: StartNo(3),
                colour: Some(Colour::White),
                won: true,
            },
        );
        p.set_entry(3, game(4, Colour::Black));
        assert_eq!(p.colours_played(3), [Colour::White, Colour::Black]);
        assert_eq!(p.opponents(3), [StartNo(2), StartNo(3), StartNo(4)]);
        assert!(p.has_played(StartNo(2), 3) && !p.has_played(StartNo(3), 3));
        assert!(p.scored_without_playing(2) && !p.scored_without_playing(1));
    }

    #[test]
    fn cut_after_keeps_the_announced_byes_of_the_next_round() {
        let mut t = Tournament::default();
        let mut a = Player::new(1, "A");
        a.set_entry(1, game(2, Colour::White));
        a.set_entry(2, RoundEntry::Bye(Bye::HalfPoint));
        let mut b = Player::new(2, "B");
        b.set_entry(1, game(1, Colour::Black));
        b.set_entry(2, RoundEntry::Bye(Bye::PairingAllocated));
        t.players = vec![a, b];
        let cut = t.cut_after(1);
        assert_eq!(cut.players[0].entry(2), RoundEntry::Bye(Bye::HalfPoint));
        assert_eq!(cut.players[1].entry(2), RoundEntry::NotPaired);
        assert_eq!(cut.rounds_paired(), 1);
    }
}
