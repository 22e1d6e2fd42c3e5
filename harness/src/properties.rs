//! Property drivers: one function per fuzz target, shared by the cargo-fuzz
//! targets (`fuzz/`) and the proptest properties (`tests/props.rs`).
//!
//! Each property has a one-cell form (`*_on`, `*_as`: one lane, one
//! profile, one format; what a fuzz input exercises, so an input costs one
//! shaping, not 32) and an every-cell form built on it (what `cargo test`
//! and the committed regressions use).
//!
//! A driver only loops over lanes and profiles and calls the checks the
//! differential run and the replay use (`invariants`, `replay::judge_shaped`,
//! `load_catalog_bytes`, `oracle::check`); it never re-implements one. Each
//! returns `Err(message)` naming the lane, the pipeline and the input.

use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;

use crate::catalog::{Format, load_catalog_bytes};
use crate::invariants;
use crate::lane::Lane;
use crate::oracle::{self, DEFAULT_AS_OF, Request};
use crate::outcome::Violation;
use crate::pipeline::{BuiltinPipeline, Outcome, Pipeline, PipelineConfig, Profile, Shaped};
use crate::replay::{self, Context, Fix, KnownGap};
use crate::tool::Tool;

/// The profiles every lane is shaped with: the previous and the current line.
const LINES: [Profile; 2] = [Profile::V0, Profile::V1];

type Invariant = fn(&dyn Pipeline, Lane, &Tool, &Shaped) -> Result<(), Violation>;

/// Shape `tool` on one lane with one profile and run `check`; the violation's
/// message.
fn one(tool: &Tool, lane: Lane, profile: Profile, check: Invariant) -> Result<(), String> {
    let pipeline = profile.with_config(PipelineConfig::default());
    let shaped = pipeline.shape(lane, tool);
    check(&pipeline, lane, tool, &shaped).map_err(|v| v.message)
}

/// `cell` on every lane × `profiles`; the first violation's message.
fn each(
    profiles: &[Profile],
    mut cell: impl FnMut(Lane, Profile) -> Result<(), String>,
) -> Result<(), String> {
    for &profile in profiles {
        for &lane in Lane::ALL {
            cell(lane, profile)?;
        }
    }
    Ok(())
}

/// One lane, one profile: shaping never panics (`invariants::no_panic`).
pub fn shape_no_panic_on(tool: &Tool, lane: Lane, profile: Profile) -> Result<(), String> {
    one(tool, lane, profile, invariants::no_panic)
}

/// Every lane × v0/v1: [`shape_no_panic_on`].
pub fn shape_no_panic(tool: &Tool) -> Result<(), String> {
    each(&LINES, |lane, profile| {
        shape_no_panic_on(tool, lane, profile)
    })
}

/// One lane, v1: shaping the output again changes nothing
/// (`invariants::idempotence`).
pub fn shape_idempotent_on(tool: &Tool, lane: Lane) -> Result<(), String> {
    one(tool, lane, Profile::V1, invariants::idempotence)
}

/// Every lane, v1: [`shape_idempotent_on`].
pub fn shape_idempotent(tool: &Tool) -> Result<(), String> {
    each(&[Profile::V1], |lane, _| shape_idempotent_on(tool, lane))
}

/// One lane, one profile: every lost keyword has a degradation record
/// (`invariants::never_silent`).
pub fn shape_never_silent_on(tool: &Tool, lane: Lane, profile: Profile) -> Result<(), String> {
    one(tool, lane, profile, invariants::never_silent)
}

/// Every lane × v0/v1: [`shape_never_silent_on`].
pub fn shape_never_silent(tool: &Tool) -> Result<(), String> {
    each(&LINES, |lane, profile| {
        shape_never_silent_on(tool, lane, profile)
    })
}

/// The replay's declared gaps (`recordings/known-gaps.toml` of this source
/// tree), read once.
fn declared_gaps() -> &'static [KnownGap] {
    static GAPS: OnceLock<Vec<KnownGap>> = OnceLock::new();
    GAPS.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/known-gaps.toml");
        replay::load_known_gaps(&path).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// One lane, v1: the shaped tool is accepted by the lane's oracle or
