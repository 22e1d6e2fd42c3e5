//! The shrinker: greedy removal over a tool until no single removal keeps
//! it failing (or the budget is spent).
//!
//! Candidates, tried in this order and kept whenever the tool still fails:
//! 1. the description removed, the `strict` flag removed, the name
//!    replaced by `t`;
//! 2. removals: every member of every object and every element of every
//!    array in the schema, in pre-order (a member before what it holds): a
//!    keyword, a `properties` or `$defs` entry, an `anyOf`/`oneOf`/`allOf`
//!    branch, `items`, an `enum` value, a `required` name alike;
//! 3. hoists: every object of the schema, root first, in pre-order,
//!    replaced by an object one or two steps below it (`not`, `items`; a
//!    branch of `anyOf`, a `properties` entry), so a failure buried under
//!    wrappers comes up to the root when the wrappers do not matter;
//! 4. plain values, in pre-order: a member renamed `a` (when its object
//!    has no `a`), a number made `0`, a string made `""`, so failures that
//!    differ only in names and values minimize to the same schema.
//!
//! After a kept candidate the walk goes on at the same position of the
//! smaller schema (what followed moved up into it); a pass over 1–4 that
//! kept nothing ends the shrink, else another pass runs (a change can free
//! an earlier one). The walk is over JSON, not schema positions: what must
//! stay for the failure to show stays, whatever it is.

use serde_json::Value;

use crate::tool::Tool;

/// The name a tool is given when its own does not matter.
const PLAIN_NAME: &str = "t";

/// One step from a JSON value to a child: an object member or an array element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    Key(String),
    Index(usize),
}

/// Every member and element under `root`, in pre-order.
pub(super) fn paths(root: &Value) -> Vec<Vec<Step>> {
    fn walk(v: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    at.push(Step::Key(k.clone()));
                    out.push(at.clone());
                    walk(child, at, out);
                    at.pop();
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    at.push(Step::Index(i));
                    out.push(at.clone());
                    walk(child, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(root, &mut Vec::new(), &mut out);
    out
}

/// `root` without the member or element at `path` (key order kept).
pub(super) fn without(root: &Value, path: &[Step]) -> Value {
    let mut out = root.clone();
    let Some((last, parent)) = path.split_last() else {
        return out;
    };
    let mut node = &mut out;
    for step in parent {
        let next = match (step, node) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k),
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        };
        match next {
            Some(n) => node = n,
            None => return out,
        }
    }
    match (last, node) {
        (Step::Key(k), Value::Object(m)) => {
            m.shift_remove(k);
        }
        (Step::Index(i), Value::Array(a)) if *i < a.len() => {
            a.remove(*i);
        }
        _ => {}
    }
    out
}

/// The value at `path` under `root`.
fn at<'a>(root: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(root, |node, step| match (step, node) {
        (Step::Key(k), Value::Object(m)) => m.get(k),
        (Step::Index(i), Value::Array(a)) => a.get(*i),
        _ => None,
    })
}

/// `root` with the value at `path` replaced by `with`.
fn replaced(root: &Value, path: &[Step], with: Value) -> Value {
    let mut out = root.clone();
    let target = path
        .iter()
        .try_fold(&mut out, |node, step| match (step, node) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k),
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        });
    if let Some(t) = target {
        *t = with;
    }
    out
}

/// The objects one step below `node`, then those two steps below it, in order.
fn objects_below(node: &Value) -> Vec<Value> {
    fn children(v: &Value) -> Vec<&Value> {
        match v {
            Value::Object(m) => m.values().collect(),
            Value::Array(a) => a.iter().collect(),
            _ => Vec::new(),
        }
    }
    let one = children(node);
    let two: Vec<&Value> = one.iter().flat_map(|c| children(c)).collect();
    one.into_iter()
        .chain(two)
        .filter(|v| v.is_object())
        .cloned()
        .collect()
}

/// The name a member is renamed to when its own does not matter.
const PLAIN_KEY: &str = "a";

