//! `arbiter-uci`: the Arbiter engine over UCI on standard input and output — an external
//! engine for `arbiter serve --uci-engine NAME=PATH` (the server's tests run it as one).

fn main() {
    let stdin = std::io::stdin();
    if let Err(e) = arbiter_engine::uci::run(stdin.lock(), std::io::stdout()) {
        eprintln!("arbiter-uci: {e}");
        std::process::exit(1);
    }
}
