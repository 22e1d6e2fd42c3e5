//! Run wireshape's differential over your own shaper, inside `cargo test`.
//!
//! A client that shapes tool schemas itself defines its shaper as a
//! [`Pipeline`] twice: as released (`Released`) and as on the branch under
//! review (`Branch`, here a rewrite of the same rule with an explicit stack
//! instead of recursion). wireshape plans every lane × catalog tool, runs
//! both, checks the invariants (idempotence, determinism, never silent) and
//! classifies the difference: one libtest trial per lane and case, so a
//! failure names its case and `cargo test --example own_shaper -- openai`
//! filters like any test. A refactor must change no byte; an intended
//! change is declared in a ledger (`DiffOptions::ledger_dir`).
//!
//! The rule itself: drop every `format` keyword under `properties` and
//! `items`, with a degradation record for each (a keyword that disappears
//! without a record is a never-silent violation). Dropping a `format`
//! widens what the schema accepts, so the semantic check fails each such
//! case as an undeclared widening until the lane's ledger declares it: the
//! `[[widening]]` entry in [`LEDGER`]. Remove keys with `shift_remove`:
//! `Map::remove` swaps the last key into the hole, and wireshape fails the
//! tool as unexpected, tagged `reordered` (`create_event`'s `starts`, whose
//! `format` comes first, shows it).
//!
//! `cargo test --example own_shaper` runs it over a small catalog of the
//! client's own tools ([`CATALOG`]); point `own_corpus` at your catalogs.

use std::fmt::Write as _;
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Map, Value};
use wireshape::{Action, Degradation, DiffOptions, Lane, Outcome, Pipeline, Shaped, Tool};

/// The client's tools (an MCP `tools/list` result).
const CATALOG: &str = r#"{"tools": [
  {"name": "get_weather", "description": "Weather for a city on a day.",
   "inputSchema": {"type": "object",
     "properties": {"city": {"type": "string"}, "day": {"type": "string", "format": "date"}},
     "required": ["city"]}},
  {"name": "create_event", "description": "Put an event in the calendar.",
   "inputSchema": {"type": "object",
     "properties": {"title": {"type": "string"},
       "starts": {"format": "date-time", "type": "string", "description": "ISO 8601"},
       "attendees": {"type": "array", "items": {"type": "string", "format": "email"}}},
     "required": ["title", "starts"]}},
  {"name": "ping", "description": "Is the service up?",
   "inputSchema": {"type": "object", "properties": {}}}
]}"#;

/// The lanes this client ships to.
const LANES: &[Lane] = &[Lane::OpenaiChat, Lane::AnthropicMessages];

/// Every lane's ledger: the widening this client intends, declared once.
const LEDGER: &str = r#"
[[widening]]
case = "*"
kinds = ["strip-formats"]
class = "formats-never-sent"
reason = "this client never sends `format`: the property's description says what it expects"
"#;

/// One removed `format`, as a degradation record of pass `strip-formats`.
fn removed(tool: &Tool, lane: Lane, path: &str) -> Degradation {
    Degradation {
        tool: tool.name.as_str().into(),
        lane,
        path: path.to_owned(),
        keyword: "format".to_owned(),
        action: Action::Removed,
        reason: "this client never sends `format`".into(),
        rule: None,
        pass: "strip-formats".into(),
        renamed_to: None,
    }
}

/// `parent` + `/token` as a JSON Pointer (RFC 6901).
fn child(parent: &str, token: &str) -> String {
    format!("{parent}/{}", token.replace('~', "~0").replace('/', "~1"))
}

/// The schemas directly under `node` this rule walks: property schemas and
/// an `items` schema.
fn children<'a>(
    path: &str,
    node: &'a mut Map<String, Value>,
) -> Vec<(String, &'a mut Map<String, Value>)> {
    let mut out = Vec::new();
    for (key, value) in node.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(props)) => {
                for (name, sub) in props.iter_mut() {
                    if let Value::Object(sub) = sub {
                        out.push((child(&child(path, "properties"), name), sub));
                    }
                }
            }
            ("items", Value::Object(sub)) => out.push((child(path, "items"), sub)),
            _ => {}
        }
    }
    out
}

