//! Login attempts, limited per client address and per username (governor's keyed GCRA
//! limiters): guessing passwords is slow from one address, and slow against one account from
//! many addresses. Sign-ups, limited per client address: each costs an argon2 hash and an
//! account row. The client address is the TCP peer, or behind a proxy the operator trusts,
//! the address the proxy names in `X-Forwarded-For`.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::AppError;

/// A rate: `burst` at once, then one every `every`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Allowed at once.
    pub burst: u32,
    /// Then one each this long.
    pub every: Duration,
}

/// Sign-ups per client address by default: 30 at once (a club signing up together), then one
/// every 30 s.
pub const SIGN_UPS_PER_ADDRESS: RateLimit = RateLimit {
    burst: 30,
    every: Duration::from_secs(30),
};

/// The limiters.
#[derive(Debug)]
pub struct LoginLimits {
    per_address: DefaultKeyedRateLimiter<IpAddr>,
    per_account: DefaultKeyedRateLimiter<String>,
    /// `None`: sign-ups are not limited.
    sign_ups: Option<DefaultKeyedRateLimiter<IpAddr>>,
}

fn quota(burst: u32, every: Duration) -> Quota {
    Quota::with_period(every)
        .expect("a positive period")
        .allow_burst(NonZeroU32::new(burst).expect("a positive burst"))
}

impl Default for LoginLimits {
    /// 20 attempts at once then one every 3 s per address; 10 at once then one every 20 s
    /// per username; sign-ups as [`SIGN_UPS_PER_ADDRESS`].
    fn default() -> Self {
        Self::new(
            quota(20, Duration::from_secs(3)),
            quota(10, Duration::from_secs(20)),
        )
        .with_sign_ups(Some(SIGN_UPS_PER_ADDRESS))
    }
}

fn too_many(n: governor::NotUntil<governor::clock::QuantaInstant>) -> AppError {
    AppError::TooManyRequests {
        retry_after_secs: n
            .wait_time_from(DefaultClock::default().now())
            .as_secs()
            .max(1),
    }
}

impl LoginLimits {
    /// Limiters with the given quotas.
    pub fn new(per_address: Quota, per_account: Quota) -> Self {
        Self {
            per_address: RateLimiter::keyed(per_address),
            per_account: RateLimiter::keyed(per_account),
            sign_ups: None,
        }
    }

    /// The same, with sign-ups limited per address by `limit` (`None`: not limited).
    pub fn with_sign_ups(mut self, limit: Option<RateLimit>) -> Self {
        self.sign_ups = limit
            .filter(|l| l.burst > 0 && !l.every.is_zero())
            .map(|l| RateLimiter::keyed(quota(l.burst, l.every)));
        self
    }

    /// Count one sign-up from `address`.
    ///
    /// # Errors
    /// 429 `too_many_attempts` with the seconds to wait.
    pub fn check_sign_up(&self, address: IpAddr) -> Result<(), AppError> {
        let Some(limiter) = &self.sign_ups else {
            return Ok(());
        };
        limiter.check_key(&address).map_err(too_many)?;
        if limiter.len() > 100_000 {
            limiter.retain_recent();
        }
        Ok(())
    }

    /// Count one attempt from `address` at `username_key`.
    ///
    /// # Errors
    /// 429 `too_many_attempts` with the seconds to wait.
    pub fn check(&self, address: IpAddr, username_key: &str) -> Result<(), AppError> {
        self.per_address.check_key(&address).map_err(too_many)?;
        self.per_account
            .check_key(&username_key.to_owned())
            .map_err(too_many)?;
        if self.per_address.len() > 100_000 {
            self.per_address.retain_recent();
            self.per_account.retain_recent();
        }
        Ok(())
    }
}

/// The client's address: the TCP `peer`, unless the peer is one of the operator's `trusted`
/// proxies; then the nearest address in `X-Forwarded-For` (read from the right, as each proxy
/// appends the address it received from) that is not itself a trusted proxy. A header a client
/// wrote itself can only add addresses to the left of the ones trusted proxies appended, so it
/// cannot choose the address this returns.
pub fn client_address(peer: IpAddr, forwarded_for: Option<&str>, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let Some(header) = forwarded_for else {
        return peer;
    };
    let mut nearest = peer;
    for part in header.rsplit(',') {
        let Ok(ip) = part.trim().parse::<IpAddr>() else {
            // Unreadable: stop at the last address vouched for.
            return nearest;
        };
        nearest = ip;
        if !trusted.contains(&ip) {
            return ip;
        }
    }
    nearest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn forwarded_for_counts_only_behind_a_trusted_proxy() {
        let proxy = ip("10.0.0.1");
        let trusted = [proxy];
        // Straight from the client: the header is the client's own words.
        assert_eq!(
            client_address(ip("203.0.113.9"), Some("198.51.100.7"), &trusted),
            ip("203.0.113.9")
        );
        // Through the proxy: the address it appended.
        assert_eq!(
            client_address(proxy, Some("198.51.100.7"), &trusted),
            ip("198.51.100.7")
        );
        // A client's forged entry sits left of the proxy's: ignored.
        assert_eq!(
            client_address(proxy, Some("1.2.3.4, 198.51.100.7"), &trusted),
            ip("198.51.100.7")
        );
        // Two trusted proxies in a row.
        let two = [proxy, ip("10.0.0.2")];
        assert_eq!(
            client_address(proxy, Some("198.51.100.7, 10.0.0.2"), &two),
            ip("198.51.100.7")
        );
        // No header, or garbage: the proxy's own address.
        assert_eq!(client_address(proxy, None, &trusted), proxy);
        assert_eq!(client_address(proxy, Some("junk"), &trusted), proxy);
    }

    #[test]
    fn sign_ups_are_limited_per_address() {
        let limits = LoginLimits::default().with_sign_ups(Some(RateLimit {
            burst: 3,
            every: Duration::from_secs(60),
        }));
        let (a, b) = (ip("192.0.2.1"), ip("192.0.2.2"));
        for _ in 0..3 {
            assert!(limits.check_sign_up(a).is_ok());
        }
        let refused = limits.check_sign_up(a).unwrap_err();
        assert!(matches!(
            refused,
            AppError::TooManyRequests { retry_after_secs } if (1..=60).contains(&retry_after_secs)
        ));
        assert!(
            limits.check_sign_up(b).is_ok(),
            "another address is not affected"
        );
        let open = LoginLimits::default().with_sign_ups(None);
        for _ in 0..100 {
            assert!(open.check_sign_up(a).is_ok());
        }
    }
}
