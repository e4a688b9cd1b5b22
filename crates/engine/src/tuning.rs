//! Texel tuning: the evaluation's weights fitted to game results. Each quiet position of a
//! set of games is labelled with its game's result (1, ½, 0 for White); the evaluation, a
//! linear function of the weights ([`eval::coefficients`]), is mapped to an expected score
//! by a logistic curve, and the weights are moved by gradient descent (Adam) to minimise the
//! mean squared difference between expected score and result. `arbiter-tune` drives it and
//! writes `src/eval/weights.rs`.

use crate::eval::{self, features, trace::Coefficients, S};
use crate::movepick;
use arbiter_pgn::{GameRecord, GameResult};
use arbiter_rules::Position;

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The evaluation as a function of the weights.
    pub coefs: Coefficients,
    /// The target score for White: the game's result (1, 0.5 or 0), or its blend with an
    /// oracle's evaluation.
    pub result: f32,
}

/// Whether a position is quiet enough for its static evaluation to stand for it: not in
/// check, and no capture the side to move wins material with (by static exchange).
pub fn is_quiet(pos: &Position) -> bool {
    if pos.is_check() {
        return false;
    }
    pos.legal_moves()
        .iter()
        .all(|&m| !pos.is_capture(m) || movepick::see(pos, m) <= 0)
}

/// The quiet positions of a game with the game's result for White (none if it has no
/// result). Positions before ply `skip` and those where the move played captures or promotes
/// are left out.
pub fn quiet_positions(record: &GameRecord, skip: usize) -> Vec<(Position, f32)> {
    let result = match record.effective_result() {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
        _ => return Vec::new(),
    };
    let Ok(mut pos) = record.start_position() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (ply, m) in record.moves.moves().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        let tactical = pos.is_capture(m) || m.promotion.is_some();
        if ply >= skip && !tactical && is_quiet(&pos) {
            out.push((pos, result));
        }
        pos.play_unchecked(m);
    }
    out
}

/// A sample of `pos` with the target score `result`, unless the evaluation finishes the
/// position outside its linear terms.
pub fn sample(pos: &Position, result: f32) -> Option<Sample> {
    let (coefs, _) = eval::coefficients(pos);
    (!coefs.nonlinear).then_some(Sample { coefs, result })
}

/// The labelled quiet positions of a game (see [`quiet_positions`]).
pub fn game_samples(record: &GameRecord, skip: usize) -> Vec<Sample> {
    quiet_positions(record, skip)
        .iter()
        .filter_map(|(pos, r)| sample(pos, *r))
        .collect()
}

/// The expected score for White of an evaluation `cp` (White's side) on the logistic curve
/// with scale `k`.
pub fn expected_score(cp: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-k * cp * LN10 / 400.0).exp())
}

/// Weights being fitted, with the state of the Adam optimiser.
pub struct Tuner {
    /// Middlegame and endgame weight of every feature.
    pub weights: Vec<[f64; 2]>,
    /// The logistic curve's scale: an evaluation `e` expects the score `1 / (1 + 10^(-k e / 400))`.
    pub k: f64,
    m: Vec<[f64; 2]>,
    v: Vec<[f64; 2]>,
    steps: i32,
}

const LN10: f64 = std::f64::consts::LN_10;

impl Tuner {
    /// A tuner starting from the engine's current weights.
    pub fn from_current() -> Tuner {
        let weights = eval::weights::W
            .iter()
            .map(|s| [s.0 as f64, s.1 as f64])
            .collect();
        Tuner {
            weights,
            k: 1.0,
            m: vec![[0.0; 2]; features::COUNT],
            v: vec![[0.0; 2]; features::COUNT],
            steps: 0,
        }
    }

