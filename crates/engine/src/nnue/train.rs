//! Training the network in floating point (`arbiter-tune nnue`): mean squared error between
//! the network's expected score and each position's target, minimised with Adam over
//! mini-batches; the batch's gradient is computed on two threads.

use super::{
    add, bucket, feature, mirrored, Accumulator, Network, BUCKETS, HIDDEN, INPUTS, OUTPUT_LIMIT,
    QA, QB, SCALE,
};
use arbiter_rules::{Color, Position};

/// One training position: its inputs from White's side, whose turn it is and the target
/// score for the side to move (0 = loss, 1 = win).
#[derive(Clone, Copy)]
pub struct Sample {
    features: [u16; 32],
    count: u8,
    white_to_move: bool,
    /// The target for the side to move.
    pub target: f32,
    /// What the network's output is added to, in network units (the classical evaluation
    /// for a residual network, else 0).
    base: f32,
}

impl Sample {
    /// A sample of `pos` with the target `white_target` for White, the network's output to be
    /// added to `base_cp` (centipawns for the side to move); `None` with more than 32 pieces.
    pub fn new(pos: &Position, white_target: f32, base_cp: i32) -> Option<Sample> {
        let mut features = [0u16; 32];
        let mut count = 0;
        for (sq, piece) in pos.board().pieces() {
            *features.get_mut(count)? = feature(Color::White, piece, sq) as u16;
            count += 1;
        }
        let white_to_move = pos.turn() == Color::White;
        Some(Sample {
            features,
            count: count as u8,
            white_to_move,
            base: base_cp as f32 / SCALE as f32,
            target: if white_to_move {
                white_target
            } else {
                1.0 - white_target
            },
        })
    }

    /// The output bucket of this sample's position.
    fn bucket(&self) -> usize {
        bucket(u32::from(self.count))
    }

    fn inputs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.features[..self.count as usize]
            .iter()
            .map(|&f| (f as usize, mirrored(f as usize)))
    }
}

/// A small reproducible generator (splitmix64) for initial weights and shuffles.
pub struct Random(pub u64);

impl Random {
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.bits() % n as u64) as usize
    }
}

/// The network's weights in floating point, with Adam's moments.
pub struct Trainer {
    params: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
    /// The logistic curve's scale: expected score = 1 / (1 + 10^(−k·cp/400)).
    pub k: f32,
    /// Weight decay per step, relative to the learning rate (decoupled, as in AdamW).
    pub decay: f32,
}

const W1: usize = 0;
const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + BUCKETS * 2 * HIDDEN;
const PARAMS: usize = B2 + BUCKETS;

impl Trainer {
    /// Small random weights from `seed`.
    pub fn new(seed: u64, k: f32, output_range: f32) -> Trainer {
        let mut rng = Random(seed);
        let mut uniform = move |r: f32| {
            let u = (rng.bits() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * r
        };
        let mut params = vec![0.0; PARAMS];
        for p in &mut params[W1..B1] {
            *p = uniform(0.1);
        }
        for p in &mut params[W2..B2] {
            *p = uniform(output_range);
        }
        Trainer {
            params,
            m: vec![0.0; PARAMS],
            v: vec![0.0; PARAMS],
            t: 0,
            k,
            decay: 0.0,
        }
    }

    fn forward(&self, s: &Sample, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let p = &self.params;
        acc[0].copy_from_slice(&p[B1..W2]);
        acc[1].copy_from_slice(&p[B1..W2]);
        for (w, b) in s.inputs() {
            for (a, x) in acc[0].iter_mut().zip(&p[W1 + w * HIDDEN..][..HIDDEN]) {
                *a += x;
            }
            for (a, x) in acc[1].iter_mut().zip(&p[W1 + b * HIDDEN..][..HIDDEN]) {
                *a += x;
            }
        }
        let (us, them) = if s.white_to_move { (0, 1) } else { (1, 0) };
        let w2 = W2 + s.bucket() * 2 * HIDDEN;
        let mut out = p[B2 + s.bucket()] + s.base;
        for (i, side) in [us, them].into_iter().enumerate() {
            for (a, w) in acc[side].iter().zip(&p[w2 + i * HIDDEN..][..HIDDEN]) {
                let c = a.clamp(0.0, 1.0);
                out += c * c * w;
            }
        }
        out
    }

    fn sigmoid(&self, out: f32) -> f32 {
        // out × SCALE centipawns on the curve of scale k.
        1.0 / (1.0 + (-out * SCALE as f32 * self.k * std::f32::consts::LN_10 / 400.0).exp())
    }

    /// How far the integer network ([`Trainer::quantised`]) is from these float weights over
    /// `samples`, in centipawns of the network's output: the mean and the largest difference.
    pub fn quantisation_error(&self, samples: &[Sample]) -> (f64, f64) {
        let net = self.quantised();
        let mut acc = [[0.0; HIDDEN]; 2];
        let (mut sum, mut max) = (0.0f64, 0.0f64);
        for s in samples {
            let float = (self.forward(s, &mut acc) - s.base) * SCALE as f32;
            let mut q = Accumulator([net.bias; 2]);
            for (w, b) in s.inputs() {
                add(&mut q.0[0], &net.input[w]);
                add(&mut q.0[1], &net.input[b]);
            }
            let turn = if s.white_to_move {
                Color::White
            } else {
                Color::Black
            };
            let d = f64::from((float - net.output(&q, turn, u32::from(s.count)) as f32).abs());
            sum += d;
            max = max.max(d);
        }
        (sum / samples.len().max(1) as f64, max)
    }

    /// The mean squared error over `samples`.
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        let mut acc = [[0.0; HIDDEN]; 2];
        let sum: f64 = samples
            .iter()
            .map(|s| {
                let e = self.sigmoid(self.forward(s, &mut acc)) - s.target;
                (e * e) as f64
            })
            .sum();
        sum / samples.len().max(1) as f64
    }

