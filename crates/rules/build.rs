//! Generates the sliding-piece attack tables (fancy magic bitboards) at build time.
//!
//! The magic multipliers are found by a deterministic search (fixed seed), so every build
//! produces the same tables. The output is plain Rust source in `OUT_DIR/magics.rs`.

use std::fmt::Write as _;
use std::path::PathBuf;

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn slide(sq: u8, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq & 7) as i8, (sq >> 3) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            out |= bit;
            if occ & bit != 0 {
                break;
            }
        }
    }
    out
}

fn relevant_mask(sq: u8, dirs: &[(i8, i8); 4]) -> u64 {
    let on = |f: i8, r: i8| (0..8).contains(&f) && (0..8).contains(&r);
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq & 7) as i8, (sq >> 3) as i8);
        loop {
            f += df;
            r += dr;
            // The last square of a ray never blocks anything beyond it: leave it out.
            if !on(f, r) || !on(f + df, r + dr) {
                break;
            }
            out |= 1u64 << (r * 8 + f);
        }
    }
    out
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Found {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find(sq: u8, dirs: &[(i8, i8); 4], rng: &mut Rng, table: &mut Vec<u64>) -> Found {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let n = 1usize << bits;
    let mut occs = Vec::with_capacity(n);
    let mut atts = Vec::with_capacity(n);
    // Carry-rippler enumeration of all subsets of the mask.
    let mut sub: u64 = 0;
    loop {
        occs.push(sub);
        atts.push(slide(sq, sub, dirs));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let shift = 64 - bits;
    let mut used = vec![0u64; n];
    let mut epoch = vec![0u32; n];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let mut ok = true;
        for i in 0..n {
            let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
            if epoch[idx] != attempt {
                epoch[idx] = attempt;
                used[idx] = atts[i];
            } else if used[idx] != atts[i] {
                ok = false;
                break;
            }
        }
        if ok {
            let offset = table.len();
            table.extend_from_slice(&used);
            return Found {
                mask,
                magic,
                shift,
                offset,
            };
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut table = Vec::new();
    let rooks: Vec<Found> = (0..64)
        .map(|sq| find(sq, &ROOK_DIRS, &mut rng, &mut table))
        .collect();
    let bishops: Vec<Found> = (0..64)
        .map(|sq| find(sq, &BISHOP_DIRS, &mut rng, &mut table))
        .collect();

    let mut out = String::new();
    for (name, found) in [("ROOK_MAGICS", &rooks), ("BISHOP_MAGICS", &bishops)] {
        writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
        for f in found.iter() {
            writeln!(
                out,
                "    Magic {{ mask: {:#x}, factor: {:#x}, shift: {}, offset: {} }},",
                f.mask, f.magic, f.shift, f.offset
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    writeln!(
        out,
        "pub(crate) static SLIDER_TABLE: [u64; {}] = [",
        table.len()
    )
    .unwrap();
    for chunk in table.chunks(8) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " {v:#x},").unwrap();
        }
        out.push('\n');
    }
    writeln!(out, "];").unwrap();
    let path = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("magics.rs");
    std::fs::write(path, out).unwrap();
}
