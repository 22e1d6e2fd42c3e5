//! Where one lane's in-memory v1 shaping time goes, tool by tool: every
//! tool of one catalog through `Pipeline::shape` (each tool's best of three
//! runs, no I/O), then the time's share by outcome (shaped, or failed closed
//! at which pass), how much of it the slowest 1% and 10% of the tools take,
//! and the slowest tools themselves with their schema's size in and out
//! (compact JSON bytes, measured after the timing).
//!
//! `cargo run --release --example tool_costs -- CATALOG LANE [TOP]`

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use wireshape::{Lane, Outcome, Pipeline, PipelineConfig, Profile, Shaped};

#[global_allocator]
static GLOBAL: wireshape::alloc::Allocator = wireshape::alloc::Allocator;

/// Runs per tool; the fastest counts (the others saw a cold cache or a
/// scheduler's pause).
const RUNS: usize = 3;

/// One tool's cost.
struct Cost {
    index: usize,
    time: Duration,
    bytes_in: usize,
    bytes_out: usize,
}

/// The outcome a tool's time is filed under.
fn outcome_key(shaped: &Shaped) -> String {
    match &shaped.outcome {
        Outcome::Shaped => "shaped".to_owned(),
        Outcome::FailedClosed { reason } => {
            let pass = reason.split(':').next().unwrap_or_default();
            format!("failed closed at {pass}")
        }
        Outcome::Errored { .. } => "errored".to_owned(),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), Some(lane)) = (args.first(), args.get(1)) else {
        eprintln!("usage: tool_costs CATALOG LANE [TOP]");
        return ExitCode::from(2);
    };
    let lane = match Lane::parse(lane) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("tool_costs: {e}");
            return ExitCode::from(2);
        }
    };
    let top = match args.get(2).map(|t| t.parse::<usize>()) {
        None => 20,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("tool_costs: TOP: {e}");
            return ExitCode::from(2);
        }
    };
    let tools = match wireshape::load_catalog(&PathBuf::from(path), None) {
        Ok(c) => c.tools,
        Err(e) => {
            eprintln!("tool_costs: {e}");
            return ExitCode::from(2);
        }
    };
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let mut costs = Vec::with_capacity(tools.len());
    let mut by_outcome: BTreeMap<String, (Duration, usize)> = BTreeMap::new();
    for (index, tool) in tools.iter().enumerate() {
        let mut time = Duration::MAX;
        let mut last = None;
        for _ in 0..RUNS {
            let start = Instant::now();
            let shaped = black_box(v1.shape(lane, tool));
            time = time.min(start.elapsed());
            last = Some(shaped);
        }
        let Some(shaped) = last else { continue };
        let filed = by_outcome.entry(outcome_key(&shaped)).or_default();
        filed.0 += time;
        filed.1 += 1;
        costs.push(Cost {
            index,
            time,
            bytes_in: compact_len(&tool.input_schema),
            bytes_out: compact_len(&shaped.tool.input_schema),
        });
    }
    let total: Duration = costs.iter().map(|c| c.time).sum();
    let share = |d: Duration| 100.0 * d.as_secs_f64() / total.as_secs_f64().max(f64::MIN_POSITIVE);
    println!(
        "{lane}: {} tools in {:.3} s (in memory, v1, each tool's best of {RUNS} runs)",
        costs.len(),
        total.as_secs_f64()
    );
    println!("\nby outcome: share of the time, tools");
    let mut filed: Vec<_> = by_outcome.into_iter().collect();
    filed.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
    for (key, (time, n)) in &filed {
        println!("{:6.1}%  {n:6}  {key}", share(*time));
    }
    costs.sort_by(|a, b| b.time.cmp(&a.time).then(a.index.cmp(&b.index)));
    println!("\nthe slowest tools' share of the time");
    for permille in [1, 10, 100] {
        let n = (costs.len() * permille).div_ceil(1000);
        let t: Duration = costs.iter().take(n).map(|c| c.time).sum();
        println!(
            "{:6.1}%  the slowest {n} ({:.1}%)",
            share(t),
            f64::from(u32::try_from(permille).unwrap_or(0)) / 10.0
        );
    }
    println!("\nrank  µs  cumulative  tool  bytes in  bytes out");
    let mut cumulative = Duration::ZERO;
    for (rank, c) in costs.iter().take(top).enumerate() {
        cumulative += c.time;
        println!(
            "{}  {:.0}  {:.1}%  {} (tools[{}])  {}  {}",
            rank + 1,
            c.time.as_secs_f64() * 1e6,
            share(cumulative),
            tools[c.index].name,
            c.index,
            c.bytes_in,
            c.bytes_out
        );
    }
    ExitCode::SUCCESS
}

/// A schema's compact JSON length.
fn compact_len(v: &serde_json::Value) -> usize {
    serde_json::to_vec(v).map_or(0, |b| b.len())
}
