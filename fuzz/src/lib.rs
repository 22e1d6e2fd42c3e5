//! The fuzz targets' shared code: target dispatch ([`input`], also compiled
//! into `harness/tests/props.rs`) and [`check`], which turns a property's
//! `Err` into the panic libFuzzer reports as a crash. The input generator
//! (`wireshape::testing::generate`) and the properties
//! (`wireshape::testing::properties`) live in the `wireshape` library,
//! shared with `cargo test` and `wireshape run --fuzz`.

pub mod input;

// The allocator the `wireshape` CLI uses (`wireshape::alloc`): the targets
// measure and exercise the same build a user runs.
#[global_allocator]
static GLOBAL: wireshape::alloc::Allocator = wireshape::alloc::Allocator;

/// Run the named target on fuzzer bytes; a violated property is a crash.
pub fn check(target: &str, data: &[u8]) {
    match input::run_target(target, data) {
        Some(Ok(())) => {}
        Some(Err(message)) => panic!("{target}: property violated: {message}"),
        None => panic!("unknown fuzz target {target}"),
    }
}
