//! Login attempts, limited per client address and per username (governor's keyed GCRA
//! limiters): guessing passwords is slow from one address, and slow against one account from
//! many addresses.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::AppError;

/// The two limiters.
#[derive(Debug)]
pub struct LoginLimits {
    per_address: DefaultKeyedRateLimiter<IpAddr>,
    per_account: DefaultKeyedRateLimiter<String>,
}

fn quota(burst: u32, every: Duration) -> Quota {
    Quota::with_period(every)
        .expect("a positive period")
        .allow_burst(NonZeroU32::new(burst).expect("a positive burst"))
}

impl Default for LoginLimits {
    /// 20 attempts at once then one every 3 s per address; 10 at once then one every 20 s
    /// per username.
    fn default() -> Self {
        Self::new(
            quota(20, Duration::from_secs(3)),
            quota(10, Duration::from_secs(20)),
        )
    }
}

impl LoginLimits {
    /// Limiters with the given quotas.
    pub fn new(per_address: Quota, per_account: Quota) -> Self {
        Self {
            per_address: RateLimiter::keyed(per_address),
            per_account: RateLimiter::keyed(per_account),
        }
    }

    /// Count one attempt from `address` at `username_key`.
    ///
    /// # Errors
    /// 429 `too_many_attempts` with the seconds to wait.
    pub fn check(&self, address: IpAddr, username_key: &str) -> Result<(), AppError> {
        let clock = DefaultClock::default();
        let wait = |n: governor::NotUntil<_>| AppError::TooManyRequests {
            retry_after_secs: n.wait_time_from(clock.now()).as_secs().max(1),
        };
        self.per_address.check_key(&address).map_err(wait)?;
        self.per_account
            .check_key(&username_key.to_owned())
            .map_err(wait)?;
        if self.per_address.len() > 100_000 {
            self.per_address.retain_recent();
            self.per_account.retain_recent();
        }
        Ok(())
    }
}
