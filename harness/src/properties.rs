//! Property drivers: one function per fuzz target, shared by the cargo-fuzz
//! targets (`fuzz/`) and the proptest properties (`tests/props.rs`).
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

/// Run `check` on every lane × `profiles`; the first violation's message.
fn each(tool: &Tool, profiles: &[Profile], check: Invariant) -> Result<(), String> {
    for &profile in profiles {
        let pipeline = profile.with_config(PipelineConfig::default());
        for &lane in Lane::ALL {
            let shaped = pipeline.shape(lane, tool);
            check(&pipeline, lane, tool, &shaped).map_err(|v| v.message)?;
        }
    }
    Ok(())
}

/// Every lane × v0/v1: shaping never panics (`invariants::no_panic`).
pub fn shape_no_panic(tool: &Tool) -> Result<(), String> {
    each(tool, &LINES, invariants::no_panic)
}

/// Every lane, v1: shaping the output again changes nothing
/// (`invariants::idempotence`).
pub fn shape_idempotent(tool: &Tool) -> Result<(), String> {
    each(tool, &[Profile::V1], invariants::idempotence)
}

/// Every lane × v0/v1: every lost keyword has a degradation record
/// (`invariants::never_silent`).
pub fn shape_never_silent(tool: &Tool) -> Result<(), String> {
    each(tool, &LINES, invariants::never_silent)
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

/// Every lane, v1: the shaped tool is accepted by the lane's oracle or
/// failed closed, judged exactly as a replay judges a recording
/// (`replay::judge_shaped`, then `replay::judge_fix` against the declared
/// gaps): a lane without v1 passes, or a rule whose recordings are declared
/// gaps in `recordings/known-gaps.toml`, is a known gap and not a failure;
/// any other rejection is. When a gap closes and its entry goes, the
/// property tightens with it. A tool that errors on a documented limit
/// (nesting past `MAX_DEPTH`) ships unchanged by design and is not judged;
/// a panic is left to [`shape_no_panic`].
pub fn shape_conforms(tool: &Tool) -> Result<(), String> {
    let v1: BuiltinPipeline = Profile::V1.with_config(PipelineConfig::default());
    let cx = Context {
        tool_choice: None,
        response_format: None,
        as_of: DEFAULT_AS_OF,
    };
    for &lane in Lane::ALL {
        let shaped = v1.shape(lane, tool);
        if matches!(shaped.outcome, Outcome::Errored { .. }) {
            continue;
        }
        let fix = replay::judge_shaped(
            lane,
            std::slice::from_ref(&shaped),
            &cx,
            replay::has_v1_shaping(lane),
        );
        let Fix::StillRejected { rejections } = &fix else {
            continue;
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
    }
    Ok(())
}

/// Any bytes, every format (and detection): loading gives a catalog or an
/// error, never a panic; a loaded catalog's tools then shape without one.
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

/// One lane's verdicts on a tools array, with and without a `tools`
/// member; `request` supplies `tool_choice`, `response_format`, `as_of`.
fn verdicts(lane: Lane, tools: &[Value], request: &Value) {
    for tools_present in [true, false] {
        let _ = oracle::check(&Request {
            lane,
            tools,
            tools_present,
            tool_choice: request.get("tool_choice"),
            response_format: request.get("response_format"),
            as_of: request
                .get("as_of")
                .and_then(Value::as_str)
                .unwrap_or(DEFAULT_AS_OF),
        });
    }
}

/// Any tools array, every lane: the oracle gives a verdict, never a panic.
/// `request` is the request object around the tools (its `tool_choice`,
/// `response_format` and `as_of` are used when present).
pub fn oracle_no_panic(tools: &[Value], request: &Value) -> Result<(), String> {
    for &lane in Lane::ALL {
        verdicts(lane, tools, request);
    }
    Ok(())
}

/// One tool rendered on every lane's wire, judged by that lane's oracle:
/// [`oracle_no_panic`] over what the shapers actually send.
pub fn oracle_no_panic_on_tool(tool: &Tool) -> Result<(), String> {
    for &lane in Lane::ALL {
        let wire = lane.render_all(std::slice::from_ref(tool));
        let tools = replay::oracle_tools(lane, wire.as_array().map_or(&[][..], Vec::as_slice));
        verdicts(lane, &tools, &Value::Null);
    }
    Ok(())
}
