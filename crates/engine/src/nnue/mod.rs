//! A learnt evaluation: a small efficiently updatable neural network ("NNUE").
//!
//! The built-in network is *residual* ([`RESIDUAL`]): it was trained on what the classical
//! evaluation (`eval`) misses, and the engine at full strength evaluates with the sum of both.
//! A network learnt from scratch needs far more positions than the 5.3 million it was trained
//! on; added to the tuned classical terms it starts from their knowledge.
//!
//! Inputs are the 768 piece-on-square facts (own/their × six roles × 64 squares), seen from
//! each side: from Black's side the board is flipped and the colours swapped, so one set of
//! weights serves both. Each side's inputs feed a hidden layer of [`HIDDEN`] units (the
//! *accumulator*); the side to move's and the other side's activations, clipped to 0…1 and
//! squared (SCReLU: +42 Elo over clipping alone, BENCHMARKS.md), feed one output, the
//! evaluation. The output's weights are chosen by the number of pieces on the board
//! ([`BUCKETS`] sets, [`bucket`]): what the hidden units mean for the result differs between
//! the middlegame and an ending, and picking a set costs nothing. The weights are trained
//! offline ([`train`], driven by `arbiter-tune nnue`) on positions labelled with a game result
//! and an oracle's evaluation, and are stored quantised to integers ([`Network`]), so the
//! engine's arithmetic is exact and the same on every platform, WebAssembly included.

pub mod train;

use arbiter_rules::{Board, Color, Piece, Position, Role, Square};
use std::sync::OnceLock;

/// Number of inputs per side: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden units per side.
pub const HIDDEN: usize = 128;
/// Sets of output weights, by the number of pieces on the board ([`bucket`]).
pub const BUCKETS: usize = 8;
/// Quantisation of the first layer: an activation of 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: a weight of 1.0 is `QB`. The trained weights are small
/// (mostly below 0.1), so a coarse step (64) rounded them by several per cent each.
pub const QB: i32 = 256;
/// The largest output weight magnitude (about 1.0 in float; trained networks stay below 0.5):
/// it keeps the output's integer sums within `i32`.
pub const OUTPUT_LIMIT: i16 = 255;
// One side's output sum, HIDDEN terms of c·w·c with c ≤ QA, fits an i32.
const _: () = assert!(HIDDEN as i64 * (QA as i64).pow(2) * OUTPUT_LIMIT as i64 <= i32::MAX as i64);
/// Whether the built-in network's output is added to the classical evaluation (it was trained
/// on what that evaluation misses) rather than standing alone.
pub const RESIDUAL: bool = true;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

/// The input index of `piece` on `sq` as seen from `side`.
#[inline]
pub fn feature(side: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color != side) as usize;
    let sq = match side {
        Color::White => sq.idx(),
        Color::Black => sq.idx() ^ 56,
    };
    (theirs * 6 + piece.role.index()) * 64 + sq
}

/// The output bucket of a board with `pieces` pieces (kings included): 2–5 pieces use the
/// first set, 30–32 the last.
#[inline]
pub fn bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(BUCKETS - 1)
}

/// The same input seen from the other side: colours swapped, board flipped.
#[inline]
pub fn mirrored(feature: usize) -> usize {
    ((feature + 384) % INPUTS) ^ 56
}

/// A quantised network, as the engine evaluates with it.
pub struct Network {
    /// First layer, one row of `HIDDEN` weights per input (scaled by `QA`).
    pub input: Vec<[i16; HIDDEN]>,
    /// First layer biases (scaled by `QA`).
    pub bias: [i16; HIDDEN],
    /// Per [`bucket`], output weights for the side to move's and the other side's activations
    /// (scaled by `QB`).
    pub output: [[[i16; HIDDEN]; 2]; BUCKETS],
    /// Per [`bucket`], the output bias (scaled by `QA * QB`).
    pub output_bias: [i32; BUCKETS],
}

/// The size in bytes of a stored network.
pub const BYTES: usize = 2 * (INPUTS * HIDDEN + HIDDEN + BUCKETS * 2 * HIDDEN) + 4 * BUCKETS;

/// Why stored network bytes were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadNetwork(pub usize);

impl core::fmt::Display for BadNetwork {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "a network has {BYTES} bytes, not {}", self.0)
    }
}

