//! # arbiter-wasm
//!
//! The rules core (`arbiter-rules`) and the engine (`arbiter-engine`) for the browser, as one
//! WebAssembly module (`wasm32-unknown-unknown`): the page asks it for legal moves, SAN, FEN
//! validation and game-end facts, so that the browser and the server apply one implementation
//! of the Laws, and a Web Worker runs the engine's analysis on the visitor's CPU.
//!
//! **Interface: a raw ABI, not `wasm-bindgen`.** `wasm-bindgen` needs its command-line tool at
//! exactly the crate's version (a `cargo install` of several minutes in CI) and generates glue
//! that would have to be committed or rebuilt. The operations here are few and coarse
//! (a FEN in, a JSON answer out), so a handful of exported functions over two buffers owned by
//! the module ([`ffi`]), read and written by some forty lines of JavaScript
//! (`web/src/rules/wasm.ts`), need nothing but `cargo`. No pointer from JavaScript is
//! dereferenced by Rust; the `unsafe_code` lint is denied and allowed only on the export
//! attributes and the two imports (the clock and the search's progress reports).
//!
//! The operations themselves ([`api`]) are plain Rust over strings and are tested natively:
//!
//! ```
//! let json = arbiter_wasm::api::position(
//!     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nstandard",
//! )
//! .unwrap();
//! assert!(json.contains("\"turn\":\"white\""));
//! assert!(json.contains("\"legal\":20"));
//! ```

pub mod api;
#[cfg(target_family = "wasm")]
pub mod ffi;
mod json;
