//! The serde_json floor: read a file, parse it to a `serde_json::Value`
//! (with the crate's `preserve_order`), pretty-print it to stdout. What
//! reading and writing the tools costs at all; `benches/ratios.sh` sets
//! `wireshape shape` on the same file against it.
//!
//! `cargo run --release --example serde_floor -- FILE > /dev/null`

#![allow(clippy::print_stderr)]

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: wireshape::alloc::Allocator = wireshape::alloc::Allocator;

fn floor(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path)?;
    let value: serde_json::Value = serde_json::from_slice(&bytes)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, &value)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: serde_floor FILE");
        return ExitCode::from(2);
    };
    let path = Path::new(&path);
    match floor(path) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("serde_floor: {}: {e}", path.display());
            ExitCode::from(2)
        }
    }
}
