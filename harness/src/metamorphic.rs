//! Schema mutation (metamorphic checks, `wireshape metamorphic`): for every
//! oracle rule of a lane, take the construct that triggers it from the
//! rule's recordings (the schema node the oracle points at in each recorded
//! request), inject it into every clean corpus tool (a tool the lane's
//! oracle accepts verbatim) at three positions — merged into the root, as a
//! new root property, and as a property of a nested object — and keep the
//! injections that make the oracle fire that rule. For each, the pipeline's
//! output must be accepted by the oracle (judged by
//! [`lint`](crate::lint::lint), the `wireshape check` verdict): a tool that
//! fails closed and is still rejected takes the request down, so it is not
//! handled (one judgement with `run` and `replay`). Rules whose
//! construct is not a schema node (tool names, request members) have no
//! injection and are reported with zero cases. A construct whose own
//! `type` names no object, merged into the root, makes a non-object root:
//! a pipeline that fails such a tool closed (as `moonshot` does by design,
//! declared in its ledger) is counted apart, not as a case, and printed;
//! one that shapes it is judged like any case.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::lane::Lane;
use crate::lint::{V1Verdict, lint};
use crate::oracle::{self, DEFAULT_AS_OF};
use crate::pipeline::Pipeline;
use crate::recording::Recording;
use crate::replay::{KnownGap, gap_for, oracle_tools, verdict};
use crate::tool::Tool;

/// Where a construct is injected.
pub(crate) const POSITIONS: &[&str] = &["root", "property", "nested"];

/// The name of the property an injection adds.
const INJECTED: &str = "injected_construct";

/// The handled rate of one rule on one lane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct RuleRate {
    pub lane: Lane,
    pub rule: String,
    /// Distinct constructs taken from the rule's recordings.
    pub constructs: usize,
    /// Injections that trigger the rule, per position.
    pub cases: BTreeMap<String, usize>,
    /// Outputs the oracle accepts: the only handled ones.
    pub fixed: usize,
    /// Outputs that failed closed and are still rejected (not handled).
    pub failed_closed: usize,
    /// Shaped outputs the oracle still rejects (not handled).
    pub unhandled: usize,
    /// The first few unhandled cases (`<tool>@<position>`).
    pub unhandled_cases: Vec<String>,
    /// Root injections left out of the cases: the construct's own `type`
    /// names no object, so merged into the root it makes a non-object root
    /// (a construct with recordings of its own), and the pipeline failed
    /// that tool closed.
    pub non_object_roots: usize,
    /// The reason `recordings/known-gaps.toml` gives, when it declares
    /// every recording of this rule on this lane a gap v1 does not close
    /// yet: its injections are counted and shown, and fail the run only
    /// once they are all handled (the gap must then go, as in `replay`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known_gap: Option<String>,
}

impl RuleRate {
    pub(crate) fn total(&self) -> usize {
        self.fixed + self.failed_closed + self.unhandled
    }

    /// Cases whose output the oracle still rejects, failed closed or not.
    pub(crate) fn rejected(&self) -> usize {
        self.failed_closed + self.unhandled
    }

    /// Whether this rule fails the run: an injection v1 does not handle,
    /// or, for a declared gap, every injection handled (the gap is closed
    /// and its entry must go).
    pub(crate) fn failed(&self) -> bool {
        if self.known_gap.is_some() {
            self.total() > 0 && self.rejected() == 0
        } else {
            self.rejected() > 0
        }
    }
}

/// The reason of the known gap that covers every recording of `rule` on
/// `lane` (`None` when one is not covered, or the rule has none).
fn known_gap(
    lane: Lane,
    rule: &str,
    recordings: &[Recording],
    gaps: &[KnownGap],
) -> Option<String> {
    let mut reasons = recordings
        .iter()
        .filter(|r| r.rule == rule && r.lane == lane.id() && !r.expects_accept())
        .map(|r| gap_for(gaps, &r.id).map(|g| g.reason.clone()));
    let first = reasons.next()??;
    reasons.all(|r| r.is_some()).then_some(first)
}

/// One recorded construct: the schema node the oracle points at, and the
/// targets of the local references inside it (pointer, the recording's
/// schema there), which an injection brings along: without them a
/// reference would point at nothing in the host tool.
#[derive(Debug, Clone, PartialEq)]
struct Construct {
    node: Value,
    targets: Vec<(String, Value)>,
}