/// failed closed, judged exactly as a replay judges a recording
/// (`replay::judge_shaped`, then `replay::judge_fix` against the declared
/// gaps): a lane without v1 passes, or a rule whose recordings are declared
/// gaps in `recordings/known-gaps.toml`, is a known gap and not a failure;
/// any other rejection is. When a gap closes and its entry goes, the
/// property tightens with it. A tool that errors on a documented limit
/// (nesting past `MAX_DEPTH`) ships unchanged by design and is not judged;
/// a panic is left to [`shape_no_panic`].
pub fn shape_conforms_on(tool: &Tool, lane: Lane) -> Result<(), String> {
    let v1: BuiltinPipeline = Profile::V1.with_config(PipelineConfig::default());
    let cx = Context {
        tool_choice: None,
        response_format: None,
        as_of: DEFAULT_AS_OF,
    };
    let shaped = v1.shape(lane, tool);
    if matches!(shaped.outcome, Outcome::Errored { .. }) {
        return Ok(());
    }
    let fix = replay::judge_shaped(
        lane,
        std::slice::from_ref(&shaped),
        &cx,
        replay::has_v1_shaping(lane),
    );
    let Fix::StillRejected { rejections } = &fix else {
        return Ok(());
    };
    // Each rejection as a recording of its rule would be judged.
    let undeclared: Vec<&String> = rejections
        .iter()
        .filter(|r| {
            let rule = r.split_once(": ").map_or(r.as_str(), |(rule, _)| rule);
            replay::judge_fix(&format!("{rule}-fuzz"), &fix, declared_gaps()).is_err()
        })
        .collect();
    if !undeclared.is_empty() {
        return Err(format!(
            "v1 on {lane}: the oracle still rejects the shaped tool under a rule with no declared gap: {}\n  input:  {}\n  output: {}",
            undeclared
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("; "),
            crate::schema::to_bytes(&tool.input_schema),
            crate::schema::to_bytes(&lane.render(&shaped.tool)),
        ));
    }
    Ok(())
}

/// Every lane, v1: [`shape_conforms_on`].
pub fn shape_conforms(tool: &Tool) -> Result<(), String> {
    each(&[Profile::V1], |lane, _| shape_conforms_on(tool, lane))
}

/// Any bytes read as `format` (`None`: detected): a catalog or an error,
/// never a panic; a loaded catalog's first tools then shape on `lane` with
/// `profile` without one.
pub fn catalog_load_no_panic_as(
    bytes: &[u8],
    format: Option<Format>,
    lane: Lane,
    profile: Profile,
) -> Result<(), String> {
    if let Ok(catalog) = load_catalog_bytes("fuzz", Path::new("fuzz.json"), bytes, format) {
        for tool in catalog.tools.iter().take(4) {
            shape_no_panic_on(tool, lane, profile)?;
        }
    }
    Ok(())
}

/// Any bytes, every format (and detection): [`catalog_load_no_panic_as`],
/// loaded tools shaped on every lane × v0/v1.
pub fn catalog_load_no_panic(bytes: &[u8]) -> Result<(), String> {
    let formats = std::iter::once(None).chain(Format::ALL.iter().copied().map(Some));
    for format in formats {
        if let Ok(catalog) = load_catalog_bytes("fuzz", Path::new("fuzz.json"), bytes, format) {
            for tool in catalog.tools.iter().take(4) {
                shape_no_panic(tool)?;
            }
        }
    }
    Ok(())
}

/// One lane's oracle on a tools array, with and without a `tools` member,
/// gives a verdict, never a panic; `request` is the request object around
/// the tools (its `tool_choice`, `response_format` and `as_of` are used
/// when present).
pub fn oracle_no_panic_on(lane: Lane, tools: &[Value], request: &Value) -> Result<(), String> {
    for tools_present in [true, false] {
        let _ = oracle::check(&Request {
            lane,
            tools,
            tools_present,
            tool_choice: request.get("tool_choice"),
            response_format: request.get("response_format"),
            walks: None,
            as_of: request
                .get("as_of")
                .and_then(Value::as_str)
                .unwrap_or(DEFAULT_AS_OF),
        });
    }
    Ok(())
}

/// Any tools array, every lane: [`oracle_no_panic_on`].
pub fn oracle_no_panic(tools: &[Value], request: &Value) -> Result<(), String> {
    each(&[Profile::V1], |lane, _| {
        oracle_no_panic_on(lane, tools, request)
    })
}

/// One tool rendered on `lane`'s wire, judged by that lane's oracle:
/// [`oracle_no_panic_on`] over what the shapers actually send.
pub fn oracle_no_panic_on_rendered(tool: &Tool, lane: Lane) -> Result<(), String> {
    let wire = lane.render_all(std::slice::from_ref(tool));
    let tools = replay::oracle_view(lane, wire.as_array().map_or(&[][..], Vec::as_slice));
    oracle_no_panic_on(lane, &tools, &Value::Null)
}

/// One tool rendered on every lane's wire: [`oracle_no_panic_on_rendered`].
pub fn oracle_no_panic_on_tool(tool: &Tool) -> Result<(), String> {
    each(&[Profile::V1], |lane, _| {
        oracle_no_panic_on_rendered(tool, lane)
    })
}
