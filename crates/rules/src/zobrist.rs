//! Zobrist hashing: a 64-bit key per position, updated incrementally as moves are played.
//!
//! The keys come from a fixed-seed SplitMix64 sequence computed at compile time, so hashes are
//! stable across builds and platforms.

use crate::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const KEY_COUNT: usize = 12 * 64 + 64 + 8 + 1;

const fn keys() -> [u64; KEY_COUNT] {
    let mut out = [0u64; KEY_COUNT];
    let mut state = 0x0a7b_17e5_c0de_2018;
    let mut i = 0;
    while i < KEY_COUNT {
        let (s, v) = splitmix(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

static KEYS: [u64; KEY_COUNT] = keys();

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS[(piece.color.index() * 6 + piece.role.index()) * 64 + sq.idx()]
}

/// Key of a castling right held with the rook on `rook` (Chess960-safe: one key per rook square).
#[inline]
pub fn castling_key(rook: Square) -> u64 {
    KEYS[12 * 64 + rook.idx()]
}

/// Key of an en passant file.
#[inline]
pub fn ep_key(sq: Square) -> u64 {
    KEYS[12 * 64 + 64 + sq.file().index() as usize]
}

/// Key toggled when Black is to move.
#[inline]
pub fn turn_key(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => KEYS[KEY_COUNT - 1],
    }
}
