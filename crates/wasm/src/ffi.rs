//! The raw WebAssembly ABI. JavaScript (`web/src/rules/wasm.ts`) calls
//! `arbiter_input(len)`, writes `len` bytes of UTF-8 arguments at the address it returns,
//! calls an operation (`arbiter_position`, `arbiter_moves`, …: 0 for success, 1 for an error)
//! and reads the answer, JSON or an error message, `arbiter_output_len()` bytes at
//! `arbiter_output_ptr()`. No pointer ever crosses into Rust: the buffers belong to this
//! module, so the only code the `unsafe_code` lint sees here is the symbol export attributes
//! and the two imports.
//!
//! Imports (module `arbiter`): `now_ms() -> f64` (the page's `performance.now()`, the engine's
//! clock) and `report(ptr, len)` (one UTF-8 JSON progress report of a search, to be read
//! before the call returns).

use crate::api;
use arbiter_engine::Engine;
use std::cell::RefCell;
use std::time::Duration;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The worker's engine, kept between searches (its table stays allocated).
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

#[allow(unsafe_code)] // an `extern` block; the functions' contracts are on the safe wrappers
mod host {
    #[link(wasm_import_module = "arbiter")]
    extern "C" {
        pub fn now_ms() -> f64;
        pub fn report(ptr: *const u8, len: usize);
    }
}

/// Milliseconds from the host's monotonic clock.
#[allow(unsafe_code)]
fn now() -> Duration {
    // SAFETY: `now_ms` takes nothing and returns a number; the host supplies it at
    // instantiation (a missing import fails instantiation, not this call).
    let ms = unsafe { host::now_ms() };
    Duration::from_secs_f64((ms.max(0.0)) / 1000.0)
}

/// Hands one progress report to the host.
#[allow(unsafe_code)]
fn report(text: &str) {
    // SAFETY: the pointer and length describe `text`, alive and unchanged for the whole call;
    // the host only reads them before returning.
    unsafe { host::report(text.as_ptr(), text.len()) }
}

fn run(op: fn(&str) -> Result<String, String>) -> u32 {
    run_reporting(|args, _| op(args))
}

fn run_reporting(op: impl FnOnce(&str, &mut dyn FnMut(&str)) -> Result<String, String>) -> u32 {
    arbiter_engine::time::set_wasm_clock(now);
    // Copied out so that no buffer is borrowed while the host runs (reports).
    let args = INPUT.with(|b| String::from_utf8(b.borrow().clone()));
    let (status, text) = match args {
        Ok(args) => match op(&args, &mut report) {
            Ok(json) => (0, json),
            Err(message) => (1, message),
        },
        Err(_) => (1, "the arguments are not UTF-8".to_string()),
    };
    OUTPUT.with(|b| *b.borrow_mut() = text.into_bytes());
    status
}

/// Makes the input buffer `len` bytes long and returns its address. Invariant: the buffer is
/// neither moved nor freed until the next `arbiter_input` call, so the host may write there.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_input(len: usize) -> *mut u8 {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// The address of the last answer. Invariant: valid until the next operation.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_output_ptr() -> *const u8 {
    OUTPUT.with(|b| b.borrow().as_ptr())
}

/// The length in bytes of the last answer.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_output_len() -> usize {
    OUTPUT.with(|b| b.borrow().len())
}

/// [`api::position`].
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_position() -> u32 {
    run(api::position)
}

/// [`api::moves`].
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_moves() -> u32 {
    run(api::moves)
}

/// [`api::play`].
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_play() -> u32 {
    run(api::play)
}

/// [`api::san`].
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_san() -> u32 {
    run(api::san)
}

/// [`api::perft`].
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_perft() -> u32 {
    run(api::perft)
}

/// [`api::search`] with the engine kept from the last search, reporting through the `report`
/// import.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_search() -> u32 {
    run_reporting(|args, report| {
        ENGINE.with(|e| {
            let mut e = e.borrow_mut();
            let engine = e.get_or_insert_with(|| Engine::with_hash(api::hash_mb(args)));
            api::search_with(engine, args, report)
        })
    })
}

/// [`api::bench`], reporting through the `report` import.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn arbiter_bench() -> u32 {
    run_reporting(api::bench)
}