    /// White's evaluation of a sample under the current weights.
    pub fn evaluate(&self, s: &Sample) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in &s.coefs.counts {
            let w = self.weights[i as usize];
            mg += w[0] * c as f64;
            eg += w[1] * c as f64;
        }
        let ph = s.coefs.phase as f64;
        (mg * ph + eg * (24.0 - ph)) / 24.0 * s.coefs.scale as f64
    }

    /// Mean squared error of the expected scores under scale `k`.
    pub fn loss_with(&self, samples: &[Sample], k: f64) -> f64 {
        let sum: f64 = samples
            .iter()
            .map(|s| {
                let d = s.result as f64 - expected_score(self.evaluate(s), k);
                d * d
            })
            .sum();
        sum / samples.len().max(1) as f64
    }

    /// Mean squared error under the tuner's `k`.
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        self.loss_with(samples, self.k)
    }

    /// Sets `k` to the value that minimises the loss of the current weights (golden-section
    /// search), so that tuning changes the weights and not the curve.
    pub fn fit_k(&mut self, samples: &[Sample]) {
        let (mut a, mut b) = (0.05f64, 4.0f64);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..40 {
            let c = b - g * (b - a);
            let d = a + g * (b - a);
            if self.loss_with(samples, c) < self.loss_with(samples, d) {
                b = d;
            } else {
                a = c;
            }
        }
        self.k = (a + b) / 2.0;
    }

    /// One full-batch Adam step with learning rate `lr` (centipawns). Returns the loss before
    /// the step.
    pub fn step(&mut self, samples: &[Sample], lr: f64) -> f64 {
        let mut grad = vec![[0.0f64; 2]; features::COUNT];
        let mut loss = 0.0;
        for s in samples {
            let e = self.evaluate(s);
            let p = expected_score(e, self.k);
            let d = p - s.result as f64;
            loss += d * d;
            let g = d * p * (1.0 - p) * self.k * LN10 / 400.0 * s.coefs.scale as f64;
            let ph = s.coefs.phase as f64 / 24.0;
            for &(i, c) in &s.coefs.counts {
                let gi = &mut grad[i as usize];
                gi[0] += g * c as f64 * ph;
                gi[1] += g * c as f64 * (1.0 - ph);
            }
        }
        let n = samples.len().max(1) as f64;
        self.steps += 1;
        let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
        let c1 = 1.0 - b1.powi(self.steps);
        let c2 = 1.0 - b2.powi(self.steps);
        let state = self
            .weights
            .iter_mut()
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut());
        for (((w, m), v), g) in state.zip(&grad) {
            for j in 0..2 {
                let g = g[j] / n;
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                let mh = m[j] / c1;
                let vh = v[j] / c2;
                if vh > 0.0 {
                    w[j] -= lr * mh / (vh.sqrt() + eps);
                }
            }
        }
        loss / n
    }

    /// The weights rounded to whole centipawns.
    pub fn rounded(&self) -> Vec<S> {
        self.weights
            .iter()
            .map(|w| S(w[0].round() as i32, w[1].round() as i32))
            .collect()
    }
}

/// The source of `src/eval/weights.rs` for `weights`, with `note` (how they were tuned) in
/// its documentation.
pub fn render_weights(weights: &[S], note: &str) -> String {
    let mut out = String::new();
    out.push_str(
        "//! The evaluation's weights, one middlegame/endgame pair per feature of\n\
         //! [`features`](super::features). Written by `arbiter-tune` (the engine's tuning module):\n",
    );
    for line in note.lines() {
        out.push_str(&format!("//! {line}\n"));
    }
    out.push_str(
        "\nuse super::features::COUNT;\nuse super::S;\n\n\
         /// The weight of every feature, indexed by [`features`](super::features).\n\
         #[rustfmt::skip]\npub static W: [S; COUNT] = [\n",
    );
    for &(start, len, name) in features::groups() {
        out.push_str(&format!("    // {name}\n"));
        for chunk in weights[start..start + len].chunks(8) {
            let row: Vec<String> = chunk
                .iter()
                .map(|s| format!("S({}, {}),", s.0, s.1))
                .collect();
            out.push_str(&format!("    {}\n", row.join(" ")));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_pgn::GameRecord;

    const GAME: &str = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 \
        6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0\n";

    #[test]
    fn coefficients_reproduce_the_engine_evaluation() {
        // The tuner's linear model must be the evaluation itself, or tuning fits something else.
        let record = GameRecord::from_pgn(GAME).unwrap();
        let samples = game_samples(&record, 0);
        assert!(samples.len() > 5, "{} samples", samples.len());
        let tuner = Tuner::from_current();
        let mut pos = record.start_position().unwrap();
        for m in record.moves.moves() {
            if is_quiet(&pos) {
                let (c, white_eval) = eval::coefficients(&pos);
                let s = Sample {
                    coefs: c,
                    result: 1.0,
                };
                let model = tuner.evaluate(&s);
                assert!(
                    (model - white_eval as f64).abs() <= 1.0,
                    "{model} vs {white_eval}"
                );
                let engine = eval::evaluate(&pos);
                let engine_white = if pos.turn() == arbiter_rules::Color::White {
                    engine
                } else {
                    -engine
                };
                assert_eq!(engine_white, white_eval);
            }
            pos.play_unchecked(m);
        }
    }

    #[test]
    fn a_step_lowers_the_loss_on_its_own_data() {
        let record = GameRecord::from_pgn(GAME).unwrap();
        let samples = game_samples(&record, 0);
        let mut tuner = Tuner::from_current();
        tuner.fit_k(&samples);
        let before = tuner.loss(&samples);
        for _ in 0..20 {
            tuner.step(&samples, 1.0);
        }
        assert!(tuner.loss(&samples) < before);
    }

    #[test]
    fn rendered_weights_list_every_feature() {
        let text = render_weights(&eval::weights::W, "test");
        assert_eq!(text.matches("S(").count(), features::COUNT);
    }
}
