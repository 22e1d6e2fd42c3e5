//! Invariants: pure checks over a pipeline's output, shared by the
//! differential run, the conformance trials, proptest properties and fuzz
//! targets (one implementation, many callers).
//!
//! - idempotence: `shape(shape(x)) == shape(x)` (same bytes);
//! - determinism: shaping twice gives the same bytes and records;
//! - never silent: every keyword that disappears from a schema (or whose
//!   value changes) is covered by a degradation record;
//! - no panic: no tool errored with a caught panic.
//!
//! A violation message always carries the input and the outputs involved.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::ops::ControlFlow;

use serde_json::Value;

use crate::degradation::{Action, Degradation};
use crate::lane::Lane;
use crate::outcome::{Invariant, Violation};
use crate::pipeline::{Outcome, Pipeline, Shaped};
use crate::schema::{self, NAME_MAPS, PastLimit, SCHEMA_ARRAYS, SINGLE_SCHEMA};
use crate::tool::Tool;

fn compact(v: &Value) -> String {
    schema::to_bytes(v)
}

fn wire(lane: Lane, t: &Tool) -> String {
    compact(&lane.render(t))
}

fn violation(invariant: Invariant, pipeline: &dyn Pipeline, message: String) -> Violation {
    Violation {
        invariant,
        pipeline: pipeline.id(),
        message,
    }
}

/// `shape(shape(x))` renders the same bytes as `shape(x)`.
pub fn idempotence(
    pipeline: &dyn Pipeline,
    lane: Lane,
    input: &Tool,
    once: &Shaped,
) -> Result<(), Violation> {
    if matches!(once.outcome, Outcome::Errored { .. }) {
        return Ok(());
    }
    let twice = pipeline.shape(lane, &once.tool);
    if once.tool.same_wire(&twice.tool) {
        return Ok(());
    }
    let (a, b) = (wire(lane, &once.tool), wire(lane, &twice.tool));
    if a == b {
        return Ok(());
    }
    Err(violation(
        Invariant::Idempotence,
        pipeline,
        format!(
            "{} on {}: shaping the output again changes it\n  input: {}\n  once:  {a}\n  twice: {b}",
            pipeline.id(),
            lane.id(),
            compact(&input.input_schema)
        ),
    ))
}

/// Shaping the same input again gives the same bytes and the same records.
pub fn determinism(
    pipeline: &dyn Pipeline,
    lane: Lane,
    input: &Tool,
    first: &Shaped,
) -> Result<(), Violation> {
    let second = pipeline.shape(lane, input);
    if first.tool.same_wire(&second.tool)
        && first.degradations == second.degradations
        && first.outcome == second.outcome
    {
        return Ok(());
    }
    let (a, b) = (wire(lane, &first.tool), wire(lane, &second.tool));
    if a == b && first.degradations == second.degradations && first.outcome == second.outcome {
        return Ok(());
    }
    Err(violation(
        Invariant::Determinism,
        pipeline,
        format!(
            "{} on {}: two runs on the same input differ\n  input:  {}\n  first:  {a}\n  second: {b}",
            pipeline.id(),
            lane.id(),
            compact(&input.input_schema)
        ),
    ))
}

/// A tool errored with a caught panic.
pub fn no_panic(
    pipeline: &dyn Pipeline,
    lane: Lane,
    input: &Tool,
    shaped: &Shaped,
) -> Result<(), Violation> {
    match &shaped.outcome {
        Outcome::Errored { message } if message.starts_with("panic") => Err(violation(
            Invariant::NoPanic,
            pipeline,
            format!(
                "{} on {}: {message}\n  input: {}",
                pipeline.id(),
                lane.id(),
                compact(&input.input_schema)
            ),
        )),
        _ => Ok(()),
    }
}

/// Every keyword occurrence, by the node's pointer: the key (`""` stands
/// for the node itself) and the value when it is data rather than schemas.
/// Ordered by (pointer, key), borrowing the schema's keys and values.
type Occurrences<'a> = BTreeMap<String, BTreeMap<&'a str, Option<&'a Value>>>;

fn is_container(key: &str) -> bool {
    NAME_MAPS.contains(&key)
        || SINGLE_SCHEMA.contains(&key)
        || SCHEMA_ARRAYS.contains(&key)
        || key == "items"
        || key == "dependencies"
}

/// The occurrences of every node `schema::visit` shows (up to where it
/// stops past the depth limit).
fn occurrences(root: &Value) -> Occurrences<'_> {
    let mut out = Occurrences::new();
    let _ = schema::walk::<(), Infallible>(
        root,
        PastLimit::Fail,
        (),
        &mut |path, node, ()| {
            let keys = out.entry(path.to_owned()).or_default();
            keys.insert("", None);
            for (k, v) in node {
                keys.insert(k.as_str(), (!is_container(k)).then_some(v));
            }
            ControlFlow::Continue(Some(()))
        },
        &schema::every_child,
    );
    out
}

