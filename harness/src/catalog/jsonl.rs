//! The `jsonl` format: one benchmark or history line per tool.

use std::path::Path;

use serde_json::{Map, Value};

use super::locate::{Src, is_json_ws, json_error};
use super::raw::{Raw, tool_description, tool_name, tool_strict};
use super::types::known_instances;
use crate::error::LoadError;

pub(super) fn jsonl_tools<'a>(path: &'a Path, text: &'a str) -> Result<Vec<Raw<'a>>, LoadError> {
    let mut raws = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.bytes().all(is_json_ws) {
            continue;
        }
        let src = Src {
            path,
            text: line,
            line_base: i,
        };
        let mut value: Value = serde_json::from_str(line).map_err(|e| json_error(path, &e, i))?;
        raws.push(jsonl_line(src, i + 1, &mut value)?);
    }
    Ok(raws)
}

/// One JSON Lines record: a benchmark line (`schema`) or a history line
/// (`name` + `input_schema`).
pub(super) fn jsonl_line<'a>(
    src: Src<'a>,
    line_no: usize,
    value: &mut Value,
) -> Result<Raw<'a>, LoadError> {
    let Value::Object(obj) = value else {
        return Err(src.error("", "expected a json object"));
    };
    let description = tool_description(src, "", obj)?;
    let strict = tool_strict(src, "", obj)?;
    let instances = known_instances(obj);
    let (name, schema) = if obj.contains_key("schema") {
        let name = match obj.get("id") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => format!("line-{line_no}"),
        };
        (
            name,
            obj.get_mut("schema").map(Value::take).unwrap_or_default(),
        )
    } else if obj.contains_key("input_schema") {
        let name = tool_name(src, "", obj)?;
        let name = match obj.get("commit") {
            Some(Value::String(c)) if !c.is_empty() => {
                format!("{name}@{}", c.chars().take(7).collect::<String>())
            }
            _ => name,
        };
        (
            name,
            obj.get_mut("input_schema")
                .map(Value::take)
                .unwrap_or_default(),
        )
    } else {
        return Err(src.error(
            "",
            "expected a benchmark line with \"schema\" or a history line with \"name\" and \"input_schema\"",
        ));
    };
    Ok(Raw {
        src,
        pointer: String::new(),
        name,
        description,
        schema,
        strict,
        notes: Vec::new(),
        instances,
    })
}

pub(super) fn looks_like_jsonl_line(obj: &Map<String, Value>) -> bool {
    obj.get("schema")
        .is_some_and(|s| s.is_object() || s.is_boolean())
        || (obj.contains_key("name") && obj.contains_key("input_schema"))
}
