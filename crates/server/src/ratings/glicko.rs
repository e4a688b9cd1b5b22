//! Glicko-2 as Mark Glickman's "Example of the Glicko-2 system" (2012) defines it, steps 1–8,
//! with the volatility found by the Illinois algorithm of step 5; lichess's defaults (1500,
//! RD 500, volatility 0.09, τ 0.75, RD kept within 45–500). Each rated game is one rating
//! period for both players, and a player's RD first grows with the time since their last
//! rated game (step 6 applied for the idle periods), as lichess does.

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
/// Largest volatility (lichess: past it a rating might never settle again).
pub const MAX_VOLATILITY: f64 = 0.1;
/// Lowest and highest rating (lichess's bounds).
pub const MIN_RATING: f64 = 400.0;
/// Highest rating.
pub const MAX_RATING: f64 = 4000.0;
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
    // Within lichess's bounds; a value that is not finite (never seen, but a rating must
    // never become NaN) keeps the player's value before the game.
    let clamp = |r: Rating, old: &Rating| {
        let or_old = |new: f64, old: f64| if new.is_finite() { new } else { old };
        Rating {
            rating: or_old(r.rating, old.rating).clamp(MIN_RATING, MAX_RATING),
            rd: or_old(r.rd, old.rd).clamp(MIN_RD, MAX_RD),
            volatility: or_old(r.volatility, old.volatility).min(MAX_VOLATILITY),
        }
    };
    (
        clamp(update(&w, &[(b, white_score)], TAU), &w),
        clamp(update(&b, &[(w, 1.0 - white_score)], TAU), &b),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, rd: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            rd,
            volatility,
        }
    }

    /// The paper's worked example: a 1500/200/0.06 player, τ = 0.5, beats 1400/30 and loses to
    /// 1550/100 and 1700/300 in one period → 1464.06, RD 151.52, σ 0.05999.
    #[test]
    fn glickman_2012_worked_example() {
        let player = r(1500.0, 200.0, 0.06);
        let games = [
            (r(1400.0, 30.0, 0.06), 1.0),
            (r(1550.0, 100.0, 0.06), 0.0),
            (r(1700.0, 300.0, 0.06), 0.0),
        ];
        let after = update(&player, &games, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    /// Step 6 alone: a period without games only widens the RD.
    #[test]
    fn a_period_without_games_widens_rd_only() {
        let player = r(1500.0, 200.0, 0.06);
        let after = update(&player, &[], 0.5);
        let phi = 200.0 / SCALE;
        assert_eq!(after.rating, 1500.0);
        assert!((after.rd - (phi * phi + 0.0036f64).sqrt() * SCALE).abs() < 1e-9);
        assert_eq!(after.volatility, 0.06);
    }

    /// The players of a grid from weak to strong, sure to unsure, steady to erratic.
    fn grid() -> Vec<Rating> {
        let mut out = Vec::new();
        for rating in [600.0, 1200.0, 1500.0, 1900.0, 2800.0] {
            for rd in [MIN_RD, 80.0, 200.0, MAX_RD] {
                for volatility in [0.04, 0.09, MAX_VOLATILITY] {
                    out.push(r(rating, rd, volatility));
                }
            }
        }
        out
    }

    #[test]
    fn winning_never_costs_and_losing_never_gains_rating() {
        for a in grid() {
            for b in grid() {
                let (aw, bl) = rate_game(&a, &b, 1.0, 0.0, 0.0);
                assert!(
                    aw.rating > a.rating && bl.rating < b.rating,
                    "{a:?} beats {b:?}"
                );
                let (al, bw) = rate_game(&a, &b, 0.0, 0.0, 0.0);
                assert!(
                    al.rating < a.rating && bw.rating > b.rating,
                    "{b:?} beats {a:?}"
                );
                for x in [aw, bl, al, bw] {
                    assert!((MIN_RATING..=MAX_RATING).contains(&x.rating), "{x:?}");
                    assert!((MIN_RD..=MAX_RD).contains(&x.rd), "{x:?}");
                    assert!(
                        x.volatility > 0.0 && x.volatility <= MAX_VOLATILITY,
                        "{x:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_draw_moves_each_player_toward_the_other() {
        for a in grid() {
            for b in grid() {
                let (ad, bd) = rate_game(&a, &b, 0.5, 0.0, 0.0);
                let toward = |before: f64, after: f64, other: f64| {
                    if before < other {
                        after >= before
                    } else if before > other {
                        after <= before
                    } else {
                        (after - before).abs() < 1e-9
                    }
                };
                assert!(toward(a.rating, ad.rating, b.rating), "{a:?} {b:?} {ad:?}");
                assert!(toward(b.rating, bd.rating, a.rating), "{a:?} {b:?} {bd:?}");
            }
        }
    }

    #[test]
    fn colours_do_not_matter() {
        for a in grid() {
            for b in grid() {
                let (aw, bl) = rate_game(&a, &b, 1.0, 3.0, 9.0);
                let (bl2, aw2) = rate_game(&b, &a, 0.0, 9.0, 3.0);
                assert_eq!((aw, bl), (aw2, bl2));
            }
        }
    }

    #[test]
    fn beating_a_stronger_player_gains_more() {
        let me = r(1500.0, 150.0, 0.06);
        let mut last = f64::NEG_INFINITY;
        for opp in [1000.0, 1300.0, 1500.0, 1700.0, 2000.0] {
            let (after, _) = rate_game(&me, &r(opp, 150.0, 0.06), 1.0, 0.0, 0.0);
            let gain = after.rating - me.rating;
            assert!(gain > last, "beating {opp}: +{gain}, after +{last}");
            last = gain;
        }
    }

    /// Steps 6–7: the period widens φ by the new volatility, the game narrows it again, so
    /// the new RD is below the widened one (or at the floor).
    #[test]
    fn a_game_narrows_the_rd_of_its_period() {
        for a in grid() {
            for b in grid() {
                // The paper's step itself (before lichess's bounds).
                let step = update(&a, &[(b, 1.0)], TAU);
                let phi = a.rd / SCALE;
                let widened = (phi * phi + step.volatility * step.volatility).sqrt() * SCALE;
                assert!(step.rd < widened, "{a:?} vs {b:?}: {step:?}");
                let (after, _) = rate_game(&a, &b, 1.0, 0.0, 0.0);
                // Against an equal no less sure, a steady player's RD falls (an upset, or an
                // unsure opponent, tells little; the volatility's widening may then win).
                if a.rating == b.rating && b.rd <= a.rd && a.volatility <= 0.09 && a.rd >= 80.0 {
                    assert!(after.rd < a.rd, "{a:?} vs {b:?}: {after:?}");
                }
            }
        }
    }

    #[test]
    fn idle_time_widens_rd_up_to_the_ceiling() {
        let sure = r(1800.0, 50.0, 0.06);
        assert_eq!(with_idle_time(&sure, 0.0), sure);
        let mut last = sure.rd;
        for days in [1.0, 7.0, 30.0, 365.0, 3650.0] {
            let idle = with_idle_time(&sure, days);
            assert!(idle.rd > last && idle.rd <= MAX_RD, "{days} days: {idle:?}");
            assert_eq!(idle.rating, sure.rating);
            last = idle.rd;
        }
        assert_eq!(with_idle_time(&sure, 1e9).rd, MAX_RD);
        // lichess's 0.21436 periods a day: 100 days of σ = 0.06 add 21.436 σ² to φ².
        let phi = 50.0 / SCALE;
        let want = (phi * phi + 0.0036 * 21.436).sqrt() * SCALE;
        assert!((with_idle_time(&sure, 100.0).rd - want).abs() < 1e-9);
    }

    /// Upsets raise the volatility, never past 0.1, where the paper's step alone goes on.
    #[test]
    fn volatility_is_capped_at_lichess_maximum() {
        let mut me = r(1500.0, 60.0, 0.099);
        let mut unclamped = me;
        for i in 0..200 {
            // Alternately beat a much stronger player and lose to a much weaker one.
            let (opp, score) = if i % 2 == 0 {
                (3000.0, 1.0)
            } else {
                (500.0, 0.0)
            };
            let opponent = r(opp, 45.0, 0.06);
            me = rate_game(&me, &opponent, score, 0.0, 0.0).0;
            unclamped = update(&unclamped, &[(opponent, score)], TAU);
            assert!(me.volatility <= MAX_VOLATILITY, "{me:?}");
        }
        assert!(unclamped.volatility > MAX_VOLATILITY, "{unclamped:?}");
        assert_eq!(me.volatility, MAX_VOLATILITY);
    }

    #[test]
    fn provisional_while_rd_is_110_or_more() {
        assert!(Rating::default().is_provisional());
        assert!(r(1500.0, 110.0, 0.06).is_provisional());
        assert!(!r(1500.0, 109.9, 0.06).is_provisional());
    }
}
