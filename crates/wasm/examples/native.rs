//! The module's operations run natively, for `web/scripts/bench-wasm.mjs`, which runs the
//! same operations in WebAssembly in Chromium beside them:
//!
//! ```sh
//! cargo run --release -p arbiter-wasm --example native -- bench 12
//! cargo run --release -p arbiter-wasm --example native -- perft 5 "FEN"
//! ```
//!
//! Prints one JSON line: `{"op","nodes","ms","cpu_ms"}` (wall time, and the thread's CPU time
//! where Linux tells it, so that other processes on a shared machine do not count).

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let op = args.first().map(String::as_str).unwrap_or("bench");
    let start = Instant::now();
    let cpu_start = thread_cpu_ns();
    let result = match op {
        "bench" => arbiter_wasm::api::bench(args.get(1).map_or("12", String::as_str), &mut |_| {}),
        "perft" => arbiter_wasm::api::perft(&format!(
            "{}\nchess960\n{}",
            args.get(2).map_or("", String::as_str),
            args.get(1).map_or("4", String::as_str)
        )),
        _ => Err(format!(
            "unknown operation {op:?} (bench DEPTH | perft DEPTH FEN)"
        )),
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let cpu_ms = match (cpu_start, thread_cpu_ns()) {
        (Some(a), Some(b)) => format!("{:.1}", (b - a) as f64 / 1e6),
        _ => "null".to_string(),
    };
    match result {
        Ok(json) => {
            let nodes = json
                .trim_start_matches("{\"nodes\":")
                .trim_end_matches('}')
                .to_string();
            println!("{{\"op\":\"{op}\",\"nodes\":{nodes},\"ms\":{ms:.1},\"cpu_ms\":{cpu_ms}}}");
        }
        Err(e) => {
            eprintln!("native: {e}");
            std::process::exit(2);
        }
    }
}

/// CPU time of this thread in ns (Linux `/proc/thread-self/schedstat`, first field).
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