/// The plainer schemas of step 4 for the member or element at `path`, in
/// order: the member renamed (its place kept), then its value made plain.
fn plainer(root: &Value, path: &[Step]) -> Vec<Value> {
    let mut out = Vec::new();
    let Some((last, parent)) = path.split_last() else {
        return out;
    };
    if let (Step::Key(k), Some(Value::Object(m))) = (last, at(root, parent))
        && k != PLAIN_KEY
        && !m.contains_key(PLAIN_KEY)
    {
        let renamed: serde_json::Map<String, Value> = m
            .iter()
            .map(|(key, v)| {
                let key = if key == k { PLAIN_KEY } else { key.as_str() };
                (key.to_owned(), v.clone())
            })
            .collect();
        out.push(replaced(root, parent, Value::Object(renamed)));
    }
    let plain = match at(root, path) {
        Some(Value::Number(n)) if n.as_u64() != Some(0) => Some(Value::from(0)),
        Some(Value::String(s)) if !s.is_empty() => Some(Value::String(String::new())),
        _ => None,
    };
    out.extend(plain.map(|v| replaced(root, path, v)));
    out
}

/// The tool-level candidates of `tool`, in order.
fn tool_candidates(tool: &Tool) -> Vec<Tool> {
    let mut out = Vec::new();
    if tool.description.is_some() {
        out.push(Tool {
            description: None,
            ..tool.clone()
        });
    }
    if tool.strict.is_some() {
        out.push(Tool {
            strict: None,
            ..tool.clone()
        });
    }
    if tool.name != PLAIN_NAME {
        out.push(Tool {
            name: PLAIN_NAME.to_owned(),
            ..tool.clone()
        });
    }
    out
}

/// Shrink `tool` while `fails` holds. `spent()` is asked before each
/// candidate: once it says true the shrink stops with the smallest failing
/// tool so far. `fails` is never asked about `tool` itself (the caller
/// knows it fails).
pub(crate) fn shrink(
    tool: &Tool,
    fails: &mut dyn FnMut(&Tool) -> bool,
    spent: &dyn Fn() -> bool,
) -> Tool {
    let mut current = tool.clone();
    loop {
        let mut kept = false;
        let mut i = 0;
        loop {
            let candidates = tool_candidates(&current);
            let Some(candidate) = candidates.into_iter().nth(i) else {
                break;
            };
            if spent() {
                return current;
            }
            if fails(&candidate) {
                current = candidate;
                kept = true;
            } else {
                i += 1;
            }
        }
        let mut i = 0;
        loop {
            let all = paths(&current.input_schema);
            let Some(path) = all.get(i) else {
                break;
            };
            if spent() {
                return current;
            }
            let candidate = Tool {
                input_schema: without(&current.input_schema, path),
                ..current.clone()
            };
            if fails(&candidate) {
                current = candidate;
                kept = true;
            } else {
                i += 1;
            }
        }
        let mut i = 0;
        'hoists: loop {
            let mut all = vec![Vec::new()];
            all.extend(paths(&current.input_schema));
            let Some(path) = all.get(i) else {
                break;
            };
            let below = at(&current.input_schema, path)
                .filter(|v| v.is_object())
                .map(objects_below)
                .unwrap_or_default();
            for sub in below {
                if spent() {
                    return current;
                }
                let candidate = Tool {
                    input_schema: replaced(&current.input_schema, path, sub),
                    ..current.clone()
                };
                if fails(&candidate) {
                    current = candidate;
                    kept = true;
                    continue 'hoists;
                }
            }
            i += 1;
        }
        let mut i = 0;
        'plain: loop {
            let all = paths(&current.input_schema);
            let Some(path) = all.get(i) else {
                break;
            };
            for schema in plainer(&current.input_schema, path) {
                if spent() {
                    return current;
                }
                let candidate = Tool {
                    input_schema: schema,
                    ..current.clone()
                };
                if fails(&candidate) {
                    current = candidate;
                    kept = true;
                    continue 'plain;
                }
            }
            i += 1;
        }
        if !kept {
            return current;
        }
    }
}
