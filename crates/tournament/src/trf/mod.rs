//! FIDE's Tournament Report File (TRF-2026 and TRF-16, C.04 Annex 2), with the records pairing
//! programs add (`XXR` rounds, `XXC` initial colour, `XXP` and `260` forbidden pairs, `240`
//! announced byes, `162` and bbpPairings' `BBx` scoring).
//!
//! [`read`] is lenient: it reads what it can and names every problem by line and column
//! ([`Diagnostic`]); it never panics. [`write()`] writes exactly: a file read and written again
//! keeps its player lines byte for byte (line ends aside).

mod diagnostic;
mod layout;
mod read;
mod write;

pub use diagnostic::{Diagnostic, Severity};
pub use read::{read, read_bytes, TrfRead};
pub use write::{write, write_player_line};
