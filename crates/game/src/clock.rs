//! The chess clock (Art. 6): two displays, one running at a time, driven by timestamps.

use crate::time_control::{period_of_move, DelayKind, Period, TimeControl};
use crate::Millis;
use arbiter_rules::Color;

/// Where a player's time came from and went, so that
/// `initial + periods + increments + refunds + added + received + resets + corrected_up
/// − used − corrected_down − lapsed = remaining`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClockLedger {
    /// Time of the first period (or the hourglass, or the per-move limit).
    pub initial_ms: Millis,
    /// Time of later periods, added at the move counter (Art. 6.3.1, 6.3.2).
    pub periods_ms: Millis,
    /// Fischer increments (Art. 6.3.1).
    pub increments_ms: Millis,
    /// Delay not charged to the main time (Art. 6.3.2): `min(time used, delay)` per move.
    pub delay_refunds_ms: Millis,
    /// Time added by the arbiter, including 2-minute bonuses (7.5.5, 9.5.3).
    pub added_ms: Millis,
    /// Hourglass: time the opponent used, added to this player.
    pub received_ms: Millis,
    /// Maximum time per move: the time restored at each new move.
    pub resets_ms: Millis,
    /// Time used thinking (after any lag credit).
    pub used_ms: Millis,
    /// Arbiter's corrections that raised the clock (Art. 6.10.2).
    pub corrected_up_ms: Millis,
    /// Arbiter's corrections that lowered the clock (Art. 6.10.2).
    pub corrected_down_ms: Millis,
    /// Maximum time per move: time above the limit that lapsed at a move (arbiter's
    /// additions do not carry over).
    pub lapsed_ms: Millis,
}

impl ClockLedger {
    /// What the clock should show by the ledger (saturating at zero).
    pub fn balance(&self) -> Millis {
        (self.initial_ms
            + self.periods_ms
            + self.increments_ms
            + self.delay_refunds_ms
            + self.added_ms
            + self.received_ms
            + self.resets_ms
            + self.corrected_up_ms)
            .saturating_sub(self.used_ms + self.corrected_down_ms + self.lapsed_ms)
    }
}

/// What the clocks show at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Clocks {
    /// White's remaining time.
    pub white_ms: Millis,
    /// Black's remaining time.
    pub black_ms: Millis,
    /// The clock that is running, if any.
    #[cfg_attr(feature = "serde", serde(with = "opt_color_serde"))]
    pub running: Option<Color>,
    /// Delay still to run before the main time of the running side moves (simple delay),
    /// or that will be given back (Bronstein).
    pub delay_ms: Millis,
}

impl Clocks {
    /// The remaining time of `color`.
    pub fn of(&self, color: Color) -> Millis {
        color.fold(self.white_ms, self.black_ms)
    }
}

#[cfg(feature = "serde")]
mod opt_color_serde {
    use arbiter_rules::Color;

