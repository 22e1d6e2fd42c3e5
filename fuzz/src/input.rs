//! Target dispatch: which property each fuzz target checks, on which input.
//! Shared by the fuzz targets (`fuzz/fuzz_targets/`) and `cargo test`
//! (`harness/tests/props.rs` includes this file to replay committed crashes
//! and check the seeds).
//!
//! An input exercises one cell, a lane and a profile (and for
//! `catalog_load_no_panic` a format) chosen by the input, so its cost is one
//! shaping and one check, not 16 lanes × 2 profiles:
//!
//! - bytes that parse as JSON are the tool or its schema as they are (the
//!   raw-bytes path the seeds and the dictionary feed); the cell is picked
//!   by a hash of the bytes (FNV-1a), so an input keeps its cell;
//! - any other bytes: the first byte picks the cell (lane `b % 16`, profile
//!   `(b / 16) % 2`), the rest drive the library's generator,
//!   `wireshape::testing::generate` (the one `wireshape run --fuzz` and the
//!   proptest properties use), within sizes bounded by the input's length.
//!
//! [`replay_target`] runs every cell instead: what `cargo test` does with a
//! committed regression or a seed.

use arbitrary::Unstructured;
use serde_json::Value;
use wireshape::testing::generate::{Limits, tool_from_bytes, tool_with};
use wireshape::testing::properties;
use wireshape::{Format, Lane, Profile, Tool};

/// Every fuzz target, by name (`fuzz/fuzz_targets/<name>.rs`).
pub const TARGETS: &[&str] = &[
    "shape_no_panic",
    "shape_idempotent",
    "shape_conforms",
    "shape_never_silent",
    "catalog_load_no_panic",
    "oracle_no_panic",
];

/// The lane, profile and format one input exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub lane: Lane,
    pub profile: Profile,
    /// `None`: the loader detects the format.
    pub format: Option<Format>,
}

impl Cell {
    /// The cell a selector word names: lane from its low bits, then the
    /// profile, then the format.
    fn from_word(word: u64) -> Self {
        let lanes = Lane::ALL.len() as u64;
        let formats = Format::ALL.len() as u64 + 1;
        let lane = Lane::ALL[index(word % lanes)];
        let profile = if (word / lanes).is_multiple_of(2) {
            Profile::V0
        } else {
            Profile::V1
        };
        let format = match index((word / lanes / 2) % formats) {
            0 => None,
            n => Some(Format::ALL[n - 1]),
        };
        Self {
            lane,
            profile,
            format,
        }
    }
}

/// A remainder below a list's length as an index into it.
fn index(remainder: u64) -> usize {
    usize::try_from(remainder).expect("a remainder below a list's length fits usize")
}

/// FNV-1a, 64 bits: a fixed, portable hash of the input bytes.
fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What one input stands for: its cell and, for the shape and oracle
/// targets, its tool (JSON bytes as they are, other bytes generated).
pub fn decode(data: &[u8]) -> (Cell, Option<Tool>) {
    if serde_json::from_slice::<Value>(data).is_ok() || data.is_empty() {
        return (Cell::from_word(fnv1a(data)), tool_from_bytes(data).ok());
    }
    let cell = Cell::from_word(u64::from(data[0]));
    let rest = &data[1..];
    let tool = tool_with(&mut Unstructured::new(rest), Limits::for_len(rest.len())).ok();
    (cell, tool)
}

/// Run the named target's property on one input, in the input's cell: what
/// the fuzz target does. `None` for an unknown target name.
pub fn run_target(target: &str, data: &[u8]) -> Option<Result<(), String>> {
    if !TARGETS.contains(&target) {
        return None;
    }
    if target == "catalog_load_no_panic" {
        let cell = Cell::from_word(fnv1a(data));
        return Some(properties::catalog_load_no_panic_as(
            data,
            cell.format,
            cell.lane,
            cell.profile,
        ));
    }
    if target == "oracle_no_panic"
        && let Some((tools, request)) = request(data)
    {
        let lane = Cell::from_word(fnv1a(data)).lane;
        return Some(properties::oracle_no_panic_on(lane, &tools, &request));
    }
    let (cell, tool) = decode(data);
    let Some(tool) = tool else {
        return Some(Ok(()));
    };
    let Cell { lane, profile, .. } = cell;
    Some(match target {
        "shape_no_panic" => properties::shape_no_panic_on(&tool, lane, profile),
        "shape_idempotent" => properties::shape_idempotent_on(&tool, lane),
        "shape_conforms" => properties::shape_conforms_on(&tool, lane),
        "shape_never_silent" => properties::shape_never_silent_on(&tool, lane, profile),
        _ => properties::oracle_no_panic_on_rendered(&tool, lane),
    })
}

/// Run the named target's property on one input in every cell: what
/// `cargo test` does with a committed regression or a seed, so a file keeps
/// failing until its bug is fixed on every lane. `None` for an unknown
/// target name.
pub fn replay_target(target: &str, data: &[u8]) -> Option<Result<(), String>> {
    if !TARGETS.contains(&target) {
        return None;
    }
    if target == "catalog_load_no_panic" {
        return Some(properties::catalog_load_no_panic(data));
    }
    if target == "oracle_no_panic"
        && let Some((tools, request)) = request(data)
    {
        return Some(properties::oracle_no_panic(&tools, &request));
    }
    let Some(tool) = decode(data).1 else {
        return Some(Ok(()));
    };
    Some(match target {
        "shape_no_panic" => properties::shape_no_panic(&tool),
        "shape_idempotent" => properties::shape_idempotent(&tool),
        "shape_conforms" => properties::shape_conforms(&tool),
        "shape_never_silent" => properties::shape_never_silent(&tool),
        _ => properties::oracle_no_panic_on_tool(&tool),
    })
}

/// `oracle_no_panic`'s JSON input: a request (`{"tools": [..],
/// "tool_choice": ..}`) or a bare tools array, as the tools and the request
/// around them. `None` for bytes that are not JSON (a generated tool
/// rendered on a wire).
fn request(data: &[u8]) -> Option<(Vec<Value>, Value)> {
    Some(match serde_json::from_slice::<Value>(data).ok()? {
        Value::Array(tools) => (tools, Value::Null),
        request => {
            let tools = match request.get("tools") {
                Some(Value::Array(t)) => t.clone(),
                Some(other) => vec![other.clone()],
                None => vec![request.clone()],
            };
            (tools, request)
        }
    })
}
