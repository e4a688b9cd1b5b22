//! A tournament's state, rebuilt by applying its events in order; and the same state as the
//! tournament crate's model ([`State::model`]), from which pairings, standings and the TRF
//! are computed.

use std::collections::{BTreeMap, BTreeSet};

use arbiter_tournament::model::{
    Bye, Colour, ForbiddenPairs, Format, GameResult, Player, Points, RoundEntry, ScoringSystem,
    StartNo, Title, Tournament,
};
use arbiter_tournament::tiebreak::{self, Rules, Standings, StandingsConfig, TieBreak};

use super::events::{ByeKind, Event, PairedBoard, Settings, System};

/// A player of the tournament.
#[derive(Debug, Clone, PartialEq)]
pub struct Entrant {
    /// Start number (provisional before the start).
    pub no: u32,
    /// Name.
    pub name: String,
    /// The account id, if any.
    pub account: Option<String>,
    /// Rating.
    pub rating: Option<u16>,
    /// FIDE title.
    pub title: Option<String>,
    /// Federation.
    pub federation: String,
    /// FIDE id.
    pub fide_id: Option<u64>,
    /// Not paired from this round on (`Some(1)` before the start: left out).
    pub withdrawn_from: Option<u32>,
}

impl Entrant {
    /// Withdrawn now.
    pub fn withdrawn(&self) -> bool {
        self.withdrawn_from.is_some()
    }
}

/// A board of a paired round.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardState {
    /// As paired.
    pub paired: PairedBoard,
    /// Result, once known.
    pub result: Option<String>,
    /// How it ended.
    pub termination: Option<String>,
}

/// A paired round.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundState {
    /// Number, from 1.
    pub round: u32,
    /// Unix ms.
    pub paired_at: i64,
    /// Boards.
    pub boards: Vec<BoardState>,
    /// Byes.
    pub byes: Vec<(u32, ByeKind)>,
    /// How it was paired.
    pub explanation: Vec<String>,
    /// Art. 6.7.1: when absent players lose, unix ms (until applied).
    pub deadline: Option<i64>,
    /// Players checked in.
    pub present: BTreeSet<u32>,
    /// When the last result came in, unix ms.
    pub completed_at: Option<i64>,
}

impl RoundState {
    /// Every board has a result.
    pub fn complete(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }

    /// The board of a player, if paired on one.
    pub fn board_of(&self, player: u32) -> Option<&BoardState> {
        self.boards
            .iter()
            .find(|b| b.paired.white == player || b.paired.black == player)
    }
}

/// The whole state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct State {
    /// Id.
    pub id: String,
    /// Rules.
    pub settings: Option<Settings>,
    /// The director's account id.
    pub director: String,
    /// The director's username.
    pub director_name: String,
    /// Unix ms.
    pub created_at: i64,
    /// Self-registration open (the director's switch).
    pub registration_open: bool,
    /// No automatic pairing.
    pub paused: bool,
    /// Unix ms.
    pub started_at: Option<i64>,
    /// Unix ms.
    pub finished_at: Option<i64>,
    /// Rounds planned (known at the start for a round robin).
    pub planned_rounds: Option<u32>,
    /// Players, by start number.
    pub players: Vec<Entrant>,
    /// Paired rounds, round 1 first.
    pub rounds: Vec<RoundState>,
    /// Byes granted for rounds not paired yet: (round, player) → kind.
    pub byes: BTreeMap<(u32, u32), ByeKind>,
    /// Pairs that may not meet.
    pub forbidden: Vec<[u32; 2]>,
    /// Number of the last event applied.
    pub last_seq: i64,
}

impl State {
    /// The settings (set by the first event).
    ///
    /// # Panics
    /// Before the `created` event (never for a stored tournament).
    pub fn settings(&self) -> &Settings {
        self.settings.as_ref().expect("a tournament has settings")
    }

