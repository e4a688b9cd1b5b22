//! The transposition table: search results keyed by Zobrist hash, so that a position reached
//! again by another move order is not searched twice.

use arbiter_rules::{Move, Role, Square};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value (a PV node).
    Exact,
    /// At least this value (a fail-high).
    Lower,
    /// At most this value (a fail-low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The best or refuting move, if any.
    pub best: Option<Move>,
    /// The score (mate scores relative to this node).
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth searched.
    pub depth: i32,
    /// What kind of bound `score` is.
    pub bound: Bound,
}

/// Marks a used slot.
const VALID: u64 = 1 << 63;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    /// move (16 bits) | score (16) | eval (16) | depth (8) | bound (2) | generation (5) | valid (1).
    data: u64,
}

fn pack_move(m: Option<Move>) -> u64 {
    match m {
        None => 0,
        Some(m) => {
            let promo = match m.promotion {
                None => 0,
                Some(r) => r.index() as u64,
            };
            1 | (m.from.index() as u64) << 1 | (m.to.index() as u64) << 7 | promo << 13
        }
    }
}

fn unpack_move(v: u64) -> Option<Move> {
    if v & 1 == 0 {
        return None;
    }
    let from = Square::new(((v >> 1) & 63) as u8)?;
    let to = Square::new(((v >> 7) & 63) as u8)?;
    let promo = (v >> 13) & 7;
    Some(Move {
        from,
        to,
        promotion: if promo == 0 {
            None
        } else {
            Role::from_index(promo as usize)
        },
    })
}

/// A fixed-size table of search results, always-replace with depth preference.
pub struct Table {
    slots: Vec<[Slot; 2]>,
    generation: u8,
}

impl Table {
    /// A table using about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        let buckets = (mb.max(1) * 1024 * 1024 / core::mem::size_of::<[Slot; 2]>()).max(1);
        Table {
            slots: vec![[Slot::default(); 2]; buckets],
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots
            .iter_mut()
            .for_each(|s| *s = [Slot::default(); 2]);
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 31;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Looks up `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = &self.slots[self.index(key)];
        let slot = bucket.iter().find(|s| s.key == key && s.data != 0)?;
        let d = slot.data;
        let bound = match (d >> 56) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            best: unpack_move(d & 0xffff),
            score: ((d >> 16) & 0xffff) as u16 as i16 as i32,
            eval: ((d >> 32) & 0xffff) as u16 as i16 as i32,
            depth: ((d >> 48) & 0xff) as u8 as i8 as i32,
            bound,
        })
    }

    /// Stores a result, replacing the shallower or older of the two slots of its bucket.
    #[inline]
    pub fn store(&mut self, key: u64, e: Entry) {
        let generation = self.generation;
        let i = self.index(key);
        let bucket = &mut self.slots[i];
        let age = |s: &Slot| ((s.data >> 58) & 31) as u8;
        let depth = |s: &Slot| ((s.data >> 48) & 0xff) as u8 as i8 as i32;
        let pick = if let Some(j) = bucket.iter().position(|s| s.key == key) {
            j
        } else {
            // Prefer an empty slot, then one from an older search, then the shallower.
            let score = |s: &Slot| -> i32 {
                if s.data == 0 {
                    -1000
                } else if age(s) != generation {
                    -500 + depth(s)
                } else {
                    depth(s)
                }
            };
            if score(&bucket[0]) <= score(&bucket[1]) {
                0
            } else {
                1
            }
        };
        let old = bucket[pick];
        let mut best = e.best;
        if best.is_none() && old.key == key {
            best = unpack_move(old.data & 0xffff);
        }
        // Keep a deeper exact result of this same search for the same position.
        if old.key == key
            && old.data != 0
            && age(&old) == generation
            && e.bound != Bound::Exact
            && depth(&old) > e.depth + 2
        {
            return;
        }
        let bound = match e.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let data = pack_move(best)
            | (e.score.clamp(-32767, 32767) as i16 as u16 as u64) << 16
            | (e.eval.clamp(-32767, 32767) as i16 as u16 as u64) << 32
            | (e.depth.clamp(-100, 127) as i8 as u8 as u64) << 48
            | bound << 56
            | (generation as u64) << 58;
        bucket[pick] = Slot {
            key,
            data: data | VALID,
        };
    }

    /// Permille of the first thousand buckets' slots used in this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(500);
        let mut used = 0;
        for b in &self.slots[..n] {
            for s in b {
                if s.data != 0 && ((s.data >> 58) & 31) as u8 == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (2 * n).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entry_is_found_with_all_fields() {
        let mut t = Table::new(1);
        let m = Move::with_promotion(Square::A7, Square::B8, Role::Knight);
        t.store(
            0xdead_beef,
            Entry {
                best: Some(m),
                score: -31_990,
                eval: 57,
                depth: 9,
                bound: Bound::Lower,
            },
        );
        let e = t.probe(0xdead_beef).unwrap();
        assert_eq!(e.best, Some(m));
        assert_eq!(e.score, -31_990);
        assert_eq!(e.eval, 57);
        assert_eq!(e.depth, 9);
        assert_eq!(e.bound, Bound::Lower);
        assert!(t.probe(0xdead_beee).is_none());
    }
}
