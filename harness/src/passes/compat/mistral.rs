//! `draft4-exclusive-bounds`: on `mistral` (rule
//! `mistral-parameters-not-object-schema`: Mistral validates `parameters`
//! against the current metaschema, where `exclusiveMinimum` and
//! `exclusiveMaximum` are numbers, and answers `Invalid tool schema: True is
//! not of type 'number'`), the draft-4 boolean form is rewritten to the
//! numeric one, exactly:
//! - `exclusiveMinimum: true` beside a numeric `minimum: m` →
//!   `exclusiveMinimum: m` (at its own position), `minimum` removed;
//! - `exclusiveMinimum: true` without a numeric `minimum`, and
//!   `exclusiveMinimum: false`, have no effect in draft 4: removed;
//! - likewise `exclusiveMaximum` with `maximum`.

use serde_json::{Map, Value};

use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, NodePath, TooDeep};
use crate::tool::Tool;

const BOUNDS: &[(&str, &str)] = &[
    ("exclusiveMinimum", "minimum"),
    ("exclusiveMaximum", "maximum"),
];

/// See the module docs. The field is the pass's mutation point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Draft4ExclusiveBounds {
    /// Fold the bound into the exclusive keyword (off: drop the boolean only,
    /// which would make an exclusive bound inclusive).
    pub(crate) fold_bound: bool,
}

impl Default for Draft4ExclusiveBounds {
    fn default() -> Self {
        Self { fold_bound: true }
    }
}

impl Draft4ExclusiveBounds {
    fn fix_node(self, path: &NodePath<'_>, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        for (exclusive, bound) in BOUNDS {
            let Some(on) = node.field(exclusive).and_then(Value::as_bool) else {
                continue;
            };
            let limit = node.field(bound).filter(|b| b.is_number()).cloned();
            match limit {
                Some(limit) if on && self.fold_bound => {
                    cx.record(
                        path,
                        exclusive,
                        Action::Rewritten,
                        format!(
                            "draft-4 `{exclusive}: true` with `{bound}: {}` is `{exclusive}: {}` now (exact)",
                            schema::to_bytes(&limit),
                            schema::to_bytes(&limit)
                        ),
                    );
                    node.insert((*exclusive).to_owned(), limit);
                    node.shift_remove(*bound);
                    cx.record(
                        path,
                        bound,
                        Action::Removed,
                        format!("folded into `{exclusive}`"),
                    );
                }
                _ => {
                    let reason = if on {
                        format!(
                            "draft-4 `{exclusive}: true` without a numeric `{bound}` has no effect"
                        )
                    } else {
                        format!(
                            "draft-4 `{exclusive}: false` has no effect (`{bound}` stays inclusive)"
                        )
                    };
                    node.shift_remove(*exclusive);
                    cx.record(path, exclusive, Action::Removed, reason);
                }
            }
        }
    }
}

impl Pass for Draft4ExclusiveBounds {
    fn name(&self) -> &'static str {
        "draft4-exclusive-bounds"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("mistral-parameters-not-object-schema")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_post_order(&mut tool.input_schema, &mut |path, _, node| {
            self.fix_node(path, node, cx);
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "drop the boolean without folding the bound",
            Self {
                fold_bound: !self.fold_bound,
            },
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{Ran, bytes, run};
    use serde_json::json;

    fn bounds(v: Value) -> Ran {
        run(&Draft4ExclusiveBounds::default(), Lane::Mistral, v)
    }

    #[test]
    fn mistral_v1_folds_draft4_exclusive_bounds_into_numbers() {
        let r = bounds(json!({"type":"object","properties":{"p":{"type":"number",
            "minimum":0,"exclusiveMinimum":true,"maximum":1,"exclusiveMaximum":false}}}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"p":{"type":"number","exclusiveMinimum":0,"maximum":1}}}"#
        );
        let p = "/properties/p".to_owned();
        assert_eq!(
            r.marks(),
            [
                (p.clone(), "exclusiveMinimum".into(), Action::Rewritten),
                (p.clone(), "minimum".into(), Action::Removed),
                (p, "exclusiveMaximum".into(), Action::Removed),
            ]
        );
        assert_eq!(
            r.records[0].rule.as_deref(),
            Some("mistral-parameters-not-object-schema")
        );
    }

    #[test]
    fn mistral_v1_drops_an_exclusive_flag_without_a_bound() {
        let r = bounds(json!({"items":{"exclusiveMaximum":true}}));
        assert_eq!(bytes(r.schema()), r#"{"items":{}}"#);
        assert_eq!(
            r.records[0].reason,
            "draft-4 `exclusiveMaximum: true` without a numeric `maximum` has no effect"
        );
    }

    #[test]
    fn mistral_v1_leaves_numeric_exclusive_bounds_and_is_idempotent() {
        let v = json!({"type":"integer","exclusiveMinimum":0,"maximum":9});
        let r = bounds(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
        let once = bounds(json!({"minimum":2,"exclusiveMinimum":true}));
        let twice = bounds(once.schema().clone());
        assert_eq!(bytes(twice.schema()), r#"{"exclusiveMinimum":2}"#);
        assert!(twice.records.is_empty());
    }

    #[test]
    fn draft4_exclusive_bounds_declares_its_mutant() {
        assert_eq!(
            Draft4ExclusiveBounds::default().mutants()[0].change,
            "drop the boolean without folding the bound"
        );
    }
}
