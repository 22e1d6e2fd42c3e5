//! In-memory v1 shaping rate per lane: every tool of one catalog, loaded
//! once (not timed), through `Pipeline::shape` on each lane, no I/O. One
//! tab-separated line per lane: `lane  tools  seconds  tools/s`.
//! `benches/ratios.sh` sets it against the Python peers' in-process rate.
//!
//! `cargo run --release --example shape_rate -- CATALOG [LANE...]`

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use wireshape::{Lane, Pipeline, PipelineConfig, Profile};

#[global_allocator]
static GLOBAL: wireshape::alloc::Allocator = wireshape::alloc::Allocator;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next().map(PathBuf::from) else {
        eprintln!("usage: shape_rate CATALOG [LANE...]");
        return ExitCode::from(2);
    };
    let lanes: Result<Vec<Lane>, _> = args.map(|a| Lane::parse(&a)).collect();
    let lanes = match lanes {
        Ok(l) if l.is_empty() => Lane::ALL.to_vec(),
        Ok(l) => l,
        Err(e) => {
            eprintln!("shape_rate: {e}");
            return ExitCode::from(2);
        }
    };
    let tools = match wireshape::load_catalog(&path, None) {
        Ok(c) => c.tools,
        Err(e) => {
            eprintln!("shape_rate: {e}");
            return ExitCode::from(2);
        }
    };
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    for lane in lanes {
        let start = Instant::now();
        for t in &tools {
            black_box(v1.shape(lane, t));
        }
        let secs = start.elapsed().as_secs_f64();
        #[allow(clippy::cast_precision_loss)]
        let rate = tools.len() as f64 / secs;
        println!("{lane}\t{}\t{secs:.3}\t{rate:.0}", tools.len());
    }
    ExitCode::SUCCESS
}
