//! `arbiter uci`: the Arbiter engine over the Universal Chess Interface, for GUIs such as
//! Arena or cutechess-cli.

use anyhow::Result;
use clap::Parser;
use std::process::ExitCode;

/// Arguments of `arbiter uci` (none: everything is set with UCI `setoption`).
#[derive(Parser)]
pub struct Args {}

/// Runs the UCI loop on standard input and output until `quit`.
pub fn run(_args: Args) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    arbiter_engine::uci::run(stdin.lock(), std::io::stdout())?;
    Ok(ExitCode::SUCCESS)
}
