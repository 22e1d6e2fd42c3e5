//! Target dispatch: which property each fuzz target checks, on which input.
//! Shared by the fuzz targets (`fuzz/fuzz_targets/`) and `cargo test`
//! (`harness/tests/props.rs` includes this file to replay committed crashes).
//!
//! Inputs come from the library's generator, `wireshape::testing::generate` (the same
//! one `wireshape run --fuzz` and the proptest properties use): bytes that
//! parse as JSON are the tool or its schema as they are (the raw-bytes path
//! the seeds and the dictionary feed); any other bytes drive its structured
//! generator.

use arbitrary::Unstructured;
use serde_json::Value;
use wireshape::Tool;
use wireshape::testing::generate::{tool, tool_from_bytes};
use wireshape::testing::properties;

/// Every fuzz target, by name (`fuzz/fuzz_targets/<name>.rs`).
pub const TARGETS: &[&str] = &[
    "shape_no_panic",
    "shape_idempotent",
    "shape_conforms",
    "shape_never_silent",
    "catalog_load_no_panic",
    "oracle_no_panic",
];

/// Run the named target's property on its input bytes: what the fuzz
/// target does, and what `cargo test` replays for a committed regression.
/// `None` for an unknown target name.
pub fn run_target(target: &str, data: &[u8]) -> Option<Result<(), String>> {
    let on_tool = |property: fn(&Tool) -> Result<(), String>| {
        tool_from_bytes(data).map_or(Ok(()), |t| property(&t))
    };
    Some(match target {
        "shape_no_panic" => on_tool(properties::shape_no_panic),
        "shape_idempotent" => on_tool(properties::shape_idempotent),
        "shape_conforms" => on_tool(properties::shape_conforms),
        "shape_never_silent" => on_tool(properties::shape_never_silent),
        "catalog_load_no_panic" => properties::catalog_load_no_panic(data),
        "oracle_no_panic" => oracle(data),
        _ => return None,
    })
}

/// `oracle_no_panic`'s input: JSON bytes are a request (`{"tools": [..],
/// "tool_choice": ..}`) or a bare tools array; other bytes are a generated
/// tool rendered on every wire.
fn oracle(data: &[u8]) -> Result<(), String> {
    match serde_json::from_slice::<Value>(data) {
        Ok(Value::Array(tools)) => properties::oracle_no_panic(&tools, &Value::Null),
        Ok(request) => {
            let tools = match request.get("tools") {
                Some(Value::Array(t)) => t.clone(),
                Some(other) => vec![other.clone()],
                None => vec![request.clone()],
            };
            properties::oracle_no_panic(&tools, &request)
        }
        Err(_) => tool(&mut Unstructured::new(data))
            .map_or(Ok(()), |t| properties::oracle_no_panic_on_tool(&t)),
    }
}