/// The shaper as released: recursion.
struct Released;

impl Released {
    fn strip(path: &str, node: &mut Map<String, Value>, out: &mut Vec<String>) {
        if node.shift_remove("format").is_some() {
            out.push(path.to_owned());
        }
        for (sub_path, sub) in children(path, node) {
            Self::strip(&sub_path, sub, out);
        }
    }
}

impl Pipeline for Released {
    fn id(&self) -> String {
        "released".to_owned()
    }

    fn shape(&self, lane: Lane, tool: &Tool) -> Shaped {
        let mut shaped = tool.clone();
        let mut paths = Vec::new();
        if let Value::Object(root) = &mut shaped.input_schema {
            Self::strip("", root, &mut paths);
        }
        let degradations = paths.iter().map(|p| removed(tool, lane, p)).collect();
        Shaped {
            tool: shaped,
            degradations,
            outcome: Outcome::Shaped,
        }
    }
}

/// The shaper on the branch: the same rule with an explicit stack (no
/// stack overflow on deep schemas). It must ship the same bytes.
struct Branch;

impl Pipeline for Branch {
    fn id(&self) -> String {
        "branch".to_owned()
    }

    fn shape(&self, lane: Lane, tool: &Tool) -> Shaped {
        let mut shaped = tool.clone();
        let mut degradations = Vec::new();
        if let Value::Object(root) = &mut shaped.input_schema {
            let mut stack = vec![(String::new(), root)];
            while let Some((path, node)) = stack.pop() {
                if node.shift_remove("format").is_some() {
                    degradations.push(removed(tool, lane, &path));
                }
                // Reversed, so children are taken in the node's key order.
                stack.extend(children(&path, node).into_iter().rev());
            }
        }
        Shaped {
            tool: shaped,
            degradations,
            outcome: Outcome::Shaped,
        }
    }
}

fn main() {
    let args = Arguments::from_args();
    let (old, new) = (Released, Branch);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (catalogs, ledger) = (dir.path().join("catalogs"), dir.path().join("ledger"));
    for d in [&catalogs, &ledger] {
        std::fs::create_dir(d).expect("a directory");
    }
    std::fs::write(catalogs.join("client.json"), CATALOG).expect("the catalog is written");
    for lane in LANES {
        std::fs::write(ledger.join(format!("{}.toml", lane.id())), LEDGER)
            .expect("the ledger is written");
    }
    let opts = DiffOptions {
        old: &old,
        new: &new,
        lanes: LANES.to_vec(),
        own_corpus: vec![catalogs],
        external_corpus: Vec::new(),
        ledger_dir: Some(ledger),
        fuzz: None,
        shard: None,
        jobs: 1,
    };
    let inputs = wireshape::prepare(&opts).expect("the corpus loads");
    let cases: Arc<[wireshape::PlannedCase]> = inputs.cases().into();
    let ledgers = Arc::new(inputs.ledgers);
    let trials = (0..cases.len())
        .map(|i| {
            let case = &cases[i];
            let name = format!("{}::{}", case.lane, case.plan.case);
            let (cases, ledgers) = (Arc::clone(&cases), Arc::clone(&ledgers));
            Trial::test(name, move || {
                let case = &cases[i];
                let ledger = ledgers.get(&case.lane);
                let (outcome, _) = wireshape::run_case(&Released, &Branch, case, ledger);
                if !outcome.is_failure() {
                    return Ok(());
                }
                let mut msg = format!(
                    "{}: {} [{}]",
                    outcome.key(),
                    outcome.class.id(),
                    outcome.tags.join(" ")
                );
                if let Some(semantic) = outcome.undeclared_semantic() {
                    let _ = write!(msg, ", undeclared {semantic:?} output");
                }
                for v in &outcome.violations {
                    let _ = write!(msg, "\n{}: {}", v.invariant, v.message);
                }
                Err(Failed::from(msg))
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