/// The schema nodes the oracle points at for `rule` in its recordings.
fn constructs(rule: &str, recordings: &[Recording]) -> Vec<Construct> {
    let mut out: Vec<Construct> = Vec::new();
    for rec in recordings
        .iter()
        .filter(|r| r.rule == rule && !r.expects_accept())
    {
        let Ok(lane) = Lane::parse(&rec.lane) else {
            continue;
        };
        let tools = oracle_tools(lane, &rec.request.tools);
        for r in verdict(rec, lane).iter().filter(|r| r.rule == rule) {
            let schema = r
                .tool
                .and_then(|i| tools.get(i))
                .and_then(|t| lane.schema_in(t));
            let Some(node) = schema.and_then(|s| s.pointer(&r.path)) else {
                continue;
            };
            if !(node.is_object() || node.is_boolean()) || out.iter().any(|c| c.node == *node) {
                continue;
            }
            let targets = crate::pointer::local_ref_pointers(node)
                .into_iter()
                .filter_map(|p| {
                    let target = schema.and_then(|s| s.pointer(&p))?;
                    Some((p, target.clone()))
                })
                .collect();
            out.push(Construct {
                node: node.clone(),
                targets,
            });
        }
    }
    out
}

/// Whether `construct`'s own `type` leaves out `object`: merged into a
/// root, it makes the tool's arguments a non-object root.
fn types_out_objects(construct: &Value) -> bool {
    match construct.get("type") {
        Some(Value::String(t)) => t != "object",
        Some(Value::Array(ts)) => !ts.iter().any(|t| t == "object"),
        _ => false,
    }
}

/// `tool` with `construct` injected at `position`, when that position
/// exists, and the targets of its references at their pointers where the
/// tool has nothing there yet.
fn inject(tool: &Tool, construct: &Construct, position: &str) -> Option<Tool> {
    let mut t = tool.clone();
    let root = t.input_schema.as_object_mut()?;
    if position == "root" {
        for (k, v) in construct.node.as_object()? {
            root.insert(k.clone(), v.clone());
        }
    } else {
        let value = if position == "nested" {
            json!({"type": "object", "properties": {INJECTED: construct.node}})
        } else {
            construct.node.clone()
        };
        let props = root
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()?;
        props.insert(INJECTED.to_owned(), value);
    }
    // A target the host has no room for (its way goes through a non-object)
    // would leave the construct's reference pointing at nothing: no such
    // injection is the construct.
    for (pointer, target) in &construct.targets {
        if !place(&mut t.input_schema, pointer, target) {
            return None;
        }
    }
    Some(t)
}

