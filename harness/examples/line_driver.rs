//! A driver for wireshape's external-pipeline line protocol (DESIGN.md
//! "External pipeline protocol"), standard library only: the echo driver
//! answers every schema unchanged; a fault mode misbehaves on one tool, to
//! see what wireshape makes of it.
//!
//! ```text
//! cargo build --release --example line_driver
//! wireshape diff --old 'cmd:target/release/examples/line_driver echo' --new v1
//! wireshape diff --old 'cmd:target/release/examples/line_driver echo' \
//!                --new 'cmd:target/release/examples/line_driver fault:crash:get_weather'
//! ```
//!
//! Modes: `echo` (default), `fault:<crash|hang|garbage|wrong-seq|huge|stderr-flood|raise>:<tool>`,
//! `slow-start:<ms>`, `no-start`, `bad-version`.

#[path = "../tests/drivers/mod.rs"]
mod drivers;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "echo".to_owned());
    std::process::exit(drivers::serve(&mode));
}
