//! The table of positions seen by the searches: exact (a position is compared in full, so a
//! hash collision can never make the search skip a position it has not seen), and compact (the
//! hash table holds only the Zobrist key and an index; the full positions sit in a vector).

use crate::{Bitboard, Board, Color, Position, Square};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A position as the table compares it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Key {
    pub(super) hash: u64,
    board: Board,
    turn: Color,
    castles: Bitboard,
    ep: Option<Square>,
}

/// The key of a position (Zobrist hash, board, side to move, castling rights, en passant).
pub(super) fn key(pos: &Position) -> Key {
    Key {
        hash: pos.hash(),
        board: *pos.board(),
        turn: pos.turn(),
        castles: pos.castles().mask(),
        ep: pos.pseudo_ep_square(),
    }
}

/// Uses a Zobrist key as its own hash.
#[derive(Default)]
pub(super) struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b) ^ (self.0 >> 56);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type ZobristMap<V> = HashMap<u64, V, BuildHasherDefault<ZobristHasher>>;

/// A map from positions to small values.
pub(super) struct Table<V: Copy> {
    /// Zobrist key → (index into `keys`, value).
    main: ZobristMap<(u32, V)>,
    keys: Vec<Key>,
    /// Positions whose Zobrist key collided with another position's (practically never).
    collided: Vec<(Key, V)>,
}

impl<V: Copy> Table<V> {
    pub(super) fn new() -> Table<V> {
        Table {
            main: ZobristMap::default(),
            keys: Vec::new(),
            collided: Vec::new(),
        }
    }

    pub(super) fn clear(&mut self) {
        self.main.clear();
        self.keys.clear();
        self.collided.clear();
    }

    /// The value stored for `k`.
    pub(super) fn get(&self, k: &Key) -> Option<V> {
        match self.main.get(&k.hash) {
            Some(&(i, v)) if self.keys[i as usize] == *k => Some(v),
            Some(_) => self.collided.iter().find(|(c, _)| c == k).map(|&(_, v)| v),
            None => None,
        }
    }

    /// Stores `v` for `k`; returns the previous value, if any.
    pub(super) fn insert(&mut self, k: &Key, v: V) -> Option<V> {
        match self.main.get_mut(&k.hash) {
            Some((i, old)) if self.keys[*i as usize] == *k => Some(std::mem::replace(old, v)),
            Some(_) => match self.collided.iter_mut().find(|(c, _)| c == k) {
                Some((_, old)) => Some(std::mem::replace(old, v)),
                None => {
                    self.collided.push((*k, v));
                    None
                }
            },
            None => {
                self.main.insert(k.hash, (self.keys.len() as u32, v));
                self.keys.push(*k);
                None
            }
        }
    }
}
