//! The engine's clock. Natively it is `std::time::Instant`. On `wasm32-unknown-unknown` the
//! standard library has no clock (`Instant::now()` panics), so the embedder (the `arbiter-wasm`
//! crate, from the browser's `performance.now()`) installs one with [`set_wasm_clock`]; without
//! one, time stands still and only depth, node and stop limits end a search.

#[cfg(not(target_family = "wasm"))]
pub use std::time::Instant;

#[cfg(target_family = "wasm")]
pub use wasm::{set_wasm_clock, Instant};

#[cfg(target_family = "wasm")]
mod wasm {
    use std::sync::OnceLock;
    use std::time::Duration;

    static CLOCK: OnceLock<fn() -> Duration> = OnceLock::new();

    /// Installs the clock: time since an arbitrary origin, never decreasing. The first call
    /// wins.
    pub fn set_wasm_clock(clock: fn() -> Duration) {
        let _ = CLOCK.set(clock);
    }

    fn read() -> Duration {
        CLOCK.get().map_or(Duration::ZERO, |clock| clock())
    }

    /// A point in time, read from the installed clock.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(read())
        }

        /// Time since `self`.
        pub fn elapsed(&self) -> Duration {
            read().saturating_sub(self.0)
        }
    }

    impl std::ops::Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d)
        }
    }
}
