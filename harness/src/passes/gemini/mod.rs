//! v1 on `gemini-openapi` and `gemini-jsonschema`: every tool passes the
//! Gemini oracle (`rules/gemini/`), every loss recorded.
//!
//! `gemini-jsonschema` (`parametersJsonSchema`) takes full JSON Schema; only
//! the function-name pattern and the `maxItems` budget apply there, so its
//! list is two passes. `gemini-openapi` (`parameters`, parsed into the
//! `Schema` proto) gets the proto's field subset and its validation rules,
//! in the order of [`v1`]; see each pass's docs (`openapi.rs`).
//!
//! Constraints a pass removes although the model should still honour them
//! are written into the pass's record reason (`… [note: where: what]`);
//! the last pass, `gemini-constraint-note`, gathers them, in record order,
//! into one description note per tool.

mod fields;
mod notes;
mod openapi;
#[cfg(test)]
mod tests;
mod validation;

use std::convert::Infallible;
use std::ops::ControlFlow;

use serde_json::Value;

use super::names::{NameSpec, letter_or_underscore, word};
use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

pub(crate) use fields::*;
use notes::{fragments, noted, show};
pub(crate) use openapi::*;
pub(crate) use validation::*;

/// `[a-zA-Z0-9_.-]`: the function-name alphabet on every recorded date
/// (`:` is accepted only as of 2026-03-03, so v1 never relies on it).
fn word_dot_dash(c: char) -> bool {
    word(c) || c == '.' || c == '-'
}

/// Function names (`gemini-function-name-pattern`).
pub(crate) const FUNCTION_NAME: NameSpec = NameSpec {
    min: 1,
    max: 64,
    first: letter_or_underscore,
    rest: word_dot_dash,
};

/// Top-level parameter names (`gemini-parameter-name-pattern`).
pub(crate) const PARAMETER_NAME: NameSpec = NameSpec {
    min: 1,
    max: 64,
    first: letter_or_underscore,
    rest: word,
};

/// The `maxItems` sum one declaration may reach.
pub(crate) const MAX_ITEMS_BUDGET: f64 = 960.0;

/// `gemini-constraint-note`: the one description note per tool listing the
/// constraints earlier passes removed but the model should still honour
/// (gathered from their record reasons, in record order, duplicates once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConstraintNote {
    /// Write the note (a mutation point).
    pub(crate) note: bool,
}

impl Default for ConstraintNote {
    fn default() -> Self {
        Self { note: true }
    }
}

impl Pass for ConstraintNote {
    fn name(&self) -> &'static str {
        "gemini-constraint-note"
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        // Each fragment once, in the order first met (a set: a schema of
        // thousands of records made the list's own scan quadratic).
        let mut seen = std::collections::HashSet::new();
        let parts: Vec<&str> = fragments(cx)
            .into_iter()
            .filter(|f| seen.insert(*f))
            .collect();
        if self.note && !parts.is_empty() {
            let text = format!(
                "Constraints this schema does not enforce (still follow them): {}.",
                parts.join("; ")
            );
            cx.note(tool, &text, "removed constraints surfaced as a note");
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new("skip the note", Self { note: false })]
    }
}

// ---------------------------------------------------------------------------
// maxItems budget (both lanes).

/// A `maxItems` value as a number (the proto also takes int64 strings).
fn max_items(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// `gemini-maxitems-cumulative-budget`: Gemini answers a bare
/// `INVALID_ARGUMENT` when the `maxItems` of one declaration sum past ~960
/// (python-genai#2170). While the sum is over the budget, the largest
/// `maxItems` goes (ties: the first in walk order), each recorded and noted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MaxItemsBudget {
    /// Remove the largest first (else walk order; a mutation point).
    pub(crate) largest_first: bool,
}

impl Default for MaxItemsBudget {
    fn default() -> Self {
        Self {
            largest_first: true,
        }
    }
}

impl Pass for MaxItemsBudget {
    fn name(&self) -> &'static str {
        "gemini-maxitems-budget"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-maxitems-cumulative-budget")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        // Summed first without pointers: most declarations are within the
        // budget, and only the nodes of one past it need theirs.
        let mut sum = 0.0;
        let ControlFlow::Continue(()) =
            schema::visit_nodes::<Infallible>(&tool.input_schema, &mut |_, node| {
                if let Some(n) = node.field("maxItems").and_then(max_items) {
                    sum += n;
                }
                ControlFlow::Continue(())
            })?;
        if sum <= MAX_ITEMS_BUDGET {
            return Ok(Step::Continue);
        }
        let mut found: Vec<(String, f64)> = Vec::new();
        schema::visit(&tool.input_schema, &mut |path, node| {
            if let Some(n) = node.field("maxItems").and_then(max_items) {
                found.push((path.to_owned(), n));
            }
        })?;
        if self.largest_first {
            // Stable: equal values keep walk order.
            found.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        // What each removal leaves, summed afresh from the last (smallest)
        // value up: subtracting from the running sum lost the smaller
        // values to rounding (`1e218 + 1e174 - 1e218` is 0), so a second
        // shaping removed what the first had counted as gone (cargo fuzz).
        let mut left = vec![0.0; found.len() + 1];
        for (i, (_, n)) in found.iter().enumerate().rev() {
            left[i] = left[i + 1] + n;
        }
        let drop: Vec<String> = found
            .into_iter()
            .zip(left)
            .take_while(|(_, rest)| *rest > MAX_ITEMS_BUDGET)
            .map(|((path, _), _)| path)
            .collect();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if drop.iter().any(|d| d == path.as_str())
                && let Some(v) = node.shift_remove("maxItems")
            {
                cx.record(
                    path,
                    "maxItems",
                    Action::Removed,
                    noted(
                        "the declaration's maxItems sum past Gemini's budget of 960",
                        path,
                        &show("maxItems", &v),
                    ),
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "remove in walk order instead of largest first",
            Self {
                largest_first: false,
            },
        )]
    }
}