/// Put `value` at `pointer` in `root`, making the objects on the way, unless
/// something is there already; `false` when the way goes through a
/// non-object.
fn place(root: &mut Value, pointer: &str, value: &Value) -> bool {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(crate::schema::unescape_token)
        .collect();
    let Some((last, way)) = tokens.split_last() else {
        return true;
    };
    let mut at = root;
    for token in way {
        let Some(map) = at.as_object_mut() else {
            return false;
        };
        at = map
            .entry(token.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    let Some(map) = at.as_object_mut() else {
        return false;
    };
    if !map.contains_key(last) {
        map.insert(last.clone(), value.clone());
    }
    true
}

/// Whether the lane's oracle accepts `tool` verbatim.
fn clean(lane: Lane, tool: &Tool) -> bool {
    let wire = lane.render_all(std::slice::from_ref(tool));
    let tools = oracle_tools(lane, wire.as_array().map_or(&[][..], Vec::as_slice));
    oracle::check(&oracle::Request {
        tools_present: true,
        lane,
        tools: &tools,
        tool_choice: None,
        response_format: None,
        walks: None,
        as_of: DEFAULT_AS_OF,
    })
    .is_empty()
}

/// Run the schema mutation for `pipeline` on `lanes` over `tools`.
pub(crate) fn run(
    pipeline: &(dyn Pipeline + Sync),
    lanes: &[Lane],
    tools: &[Tool],
    recordings: &[Recording],
    gaps: &[KnownGap],
) -> Vec<RuleRate> {
    let mut out = Vec::new();
    for &lane in lanes {
        let clean_tools: Vec<&Tool> = tools.iter().filter(|t| clean(lane, t)).collect();
        for rule in oracle::rules_for(lane) {
            let found = constructs(rule.id, recordings);
            let mut rate = RuleRate {
                lane,
                rule: rule.id.to_owned(),
                constructs: found.len(),
                cases: BTreeMap::new(),
                fixed: 0,
                failed_closed: 0,
                unhandled: 0,
                unhandled_cases: Vec::new(),
                non_object_roots: 0,
                known_gap: known_gap(lane, rule.id, recordings, gaps),
            };
            for construct in &found {
                for tool in &clean_tools {
                    for position in POSITIONS {
                        let Some(t) = inject(tool, construct, position) else {
                            continue;
                        };
                        let name = t.name.clone();
                        let findings = lint(vec![t], &[lane], &[], DEFAULT_AS_OF, pipeline);
                        let Some(f) = findings.iter().find(|f| f.rule == rule.id) else {
                            continue;
                        };
                        if *position == "root"
                            && types_out_objects(&construct.node)
                            && f.v1 == V1Verdict::FailedClosed
                        {
                            rate.non_object_roots += 1;
                            continue;
                        }
                        *rate.cases.entry((*position).to_owned()).or_default() += 1;
                        match f.v1 {
                            V1Verdict::Fixed => {
                                rate.fixed += 1;
                                continue;
                            }
                            V1Verdict::FailedClosed => rate.failed_closed += 1,
                            V1Verdict::NoShaping | V1Verdict::StillRejected => rate.unhandled += 1,
                        }
                        if rate.unhandled_cases.len() < 3 {
                            rate.unhandled_cases.push(format!("{name}@{position}"));
                        }
                    }
                }
            }
            out.push(rate);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn rate(fixed: usize, unhandled: usize, known_gap: Option<&str>) -> RuleRate {
        RuleRate {
            lane: Lane::Moonshot,
            rule: "r".to_owned(),
            constructs: 1,
            cases: BTreeMap::new(),
            fixed,
            failed_closed: 0,
            unhandled,
            unhandled_cases: Vec::new(),
            non_object_roots: 0,
            known_gap: known_gap.map(str::to_owned),
        }
    }

    #[test]
    fn a_declared_gap_fails_only_once_every_injection_is_handled() {
        assert!(rate(3, 1, None).failed());
        assert!(!rate(3, 0, None).failed());
        assert!(!rate(0, 0, None).failed());
        assert!(!rate(3, 1, Some("why")).failed());
        assert!(rate(3, 0, Some("why")).failed());
        assert!(!rate(0, 0, Some("why")).failed());
    }

    #[test]
    fn a_declared_gap_covers_its_rule_on_its_recordings_lane_only() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings");
        let recordings = crate::recording::load_recordings(&dir).unwrap();
        let gaps = [crate::replay::KnownGap {
            recording: "moonshot-type-required-*".to_owned(),
            reason: "why".to_owned(),
        }];
        let gap = |rule: &str| known_gap(Lane::Moonshot, rule, &recordings, &gaps);
        assert_eq!(gap("moonshot-type-required").as_deref(), Some("why"));
        assert_eq!(gap("moonshot-type-beside-anyof"), None);
        assert_eq!(gap("moonshot-function-name-pattern"), None);
        // A gap covers a rule only on the recordings' lane.
        assert_eq!(
            known_gap(
                Lane::DeepseekChat,
                "moonshot-type-required",
                &recordings,
                &gaps
            ),
            None
        );
    }

    #[test]
    fn an_injected_construct_brings_the_targets_of_its_references_where_the_host_has_room() {
        let construct = Construct {
            node: json!({"$ref": "#/definitions/F"}),
            targets: vec![("/definitions/F".to_owned(), json!({"type": "string"}))],
        };
        let host = Tool::new("h", json!({"type": "object", "properties": {}}));
        let t = inject(&host, &construct, "property").unwrap();
        assert_eq!(
            t.input_schema,
            json!({"type": "object", "properties": {INJECTED: {"$ref": "#/definitions/F"}}, "definitions": {"F": {"type": "string"}}})
        );
        // The host's own schema at the pointer stays.
        let own = Tool::new(
            "h",
            json!({"type": "object", "definitions": {"F": {"type": "integer"}}}),
        );
        let t = inject(&own, &construct, "property").unwrap();
        assert_eq!(
            t.input_schema["definitions"]["F"],
            json!({"type": "integer"})
        );
        // No room: a definitions that is no object leaves the reference
        // pointing at nothing, so there is no injection.
        let blocked = Tool::new("h", json!({"type": "object", "definitions": "x"}));
        assert_eq!(inject(&blocked, &construct, "property"), None);
    }
}