/// One degradation record, resolved once: where it points (`path/keyword`,
/// or the path itself for records about a whole property (`keyword` =
/// `properties`) or the whole root) and what it may cover.
struct Target<'a> {
    record: &'a Degradation,
    keyed: String,
    /// A record about a whole property or the whole root covers everything
    /// beneath its path.
    whole: bool,
}

impl<'a> Target<'a> {
    fn new(d: &'a Degradation) -> Self {
        let keyed = if d.keyword.is_empty() {
            d.path.clone()
        } else {
            schema::child_path(&d.path, &d.keyword)
        };
        let whole = d.keyword.is_empty()
            || (d.keyword == "properties"
                && !d.path.is_empty()
                && matches!(d.action, Action::Removed | Action::Rewritten));
        Self {
            record: d,
            keyed,
            whole,
        }
    }
}

fn under(pointer: &str, target: &str) -> bool {
    target.is_empty()
        || pointer
            .strip_prefix(target)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn covered(records: &[Target<'_>], path: &str, key: &str, changed: bool) -> bool {
    let pointer = if key.is_empty() {
        path.to_owned()
    } else {
        schema::child_path(path, key)
    };
    records.iter().any(|t| {
        let d = t.record;
        under(&pointer, &t.keyed)
            || (t.whole && under(&pointer, &d.path))
            // A value rewritten in place is covered by any record on its node.
            || (changed && d.path == path && d.action != Action::Noted)
    })
}

/// Every keyword that disappears from the schema, and every data value that
/// changes, is covered by a degradation record of this output.
pub fn never_silent(
    pipeline: &dyn Pipeline,
    lane: Lane,
    input: &Tool,
    shaped: &Shaped,
) -> Result<(), Violation> {
    // An unchanged schema loses and changes nothing (the comparison below
    // is by path and `Value` equality too).
    if !matches!(shaped.outcome, Outcome::Shaped)
        || !pipeline.reports_degradations()
        || shaped.tool.input_schema == input.input_schema
    {
        return Ok(());
    }
    let before = occurrences(&input.input_schema);
    let after = occurrences(&shaped.tool.input_schema);
    let records: Vec<Target<'_>> = shaped.degradations.iter().map(Target::new).collect();
    let mut silent = Vec::new();
    for (path, keys) in &before {
        let now = after.get(path);
        for (&key, value) in keys {
            let kept = now.and_then(|m| m.get(key));
            let gone = kept.is_none();
            let changed = !gone && value.is_some() && kept != Some(value);
            if (gone || changed) && !covered(&records, path, key, changed) {
                let what = if key.is_empty() {
                    "schema".to_owned()
                } else {
                    format!("`{key}`")
                };
                let how = if gone { "dropped" } else { "changed" };
                silent.push(format!("{how} {what} at {}", schema::display_path(path)));
            }
        }
    }
    if silent.is_empty() {
        return Ok(());
    }
    Err(violation(
        Invariant::NeverSilent,
        pipeline,
        format!(
            "{} on {} {} without a degradation record\n  input:  {}\n  output: {}",
            pipeline.id(),
            lane.id(),
            silent.join(", "),
            compact(&input.input_schema),
            compact(&shaped.tool.input_schema)
        ),
    ))
}

/// Every invariant for one output: `idempotence` only when asked (the new
/// pipeline), the others always. Returns every violation found.
pub fn check_all(
    pipeline: &dyn Pipeline,
    lane: Lane,
    input: &Tool,
    shaped: &Shaped,
    idempotent: bool,
) -> Vec<Violation> {
    let mut out = Vec::new();
    let deterministic = determinism(pipeline, lane, input, shaped);
    // An output that is its input: shaping it again is shaping the input
    // again, which `determinism` just did and compared.
    let again_is_second = deterministic.is_ok() && shaped.tool.same_wire(input);
    let checks: [Option<Result<(), Violation>>; 4] = [
        Some(no_panic(pipeline, lane, input, shaped)),
        Some(deterministic),
        Some(never_silent(pipeline, lane, input, shaped)),
        (idempotent && !again_is_second).then(|| idempotence(pipeline, lane, input, shaped)),
    ];
    for r in checks.into_iter().flatten() {
        if let Err(v) = r {
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{PipelineConfig, Profile};
    use serde_json::json;

    /// A pipeline that drops every `minLength` without telling anyone.
    struct Silent;
    impl Pipeline for Silent {
        fn id(&self) -> String {
            "silent".into()
        }
        fn shape(&self, _lane: Lane, tool: &Tool) -> Shaped {
            let mut t = tool.clone();
            if let Some(p) = t.input_schema.pointer_mut("/properties/name") {
                p.as_object_mut().unwrap().shift_remove("minLength");
            }
            Shaped {
                tool: t,
                degradations: Vec::new(),
                outcome: Outcome::Shaped,
            }
        }
    }

    /// A pipeline that appends to the description every time.
    struct Growing;
    impl Pipeline for Growing {
        fn id(&self) -> String {
            "growing".into()
        }
        fn shape(&self, _lane: Lane, tool: &Tool) -> Shaped {
            let mut t = tool.clone();
            t.append_note("again");
            Shaped {
                tool: t,
                degradations: Vec::new(),
                outcome: Outcome::Shaped,
            }
        }
    }

    fn tool() -> Tool {
        Tool::new(
            "t",
            json!({"type":"object","properties":{"name":{"type":"string","minLength":1}}}),
        )
    }

    #[test]
    fn never_silent_catches_an_unrecorded_drop() {
        let t = tool();
        let s = Silent.shape(Lane::OpenaiChat, &t);
        let v = never_silent(&Silent, Lane::OpenaiChat, &t, &s).unwrap_err();
        assert_eq!(v.invariant, Invariant::NeverSilent);
        assert!(v.message.starts_with("silent on openai-chat dropped `minLength` at /properties/name without a degradation record"), "{}", v.message);
        assert!(
            v.message.contains("\"minLength\":1"),
            "input printed: {}",
            v.message
        );
    }

    #[test]
    fn never_silent_accepts_every_builtin_output_on_the_seed_shapes() {
        let schemas = [
            json!({"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]},"b":{"type":"string","minLength":2,"pattern":"(?=x)"}},
                   "required":["a","ghost"],"anyOf":[{"properties":{"c":{}},"required":["c"]},{"properties":{"d":{}},"required":["d"]}],
                   "dependentRequired":{"a":["b"]}}),
            json!([1, 2]),
            json!({"type":"string","enum":["x"],"not":{"const":"y"}}),
        ];
        for profile in [Profile::V0, Profile::V1] {
            let p = profile.with_config(PipelineConfig::default());
            for lane in Lane::ALL {
                for s in &schemas {
                    let t = Tool::new("t", s.clone());
                    let out = p.shape(*lane, &t);
                    assert_eq!(
                        never_silent(&p, *lane, &t, &out),
                        Ok(()),
                        "{} {lane} {s}",
                        profile.id()
                    );
                }
            }
        }
    }

    #[test]
    fn idempotence_catches_a_pass_that_keeps_growing() {
        let t = tool();
        let once = Growing.shape(Lane::OpenaiChat, &t);
        let v = idempotence(&Growing, Lane::OpenaiChat, &t, &once).unwrap_err();
        assert_eq!(v.invariant, Invariant::Idempotence);
        assert!(
            v.message.contains("once:") && v.message.contains("twice:"),
            "{}",
            v.message
        );
    }

    #[test]
    fn no_panic_reports_a_caught_panic() {
        let t = tool();
        let s = Shaped {
            tool: t.clone(),
            degradations: Vec::new(),
            outcome: Outcome::Errored {
                message: "panic: boom".into(),
            },
        };
        let v = no_panic(&Silent, Lane::OpenaiChat, &t, &s).unwrap_err();
        assert_eq!(v.invariant, Invariant::NoPanic);
        assert!(v.message.contains("panic: boom"));
    }

    #[test]
    fn determinism_holds_for_the_builtin_profiles() {
        let p = Profile::V1.with_config(PipelineConfig::default());
        let t = tool();
        let s = p.shape(Lane::DeepseekStrict, &t);
        assert_eq!(determinism(&p, Lane::DeepseekStrict, &t, &s), Ok(()));
    }

    /// A pipeline whose output's key order flips on every call.
    struct Flipping(std::sync::atomic::AtomicBool);
    impl Pipeline for Flipping {
        fn id(&self) -> String {
            "flipping".into()
        }
        fn shape(&self, _lane: Lane, tool: &Tool) -> Shaped {
            let flip = self.0.fetch_xor(true, std::sync::atomic::Ordering::Relaxed);
            let schema = if flip {
                json!({"type": "object", "properties": {}})
            } else {
                json!({"properties": {}, "type": "object"})
            };
            Shaped {
                tool: Tool::new(tool.name.clone(), schema),
                degradations: Vec::new(),
                outcome: Outcome::Shaped,
            }
        }
    }

    #[test]
    fn determinism_and_idempotence_catch_a_key_order_that_changes() {
        let p = Flipping(std::sync::atomic::AtomicBool::new(false));
        let t = tool();
        let first = p.shape(Lane::OpenaiChat, &t);
        let v = determinism(&p, Lane::OpenaiChat, &t, &first).unwrap_err();
        assert_eq!(v.invariant, Invariant::Determinism);
        let once = p.shape(Lane::OpenaiChat, &t);
        let v = idempotence(&p, Lane::OpenaiChat, &t, &once).unwrap_err();
        assert_eq!(v.invariant, Invariant::Idempotence);
    }
}
