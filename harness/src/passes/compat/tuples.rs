//! `tuple-items-to-prefix-items`: on `moonshot` (rule
//! `moonshot-tuple-items`, recorded: Moonshot's validator answers a tuple
//! `items` array with `items must be an object`; vercel/ai#18921 probed
//! the live validator, anomalyco/opencode#39995 saw the same), a non-object
//! `items` is rewritten:
//! - a tuple `items: [..]` becomes `prefixItems: [..]`, its draft 2020-12
//!   spelling (exact; the form vercel/ai#18921 verified against the live
//!   validator), and `additionalItems` with a schema becomes `items`;
//! - `additionalItems: false` (nothing past the tuple) goes: `items: false`
//!   is rejected too, so the bound reaches the model in a note ("at most N
//!   items");
//! - `additionalItems: true` says nothing and goes;
//! - `items: false` (the array must be empty) goes, and the note says so.
//!
//! `items: true` is left: nothing reports it rejected.
//!
//! Every change is recorded. Runs before the typing passes, so the
//! `items` an `additionalItems` schema becomes is typed like any other.

use serde_json::{Map, Value};

use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::notes::{self, Unenforced};
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, NodePath, TooDeep};
use crate::tool::Tool;

/// See the module docs. The flag is the pass's mutation point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TupleItemsToPrefixItems {
    /// Note the bounds a removed `false` stood for (else they go silently).
    pub(crate) note: bool,
}

impl Default for TupleItemsToPrefixItems {
    fn default() -> Self {
        Self { note: true }
    }
}

/// The node holds a tuple `items` array or `items: false`.
fn non_object_items(node: &Map<String, Value>) -> bool {
    node.field("items")
        .is_some_and(|v| v.is_array() || v == &Value::Bool(false))
}

/// Rewrite one node's `items` (see the module docs); the bound a removed
/// `false` stood for goes into `lost`.
fn rewrite(
    path: &NodePath<'_>,
    node: &mut Map<String, Value>,
    cx: &mut Cx<'_>,
    lost: &mut Vec<Unenforced>,
) {
    match node.field("items") {
        Some(Value::Array(_)) => {
            let Some(n) = schema::tuple_to_prefix_items(node) else {
                return;
            };
            cx.record(
                path,
                "items",
                Action::Rewritten,
                "tuple items moved to prefixItems: Moonshot rejects an items array (exact)",
            );
            match node.shift_remove("additionalItems") {
                Some(rest @ Value::Object(_)) => {
                    node.insert("items".into(), rest);
                    cx.record(
                        path,
                        "additionalItems",
                        Action::Rewritten,
                        "additionalItems moved to items (exact)",
                    );
                }
                Some(Value::Bool(false)) => {
                    cx.record(
                        path,
                        "additionalItems",
                        Action::Removed,
                        "additionalItems false removed: Moonshot rejects items false; the bound is noted",
                    );
                    lost.push(Unenforced {
                        pointer: path.as_str().to_owned(),
                        keyword: "maxItems".to_owned(),
                        value: Value::from(n),
                    });
                }
                Some(other) => {
                    cx.record(
                        path,
                        "additionalItems",
                        Action::Removed,
                        format!("additionalItems {other} says nothing: removed"),
                    );
                }
                None => {}
            }
        }
        Some(Value::Bool(false)) => {
            node.shift_remove("items");
            cx.record(
                path,
                "items",
                Action::Removed,
                "items false removed: Moonshot rejects it; the bound is noted",
            );
            lost.push(Unenforced {
                pointer: path.as_str().to_owned(),
                keyword: "maxItems".to_owned(),
                value: Value::from(0),
            });
        }
        _ => {}
    }
}

impl Pass for TupleItemsToPrefixItems {
    fn name(&self) -> &'static str {
        "tuple-items-to-prefix-items"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("moonshot-tuple-items")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !schema::any_node(&tool.input_schema, &|_, node| non_object_items(node))? {
            return Ok(Step::Continue);
        }
        let mut lost = Vec::new();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if non_object_items(node) {
                rewrite(path, node, cx, &mut lost);
            }
            true
        })?;
        if self.note
            && let Some(n) = notes::unenforced_note(&lost)
        {
            cx.note(tool, &n, "tuple bounds surfaced as a note");
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::flip(self, "skip the note", |m| &mut m.note)]
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{bytes, run_on_tool};

    fn tuples() -> Tool {
        Tool::new(
            "t",
            json!({"type": "object", "properties": {
                "pt": {"type": "array", "items": [{"type": "number"}, {"type": "string"}], "additionalItems": false},
                "r": {"type": "array", "items": [{"type": "integer"}], "additionalItems": {"type": "string"}},
                "o": {"type": "array", "items": [{"type": "integer"}], "additionalItems": true},
                "e": {"type": "array", "items": false},
                "s": {"type": "array", "items": {"type": "string"}},
                "t": {"type": "array", "items": true}
            }}),
        )
    }

    /// A tuple becomes prefixItems where items stood, an additionalItems
    /// schema becomes items, `false` bounds go into the note; a single
    /// items schema and `items: true` stay.
    #[test]
    fn moonshot_v1_moves_tuple_items_to_prefix_items_and_notes_the_bounds() {
        let r = run_on_tool(
            &TupleItemsToPrefixItems::default(),
            Lane::Moonshot,
            tuples(),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"pt":{"type":"array","prefixItems":[{"type":"number"},{"type":"string"}]},"r":{"type":"array","prefixItems":[{"type":"integer"}],"items":{"type":"string"}},"o":{"type":"array","prefixItems":[{"type":"integer"}]},"e":{"type":"array"},"s":{"type":"array","items":{"type":"string"}},"t":{"type":"array","items":true}}}"#
        );
        let records: Vec<(&str, &str, &str)> = r
            .records
            .iter()
            .map(|d| (d.path.as_str(), d.keyword.as_str(), &*d.reason))
            .collect();
        assert_eq!(
            records,
            [
                (
                    "/properties/pt",
                    "items",
                    "tuple items moved to prefixItems: Moonshot rejects an items array (exact)"
                ),
                (
                    "/properties/pt",
                    "additionalItems",
                    "additionalItems false removed: Moonshot rejects items false; the bound is noted"
                ),
                (
                    "/properties/r",
                    "items",
                    "tuple items moved to prefixItems: Moonshot rejects an items array (exact)"
                ),
                (
                    "/properties/r",
                    "additionalItems",
                    "additionalItems moved to items (exact)"
                ),
                (
                    "/properties/o",
                    "items",
                    "tuple items moved to prefixItems: Moonshot rejects an items array (exact)"
                ),
                (
                    "/properties/o",
                    "additionalItems",
                    "additionalItems true says nothing: removed"
                ),
                (
                    "/properties/e",
                    "items",
                    "items false removed: Moonshot rejects it; the bound is noted"
                ),
                ("", "description", "tuple bounds surfaced as a note"),
            ]
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "Constraints this schema does not enforce (still follow them): pt: maxItems 2; e: maxItems 0."
            )
        );
        // Idempotent: the output holds nothing to rewrite.
        let again = run_on_tool(
            &TupleItemsToPrefixItems::default(),
            Lane::Moonshot,
            r.tool.clone(),
        );
        assert!(again.records.is_empty());
    }

    /// The mutant removes the bounds without the note.
    #[test]
    fn moonshot_v1_tuple_mutant_skips_the_note() {
        let m = TupleItemsToPrefixItems { note: false };
        let r = run_on_tool(&m, Lane::Moonshot, tuples());
        assert_eq!(r.tool.description, None);
        assert_eq!(r.records.len(), 7);
    }
}
