//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), lichess's defaults
//! (placeholder until the full version with its tests lands).

/// Rating of a new player.
pub const DEFAULT_RATING: f64 = 1500.0;
/// RD of a new player.
pub const DEFAULT_RD: f64 = 500.0;
/// Volatility of a new player.
pub const DEFAULT_VOLATILITY: f64 = 0.09;
/// System constant τ.
pub const TAU: f64 = 0.75;
/// Smallest RD.
pub const MIN_RD: f64 = 45.0;
/// Largest RD.
pub const MAX_RD: f64 = 500.0;
/// Provisional while RD ≥ this.
pub const PROVISIONAL_RD: f64 = 110.0;
/// Rating periods per day of idle time.
pub const RATING_PERIODS_PER_DAY: f64 = 0.21436;
const SCALE: f64 = 173.7178;
const EPSILON: f64 = 0.000_001;

/// A Glicko-2 rating on the rating scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// Rating.
    pub rating: f64,
    /// Rating deviation.
    pub rd: f64,
    /// Volatility σ.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: DEFAULT_RATING,
            rd: DEFAULT_RD,
            volatility: DEFAULT_VOLATILITY,
        }
    }
}

impl Rating {
    /// Provisional while RD ≥ 110.
    pub fn is_provisional(&self) -> bool {
        self.rd >= PROVISIONAL_RD
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// One rating period's update (steps 1–8).
pub fn update(player: &Rating, games: &[(Rating, f64)], tau: f64) -> Rating {
    let mu = (player.rating - DEFAULT_RATING) / SCALE;
    let phi = player.rd / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            rating: player.rating,
            rd: phi_star * SCALE,
            volatility: sigma,
        };
    }
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for (opp, score) in games {
        let mu_j = (opp.rating - DEFAULT_RATING) / SCALE;
        let phi_j = opp.rd / SCALE;
        let gj = g(phi_j);
        let e = 1.0 / (1.0 + (-gj * (mu - mu_j)).exp());
        v_inv += gj * gj * e * (1.0 - e);
        delta_sum += gj * (score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut fa = f(big_a);
    let mut fb = f(big_b);
    let mut iterations = 0;
    while (big_b - big_a).abs() > EPSILON && iterations < 1000 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
        iterations += 1;
    }
    let new_sigma = (big_a / 2.0).exp();
    let new_sigma = if new_sigma.is_finite() {
        new_sigma
    } else {
        sigma
    };
    let phi_star = (phi * phi + new_sigma * new_sigma).sqrt();
    let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let new_mu = mu + new_phi * new_phi * delta_sum;
    Rating {
        rating: new_mu * SCALE + DEFAULT_RATING,
        rd: new_phi * SCALE,
        volatility: new_sigma,
    }
}

/// RD grown for `days` of idle time, clamped.
pub fn with_idle_time(r: &Rating, days: f64) -> Rating {
    let phi = r.rd / SCALE;
    let periods = days.max(0.0) * RATING_PERIODS_PER_DAY;
    let rd = (phi * phi + r.volatility * r.volatility * periods).sqrt() * SCALE;
    Rating {
        rd: rd.clamp(MIN_RD, MAX_RD),
        ..*r
    }
}

/// Both players after a rated game.
pub fn rate_game(
    white: &Rating,
    black: &Rating,
    white_score: f64,
    white_idle_days: f64,
    black_idle_days: f64,
) -> (Rating, Rating) {
    let w = with_idle_time(white, white_idle_days);
    let b = with_idle_time(black, black_idle_days);
    let clamp = |r: Rating, old: &Rating| Rating {
        rating: if r.rating.is_finite() {
            r.rating
        } else {
            old.rating
        },
        rd: if r.rd.is_finite() {
            r.rd.clamp(MIN_RD, MAX_RD)
        } else {
            old.rd
        },
        volatility: if r.volatility.is_finite() {
            r.volatility
        } else {
            old.volatility
        },
    };
    (
        clamp(update(&w, &[(b, white_score)], TAU), &w),
        clamp(update(&b, &[(w, 1.0 - white_score)], TAU), &b),
    )
}
