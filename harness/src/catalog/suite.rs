//! The `test-suite` format (JSON-Schema-Test-Suite): one tool per group,
//! named by the slug of its description.

use serde_json::Value;

use super::locate::Src;
use super::raw::{Raw, tool_description};
use super::types::known_instances;
use crate::error::LoadError;

/// Lowercase ASCII alphanumerics, every other run of characters one `-`,
/// no leading or trailing `-`.
pub(super) fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

pub(super) fn is_test_suite(items: &[Value]) -> bool {
    !items.is_empty()
        && items.iter().all(|g| {
            g.as_object()
                .is_some_and(|o| o.contains_key("schema") && o.contains_key("tests"))
        })
}

pub(super) fn test_suite<'a>(src: Src<'a>, root: &mut Value) -> Result<Vec<Raw<'a>>, LoadError> {
    let Value::Array(groups) = root else {
        return Err(src.error(
            "",
            "format test-suite expects a top-level array of {description, schema, tests} groups",
        ));
    };
    let mut raws = Vec::with_capacity(groups.len());
    for (i, group) in groups.iter_mut().enumerate() {
        let ptr = format!("/{i}");
        let Value::Object(obj) = group else {
            return Err(src.error(&ptr, "expected a test group object"));
        };
        let Some(schema) = obj.get_mut("schema").map(Value::take) else {
            return Err(src.error(&ptr, "missing \"schema\" (format test-suite)"));
        };
        let description = tool_description(src, &ptr, obj)?;
        let instances = known_instances(obj);
        let name = description
            .as_deref()
            .map(slug)
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| format!("group-{i}"));
        raws.push(Raw {
            src,
            pointer: ptr,
            name,
            description,
            schema,
            strict: None,
            notes: Vec::new(),
            instances,
        });
    }
    Ok(raws)
}
