//! Comparing an old and a new output: byte identity, value identity
//! (canonical key order, so `reordered` can be told apart), change tags, and
//! the unified text diff (wraps `similar`).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::degradation::Degradation;
use crate::pipeline::Shaped;

pub use crate::hash::sha256_hex;

/// The value with every object's keys sorted (arrays keep their order).
pub fn canonical(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), canonical(&m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// How two rendered outputs compare, before the ledger is consulted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Comparison {
    Identical,
    Reordered,
    Different,
}

/// `bytes`: each value's compact JSON ([`crate::schema::to_bytes`]).
pub(crate) fn compare(old: &Value, new: &Value, bytes: (&str, &str)) -> Comparison {
    if bytes.0 == bytes.1 {
        Comparison::Identical
    } else if old == new {
        // Objects compare as maps (serde_json's map is an `IndexMap`, equal
        // to another with the same entries in any order): equal is equal
        // after sorting every object's keys, without sorting them.
        Comparison::Reordered
    } else {
        Comparison::Different
    }
}

fn signature(d: &Degradation) -> (String, String, &'static str) {
    (d.path.clone(), d.keyword.clone(), d.action.as_str())
}

/// What changed between the two sides, as tags a ledger entry can name:
/// - `old:<keyword>:<action>` — the old pipeline did this and the new one
///   did not (same path);
/// - `new:<keyword>:<action>` — the new pipeline did this and the old one did not;
/// - `outcome:<old>-><new>` — the outcomes differ (`shaped`, `failed-closed`, `errored`);
/// - `reordered` — same value, different key order;
/// - `bytes` — the outputs differ but nothing above explains it (a note
///   text, a merge order: something no record distinguishes).
pub(crate) fn change_tags(old: &Shaped, new: &Shaped, comparison: Comparison) -> Vec<String> {
    let mut tags = BTreeSet::new();
    if comparison == Comparison::Identical {
        return Vec::new();
    }
    if comparison == Comparison::Reordered {
        tags.insert("reordered".to_owned());
    }
    if old.outcome.id() != new.outcome.id() {
        tags.insert(format!(
            "outcome:{}->{}",
            old.outcome.id(),
            new.outcome.id()
        ));
    }
    let olds: BTreeSet<_> = old.degradations.iter().map(signature).collect();
    let news: BTreeSet<_> = new.degradations.iter().map(signature).collect();
    for (_, kw, action) in olds.difference(&news) {
        tags.insert(format!(
            "old:{}:{action}",
            if kw.is_empty() { "(root)" } else { kw }
        ));
    }
    for (_, kw, action) in news.difference(&olds) {
        tags.insert(format!(
            "new:{}:{action}",
            if kw.is_empty() { "(root)" } else { kw }
        ));
    }
    if tags.is_empty() {
        tags.insert("bytes".to_owned());
    }
    tags.into_iter().collect()
}

/// Pretty JSON of a value (pipeline key order).
pub(crate) fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// Unified diff of two texts, 3 lines of context.
pub(crate) fn unified(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::degradation::Action;
    use crate::pipeline::Outcome;
    use crate::tool::Tool;
    use serde_json::json;

    fn shaped(schema: Value, records: &[(&str, &str, Action)], outcome: Outcome) -> Shaped {
        Shaped {
            tool: Tool::new("t", schema),
            degradations: records
                .iter()
                .map(|(p, k, a)| Degradation {
                    tool: "t".into(),
                    lane: crate::lane::Lane::OpenaiChat,
                    path: (*p).into(),
                    keyword: (*k).into(),
                    action: *a,
                    reason: "".into(),
                    rule: None,
                    pass: "p".into(),
                    renamed_to: None,
                })
                .collect(),
            outcome,
        }
    }

    #[test]
    fn same_bytes_are_identical_and_other_key_order_is_reordered() {
        let cmp = |a: Value, b: Value| {
            let bytes = (crate::schema::to_bytes(&a), crate::schema::to_bytes(&b));
            compare(&a, &b, (&bytes.0, &bytes.1))
        };
        assert_eq!(
            cmp(json!({"a":1,"b":2}), json!({"a":1,"b":2})),
            Comparison::Identical
        );
        assert_eq!(
            cmp(json!({"a":1,"b":2}), json!({"b":2,"a":1})),
            Comparison::Reordered
        );
        assert_eq!(
            cmp(json!({"a":[1,2]}), json!({"a":[2,1]})),
            Comparison::Different
        );
        // Key order anywhere inside, arrays of objects too.
        assert_eq!(
            cmp(
                json!({"a":{"x":1,"y":[{"p":1,"q":2}]}}),
                json!({"a":{"y":[{"q":2,"p":1}],"x":1}})
            ),
            Comparison::Reordered
        );
        assert_eq!(
            cmp(json!({"a":{"x":1,"y":2}}), json!({"a":{"y":2,"x":1.0}})),
            Comparison::Different
        );
    }

    #[test]
    fn tags_name_what_only_one_side_did() {
        let old = shaped(
            json!({}),
            &[
                ("", "enum", Action::Removed),
                ("", "oneOf", Action::Removed),
            ],
            Outcome::Shaped,
        );
        let new = shaped(
            json!({"enum":[1]}),
            &[
                ("", "oneOf", Action::Removed),
                ("", "description", Action::Noted),
            ],
            Outcome::Shaped,
        );
        assert_eq!(
            change_tags(&old, &new, Comparison::Different),
            ["new:description:noted", "old:enum:removed"]
        );
    }

    #[test]
    fn tags_name_an_outcome_change() {
        let old = shaped(json!({}), &[("", "strict", Action::Added)], Outcome::Shaped);
        let new = shaped(
            json!({"x":1}),
            &[],
            Outcome::FailedClosed { reason: "r".into() },
        );
        assert_eq!(
            change_tags(&old, &new, Comparison::Different),
            ["old:strict:added", "outcome:shaped->failed-closed"]
        );
    }

    #[test]
    fn an_unexplained_difference_is_tagged_bytes() {
        let old = shaped(json!({"a":1}), &[], Outcome::Shaped);
        let new = shaped(json!({"a":2}), &[], Outcome::Shaped);
        assert_eq!(change_tags(&old, &new, Comparison::Different), ["bytes"]);
        assert_eq!(
            change_tags(&old, &new, Comparison::Reordered),
            ["reordered"]
        );
    }

    #[test]
    fn sha256_is_lowercase_hex() {
        assert_eq!(
            sha256_hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn unified_diff_marks_changed_lines() {
        let d = unified("a\nb\n", "a\nc\n", "old", "new");
        assert_eq!(d, "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
    }
}