    pub fn serialize<S: serde::Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(c) => s.serialize_some(c.name()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        let s = <Option<String> as serde::Deserialize>::deserialize(d)?;
        s.map(|s| s.parse().map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// The clock state. All instants are the caller's monotonic milliseconds.
#[derive(Debug, Clone)]
pub(crate) struct Clock {
    tc: TimeControl,
    remaining: [Millis; 2],
    /// Moves completed by each player (the clock's move counter).
    moves: [u32; 2],
    running: Option<Color>,
    since: Millis,
    ledger: [ClockLedger; 2],
    /// Increment introduced during the game (Guideline III.4).
    extra_increment_ms: Millis,
}

impl Clock {
    /// `None` for untimed games.
    pub(crate) fn new(tc: &TimeControl) -> Option<Clock> {
        let initial = tc.initial_ms()?;
        let ledger = ClockLedger {
            initial_ms: initial,
            ..ClockLedger::default()
        };
        Some(Clock {
            tc: tc.clone(),
            remaining: [initial; 2],
            moves: [0; 2],
            running: None,
            since: 0,
            ledger: [ledger; 2],
            extra_increment_ms: 0,
        })
    }

    pub(crate) fn running(&self) -> Option<Color> {
        self.running
    }

    pub(crate) fn ledger(&self, color: Color) -> ClockLedger {
        self.ledger[color.index()]
    }

    /// The period `color` is in now.
    fn period(&self, color: Color) -> Option<&Period> {
        match &self.tc {
            TimeControl::Periods(p) => p.get(period_of_move(p, self.moves[color.index()]).0),
            _ => None,
        }
    }

    fn delay(&self, color: Color) -> Option<(DelayKind, Millis)> {
        self.period(color)
            .and_then(|p| p.delay)
            .map(|d| (d.kind, d.ms))
    }

    /// How long the running player may think in this turn before the flag falls.
    fn allowance(&self, color: Color) -> Millis {
        let r = self.remaining[color.index()];
        match self.delay(color) {
            // Art. 6.3.2: the main time starts only after the delay.
            Some((DelayKind::Simple, d)) => r + d,
            _ => r,
        }
    }

    /// The instant the running clock's flag falls.
    pub(crate) fn deadline(&self) -> Option<Millis> {
        let c = self.running?;
        Some(self.since + self.allowance(c))
    }

    /// Time used so far in the current turn at `now`, less `credit`.
    pub(crate) fn elapsed(&self, now: Millis, credit: Millis) -> Millis {
        now.saturating_sub(self.since).saturating_sub(credit)
    }

    /// `true` if the running player used `used` or more: the flag has fallen (the clock
    /// reads zero).
    pub(crate) fn is_flagged_with(&self, used: Millis) -> bool {
        match self.running {
            Some(c) => used >= self.allowance(c),
            None => false,
        }
    }

    /// The readings at `now`.
    pub(crate) fn read(&self, now: Millis) -> Clocks {
        let mut shown = self.remaining;
        let mut delay_ms = 0;
        if let Some(c) = self.running {
            let e = self.elapsed(now, 0);
            let i = c.index();
            match self.delay(c) {
                Some((DelayKind::Simple, d)) => {
                    shown[i] = shown[i].saturating_sub(e.saturating_sub(d));
                    delay_ms = d.saturating_sub(e);
                }
                Some((DelayKind::Bronstein, d)) => {
                    shown[i] = shown[i].saturating_sub(e);
                    delay_ms = d.min(e);
                }
                None => shown[i] = shown[i].saturating_sub(e),
            }
            if let TimeControl::Hourglass(_) = self.tc {
                let o = (!c).index();
                shown[o] += e.min(self.remaining[i]);
            }
        }
        Clocks {
            white_ms: shown[0],
            black_ms: shown[1],
            running: self.running,
            delay_ms,
        }
    }

    /// Starts `color`'s clock at `now`.
    pub(crate) fn start(&mut self, color: Color, now: Millis) {
        self.running = Some(color);
        self.since = now;
    }

    /// Stops the running clock, charging `used` (must be below the allowance, or equal to
    /// it at a flag fall). A simple delay always spares the main time; a Bronstein delay is
    /// given back only for a `completed` move (clock pressed, or a move sealed). No
    /// increment, no move counted.
    pub(crate) fn stop(&mut self, used: Millis, completed: bool) -> Option<Color> {
        let c = self.running.take()?;
        let i = c.index();
        let used = used.min(self.allowance(c));
        self.ledger[i].used_ms += used;
        let refund = match self.delay(c) {
            Some((DelayKind::Simple, d)) => used.min(d),
            Some((DelayKind::Bronstein, d)) if completed => used.min(d),
            _ => 0,
        };
        self.ledger[i].delay_refunds_ms += refund;
        self.remaining[i] = self.remaining[i] + refund - used;
        if let TimeControl::Hourglass(_) = self.tc {
            let o = (!c).index();
            self.remaining[o] += used;
            self.ledger[o].received_ms += used;
        }
        Some(c)
    }

    /// Counts a completed move of `color`: increment of the period the move was made in
    /// (Art. 6.3.1), then, if that move completed a period, the next period's time
    /// (Art. 6.3.2, unused time carries over); a per-move limit is restored.
    pub(crate) fn count_move(&mut self, color: Color) {
        let i = color.index();
        match &self.tc {
            TimeControl::Periods(periods) => {
                let inc =
                    self.period(color).map_or(0, |p| p.increment_ms) + self.extra_increment_ms;
                self.remaining[i] += inc;
                self.ledger[i].increments_ms += inc;
                self.moves[i] += 1;
                let (next, first) = period_of_move(periods, self.moves[i]);
                if first {
                    if let Some(p) = periods.get(next) {
                        self.remaining[i] += p.time_ms;
                        self.ledger[i].periods_ms += p.time_ms;
                    }
                }
            }
            TimeControl::PerMove(limit) => {
                // Nothing carries over to the next move, not even time added by the arbiter.
                let left = self.remaining[i];
                if left <= *limit {
                    self.ledger[i].resets_ms += limit - left;
                } else {
                    self.ledger[i].lapsed_ms += left - limit;
                }
                self.remaining[i] = *limit;
                self.moves[i] += 1;
            }
            _ => self.moves[i] += 1,
        }
    }

    /// Arbiter adds time (Art. 6.10.2, 7.5.5, 9.5.3, 12.9.2).
    pub(crate) fn add(&mut self, color: Color, ms: Millis) {
        self.remaining[color.index()] += ms;
        self.ledger[color.index()].added_ms += ms;
    }

    /// Guideline III.4: from now on both players get `ms` per move.
    pub(crate) fn introduce_increment(&mut self, ms: Millis) {
        self.extra_increment_ms = ms;
    }

    /// `true` if the current period of `color` has neither increment nor delay.
    pub(crate) fn is_sudden_death(&self, color: Color) -> bool {
        matches!(self.tc, TimeControl::Periods(_))
            && self.extra_increment_ms == 0
            && self
                .period(color)
                .is_some_and(|p| p.increment_ms == 0 && p.delay.is_none())
    }

    /// Arbiter sets `color`'s clock (Art. 6.10.2), e.g. to the time of a record.
    pub(crate) fn set(&mut self, color: Color, ms: Millis) {
        let i = color.index();
        let r = self.remaining[i];
        if ms >= r {
            self.ledger[i].corrected_up_ms += ms - r;
        } else {
            self.ledger[i].corrected_down_ms += r - ms;
        }
        self.remaining[i] = ms;
    }

    /// What `color`'s clock would show after a move that used `used` (from the turn start).
    pub(crate) fn preview_after(&self, color: Color, used: Millis) -> Millis {
        let mut c = self.clone();
        if c.running.is_some() {
            c.stop(used, true);
        }
        c.count_move(color);
        c.remaining(color)
    }

    /// The delay of `color`'s current period (0 without delay).
    pub(crate) fn delay_ms(&self, color: Color) -> Millis {
        self.delay(color).map_or(0, |(_, d)| d)
    }

    /// The stored remaining time of `color` (not counting a running turn).
    pub(crate) fn remaining(&self, color: Color) -> Millis {
        self.remaining[color.index()]
    }
}
