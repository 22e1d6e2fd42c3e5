//! Where shaping's time goes, piece by piece, on the same tools:
//!
//! - `floor`: a serde_json (`preserve_order`) parse and pretty-print of the
//!   input files' bytes, what reading and writing the tools costs at all;
//! - `shape::v0`, `shape::v1`: every tool through one lane of a built-in
//!   profile, in memory (`Pipeline::shape`: a parsed `Tool` in, `Shaped`
//!   out);
//! - `oracle`: the lane's oracle over each v1 output as the run renders it
//!   (`oracle::check`, the wire tool sent on its own);
//! - `invariants::*`: the run's invariants on each v1 output of a lane:
//!   `check_all` (what the run calls for the new pipeline), then each one;
//! - `run_own_corpus`: `prepare` + `execute` over `corpus/catalogs`, as
//!   `wireshape run` does (default lanes, the ledger, `corpus/config.toml`),
//!   without a report.
//!
//! The per-tool benches read the own corpus (`corpus/catalogs`), or the one
//! catalog `WIRESHAPE_BENCH_INPUT` names (absolute, or relative to the
//! workspace root: `target/ratios/alltools.json`, the 40 MB file `ratios.sh`
//! builds, say). Counters give tools/s (bytes/s for the floor, cases/s for the run).
//!
//! `cargo bench -p wireshape --bench shaping [-- FILTER]`

mod common;

use std::path::Path;
use std::sync::LazyLock;

use divan::counter::{BytesCount, ItemsCount};
use divan::{Bencher, black_box};
use serde_json::Value;
use wireshape::outcome::Violation;
use wireshape::{
    DEFAULT_AS_OF, DiffOptions, Lane, Pipeline, PipelineConfig, Profile, Request, Shaped, Tool,
};

/// The input files' bytes and their tools.
struct Input {
    files: Vec<Vec<u8>>,
    tools: Vec<Tool>,
}

static INPUT: LazyLock<Input> = LazyLock::new(|| {
    let paths = match std::env::var_os("WIRESHAPE_BENCH_INPUT") {
        // Relative to the workspace root, where `cargo bench` is run from.
        Some(p) if !p.is_empty() => vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(p)],
        _ => common::own_catalogs(),
    };
    Input {
        files: paths
            .iter()
            .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
            .collect(),
        tools: common::load_tools(&paths),
    }
});

// The allocator the `wireshape` CLI uses (`wireshape::alloc`).
#[global_allocator]
static GLOBAL: wireshape::alloc::Allocator = wireshape::alloc::Allocator;

fn main() {
    divan::main();
}

fn v1() -> wireshape::BuiltinPipeline {
    Profile::V1.with_config(PipelineConfig::default())
}

/// Every tool through `pipeline` on `lane`, untimed: what the oracle and
/// invariant benches judge.
fn shaped(pipeline: &dyn Pipeline, lane: Lane) -> Vec<Shaped> {
    INPUT
        .tools
        .iter()
        .map(|t| pipeline.shape(lane, t))
        .collect()
}

fn tools_count() -> ItemsCount {
    ItemsCount::new(INPUT.tools.len())
}

/// Parse and pretty-print every input file: the serde_json floor.
#[divan::bench]
fn floor(b: Bencher) {
    let files = &INPUT.files;
    let mut out = Vec::new();
    b.counter(BytesCount::new(files.iter().map(Vec::len).sum::<usize>()))
        .bench_local(|| {
            for bytes in files {
                let v: Value = serde_json::from_slice(bytes).expect("JSON");
                out.clear();
                serde_json::to_writer_pretty(&mut out, &v).expect("in memory");
                black_box(&out);
            }
        });
}

/// Shaping in memory, per lane and profile.
mod shape {
    use super::{Bencher, Lane, PipelineConfig, Profile, black_box, tools_count};
    use wireshape::Pipeline;

    fn each_tool(b: Bencher, profile: Profile, lane: Lane) {
        let pipeline = profile.with_config(PipelineConfig::default());
        let tools = &super::INPUT.tools;
        b.counter(tools_count()).bench_local(|| {
            for t in tools {
                black_box(pipeline.shape(lane, t));
            }
        });
    }

