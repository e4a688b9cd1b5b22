//! The table of positions seen by the searches: exact (a position is compared in full, so a
//! hash collision can never make the search skip a position it has not seen), and compact (an
//! open-addressing table whose slots hold the whole position in 40 bytes, so that a look-up
//! usually touches one cache line). Clearing is free: each use of the slots has its own
//! generation number, and a slot of another generation counts as empty.

use crate::{Color, Position};

/// A position as the table compares it: the board as four bit planes (white men; and the
/// three bits of the role code, pawn 1 … king 6, so a square is empty when all three are
/// clear), and one word with the castling rights (bits 0..16), the en passant square (16..23),
/// the side to move (23), the table's generation (24..32, zero in a key made by [`key`]) and
/// the top 32 bits of the Zobrist hash.
///
/// Two keys of one generation are equal exactly when the positions have the same placement,
/// side to move, castling rights and en passant square: the planes and the low 24 bits of the
/// last word encode those one-to-one, and the hash bits are a function of them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Key([u64; 5]);

impl Key {
    /// No position, of generation 0 (which no table uses).
    const EMPTY: Key = Key([0; 5]);

    /// The generation bits.
    #[inline]
    fn generation(&self) -> u64 {
        self.0[4] & GENERATION
    }

    /// The hash bits stored in the key (bits 32..64 of the Zobrist hash).
    #[inline]
    fn hash_bits(&self) -> usize {
        (self.0[4] >> 32) as usize
    }
}

/// Where the generation sits in the last word of a key.
const GENERATION: u64 = 0xff << 24;
const FIRST_GENERATION: u64 = 1 << 24;

const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;

/// The key of a position (board, side to move, castling rights, en passant, Zobrist hash).
#[inline]
pub(super) fn key(pos: &Position) -> Key {
    let b = pos.board();
    let white = b.by_color(Color::White).0;
    let (p, n, bi, r, q, k) = (
        b.pawns().0,
        b.knights().0,
        b.bishops().0,
        b.rooks().0,
        b.queens().0,
        b.kings().0,
    );
    // Castling rooks stand on the first or last rank (a `Position` invariant).
    let castles = if pos.castles().is_empty() {
        0
    } else {
        pos.castles().mask().0
    };
    debug_assert_eq!(castles & !(RANK_1 | RANK_8), 0);
    let castles = (castles & RANK_1) | ((castles & RANK_8) >> 48);
    let ep = pos
        .pseudo_ep_square()
        .map_or(0, |sq| u64::from(sq.index()) + 1);
    let turn = u64::from(pos.turn() == Color::Black);
    let hash = pos.hash() & !0xffff_ffff;
    Key([
        white,
        p | bi | q,
        n | bi | k,
        r | q | k,
        hash | turn << 23 | ep << 16 | castles,
    ])
}

/// A map from positions to small values, exact (see the module docs).
pub(super) struct Table<V: Copy + Default> {
    /// Linear probing from the slot the hash bits name; a slot of another generation ends a
    /// probe.
    slots: Vec<(Key, V)>,
    /// The previous, smaller slots: kept to grow into next time the table is reused.
    spare: Vec<(Key, V)>,
    len: usize,
    /// The generation of the current use, in the bits of [`GENERATION`]; never 0.
    generation: u64,
}

/// Slots of a new table (a power of two).
const INITIAL: usize = 1 << 10;

impl<V: Copy + Default> Table<V> {
    pub(super) fn new() -> Table<V> {
        Table {
            slots: vec![(Key::EMPTY, V::default()); INITIAL],
            spare: Vec::new(),
            len: 0,
            generation: FIRST_GENERATION,
        }
    }

    /// Empties the table and makes it small again (for locality), keeping its memory.
    pub(super) fn reset(&mut self) {
        self.slots.clear();
        self.slots.resize(INITIAL, (Key::EMPTY, V::default()));
        self.len = 0;
    }

    /// Empties the table for another use: in place when it is small, else as [`Table::reset`].
    pub(super) fn recycle(&mut self) {
        if self.slots.len() > INITIAL {
            self.reset();
        } else {
            self.clear();
        }
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        (self.slots.capacity() + self.spare.capacity()) * std::mem::size_of::<(Key, V)>()
    }

    /// Forgets every entry: the next generation begins (after 255, every slot is reset).
    pub(super) fn clear(&mut self) {
        if self.len > 0 {
            self.len = 0;
            self.generation = (self.generation + FIRST_GENERATION) & GENERATION;
            if self.generation == 0 {
                self.slots.fill((Key::EMPTY, V::default()));
                self.generation = FIRST_GENERATION;
            }
        }
    }