    /// `upcoming`, `running` or `finished`.
    pub fn status(&self) -> &'static str {
        if self.finished_at.is_some() {
            "finished"
        } else if self.started_at.is_some() {
            "running"
        } else {
            "upcoming"
        }
    }

    /// The last round paired (0 before the first).
    pub fn current_round(&self) -> u32 {
        self.rounds.len() as u32
    }

    /// The current round, if any.
    pub fn current(&self) -> Option<&RoundState> {
        self.rounds.last()
    }

    /// A paired round.
    pub fn round(&self, round: u32) -> Option<&RoundState> {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
    }

    fn round_mut(&mut self, round: u32) -> Option<&mut RoundState> {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get_mut(i as usize))
    }

    /// A player by start number.
    pub fn player(&self, no: u32) -> Option<&Entrant> {
        self.players.iter().find(|p| p.no == no)
    }

    fn player_mut(&mut self, no: u32) -> Option<&mut Entrant> {
        self.players.iter_mut().find(|p| p.no == no)
    }

    /// The player holding an account.
    pub fn player_of(&self, account: &str) -> Option<&Entrant> {
        self.players
            .iter()
            .find(|p| p.account.as_deref() == Some(account))
    }

    /// The players who may be paired in `round`.
    pub fn active_in(&self, round: u32) -> impl Iterator<Item = &Entrant> {
        self.players
            .iter()
            .filter(move |p| p.withdrawn_from.is_none_or(|from| round < from))
    }

    /// Apply one stored event (the same code builds the state live and on replay).
    pub fn apply(&mut self, event: &Event, at: i64) {
        match event {
            Event::Created {
                settings,
                director,
                director_name,
                registration_open,
            } => {
                self.settings = Some(settings.clone());
                self.director = director.clone();
                self.director_name = director_name.clone();
                self.created_at = at;
                self.registration_open = *registration_open;
                self.planned_rounds = settings.rounds;
            }
            Event::Registered {
                player,
                name,
                account,
                rating,
                title,
                federation,
                fide_id,
            } => self.players.push(Entrant {
                no: *player,
                name: name.clone(),
                account: account.clone(),
                rating: *rating,
                title: title.clone(),
                federation: federation.clone(),
                fide_id: *fide_id,
                withdrawn_from: None,
            }),
            Event::Withdrawn {
                player, from_round, ..
            } => {
                if let Some(p) = self.player_mut(*player) {
                    p.withdrawn_from = Some(*from_round);
                }
            }
            Event::Readmitted { player } => {
                if let Some(p) = self.player_mut(*player) {
                    p.withdrawn_from = None;
                }
            }
            Event::Bye { player, round, bye } => {
                self.byes.insert((*round, *player), *bye);
            }
            Event::Forbidden { players } => self.forbidden.push(*players),
            Event::Registration { open } => self.registration_open = *open,
            Event::Paused => self.paused = true,
            Event::Resumed => self.paused = false,
            Event::Started { order, rounds } => {
                let mut players = Vec::with_capacity(order.len());
                for (i, old) in order.iter().enumerate() {
                    if let Some(p) = self.player(*old) {
                        let mut p = p.clone();
                        p.no = i as u32 + 1;
                        players.push(p);
                    }
                }
                self.players = players;
                self.started_at = Some(at);
                self.planned_rounds = Some(*rounds);
            }
            Event::RoundPaired {
                round,
                boards,
                byes,
                explanation,
                deadline,
            } => {
                for (player, _) in byes {
                    self.byes.remove(&(*round, *player));
                }
                self.rounds.push(RoundState {
                    round: *round,
                    paired_at: at,
                    boards: boards
                        .iter()
                        .map(|b| BoardState {
                            paired: b.clone(),
                            result: None,
                            termination: None,
                        })
                        .collect(),
                    byes: byes.clone(),
                    explanation: explanation.clone(),
                    deadline: *deadline,
                    present: BTreeSet::new(),
                    completed_at: boards.is_empty().then_some(at),
                });
            }
            Event::Present { round, player } => {
                if let Some(r) = self.round_mut(*round) {
                    r.present.insert(*player);
                }
            }
            Event::Result {
                round,
                board,
                result,
                termination,
                ..
            } => {
                if let Some(r) = self.round_mut(*round) {
                    if let Some(b) = r.boards.iter_mut().find(|b| b.paired.board == *board) {
                        b.result = Some(result.clone());
                        b.termination = termination.clone();
                    }
                    if r.complete() && r.completed_at.is_none() {
                        r.completed_at = Some(at);
                    }
                }
            }
            Event::DefaultsApplied { round } => {
                if let Some(r) = self.round_mut(*round) {
                    r.deadline = None;
                }
            }
            Event::Finished => self.finished_at = Some(at),
        }
    }

    /// The scoring system of the tournament crate.
    pub fn scoring(&self) -> ScoringSystem {
        let s = self.settings().scoring;
        let p = |x: f64| Points::from_hundredths((x * 100.0).round() as i64);
        let mut scoring = ScoringSystem::with_game_points(p(s.win), p(s.draw), p(s.loss));
        scoring.pairing_allocated_bye = p(s.bye);
        scoring
    }

    /// The C.07 configuration.
    pub fn standings_config(&self) -> StandingsConfig {
        let s = self.settings();
        let mut tie_breaks: Vec<TieBreak> =
            s.tiebreaks.iter().filter_map(|t| t.parse().ok()).collect();
        if !tie_breaks.contains(&TieBreak::Points) {
            tie_breaks.insert(0, TieBreak::Points);
        }
        StandingsConfig {
            rules: s.tiebreak_rules.parse().unwrap_or(Rules::Fide2026),
            tie_breaks,
            ..StandingsConfig::default()
        }
    }

    /// The standings now.
    pub fn standings(&self) -> (Tournament, Standings) {
        let model = self.model(None);
        let standings = tiebreak::standings(&model, &self.standings_config());
        (model, standings)
    }

    /// The tournament as the tournament crate models it, with the byes granted for
    /// `announced` (the round about to be paired) entered.
    pub fn model(&self, announced: Option<u32>) -> Tournament {
        let s = self.settings();
        let mut players: Vec<Player> = self
            .players
            .iter()
            .map(|e| Player {
                start_no: StartNo(e.no),
                name: e.name.clone(),
                title: e.title.as_deref().and_then(Title::parse),
                rating: e.rating,
                federation: e.federation.clone(),
                fide_id: e.fide_id,
                account: e.account.clone(),
                withdrawn_from: e.withdrawn_from,
                ..Player::default()
            })
            .collect();
        let index: BTreeMap<u32, usize> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, e)| (e.no, i))
            .collect();
        let mut set = |no: u32, round: u32, entry: RoundEntry| {
            if let Some(&i) = index.get(&no) {
                players[i].set_entry(round, entry);
            }
        };
        for r in &self.rounds {
            for b in &r.boards {
                let (w, bl) = (b.paired.white, b.paired.black);
                let (we, be) = entries(w, bl, b.result.as_deref());
                set(w, r.round, we);
                set(bl, r.round, be);
            }
            for (p, kind) in &r.byes {
                set(*p, r.round, bye_entry(*kind));
            }
        }
        if let Some(round) = announced {
            for ((r, p), kind) in &self.byes {
                if *r == round {
                    set(*p, round, bye_entry(*kind));
                }
            }
        }
        Tournament {
            name: s.name.clone(),
            system: match s.system {
                System::Swiss => "FIDE_DUTCH_2026".into(),
                System::RoundRobin | System::DoubleRoundRobin => "Round robin".into(),
            },
            time_control: s.time_control.clone(),
            planned_rounds: self.planned_rounds,
            initial_colour: Some(Colour::White),
            format: Some(if s.system.is_round_robin() {
                Format::RoundRobin
            } else {
                Format::Swiss
            }),
            scoring: self.scoring(),
            forbidden_pairs: self
                .forbidden
                .iter()
                .map(|[a, b]| ForbiddenPairs {
                    players: vec![StartNo(*a), StartNo(*b)],
                    rounds: None,
                })
                .collect(),
            players,
            ..Tournament::default()
        }
    }
}

