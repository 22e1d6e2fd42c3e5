//! Print the tool a fuzz input stands for, and how long each target's
//! property takes on it: `cargo run --example show -- FILE...`.

use std::time::Instant;

use wireshape::generate::tool_from_bytes;
use wireshape_fuzz::input;

fn main() {
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        match tool_from_bytes(&data) {
            Ok(tool) => println!(
                "{path}: {}",
                serde_json::to_string(&tool).unwrap_or_default()
            ),
            Err(e) => println!("{path}: no tool ({e})"),
        }
        for target in input::TARGETS {
            let start = Instant::now();
            let result = input::run_target(target, &data);
            println!(
                "  {target}: {:?} in {:?}",
                result.map(|r| r.is_ok()),
                start.elapsed()
            );
        }
    }
}
