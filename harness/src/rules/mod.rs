//! The rule registry: one file per provider, each exporting `RULES`, a
//! static slice of [`Rule`]s with their unit tests beside them. Every rule
//! id equals the `rule` of the recordings in `recordings/` that evidence it.
//!
//! The data model every rule file shares (what a rule is, sees and finds)
//! is `model.rs`, a leaf; [`check`] runs a lane's table over a request.
//! Helpers shared by the provider files live here too: schema walks with
//! JSON Pointers, and per-tool iteration. `oracle` re-exports the model and
//! [`check`]; nothing here names `oracle` (imports point one way).

use serde_json::{Map, Value};

use crate::lane::Lane;
use crate::schema;
use model::{Finding, Rejection, Request, Rule};

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
    let mut v: Vec<&'static Rule> = all()
        .iter()
        .copied()
        .filter(|r| r.lanes.contains(&lane))
        .collect();
    v.sort_by_key(|r| r.id);
    v
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
    let mut out = Vec::new();
    for rule in rules_for(req.lane) {
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
pub(crate) fn nodes(schema: &Value) -> Vec<(String, &Map<String, Value>)> {
    schema::nodes_within_limit(schema)
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
        as_of,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn metaschema_errors_name_the_problem() {
        assert_eq!(metaschema_error(&json!({"type": "object"})), None);
        assert!(metaschema_error(&json!({"type": "objekt"})).is_some());
        assert!(metaschema_error(&json!({"required": "a"})).is_some());
    }
}
