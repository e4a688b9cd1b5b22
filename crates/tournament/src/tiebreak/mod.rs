//! Tie-breaks (FIDE Handbook C.07): the rules in force from 1 March 2026 by default, the 2024
//! rules selectable ([`Rules`]).
//!
//! [`standings`] ranks the players by points and then by the tie-breaks in the order the
//! competition chose ([`StandingsConfig`]), each tie-break named by its C.07 abbreviation
//! ([`TieBreak`]: `PTS BH BH/C1 BH/C2 BH/M1 SB DE WIN WON BPG BWG GE ARO TPR PTP KS`).
//!
//! Where each rule lives: DE §6; WIN, WON, BPG, BWG, GE (REP) §7.1–7.4, 7.6; BH §8.1; SB §9.1;
//! KS §9.2; ARO, TPR, PTP §10.1–10.3; cuts and medians §14.1–14.4; unplayed rounds §16.
//!
//! Unplayed rounds follow C.07 §16: in a Swiss, a participant's own unplayed rounds count for
//! their Buchholz as a virtual opponent with their own score (2024), capped in 2026 (§16.4);
//! for their opponents, a participant's voluntarily unplayed rounds after their last
//! appearance count as draws (§16.3). In a round robin a forfeited game counts as played and a
//! bye counts for nothing.
//!
//! ```
//! use arbiter_tournament::model::StartNo;
//! use arbiter_tournament::tiebreak::{standings, StandingsConfig, TieBreak};
//!
//! // Round 1: 1 beats 2, 3 has the pairing-allocated bye; round 2: 3 draws with 1, 2 has the bye.
//! let text = "092 FIDE_DUTCH_2025\n\
//! 001    1      A                                 2000                             1.5    1     2 w 1     3 b =\n\
//! 001    2      B                                 2000                             1.0    3     1 b 0  0000 - U\n\
//! 001    3      C                                 2000                             1.5    2  0000 - U     1 w =\n";
//! let tournament = arbiter_tournament::trf::read(text).tournament;
//! let config = StandingsConfig { tie_breaks: vec!["BH".parse().unwrap()], ..Default::default() };
//! let table = standings(&tournament, &config);
//! let bh = |n| table.value(StartNo(n), TieBreak::Buchholz(Default::default())).unwrap().to_string();
//! // 1 met 2 (1 point) and 3 (1.5). 3 met 1 (1.5); its bye counts its own 1.5 capped at half
//! // the maximum, 1 (C.07 2026 §16.4.2).
//! assert_eq!((bh(1), bh(3)), ("2.5".to_string(), "2.5".to_string()));
//! assert_eq!((table.rows[0].rank, table.rows[1].rank, table.rows[2].rank), (1, 1, 3));
//! //! ```

mod buchholz;
mod counts;
mod crosstable;
mod direct;
mod kind;
mod koya;
mod rating;
mod standings;

pub use kind::{Cut, ParseTieBreakError, Rules, TieBreak};
pub use standings::{standings, Standings, StandingsConfig, StandingsRow};
