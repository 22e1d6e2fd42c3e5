//! The rule registry: one file per provider, each exporting `RULES`, a
//! static slice of [`Rule`]s with their unit tests beside them. Every rule
//! id equals the `rule` of the recordings in `recordings/` that evidence it.
//!
//! Helpers shared by the provider files live here: schema walks with JSON
//! Pointers, and per-tool iteration.

use serde_json::{Map, Value};

use crate::oracle::{Finding, Request, Rule};
use crate::schema;

mod anthropic;
mod bedrock;
mod cerebras;
mod deepseek;
mod gemini;

pub(crate) use gemini::request_memos;
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
#[allow(dead_code)] // used by the provider files as they grow
pub(crate) fn nodes(schema: &Value) -> Vec<(String, &Map<String, Value>)> {
    fn go<'a>(
        v: &'a Value,
        path: &str,
        depth: usize,
        out: &mut Vec<(String, &'a Map<String, Value>)>,
    ) {
        let Some(map) = v.as_object() else { return };
        if depth > schema::MAX_DEPTH {
            return;
        }
        out.push((path.to_owned(), map));
        for child in schema::children(map) {
            if let Some(sub) = child.get(map) {
                go(sub, &format!("{path}{}", child.suffix()), depth + 1, out);
            }
        }
    }
    let mut out = Vec::new();
    go(schema, "", 0, &mut out);
    out
}

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