impl Network {
    /// Reads a network stored as little-endian integers: input rows, biases, each bucket's
    /// output weights, each bucket's output bias.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, BadNetwork> {
        if bytes.len() != BYTES {
            return Err(BadNetwork(bytes.len()));
        }
        let mut words = bytes
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || {
            let mut r = [0i16; HIDDEN];
            for w in r.iter_mut() {
                *w = words.next().unwrap_or(0);
            }
            r
        };
        let input = (0..INPUTS).map(|_| row()).collect();
        let bias = row();
        let limit = |r: [i16; HIDDEN]| r.map(|w| w.clamp(-OUTPUT_LIMIT, OUTPUT_LIMIT));
        let output = core::array::from_fn(|_| [limit(row()), limit(row())]);
        let tail = &bytes[BYTES - 4 * BUCKETS..];
        let output_bias = core::array::from_fn(|b| {
            let w = &tail[4 * b..4 * b + 4];
            i32::from_le_bytes([w[0], w[1], w[2], w[3]])
        });
        Ok(Network {
            input,
            bias,
            output,
            output_bias,
        })
    }

    /// The stored form read by [`Network::from_bytes`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(BYTES);
        let rows = self
            .input
            .iter()
            .chain(std::iter::once(&self.bias))
            .chain(self.output.iter().flatten());
        for r in rows {
            for w in r {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// Both sides' accumulators of `pos`, computed from its pieces.
    pub fn accumulate(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator([self.bias; 2]);
        for (sq, piece) in pos.board().pieces() {
            add(&mut acc.0[0], &self.input[feature(Color::White, piece, sq)]);
            add(&mut acc.0[1], &self.input[feature(Color::Black, piece, sq)]);
        }
        acc
    }

    /// The accumulators after a move that turned `before` into `after`: only the pieces that
    /// left or reached a square are looked at (any move, castling and en passant included).
    pub fn update(&self, acc: &Accumulator, before: &Board, after: &Board) -> Accumulator {
        let mut next = *acc;
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let (was, is) = (before.by_piece(piece), after.by_piece(piece));
                for sq in was & !is {
                    sub(
                        &mut next.0[0],
                        &self.input[feature(Color::White, piece, sq)],
                    );
                    sub(
                        &mut next.0[1],
                        &self.input[feature(Color::Black, piece, sq)],
                    );
                }
                for sq in is & !was {
                    add(
                        &mut next.0[0],
                        &self.input[feature(Color::White, piece, sq)],
                    );
                    add(
                        &mut next.0[1],
                        &self.input[feature(Color::Black, piece, sq)],
                    );
                }
            }
        }
        next
    }

    /// The evaluation in centipawns for `turn`, the side to move, from the accumulators of a
    /// board with `pieces` pieces.
    pub fn output(&self, acc: &Accumulator, turn: Color, pieces: u32) -> i32 {
        let (us, them) = match turn {
            Color::White => (&acc.0[0], &acc.0[1]),
            Color::Black => (&acc.0[1], &acc.0[0]),
        };
        let b = bucket(pieces);
        let [w_us, w_them] = &self.output[b];
        // The squared activations are scaled by QA²: one QA is divided out of each side's sum.
        let squares = dot(us, w_us) / QA + dot(them, w_them) / QA;
        ((squares + self.output_bias[b]) as i64 * SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation of `pos` in centipawns, from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let pieces = pos.board().occupied().count();
        self.output(&self.accumulate(pos), pos.turn(), pieces)
    }
}

/// The hidden layer's sums for White's and Black's view of a position.
#[derive(Clone, Copy)]
pub struct Accumulator(pub [[i16; HIDDEN]; 2]);

#[inline]
fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

#[inline]
fn sub(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

#[inline]
fn dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    // In i32 and without overflow: |w| ≤ OUTPUT_LIMIT, so HIDDEN terms of c·w·c stay below
    // 128 × 255 × 255 × 255 < 2³¹ (i64 arithmetic cost a quarter of the speed).
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let c = a.clamp(0, QA as i16) as i32;
            c * w as i32 * c
        })
        .sum()
}

/// The accumulators along the search's current path, brought up to date only where a
/// position is evaluated: each ply records its board when entered, and an evaluation updates
/// from the nearest ply whose accumulators are known.
pub struct Stack {
    net: &'static Network,
    plies: Vec<Ply>,
}

#[derive(Clone, Copy)]
struct Ply {
    acc: Accumulator,
    board: Board,
    known: bool,
}

impl Stack {
    /// A stack for paths of up to `plies` plies with the built-in network.
    pub fn new(plies: usize) -> Stack {
        let net = network();
        let empty = Ply {
            acc: Accumulator([net.bias; 2]),
            board: Board::empty(),
            known: false,
        };
        Stack {
            net,
            plies: vec![empty; plies + 1],
        }
    }

    /// Starts the path at `root` (ply 0).
    pub fn set_root(&mut self, root: &Position) {
        self.plies[0] = Ply {
            acc: self.net.accumulate(root),
            board: *root.board(),
            known: true,
        };
    }

    /// Enters `child` at ply `ply`.
    #[inline]
    pub fn enter(&mut self, ply: usize, child: &Position) {
        let p = &mut self.plies[ply];
        p.board = *child.board();
        p.known = false;
    }

    /// The evaluation of the position at `ply` (entered with `enter`, or the root) for the
    /// side to move, `turn`.
    pub fn evaluate(&mut self, ply: usize, turn: Color) -> i32 {
        let mut from = ply;
        while !self.plies[from].known {
            from -= 1;
        }
        for i in from + 1..=ply {
            let (done, rest) = self.plies.split_at_mut(i);
            let prev = &done[i - 1];
            rest[0].acc = self.net.update(&prev.acc, &prev.board, &rest[0].board);
            rest[0].known = true;
        }
        let p = &self.plies[ply];
        self.net.output(&p.acc, turn, p.board.occupied().count())
    }
}