/// The crosstable entries of White and Black for a board's result (`None`: being played).
pub fn entries(white: u32, black: u32, result: Option<&str>) -> (RoundEntry, RoundEntry) {
    let game = |opponent: u32, colour: Colour, result: GameResult| RoundEntry::Game {
        opponent: StartNo(opponent),
        colour,
        result,
        rated: true,
    };
    let forfeit = |opponent: u32, colour: Colour, won: bool| RoundEntry::Forfeit {
        opponent: StartNo(opponent),
        colour: Some(colour),
        won,
    };
    let (w, b) = (Colour::White, Colour::Black);
    match result {
        Some("1-0") => (
            game(black, w, GameResult::Win),
            game(white, b, GameResult::Loss),
        ),
        Some("0-1") => (
            game(black, w, GameResult::Loss),
            game(white, b, GameResult::Win),
        ),
        Some("1/2-1/2") => (
            game(black, w, GameResult::Draw),
            game(white, b, GameResult::Draw),
        ),
        Some("+/-") => (forfeit(black, w, true), forfeit(white, b, false)),
        Some("-/+") => (forfeit(black, w, false), forfeit(white, b, true)),
        Some("-/-") => (forfeit(black, w, false), forfeit(white, b, false)),
        _ => (
            RoundEntry::Pending {
                opponent: StartNo(black),
                colour: w,
            },
            RoundEntry::Pending {
                opponent: StartNo(white),
                colour: b,
            },
        ),
    }
}

fn bye_entry(kind: ByeKind) -> RoundEntry {
    match kind {
        ByeKind::PairingAllocated => RoundEntry::Bye(Bye::PairingAllocated),
        ByeKind::Full => RoundEntry::Bye(Bye::FullPoint),
        ByeKind::Half => RoundEntry::Bye(Bye::HalfPoint),
        ByeKind::Zero => RoundEntry::Bye(Bye::ZeroPoint),
        // C.05: the player meeting the dummy number has a free round, no game, no points.
        ByeKind::Free => RoundEntry::NotPaired,
    }
}

/// The results a director may enter.
pub const RESULTS: [&str; 6] = ["1-0", "1/2-1/2", "0-1", "+/-", "-/+", "-/-"];
