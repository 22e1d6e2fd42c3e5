//! The line protocol's messages (DESIGN.md "External pipeline protocol"):
//! what wireshape writes, and how an answer becomes a [`Shaped`].
//!
//! Beyond DESIGN.md, an answer's `meta` may carry `degradations` (a list of
//! wireshape degradation records, when the start answer says
//! `"degradations": true`) and `failed_closed` (a reason: the tool ships
//! unchanged by design), and an answer may carry `tool` (`name`,
//! `description`) when the implementation renames or rewrites them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::degradation::Degradation;
use crate::lane::Lane;
use crate::pipeline::{Outcome, Shaped};
use crate::tool::Tool;

use super::spec::Fault;

/// The protocol version wireshape speaks.
pub(super) const VERSION: u64 = 1;

/// The first line to every driver.
pub(super) const START: &[u8] = b"{\"cmd\":\"start\",\"version\":1}";

/// What a driver announces about itself at start.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub language: String,
    /// Package → version (whatever the driver says; sorted).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub versions: BTreeMap<String, Value>,
    /// The implementation's lane ids.
    #[serde(default, deserialize_with = "lanes")]
    pub lanes: BTreeMap<String, LaneInfo>,
    /// Whether answers carry degradation records in `meta.degradations`.
    #[serde(default, rename = "degradations")]
    pub reports_degradations: bool,
}

/// One announced lane.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneInfo {
    /// The provider wire it shapes for (a wireshape lane id, when it is one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wire: Option<String>,
}

/// `lanes`: an object of lane ids, or a list of them.
fn lanes<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<String, LaneInfo>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Lanes {
        Map(BTreeMap<String, LaneInfo>),
        List(Vec<String>),
    }
    Ok(match Lanes::deserialize(d)? {
        Lanes::Map(m) => m,
        Lanes::List(ids) => ids
            .into_iter()
            .map(|id| (id, LaneInfo::default()))
            .collect(),
    })
}

#[derive(Deserialize)]
struct StartAnswer {
    version: Value,
    #[serde(default)]
    implementation: Implementation,
}

/// The start answer: the protocol version must be ours.
pub(super) fn parse_start(line: &str) -> Result<Implementation, String> {
    let answer: StartAnswer = serde_json::from_str(line)
        .map_err(|e| format!("a malformed start answer ({e}): {}", excerpt(line)))?;
    if answer.version.as_u64() != Some(VERSION) {
        return Err(format!(
            "the driver speaks protocol version {}, wireshape speaks {VERSION}",
            answer.version
        ));
    }
    Ok(answer.implementation)
}

/// One `shape` request: `cmd`, `seq`, `lane`, `tool` (name and
/// description), `schema`, on one line.
pub(super) fn shape_request(seq: u64, lane: &str, tool: &Tool) -> Vec<u8> {
    let mut head = Map::new();
    head.insert("name".into(), Value::String(tool.name.clone()));
    if let Some(d) = &tool.description {
        head.insert("description".into(), Value::String(d.clone()));
    }
    let request = json!({
        "cmd": "shape",
        "seq": seq,
        "lane": lane,
        "tool": head,
        "schema": tool.input_schema,
    });
    serde_json::to_vec(&request).expect("a JSON value serializes")
}

/// A well-formed answer to one request.
#[derive(Debug)]
pub(super) enum Reply {
    Shaped {
        schema: Value,
        meta: Map<String, Value>,
        name: Option<String>,
        description: Option<String>,
    },
    /// The implementation raised (or declined) on this input.
    Refused(String),
}

/// Parse the answer to the request with `seq`.
pub(super) fn parse_reply(seq: u64, line: &str) -> Result<Reply, Fault> {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        // Well-formed as far as we read, but nested past our JSON reader's
        // limit: the driver did nothing wrong and stays; the case errors.
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            return Ok(Reply::Refused(
                "the answer nests deeper than wireshape's JSON reader allows (128 levels)".into(),
            ));
        }
        Err(e) => {
            return Err(Fault::Malformed(format!(
                "not JSON ({e}): {}",
                excerpt(line)
            )));
        }
    };
    let Value::Object(mut obj) = value else {
        return Err(Fault::Malformed(format!(
            "not an object: {}",
            excerpt(line)
        )));
    };
    match obj.get("seq") {
        Some(s) if s.as_u64() == Some(seq) => {}
        got => {
            return Err(Fault::WrongSeq {
                sent: seq,
                got: got.map_or_else(|| "(none)".to_owned(), Value::to_string),
            });
        }
    }
    if obj.get("errored") == Some(&Value::Bool(true)) {
        let context = obj.remove("context").unwrap_or(Value::Null);
        let message = context
            .get("message")
            .and_then(Value::as_str)
            .map_or_else(|| context.to_string(), str::to_owned);
        return Ok(Reply::Refused(format!(
            "the implementation raised: {message}"
        )));
    }
    if obj.get("skipped") == Some(&Value::Bool(true)) {
        let message = obj.get("message").and_then(Value::as_str).unwrap_or("");
        return Ok(Reply::Refused(format!(
            "the implementation skipped it: {message}"
        )));
    }
    let Some(schema) = obj.remove("schema") else {
        return Err(Fault::Malformed(format!(
            "no `schema`, `errored` or `skipped`: {}",
            excerpt(line)
        )));
    };
    let meta = match obj.remove("meta") {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let tool = obj.remove("tool").unwrap_or(Value::Null);
    let text = |k: &str| tool.get(k).and_then(Value::as_str).map(str::to_owned);
    Ok(Reply::Shaped {
        schema,
        meta,
        name: text("name"),
        description: text("description"),
    })
}

impl Reply {
    /// The [`Shaped`] this answer means for `input` on `lane`.
    pub(super) fn into_shaped(self, lane: Lane, input: &Tool, id: &str) -> Shaped {
        let errored = |message: String| Shaped {
            tool: input.clone(),
            degradations: Vec::new(),
            outcome: Outcome::Errored {
                message: format!("{id}: {message}"),
            },
        };
        let (schema, mut meta, name, description) = match self {
            Reply::Refused(message) => return errored(message),
            Reply::Shaped {
                schema,
                meta,
                name,
                description,
            } => (schema, meta, name, description),
        };
        let degradations = match meta.remove("degradations") {
            None => Vec::new(),
            Some(v) => match serde_json::from_value::<Vec<Degradation>>(v) {
                Ok(mut records) => {
                    for r in &mut records {
                        r.lane = lane;
                    }
                    records
                }
                Err(e) => {
                    return errored(format!(
                        "`meta.degradations` is not a list of degradation records: {e}"
                    ));
                }
            },
        };
        let outcome = match meta.get("failed_closed").and_then(Value::as_str) {
            Some(reason) => Outcome::FailedClosed {
                reason: reason.to_owned(),
            },
            None => Outcome::Shaped,
        };
        let tool = Tool {
            name: name.unwrap_or_else(|| input.name.clone()),
            description: description.or_else(|| input.description.clone()),
            input_schema: schema,
            strict: input.strict,
        };
        Shaped {
            tool,
            degradations,
            outcome,
        }
    }
}

/// The first 120 characters of a line, for messages.
fn excerpt(line: &str) -> String {
    let mut s: String = line.chars().take(120).collect();
    if line.chars().count() > 120 {
        s.push('…');
    }
    s
}