/// The network the engine plays with, built into the binary.
pub fn network() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| {
        Network::from_bytes(include_bytes!("network.bin")).expect("the built-in network")
    })
}

/// The evaluation of `pos` with the built-in network in centipawns, from the side to move's
/// side: the network's output, added to the classical evaluation if it is [`RESIDUAL`].
pub fn evaluate(pos: &Position) -> i32 {
    let net = network().evaluate(pos);
    if RESIDUAL {
        net + crate::eval::evaluate(pos)
    } else {
        net
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_rules::{CastlingMode, Role};

    #[test]
    fn mirrored_swaps_colours_and_flips_the_board() {
        let p = Piece {
            color: Color::White,
            role: Role::Knight,
        };
        let sq = Square::new(1).unwrap(); // b1
        let white = feature(Color::White, p, sq);
        let black = feature(Color::Black, p, sq);
        assert_ne!(white, black);
        assert_eq!(mirrored(white), black);
        assert_eq!(mirrored(black), white);
    }

    #[test]
    fn the_built_in_network_sees_a_mirrored_position_alike() {
        // The same position with colours swapped and the board flipped, the other side to
        // move: the side to move's evaluation must be the same.
        let a = Position::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            CastlingMode::Standard,
        )
        .unwrap();
        let b = Position::from_fen(
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            CastlingMode::Standard,
        )
        .unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn updated_accumulators_equal_fresh_ones_after_every_kind_of_move() {
        // A capture, en passant, both castlings, a promotion with capture, a null move.
        let cases = [
            (
                "r3k2r/pPp2ppp/8/3pP3/8/8/PPPP1PPP/R3K2R w KQkq d6 0 1",
                &["e5d6", "e8g8", "b7a8q", "f8a8", "e1c1"][..],
            ),
            (
                "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
                &["e8g8", "e1c1", "a8a1"][..],
            ),
        ];
        let net = network();
        for (fen, moves) in cases {
            let mut pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
            let mut stack = Stack::new(8);
            stack.set_root(&pos);
            for (ply, uci) in moves.iter().enumerate() {
                let m = pos.parse_uci(uci).unwrap();
                pos.play_unchecked(m);
                stack.enter(ply + 1, &pos);
                assert_eq!(
                    stack.evaluate(ply + 1, pos.turn()),
                    net.evaluate(&pos),
                    "{uci}"
                );
                assert_eq!(stack.plies[ply + 1].acc.0, net.accumulate(&pos).0, "{uci}");
            }
        }
    }

    #[test]
    fn output_buckets_split_the_piece_counts_into_eight_ranges() {
        let buckets: Vec<usize> = (2..=32).map(bucket).collect();
        assert_eq!(buckets.first(), Some(&0));
        assert_eq!(buckets.last(), Some(&(BUCKETS - 1)));
        // Never falling, one step at a time, four piece counts a step up to the last.
        assert!(buckets.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert_eq!(bucket(5), 0);
        assert_eq!(bucket(6), 1);
        assert_eq!(bucket(29), 6);
        assert_eq!(bucket(30), 7);
    }

    #[test]
    fn the_output_weights_used_are_those_of_the_position_s_bucket() {
        // A network whose buckets differ only in their bias: the evaluation moves with the
        // piece count's bucket, not with anything else.
        let mut net = Network::from_bytes(&network().to_bytes()).unwrap();
        net.output = [net.output[0]; BUCKETS];
        net.output_bias = core::array::from_fn(|b| b as i32 * QA * QB);
        let full = Position::new();
        let ending =
            Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", CastlingMode::Standard).unwrap();
        let acc = net.accumulate(&full);
        let base = net.output(&acc, Color::White, 2);
        for pieces in 2..=32 {
            let e = net.output(&acc, Color::White, pieces);
            // Within one centipawn: the division rounds toward zero.
            let moved = e - base - bucket(pieces) as i32 * SCALE;
            assert!(moved.abs() <= 1, "{pieces} pieces: {e} against {base}");
        }
        assert_eq!(
            net.evaluate(&full),
            net.output(&net.accumulate(&full), Color::White, 32)
        );
        assert_eq!(
            net.evaluate(&ending),
            net.output(&net.accumulate(&ending), Color::White, 3)
        );
    }

    #[test]
    fn stored_bytes_read_back_to_the_same_network() {
        let net = network();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), BYTES);
        assert_eq!(Network::from_bytes(&bytes).unwrap().to_bytes(), bytes);
        assert_eq!(
            Network::from_bytes(&bytes[1..]).err(),
            Some(BadNetwork(BYTES - 1))
        );
    }

    #[test]
    fn the_start_position_is_about_even() {
        let e = evaluate(&Position::new());
        assert!(e.abs() < 60, "{e}");
    }

    #[test]
    fn a_queen_up_is_winning_for_the_side_with_it() {
        let up = Position::from_fen(
            "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
            CastlingMode::Standard,
        )
        .unwrap();
        assert!(evaluate(&up) > 600, "{}", evaluate(&up));
    }
}
