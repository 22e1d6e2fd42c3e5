//! Print the cell and tool a fuzz input stands for, and how long each
//! target's property takes on it, in its cell (what the fuzzer runs) and in
//! every cell (what `cargo test` replays): `cargo run --example show -- FILE...`.

use std::time::Instant;

use wireshape_fuzz::input;

fn main() {
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (cell, tool) = input::decode(&data);
        println!("{path}: {cell:?}");
        match tool {
            Some(tool) => println!(
                "  tool: {}",
                serde_json::to_string(&tool).unwrap_or_default()
            ),
            None => println!("  no tool"),
        }
        for target in input::TARGETS {
            let start = Instant::now();
            let one = input::run_target(target, &data).map(|r| r.is_ok());
            let one_time = start.elapsed();
            let start = Instant::now();
            let all = input::replay_target(target, &data).map(|r| r.is_ok());
            println!(
                "  {target}: one cell {one:?} in {one_time:?}, every cell {all:?} in {:?}",
                start.elapsed()
            );
        }
    }
}
