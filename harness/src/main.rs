//! The `wireshape` binary: parse, run, map errors to exit codes. The only
//! place (with `console`) that prints, and the only `anyhow` boundary.
#![allow(clippy::print_stderr)]

mod cli;
mod console;

use clap::Parser;
use wireshape::ExitStatus;

fn main() -> ExitStatus {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = e.print();
            return if e.use_stderr() {
                ExitStatus::Usage
            } else {
                ExitStatus::Clean
            };
        }
    };
    match cli.run() {
        Ok(status) => status,
        Err(err) => {
            eprintln!("wireshape: {}", cli::message_of(&err));
            cli::exit_status_of(&err)
        }
    }
}
