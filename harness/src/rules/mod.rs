//! The rule registry: one file per provider, each exporting `RULES`, a
//! static slice of [`Rule`]s with their unit tests beside them. Every rule
//! id equals the `rule` of the recordings in `recordings/` that evidence it.
//!
//! The data model every rule file shares (what a rule is, sees and finds)
//! is `model.rs`, a leaf; [`check`] runs a lane's table over a request.
//! Helpers shared by the provider files live here too: schema walks with
//! JSON Pointers, and per-tool iteration. `oracle` re-exports the model and
//! [`check`]; nothing here names `oracle` (imports point one way).

use serde_json::Value;

use crate::lane::Lane;
use crate::schema;
use model::{Finding, NodeList, Rejection, Request, Rule, Walk, WalkKind, Walks};

pub(crate) mod model;

mod anthropic;
mod bedrock;
mod cerebras;
mod deepseek;
mod gemini;
mod groq;
mod mistral;
mod moonshot;
mod ollama;
mod openai;
mod xai;

/// Every rule of every provider.
pub(crate) fn all() -> &'static [&'static Rule] {
    static ALL: std::sync::OnceLock<Vec<&'static Rule>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut v: Vec<&'static Rule> = Vec::new();
        for table in [
            anthropic::RULES,
            bedrock::RULES,
            cerebras::RULES,
            deepseek::RULES,
            gemini::RULES,
            groq::RULES,
            mistral::RULES,
            moonshot::RULES,
            ollama::RULES,
            openai::RULES,
            xai::RULES,
        ] {
            v.extend(table.iter());
        }
        v.sort_by_key(|r| r.id);
        v
    })
}

/// Every rule registered for a lane, sorted by id.
pub fn rules_for(lane: Lane) -> Vec<&'static Rule> {
    lane_rules(lane).to_vec()
}

/// [`rules_for`], listed once per lane for the life of the process.
fn lane_rules(lane: Lane) -> &'static [&'static Rule] {
    static BY_LANE: std::sync::OnceLock<Vec<Vec<&'static Rule>>> = std::sync::OnceLock::new();
    let by_lane = BY_LANE.get_or_init(|| {
        Lane::ALL
            .iter()
            .map(|lane| {
                // `all` is sorted by id, and so is each lane's share.
                all()
                    .iter()
                    .copied()
                    .filter(|r| r.lanes.contains(lane))
                    .collect()
            })
            .collect()
    });
    Lane::ALL
        .iter()
        .position(|l| *l == lane)
        .map_or(&[], |j| &by_lane[j])
}

/// Whether every rule of `lane` finds about a tool from that tool alone:
/// its findings about tool `i` (`tool: Some(i)`, with their paths and
/// messages) are the same whatever the other tools of the request are, as
/// long as there are as many of them (messages may name `i`). Findings
/// about the request (`tool: None`) may depend on every tool:
/// `anthropic-strict-schema-too-complex` and
/// `anthropic-strict-union-types-limit` count and sum over every strict
/// tool, `moonshot-tool-count-limit` counts them. `check` relies on it to
/// shape and judge again only the tools with a finding, when no finding is
/// about the request. Not on `gemini-openapi`: one tool that fails to parse
/// hides every tool's validation findings. The test
/// `lanes_judging_each_tool_alone_do` (`lint.rs`) holds every other lane
/// to it.
pub(crate) fn judges_each_tool_alone(lane: Lane) -> bool {
    lane != Lane::GeminiOpenapi
}

/// Run every rule of the lane; rejections sorted by (tool, rule id).
pub fn check(req: &Request<'_>) -> Vec<Rejection> {
    // Per-request memos in the rules key on this request's addresses; the
    // guard disarms them on every way out, a panicking rule included.
    struct Disarm;
    impl Drop for Disarm {
        fn drop(&mut self) {
            gemini::request_memos(false);
        }
    }
    gemini::request_memos(true);
    let _disarm = Disarm;
    // Each field moves on its own to the walks' (shorter) lifetime.
    let walks = Walks::default();
    let req = &Request {
        lane: req.lane,
        tools: req.tools,
        tools_present: req.tools_present,
        tool_choice: req.tool_choice,
        response_format: req.response_format,
        as_of: req.as_of,
        walks: Some(&walks),
    };
    let mut out = Vec::new();
    for rule in lane_rules(req.lane) {
        for f in (rule.check)(req) {
            out.push(Rejection {
                rule: rule.id,
                status: rule.status_code,
                tool: f.tool,
                path: f.path,
                message: f.message,
            });
        }
    }
    out.sort_by(|a, b| (a.tool, a.rule).cmp(&(b.tool, b.rule)));
    out
}