    /// Adds the gradient of the summed squared error over `samples` to `grad`; returns the
    /// summed error.
    fn gradient(&self, samples: &[Sample], grad: &mut [f32]) -> f64 {
        let p = &self.params;
        let mut acc = [[0.0; HIDDEN]; 2];
        let mut total = 0.0;
        let slope = SCALE as f32 * self.k * std::f32::consts::LN_10 / 400.0;
        for s in samples {
            let out = self.forward(s, &mut acc);
            let q = self.sigmoid(out);
            let e = q - s.target;
            total += (e * e) as f64;
            let d = 2.0 * e * q * (1.0 - q) * slope;
            let w2 = W2 + s.bucket() * 2 * HIDDEN;
            grad[B2 + s.bucket()] += d;
            let (us, them) = if s.white_to_move { (0, 1) } else { (1, 0) };
            let mut dacc = [[0.0f32; HIDDEN]; 2];
            for (i, side) in [us, them].into_iter().enumerate() {
                for h in 0..HIDDEN {
                    let a = acc[side][h];
                    let c = a.clamp(0.0, 1.0);
                    grad[w2 + i * HIDDEN + h] += d * c * c;
                    if a > 0.0 && a < 1.0 {
                        dacc[side][h] = d * p[w2 + i * HIDDEN + h] * 2.0 * c;
                    }
                }
            }
            for h in 0..HIDDEN {
                grad[B1 + h] += dacc[0][h] + dacc[1][h];
            }
            for (w, b) in s.inputs() {
                for (g, x) in grad[W1 + w * HIDDEN..][..HIDDEN].iter_mut().zip(&dacc[0]) {
                    *g += x;
                }
                for (g, x) in grad[W1 + b * HIDDEN..][..HIDDEN].iter_mut().zip(&dacc[1]) {
                    *g += x;
                }
            }
        }
        total
    }

    /// One pass over `samples` in batches of `batch` with learning rate `lr`; returns the
    /// mean squared error seen during the pass.
    pub fn epoch(&mut self, samples: &[Sample], batch: usize, lr: f32) -> f64 {
        let mut grads = [vec![0.0f32; PARAMS], vec![0.0f32; PARAMS]];
        let mut total = 0.0;
        for chunk in samples.chunks(batch) {
            let half = chunk.len() / 2;
            let (a, b) = chunk.split_at(half);
            let [ga, gb] = &mut grads;
            ga.fill(0.0);
            gb.fill(0.0);
            let this = &*self;
            let (ea, eb) = std::thread::scope(|scope| {
                let h = scope.spawn(|| this.gradient(b, gb));
                let ea = this.gradient(a, ga);
                (ea, h.join().unwrap_or(0.0))
            });
            total += ea + eb;
            let n = chunk.len() as f32;
            self.t += 1;
            let (b1, b2) = (0.9f32, 0.999f32);
            let c1 = 1.0 - b1.powi(self.t);
            let c2 = 1.0 - b2.powi(self.t);
            let [ga, gb] = &grads;
            let state = self.params.iter_mut().zip(&mut self.m).zip(&mut self.v);
            for (i, (((p, m), v), (a, b))) in state.zip(ga.iter().zip(gb)).enumerate() {
                let g = (a + b) / n;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                // Biases are not decayed.
                let shrink = if (B1..W2).contains(&i) || i >= B2 {
                    0.0
                } else {
                    self.decay * *p
                };
                *p -= lr * ((*m / c1) / ((*v / c2).sqrt() + 1e-8) + shrink);
            }
            // Keep the quantised first layer within i16 over 32 inputs.
            for p in &mut self.params[W1..W2] {
                *p = p.clamp(-1.98, 1.98);
            }
            // And the output weights within what quantising keeps ([`OUTPUT_LIMIT`]): a weight
            // clipped only when quantised would move the evaluation by up to 100 cp.
            let limit = f32::from(OUTPUT_LIMIT) / QB as f32;
            for p in &mut self.params[W2..B2] {
                *p = p.clamp(-limit, limit);
            }
        }
        total / samples.len().max(1) as f64
    }

