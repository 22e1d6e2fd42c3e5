//! The command line (clap). Parses arguments into the library's types and
//! dispatches; every flag has a `WIRESHAPE_*` environment twin. No clap type
//! leaves this module. The binary is [`main`]: the only `anyhow` boundary,
//! and (with `console`) the only code that prints. Not part of the library's
//! API: `main.rs` calls it, nothing else should.
#![allow(clippy::print_stderr)]

mod args;
mod commands;
mod corpus_fetch;
mod errors;
mod options;
mod probe;

use std::io::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

use clap::Parser;

use crate::ExitStatus;

use args::Cli;
use errors::{exit_status_of, message_of};

#[cfg(test)]
mod tests;

/// The whole binary: parse the command line, run the verb, print the
/// error if any, and give the exit status.
pub fn main() -> ExitStatus {
    let cli = match Cli::try_parse() {
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
    let (mut status, message) = panic_boundary(|| match cli.run() {
        Ok(status) => (status, None),
        Err(err) => (
            exit_status_of(&err),
            Some(format!("wireshape: {}", message_of(&err))),
        ),
    });
    // Written, not `eprintln!`: a closed standard error is no panic.
    if let Some(m) = message {
        let _ = writeln!(std::io::stderr(), "{m}");
    }
    if let Some(e) = crate::console::stdout_failure() {
        let _ = writeln!(
            std::io::stderr(),
            "wireshape: cannot write to standard output: {e}"
        );
        status = status.max(ExitStatus::Internal);
    }
    status
}

/// Run `f`; a panic anywhere inside (rules, ledger, report, a worker thread
/// joined by a scope) becomes exit 70 with a message asking for a bug
/// report, instead of Rust's exit 101. The panic hook has already printed
/// the location.
fn panic_boundary(
    f: impl FnOnce() -> (ExitStatus, Option<String>),
) -> (ExitStatus, Option<String>) {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_owned());
        (
            ExitStatus::Internal,
            Some(format!(
                "wireshape: internal error: panicked: {what}\n\
                 this is a bug in wireshape {}: please report it with the command line and its input",
                env!("CARGO_PKG_VERSION")
            )),
        )
    })
}

#[cfg(test)]
mod panic_tests {
    use super::*;

    #[test]
    fn a_panic_inside_the_boundary_is_an_internal_error_asking_for_a_bug_report() {
        let (status, message) = panic_boundary(|| panic!("index {} out of range", 7));
        assert_eq!(status, ExitStatus::Internal);
        assert_eq!(status.code(), 70);
        assert_eq!(
            message.unwrap(),
            format!(
                "wireshape: internal error: panicked: index 7 out of range\n\
                 this is a bug in wireshape {}: please report it with the command line and its input",
                env!("CARGO_PKG_VERSION")
            )
        );
    }

    #[test]
    fn a_panic_with_a_static_message_or_in_a_scoped_thread_is_caught_too() {
        let (status, message) = panic_boundary(|| panic!("boom"));
        assert_eq!(status, ExitStatus::Internal);
        assert!(
            message
                .unwrap()
                .starts_with("wireshape: internal error: panicked: boom\n")
        );
        let (status, _) = panic_boundary(|| {
            std::thread::scope(|s| {
                s.spawn(|| panic!("in a worker"));
            });
            (ExitStatus::Clean, None)
        });
        assert_eq!(status, ExitStatus::Internal);
    }

    #[test]
    fn without_a_panic_the_status_and_message_pass_through() {
        let got = panic_boundary(|| (ExitStatus::Failures, Some("m".to_owned())));
        assert_eq!(got, (ExitStatus::Failures, Some("m".to_owned())));
    }
}