    #[divan::bench(args = Lane::ALL)]
    fn v0(b: Bencher, lane: Lane) {
        each_tool(b, Profile::V0, lane);
    }

    #[divan::bench(args = Lane::ALL)]
    fn v1(b: Bencher, lane: Lane) {
        each_tool(b, Profile::V1, lane);
    }
}

/// The lane's oracle on each v1 output, rendered as the run sends it.
#[divan::bench(args = Lane::ALL)]
fn oracle(b: Bencher, lane: Lane) {
    let wire: Vec<Value> = shaped(&v1(), lane)
        .iter()
        .map(|s| lane.render(&s.tool))
        .collect();
    b.counter(tools_count()).bench_local(|| {
        for w in &wire {
            black_box(wireshape::check(&Request {
                lane,
                tools: std::slice::from_ref(w),
                tools_present: true,
                tool_choice: None,
                response_format: None,
                walks: None,
                as_of: DEFAULT_AS_OF,
            }));
        }
    });
}

/// The run's invariants on each v1 output of a lane.
mod invariants {
    use super::{Bencher, Lane, Pipeline, Shaped, Tool, Violation, black_box, tools_count};
    use wireshape::testing;

    type Check = fn(&dyn Pipeline, Lane, &Tool, &Shaped) -> Result<(), Violation>;

    fn each_output(b: Bencher, lane: Lane, check: Check) {
        let pipeline = super::v1();
        let outputs = super::shaped(&pipeline, lane);
        let tools = &super::INPUT.tools;
        b.counter(tools_count()).bench_local(|| {
            for (t, s) in tools.iter().zip(&outputs) {
                black_box(check(&pipeline, lane, t, s).is_ok());
            }
        });
    }

    /// All four, as the run checks the new pipeline's output.
    #[divan::bench(args = Lane::ALL)]
    fn check_all(b: Bencher, lane: Lane) {
        each_output(b, lane, |p, lane, t, s| {
            let v = testing::check_all(p, lane, t, s, true);
            v.into_iter().next().map_or(Ok(()), Err)
        });
    }

    #[divan::bench(args = Lane::ALL)]
    fn no_panic(b: Bencher, lane: Lane) {
        each_output(b, lane, testing::no_panic);
    }

    #[divan::bench(args = Lane::ALL)]
    fn determinism(b: Bencher, lane: Lane) {
        each_output(b, lane, testing::determinism);
    }

    #[divan::bench(args = Lane::ALL)]
    fn never_silent(b: Bencher, lane: Lane) {
        each_output(b, lane, testing::never_silent);
    }

    #[divan::bench(args = Lane::ALL)]
    fn idempotence(b: Bencher, lane: Lane) {
        each_output(b, lane, testing::idempotence);
    }
}

/// `wireshape run` over the own corpus (v0 → v1, default lanes, its
/// ledger and config), `prepare` + `execute`, no report written.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn run_own_corpus(b: Bencher) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let config =
        PipelineConfig::load(&root.join("corpus/config.toml")).expect("corpus/config.toml");
    let old = Profile::V0.with_config(config.clone());
    let new = Profile::V1.with_config(config);
    let opts = DiffOptions {
        old: &old,
        new: &new,
        lanes: Lane::DIFFERENTIAL.to_vec(),
        own_corpus: vec![root.join("corpus/catalogs")],
        external_corpus: Vec::new(),
        ledger_dir: Some(root.join("corpus/ledger")),
        fuzz: None,
        shard: None,
        jobs: std::thread::available_parallelism().map_or(1, usize::from),
    };
    let cases = wireshape::prepare(&opts)
        .expect("the own corpus")
        .case_count();
    b.counter(ItemsCount::new(cases)).bench_local(|| {
        let inputs = wireshape::prepare(&opts).expect("the own corpus");
        black_box(wireshape::execute(&opts, inputs, &mut |_| {}))
    });
}