    /// The weights rounded to the integers the engine uses.
    pub fn quantised(&self) -> Network {
        let p = &self.params;
        let q = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let row = |at: usize, scale: i32| {
            let mut r = [0i16; HIDDEN];
            for (h, w) in r.iter_mut().enumerate() {
                *w = q(p[at + h], scale);
            }
            r
        };
        Network {
            input: (0..INPUTS).map(|f| row(W1 + f * HIDDEN, QA)).collect(),
            bias: row(B1, QA),
            output: core::array::from_fn(|b| {
                let at = W2 + b * 2 * HIDDEN;
                [row(at, QB), row(at + HIDDEN, QB)]
                    .map(|r| r.map(|w| w.clamp(-OUTPUT_LIMIT, OUTPUT_LIMIT)))
            }),
            output_bias: core::array::from_fn(|b| (p[B2 + b] * (QA * QB) as f32).round() as i32),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_rules::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn training_lowers_the_loss_and_quantising_keeps_the_evaluation() {
        // Two positions with opposite targets: the fit must separate them.
        let up = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let down = pos("3qk3/8/8/8/8/8/8/4K3 w - - 0 1");
        let samples = vec![
            Sample::new(&up, 0.95, 0).unwrap(),
            Sample::new(&down, 0.05, 0).unwrap(),
        ];
        let mut t = Trainer::new(7, 1.0, 0.06);
        let before = t.loss(&samples);
        for _ in 0..300 {
            t.epoch(&samples, 2, 0.01);
        }
        let after = t.loss(&samples);
        assert!(after < before / 10.0, "{before} → {after}");
        let net = t.quantised();
        let (e_up, e_down) = (net.evaluate(&up), net.evaluate(&down));
        assert!(e_up > 200 && e_down < -200, "{e_up} {e_down}");
        // The float and integer networks agree to a few centipawns (with output weights in
        // steps of 1/64 instead of 1/256 they were 7 apart here).
        let mut acc = [[0.0; HIDDEN]; 2];
        let float_up = t.forward(&samples[0], &mut acc) * SCALE as f32;
        assert!((float_up - e_up as f32).abs() < 3.0, "{float_up} {e_up}");
        let (mean, max) = t.quantisation_error(&samples);
        assert!(max < 3.0 && mean <= max, "{mean} {max}");
        // Its largest difference covers the one computed by hand above.
        assert!(max + 1e-3 >= f64::from((float_up - e_up as f32).abs()));
    }

    #[test]
    fn output_weights_stay_within_what_quantising_keeps() {
        // Output weights beyond OUTPUT_LIMIT / QB (as training with little weight decay gives)
        // would be clipped only when quantised, and the integer network would differ from the
        // float one by up to 100 cp; a training step brings them back within it.
        let up = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let samples = vec![Sample::new(&up, 0.9, 0).unwrap()];
        let mut t = Trainer::new(3, 1.0, 0.06);
        t.epoch(&samples, 2, 0.01);
        for w in &mut t.params[W2..B2] {
            *w *= 40.0;
        }
        t.epoch(&samples, 2, 0.0);
        let limit = f32::from(OUTPUT_LIMIT) / QB as f32;
        let largest = t.params[W2..B2].iter().fold(0.0f32, |m, w| m.max(w.abs()));
        assert!(largest <= limit, "{largest}");
        // Every output weight at the limit magnifies the first layer's rounding (13 cp here);
        // unclipped, the integer network would be thousands of centipawns off.
        let (_, max) = t.quantisation_error(&samples);
        assert!(max < 20.0, "{max}");
    }

    #[test]
    fn a_sample_holds_the_target_for_the_side_to_move() {
        let black = pos("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert_eq!(Sample::new(&black, 0.9, 0).unwrap().target, 1.0 - 0.9);
    }
}
