//! Colours: whether two players may meet at all given their colour preferences (C.04.3 C3),
//! and which colour each gets once paired (C.04.3 E).

use crate::model::Colour;

use super::facts::{Facts, Field};

/// Whether two preferences can both be met: they differ, or one player has none.
pub(super) fn preferences_fit(a: Option<Colour>, b: Option<Colour>) -> bool {
    a.is_none() || b.is_none() || a != b
}

/// C.04.3 C3: two players with the same absolute colour preference do not meet — except
/// topscorers in the last round (A.7).
pub(super) fn absolute_colours_allow(field: &Field, a: &Facts, b: &Facts) -> bool {
    !a.absolute()
        || !b.absolute()
        || a.preference != b.preference
        || (field.last_round
            && (a.score > field.topscorer_threshold || b.score > field.topscorer_threshold))
}

/// The colour `player` gets against `opponent` (C.04.3 E.1–E.5), `initial` being the colour
/// drawn for the top-ranked player in round 1.
pub(super) fn allocate(player: &Facts, opponent: &Facts, initial: Colour) -> Colour {
    if let Some(colour) = by_preferences(player, opponent) {
        return colour;
    }
    // E.5: the higher ranked player (score, then pairing number) gets their preference; with
    // no preference at all, odd pairing numbers get the initial colour (the rank is from 0).
    let player_higher = (player.score, std::cmp::Reverse(player.rank))
        > (opponent.score, std::cmp::Reverse(opponent.rank));
    let (higher, player_is_higher) = if player_higher {
        (player, true)
    } else {
        (opponent, false)
    };
    let higher_colour = match player.preference {
        None => {
            if higher.rank % 2 == 1 {
                initial.opposite()
            } else {
                initial
            }
        }
        // The preferences are the same here: the higher player's is the player's.
        Some(preference) => preference,
    };
    if player_is_higher {
        higher_colour
    } else {
        higher_colour.opposite()
    }
}

/// E.1–E.4: the colour decided by the two preferences, or `None` when they leave it open.
fn by_preferences(player: &Facts, opponent: &Facts) -> Option<Colour> {
    if preferences_fit(player.preference, opponent.preference) {
        // E.1: both preferences met (or the only one there is).
        return player
            .preference
            .or_else(|| opponent.preference.map(Colour::opposite));
    }
    // Same preference from here on.
    let preference = player.preference?;
    if player.absolute() && (player.imbalance > opponent.imbalance || !opponent.absolute()) {
        // E.2: the stronger absolute preference wins.
        return Some(preference);
    }
    if opponent.absolute() && (opponent.imbalance > player.imbalance || !player.absolute()) {
        return Some(preference.opposite());
    }
    // E.3: a strong preference beats a mild one.
    if player.strong && !opponent.strong {
        return Some(preference);
    }
    if opponent.strong && !player.strong {
        return Some(preference.opposite());
    }
    // E.4: alternate from the latest round in which they had different colours.
    let mut mine = player.colours.iter().rev();
    let mut theirs = opponent.colours.iter().rev();
    loop {
        match (mine.next(), theirs.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (Some(_), Some(&b)) => return Some(b),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::dutch::facts::Float;
    use crate::model::StartNo;

    fn facts(rank: usize, score: i64, colours: &[Colour]) -> Facts {
        let whites = colours.iter().filter(|&&c| c == Colour::White).count();
        let blacks = colours.len() - whites;
        let imbalance = whites.abs_diff(blacks);
        let last = colours.last().copied();
        let run = last.map_or(0, |c| colours.iter().rev().take_while(|&&x| x == c).count());
        let lower = if whites > blacks {
            Colour::Black
        } else {
            Colour::White
        };
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Colour::opposite)
        } else if imbalance > 0 {
            Some(lower)
        } else {
            last.map(Colour::opposite)
        };
        let repeated = if run > 1 { last } else { None };
        Facts {
            start_no: StartNo(rank as u32 + 1),
            rank,
            score,
            played_games: colours.len(),
            colours: colours.to_vec(),
            preference,
            imbalance,
            repeated,
            strong: imbalance == 1 && repeated.is_none(),
            floats: [Float::None; 2],
            bye_eligible: true,
            played: HashSet::new(),
        }
    }

    use Colour::{Black as B, White as W};

    #[test]
    fn c04_3_e1_both_preferences_met() {
        let a = facts(0, 10, &[W]);
        let b = facts(1, 10, &[B]);
        assert_eq!(allocate(&a, &b, W), B);
        assert_eq!(allocate(&b, &a, W), W);
    }

    #[test]
    fn c04_3_e2_the_absolute_preference_wins_over_a_mild_one() {
        let a = facts(0, 10, &[B, W, W]);
        let b = facts(1, 10, &[W, B, W]);
        // a has played white twice running (absolute black); b prefers black mildly.
        assert_eq!(allocate(&a, &b, W), B);
        assert_eq!(allocate(&b, &a, W), W);
    }

    #[test]
    fn c04_3_e4_alternate_from_the_last_round_with_different_colours() {
        // Both prefer black mildly; going back, they first differ in round 2, where a had
        // white and b black: now a gets black and b white.
        let a = facts(0, 10, &[B, W, B, W]);
        let b = facts(1, 10, &[W, B, B, W]);
        assert_eq!(allocate(&a, &b, W), B);
        assert_eq!(allocate(&b, &a, W), W);
    }

    #[test]
    fn c04_3_e5_the_higher_ranked_player_decides_and_round_one_alternates_by_number() {
        let top = facts(0, 0, &[]);
        let second = facts(1, 0, &[]);
        let third = facts(2, 0, &[]);
        assert_eq!(allocate(&top, &third, W), W);
        assert_eq!(allocate(&third, &top, W), B);
        assert_eq!(
            allocate(&second, &third, W),
            B,
            "even numbers get the other colour"
        );
        assert_eq!(allocate(&top, &third, B), B);
    }
}
