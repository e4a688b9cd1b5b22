//! A participant: identity, rating and the row of the crosstable.

use std::fmt;

use super::entry::RoundEntry;
use super::points::Points;

/// A player's start (pairing) number, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct StartNo(pub u32);

impl fmt::Display for StartNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A FIDE title, as TRF writes it (`g`, `wm`, …) and as people write it (`GM`, `WIM`, …).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Title {
    /// Grandmaster (`g`).
    GM,
    /// International Master (`m`).
    IM,
    /// FIDE Master (`f`).
    FM,
    /// Candidate Master (`c`).
    CM,
    /// Woman Grandmaster (`wg`).
    WGM,
    /// Woman International Master (`wm`).
    WIM,
    /// Woman FIDE Master (`wf`).
    WFM,
    /// Woman Candidate Master (`wc`).
    WCM,
    /// Any other code, kept as written.
    Other(String),
}

impl Title {
    /// Reads a TRF title code or a title's abbreviation (case-insensitive); `None` when empty.
    pub fn parse(text: &str) -> Option<Title> {
        let text = text.trim();
        Some(match text.to_ascii_lowercase().as_str() {
            "" => return None,
            "g" | "gm" => Title::GM,
            "m" | "im" => Title::IM,
            "f" | "fm" => Title::FM,
            "c" | "cm" => Title::CM,
            "wg" | "wgm" => Title::WGM,
            "wm" | "wim" => Title::WIM,
            "wf" | "wfm" => Title::WFM,
            "wc" | "wcm" => Title::WCM,
            _ => Title::Other(text.to_string()),
        })
    }

    /// The TRF code (`g`, `wm`, …).
    pub fn trf_code(&self) -> &str {
        match self {
            Title::GM => "g",
            Title::IM => "m",
            Title::FM => "f",
            Title::CM => "c",
            Title::WGM => "wg",
            Title::WIM => "wm",
            Title::WFM => "wf",
            Title::WCM => "wc",
            Title::Other(code) => code,
        }
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Title::GM => "GM",
            Title::IM => "IM",
            Title::FM => "FM",
            Title::CM => "CM",
            Title::WGM => "WGM",
            Title::WIM => "WIM",
            Title::WFM => "WFM",
            Title::WCM => "WCM",
            Title::Other(code) => code,
        })
    }
}

/// A participant and their row of results.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Player {
    /// Start (pairing) number.
    pub start_no: StartNo,
    /// Name as the organiser writes it (TRF: `Surname, Given names`).
    pub name: String,
    /// Sex as TRF records it (`m`, `w`), if given.
    pub sex: Option<char>,
    /// FIDE title.
    pub title: Option<Title>,
    /// Rating used for the tournament (TRF: the FIDE rating); `None` for unrated players.
    pub rating: Option<u16>,
    /// Federation (three letters).
    pub federation: String,
    /// FIDE ID.
    pub fide_id: Option<u64>,
    /// Birth date as written (TRF: `YYYY/MM/DD`, or only the year).
    pub birth_date: String,
    /// The account of an online player, if any (not part of TRF).
    pub account: Option<String>,
    /// The points the source file reported (TRF column 81); scores are computed, this is kept
    /// to write the file back as it was.
    pub reported_points: Option<Points>,
    /// The rank the source file reported (TRF column 86).
    pub reported_rank: Option<u32>,
    /// The first round the player no longer takes part in, when they withdrew (C.04.1: a
    /// withdrawn player is not paired again). TRF has no field for it.
    pub withdrawn_from: Option<u32>,
    /// Round 1, round 2, …: what the player did in each. Missing rounds at the end are
    /// [`RoundEntry::NotPaired`].
    pub rounds: Vec<RoundEntry>,
}

impl Default for StartNo {
    fn default() -> StartNo {
        StartNo(1)
    }
}

impl Player {
    /// A player with a start number and a name and nothing else.
    pub fn new(start_no: u32, name: impl Into<String>) -> Player {
        Player {
            start_no: StartNo(start_no),
            name: name.into(),
            ..Player::default()
        }
    }

    /// The player's entry for `round` (from 1); [`RoundEntry::NotPaired`] beyond the row.
    pub fn entry(&self, round: u32) -> RoundEntry {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
            .copied()
            .unwrap_or(RoundEntry::NotPaired)
    }

    /// Sets the entry for `round` (from 1), extending the row with `NotPaired` as needed.
    ///
    /// # Panics
    /// When `round` is 0.
    pub fn set_entry(&mut self, round: u32, entry: RoundEntry) {
        assert!(round >= 1, "rounds are numbered from 1");
        let index = (round - 1) as usize;
        if self.rounds.len() <= index {
            self.rounds.resize(index + 1, RoundEntry::NotPaired);
        }
        self.rounds[index] = entry;
    }

    /// The first round the player took part in (paired, or given any bye): a late entry's first
    /// rounds are `NotPaired`.
    pub fn first_round(&self) -> Option<u32> {
        self.rounds
            .iter()
            .position(|e| *e != RoundEntry::NotPaired)
            .map(|i| i as u32 + 1)
    }

    /// Whether the player may be paired in `round`: not withdrawn before it.
    pub fn is_active_in(&self, round: u32) -> bool {
        self.withdrawn_from.is_none_or(|from| round < from)
    }
}
