//! Protocol overhead of an external pipeline: 10,000 schemas (the own
//! corpus's tools, cycled) shaped through the echo driver (this binary, run
//! as its own driver), one request at a time, beside the same schemas
//! through the built-in `verbatim` pipeline in process. The difference is
//! what the line protocol costs: serializing each request, two pipe hops,
//! the driver's scan, parsing each answer.
//!
//! `cargo bench -p wireshape --bench external`

mod common;
#[path = "../tests/drivers/mod.rs"]
mod drivers;

use std::sync::LazyLock;

use divan::{Bencher, black_box};
use wireshape::{ExternalLimits, ExternalPipeline, ExternalSpec, Lane, Pipeline, Profile, Tool};

const SCHEMAS: usize = 10_000;

/// The own corpus's tools, in file order, repeated up to 10,000.
static TOOLS: LazyLock<Vec<Tool>> = LazyLock::new(|| {
    let own = common::load_tools(&common::own_catalogs());
    own.iter().cycle().take(SCHEMAS).cloned().collect()
});

// The allocator the `wireshape` CLI uses (`wireshape::alloc`).
#[global_allocator]
static GLOBAL: wireshape::alloc::Allocator = wireshape::alloc::Allocator;

fn main() {
    drivers::serve_if_asked();
    divan::main();
}

/// 10,000 schemas through the echo driver, one request at a time.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn echo_driver_10000(b: Bencher) {
    let spec =
        ExternalSpec::from_command_line(&drivers::command_line("echo"), ExternalLimits::default())
            .expect("a command line");
    let pipeline = ExternalPipeline::new(spec);
    let tools = &*TOOLS;
    b.bench_local(|| {
        for t in tools {
            let shaped = pipeline.shape(Lane::OpenaiChat, t);
            assert_eq!(shaped.outcome, wireshape::Outcome::Shaped, "{}", t.name);
            black_box(shaped);
        }
    });
}

/// The same schemas through `verbatim`, in process (no protocol).
#[divan::bench(sample_count = 5, sample_size = 1)]
fn verbatim_in_process_10000(b: Bencher) {
    let pipeline = Profile::Verbatim.with_config(wireshape::PipelineConfig::default());
    let tools = &*TOOLS;
    b.bench_local(|| {
        for t in tools {
            black_box(pipeline.shape(Lane::OpenaiChat, t));
        }
    });
}
