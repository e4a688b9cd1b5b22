//! Pairing the next round from the stored state: the Berger tables for a round robin (C.05
//! Annex 1), the FIDE Dutch system for a Swiss (C.04.3).

use arbiter_tournament::berger::{self, BergerBoard, Cycles};
use arbiter_tournament::dutch;

use super::events::{ByeKind, System};
use super::state::State;

/// A round as paired, before its games exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired {
    /// (white, black), board 1 first.
    pub boards: Vec<(u32, u32)>,
    /// Byes.
    pub byes: Vec<(u32, ByeKind)>,
    /// Boards decided without play (a round robin's withdrawn player): (board index, result).
    pub forfeits: Vec<(usize, &'static str)>,
    /// How it was paired.
    pub explanation: Vec<String>,
}

/// The number of rounds of a round robin of `n` players.
pub fn round_robin_rounds(system: System, n: u32) -> u32 {
    let single = n + n % 2 - 1;
    if system == System::DoubleRoundRobin {
        2 * single
    } else {
        single
    }
}

/// Pair `round` (the next one).
///
/// # Errors
/// Why the round cannot be paired, for a person.
pub async fn pair(state: &State, round: u32) -> Result<Paired, String> {
    let s = state.settings();
    if s.system.is_round_robin() {
        return Ok(round_robin(state, round));
    }
    let model = state.model(Some(round));
    // A large Swiss takes seconds (1,000 players: about 20 s of CPU, BENCHMARKS.md): on a
    // blocking thread, not on an async worker that games' moves need.
    let paired = tokio::task::spawn_blocking(move || dutch::pair(&model, round))
        .await
        .map_err(|e| format!("the pairing failed: {e}"))?
        .map_err(|e| e.to_string())?;
    let mut byes: Vec<(u32, ByeKind)> = state
        .byes
        .iter()
        .filter(|((r, p), _)| *r == round && state.active_in(round).any(|e| e.no == *p))
        .map(|((_, p), k)| (*p, *k))
        .collect();
    if let Some(p) = paired.bye {
        byes.push((p.0, ByeKind::PairingAllocated));
    }
    Ok(Paired {
        boards: paired
            .boards
            .iter()
            .map(|b| (b.white.0, b.black.0))
            .collect(),
        byes,
        forfeits: Vec::new(),
        explanation: paired.explanation,
    })
}

/// C.05: the Berger round; a withdrawn player's game is a forfeit (Art. 6.7.1: the opponent
/// present wins), both withdrawn `-/-`.
fn round_robin(state: &State, round: u32) -> Paired {
    let s = state.settings();
    let n = state.players.len() as u32;
    let cycles = if s.system == System::DoubleRoundRobin {
        Cycles::Double
    } else {
        Cycles::Single
    };
    let all = berger::rounds(n, cycles);
    let table = all
        .get(round.saturating_sub(1) as usize)
        .cloned()
        .unwrap_or_default();
    let out = |p: u32| {
        state
            .player(p)
            .is_some_and(|e| e.withdrawn_from.is_some_and(|from| from <= round))
    };
    let mut paired = Paired {
        boards: Vec::new(),
        byes: Vec::new(),
        forfeits: Vec::new(),
        explanation: vec![format!(
            "Round {round} of the Berger tables for {n} players (C.05 Annex 1){}.",
            if cycles == Cycles::Double && round as usize > all.len() / 2 {
                ", second cycle: colours reversed"
            } else {
                ""
            }
        )],
    };
    for b in table {
        match b {
            BergerBoard::Game(w, bl) => {
                let i = paired.boards.len();
                paired.boards.push((w.0, bl.0));
                let result = match (out(w.0), out(bl.0)) {
                    (false, false) => continue,
                    (true, true) => "-/-",
                    (true, false) => "-/+",
                    (false, true) => "+/-",
                };
                paired.explanation.push(format!(
                    "Board {}: {w}-{bl} is not played ({result}): a player has withdrawn.",
                    i + 1
                ));
                paired.forfeits.push((i, result));
            }
            BergerBoard::Bye(p) => {
                paired
                    .explanation
                    .push(format!("Player {p} meets the dummy number: a free round."));
                paired.byes.push((p.0, ByeKind::Free));
            }
        }
    }
    paired
}
