//! Where a target's time goes on a corpus directory: each input run once in
//! its cell (what the fuzzer runs), summed by lane, with the slowest inputs:
//! `cargo run --release --example cost -- TARGET DIR [SHOWN]`.
//! A fuzzer's exec/s is the mean of these times; this shows which cells
//! and inputs make it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Instant;

use wireshape_fuzz::input;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(target), Some(dir)) = (args.next(), args.next()) else {
        eprintln!("usage: cost TARGET DIR [SHOWN]");
        std::process::exit(2);
    };
    let shown: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    // (milliseconds, bytes, lane, path)
    let mut rows = Vec::with_capacity(paths.len());
    for p in paths {
        let data = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let (cell, _) = input::decode(&data);
        let start = Instant::now();
        if input::run_target(&target, &data).is_none() {
            eprintln!("cost: no target {target} (one of {:?})", input::TARGETS);
            std::process::exit(2);
        }
        let ms = start.elapsed().as_secs_f64() * 1e3;
        rows.push((ms, data.len(), format!("{:?}", cell.lane), p));
    }
    let total: f64 = rows.iter().map(|r| r.0).sum();
    let n = rows.len().max(1);
    // Printed at once, and a closed pipe (`| head`) is no error.
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{target} over {dir}: {} inputs, {total:.0} ms, mean {:.3} ms ({:.0} inputs/s on one core)",
        rows.len(),
        total / n as f64,
        n as f64 * 1e3 / total.max(f64::MIN_POSITIVE)
    );
    let mut lanes: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
    for (ms, _, lane, _) in &rows {
        let e = lanes.entry(lane).or_default();
        e.0 += 1;
        e.1 += ms;
    }
    let mut lanes: Vec<_> = lanes.into_iter().collect();
    lanes.sort_by(|a, b| b.1.1.total_cmp(&a.1.1));
    let _ = writeln!(out, "| lane | inputs | ms | share of the time | mean ms |");
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    for (lane, (count, ms)) in lanes {
        let _ = writeln!(
            out,
            "| {lane} | {count} | {ms:.0} | {:.1}% | {:.3} |",
            100.0 * ms / total,
            ms / count as f64
        );
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let _ = writeln!(out, "slowest {shown}:");
    for (ms, len, lane, p) in rows.iter().take(shown) {
        let _ = writeln!(out, "  {ms:.1} ms  {len} bytes  {lane}  {}", p.display());
    }
    let _ = std::io::stdout().write_all(out.as_bytes());
}