/// For each tool that has a schema: `f(index, schema)`; the findings of all.
pub(crate) fn each_schema(
    req: &Request<'_>,
    f: &mut dyn FnMut(usize, &Value) -> Vec<Finding>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for i in 0..req.tools.len() {
        if let Some(s) = req.schema(i) {
            out.extend(f(i, s));
        }
    }
    out
}

/// Every schema node of one tool's schema (name maps and literals are not
/// walked), with its JSON Pointer; nodes past the depth limit are skipped.
/// A tool schema of `req` is walked once per check, whichever rules ask.
pub(crate) fn nodes<'a: 's, 's>(req: &Request<'a>, schema: &'s Value) -> NodeList<'s> {
    walked(req, schema, WalkKind::All, schema::nodes_within_limit)
}

/// The `kind` walk of `schema`: kept in the request's [`Walks`] when it is
/// one of its tool schemas, else made now.
pub(crate) fn walked<'a: 's, 's>(
    req: &Request<'a>,
    schema: &'s Value,
    kind: WalkKind,
    walk: Walk,
) -> NodeList<'s> {
    match req.walks.and_then(|w| w.of(req, schema, kind, walk)) {
        Some(kept) => kept,
        None => NodeList::from(walk(schema)),
    }
}

/// The first reason a schema is not a valid JSON Schema draft 2020-12
/// document, if any: a plain-data check below the rules and the passes
/// (`metaschema`), re-exported for the provider rule files.
pub(crate) use crate::metaschema::draft_2020_12_error as metaschema_error;
pub(crate) use crate::metaschema::{py_repr, py_str};

/// A finding about tool `i` at `path`.
pub(crate) fn finding(i: usize, path: &str, message: String) -> Finding {
    Finding {
        tool: Some(i),
        path: path.to_owned(),
        message,
    }
}

/// A request with just these tools (present), as the unit tests build them.
#[cfg(test)]
pub(crate) fn request<'a>(
    lane: crate::lane::Lane,
    tools: &'a [Value],
    as_of: &'a str,
) -> Request<'a> {
    Request {
        lane,
        tools,
        tools_present: true,
        tool_choice: None,
        response_format: None,
        walks: None,
        as_of,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_checks_rules_share_one_walk_of_each_tool_schema() {
        let tools = [json!({"name": "t", "input_schema": {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b/c": {"items": {}}}
        }})];
        let walks = Walks::default();
        let req = Request {
            walks: Some(&walks),
            ..request(Lane::AnthropicMessages, &tools, "2026-01-01")
        };
        let schema = req.schema(0).unwrap();
        let first = nodes(&req, schema);
        assert_eq!(first.to_vec(), schema::nodes_within_limit(schema));
        assert_eq!(first.len(), 4);
        // The second rule to ask gets the same list, not a new walk.
        assert!(std::rc::Rc::ptr_eq(&first, &nodes(&req, schema)));
        // An equal value that is not the request's tool schema is walked
        // on its own, and so is a request without walks.
        let copy = schema.clone();
        let other = nodes(&req, &copy);
        assert!(!std::rc::Rc::ptr_eq(&first, &other));
        assert_eq!(other.to_vec(), first.to_vec());
        let bare = request(Lane::AnthropicMessages, &tools, "2026-01-01");
        assert!(!std::rc::Rc::ptr_eq(&first, &nodes(&bare, schema)));
        // Walks kept for one request answer for no other.
        let fewer = Request {
            walks: Some(&walks),
            ..request(Lane::AnthropicMessages, &tools[..0], "2026-01-01")
        };
        assert!(
            walks
                .of(&fewer, schema, WalkKind::All, |_| Vec::new())
                .is_none()
        );
        // Each kind of walk is kept apart.
        let root_only = walked(&req, schema, WalkKind::Proto, |s| {
            schema::nodes_within_limit_through(s, &|_| false)
        });
        assert_eq!(root_only.len(), 1);
        assert_eq!(nodes(&req, schema).len(), 4);
    }

    #[test]
    fn metaschema_errors_name_the_problem() {
        assert_eq!(metaschema_error(&json!({"type": "object"})), None);
        assert!(metaschema_error(&json!({"type": "objekt"})).is_some());
        assert!(metaschema_error(&json!({"required": "a"})).is_some());
    }
}