    /// The slot holding `k` (as stamped with the current generation), or else the slot of
    /// another generation where it would go.
    #[inline]
    fn find(&self, k: &Key) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let want = k.0[4] | self.generation;
        let mut i = k.hash_bits() & mask;
        loop {
            let s = &self.slots[i].0 .0;
            if s[4] == want {
                let k = &k.0;
                if ((s[0] ^ k[0]) | (s[1] ^ k[1]) | (s[2] ^ k[2]) | (s[3] ^ k[3])) == 0 {
                    return (i, true);
                }
            } else if s[4] & GENERATION != self.generation {
                return (i, false);
            }
            i = (i + 1) & mask;
        }
    }

    /// The value stored for `k`.
    pub(super) fn get(&self, k: &Key) -> Option<V> {
        match self.find(k) {
            (i, true) => Some(self.slots[i].1),
            _ => None,
        }
    }

    /// Stores `v` for `k`; returns the previous value, if any.
    #[inline]
    pub(super) fn insert(&mut self, k: &Key, v: V) -> Option<V> {
        let (i, found) = self.find(k);
        if found {
            return Some(std::mem::replace(&mut self.slots[i].1, v));
        }
        let mut k = *k;
        k.0[4] |= self.generation;
        self.slots[i] = (k, v);
        self.len += 1;
        // At most 80 % full: probes stay short enough, and a fuller table touches fewer pages
        // and cache lines (measured: better than 50 % or 70 %, as good as 87.5 %).
        if self.len * 5 > self.slots.len() * 4 {
            self.grow();
        }
        None
    }

    fn grow(&mut self) {
        let mut bigger = std::mem::take(&mut self.spare);
        bigger.clear();
        bigger.resize(self.slots.len() * 2, (Key::EMPTY, V::default()));
        let old = std::mem::replace(&mut self.slots, bigger);
        for &(k, v) in &old {
            if k.generation() == self.generation {
                let (i, _) = self.find(&k);
                self.slots[i] = (k, v);
            }
        }
        self.spare = old;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn keys_tell_apart_what_art_9_2_2_tells_apart() {
        let fens = [
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w K - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R b - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2B b - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2Q b - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2q w - - 0 1",
            "r3k3/8/8/8/8/8/8/4K2R b q - 0 1",
            "r3k3/8/8/8/8/8/8/4K2R b - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1",
        ];
        let positions: Vec<Position> = fens.iter().map(|f| pos(f)).collect();
        let mut table: Table<usize> = Table::new();
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(table.insert(&key(p), i), None, "{}", fens[i]);
        }
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(table.get(&key(p)), Some(i));
            assert_eq!(key(p), key(&pos(&p.fen())));
        }
    }

    #[test]
    fn table_keeps_every_position_through_growth_and_clear() {
        // Every king placement: thousands of positions, several doublings.
        let mut table: Table<u32> = Table::new();
        let mut n = 0u32;
        for wk in 0..64u8 {
            for bk in 0..64u8 {
                let (w, b) = (
                    crate::Square::new_unchecked(wk),
                    crate::Square::new_unchecked(bk),
                );
                if w.distance(b) < 2 {
                    continue;
                }
                let mut board = crate::Board::empty();
                board.set_piece_at(w, crate::Role::King.of(Color::White));
                board.set_piece_at(b, crate::Role::King.of(Color::Black));
                let setup = crate::Setup {
                    board,
                    castles: crate::Castles::NONE,
                    ..crate::Setup::default()
                };
                let p = Position::from_setup(setup, CastlingMode::Standard).unwrap();
                assert_eq!(table.insert(&key(&p), n), None);
                assert_eq!(table.insert(&key(&p), n), Some(n));
                n += 1;
            }
        }
        assert_eq!(table.len, n as usize);
        let some = key(&Position::new());
        table.insert(&some, 7);
        table.clear();
        assert_eq!(table.get(&some), None);
        assert_eq!(table.len, 0);
    }

    #[test]
    fn table_forgets_everything_at_each_clear_through_all_generations() {
        let a = key(&Position::new());
        let b = key(&pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
        let mut table: Table<u32> = Table::new();
        for round in 0..600u32 {
            assert_eq!(table.get(&a), None, "round {round}");
            assert_eq!(table.get(&b), None, "round {round}");
            assert_eq!(table.insert(&a, round), None);
            if round % 3 == 0 {
                assert_eq!(table.insert(&b, round), None);
                assert_eq!(table.get(&b), Some(round));
            }
            assert_eq!(table.insert(&a, round + 1), Some(round));
            table.clear();
        }
    }
}
