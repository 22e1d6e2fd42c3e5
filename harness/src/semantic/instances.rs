//! Instances for the semantic differential: a seeded, deterministic
//! generator that reads only the tool's original schema (never a shaped
//! one), so what it produces is evidence independent of the passes.
//!
//! 1. **Seeds**: a few values built to satisfy the schema (types, `required`,
//!    `enum`/`const`, bounds, `format`, local `$ref`s, compositions, the
//!    author's `default` and `examples`). Seeds need not be valid: the
//!    validator of the original schema decides, like for every instance.
//! 2. **Near misses**: each seed mutated at each position (a value of another
//!    type, a bound stepped over, an empty or too-long string, a bad format,
//!    a property removed or added, an item removed or duplicated).
//!
//! Every instance is judged against the original and the shaped schema, so
//! the generator never has to know which of its instances are valid.

use serde_json::{Map, Value, json};

/// Seeds per tool: the variants differ in which optional properties,
/// union branches, enum members and array lengths they take.
const SEEDS: usize = 4;
/// Instances per tool, at most (seeds first, then near misses spread evenly
/// over the seeds' positions).
pub(crate) const LIMIT: usize = 48;
/// How deep a seed goes before it stops descending (`$ref` cycles included).
const DEPTH: usize = 10;
/// Properties taken per object, items per array, characters per string.
const MAX_PROPERTIES: usize = 48;
const MAX_ITEMS: usize = 3;
const MAX_STRING: usize = 256;
/// Values per seed (every object, array and scalar counts): past it a seed
/// takes no more optional properties or items.
const MAX_NODES: usize = 200;

/// One instance, with whether it carries a property the original schema
/// does not declare (a narrowing on such an instance is strict mode's
/// expected closing of objects, not a lost call).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Instance {
    pub value: Value,
    pub undeclared: bool,
}

/// The instances of `schema`, in a fixed order, at most [`LIMIT`].
pub(crate) fn of(schema: &Value) -> Vec<Instance> {
    let mut seeds: Vec<Value> = Vec::new();
    for variant in 0..SEEDS {
        let g = Gen {
            root: schema,
            nodes: std::cell::Cell::new(0),
        };
        let v = g.value(schema, variant, 0);
        if let Some(v) = v
            && !seeds.contains(&v)
        {
            seeds.push(v);
        }
    }
    let mut out: Vec<Instance> = seeds
        .iter()
        .map(|v| Instance {
            value: v.clone(),
            undeclared: false,
        })
        .collect();
    // Every position of every seed, then near misses at evenly spaced
    // positions (so every seed and depth keeps some) until the room is used.
    let mut positions: Vec<(usize, Vec<Step>)> = Vec::new();
    for (i, seed) in seeds.iter().enumerate() {
        positions_of(seed, &mut Vec::new(), &mut |p| positions.push((i, p)));
    }
    let room = LIMIT.saturating_sub(out.len());
    let mut misses: Vec<Instance> = Vec::new();
    let step = (positions.len() * 4).div_ceil(room.max(1)).max(1);
    for (seed, path) in positions.iter().step_by(step) {
        near_misses_at(&seeds[*seed], path, &mut misses);
        if misses.len() >= room {
            break;
        }
    }
    misses.retain(|m| !seeds.contains(&m.value));
    out.extend(misses.into_iter().take(room));
    let mut unique: Vec<Instance> = Vec::with_capacity(out.len());
    for i in out {
        if !unique.iter().any(|u| u.value == i.value) {
            unique.push(i);
        }
    }
    unique
}

struct Gen<'a> {
    root: &'a Value,
    /// Values made so far (see [`MAX_NODES`]).
    nodes: std::cell::Cell<usize>,
}

impl Gen<'_> {
    /// A value meant to satisfy `schema`; `None` when nothing can (`false`).
    fn value(&self, schema: &Value, variant: usize, depth: usize) -> Option<Value> {
        let node = match schema {
            Value::Bool(false) => return None,
            Value::Object(m) => m,
            _ => return Some(json!("x")),
        };
        if depth > DEPTH {
            return Some(Value::Null);
        }
        self.nodes.set(self.nodes.get() + 1);
        if let Some(target) = node.get("$ref").and_then(Value::as_str) {
            let resolved = super::view::resolve(self.root, target)?;
            let mut merged = resolved.as_object().cloned().unwrap_or_default();
            for (k, v) in node {
                if k != "$ref" {
                    merged.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            return self.value(&Value::Object(merged), variant, depth + 1);
        }
        if let Some(c) = node.get("const") {
            return Some(c.clone());
        }
        if let Some(e) = node.get("enum").and_then(Value::as_array)
            && !e.is_empty()
        {
            return Some(e[variant % e.len()].clone());
        }
        if variant == 1
            && let Some(x) = node.get("examples").and_then(Value::as_array)
            && let Some(first) = x.first()
        {
            return Some(first.clone());
        }
        if variant == 2
            && let Some(d) = node.get("default")
        {
            return Some(d.clone());
        }
        if let Some(all) = node.get("allOf").and_then(Value::as_array) {
            let mut merged = without(node, "allOf");
            for b in all.iter().filter_map(Value::as_object) {
                merge_into(&mut merged, b);
            }
            return self.value(&Value::Object(merged), variant, depth + 1);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = node.get(key).and_then(Value::as_array)
                && !branches.is_empty()
            {
                let pick = &branches[(variant + depth) % branches.len()];
                let mut merged = without(node, key);
                if let Some(b) = pick.as_object() {
                    merge_into(&mut merged, b);
                }
                return self.value(&Value::Object(merged), variant, depth + 1);
            }
        }
        // Tool arguments are always an object: an untyped root is one.
        let ty = if depth == 0 && !node.contains_key("type") {
            "object"
        } else {
            type_of(node, variant)
        };
        Some(match ty {
            "object" => Value::Object(self.object(node, variant, depth)),
            "array" => Value::Array(self.array(node, variant, depth)),
            "string" => Value::String(string(node, variant)),
            "integer" => number(node, true, variant),
            "number" => number(node, false, variant),
            "boolean" => Value::Bool(variant.is_multiple_of(2)),
            "null" => Value::Null,
            _ => json!("x"),
        })
    }

    fn object(
        &self,
        node: &Map<String, Value>,
        variant: usize,
        depth: usize,
    ) -> Map<String, Value> {
        let required: Vec<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut out = Map::new();
        if let Some(props) = node.get("properties").and_then(Value::as_object) {
            for (name, sub) in props.iter().take(MAX_PROPERTIES) {
                // Variant 1 takes the required properties only.
                let optional = !required.contains(&name.as_str());
                if optional && (variant == 1 || self.nodes.get() > MAX_NODES) {
                    continue;
                }
                if let Some(v) = self.value(sub, variant, depth + 1) {
                    out.insert(name.clone(), v);
                }
            }
        }
        for name in required {
            if !out.contains_key(name) {
                out.insert(name.to_owned(), json!("x"));
            }
        }
        let min = node
            .get("minProperties")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let extra = node
            .get("additionalProperties")
            .unwrap_or(&Value::Bool(true));
        let mut i = 0;
        while (out.len() as u64) < min.min(MAX_PROPERTIES as u64) {
            if let Some(v) = self.value(extra, variant, depth + 1) {
                out.insert(format!("p{i}"), v);
            } else {
                break;
            }
            i += 1;
        }
        out
    }

    fn array(&self, node: &Map<String, Value>, variant: usize, depth: usize) -> Vec<Value> {
        let min = usize::try_from(node.get("minItems").and_then(Value::as_u64).unwrap_or(0))
            .unwrap_or(usize::MAX);
        let max = usize::try_from(
            node.get("maxItems")
                .and_then(Value::as_u64)
                .unwrap_or(u64::MAX),
        )
        .unwrap_or(usize::MAX);
        let prefix: &[Value] = node
            .get("prefixItems")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice);
        let wanted = match variant {
            0 => 1,
            1 => 0,
            _ => 2,
        };
        let n = wanted
            .max(min)
            .max(prefix.len())
            .min(max)
            .min(MAX_ITEMS.max(min.min(16)));
        let items = node.get("items");
        let mut out = Vec::new();
        for i in 0..n {
            if i >= min && self.nodes.get() > MAX_NODES {
                break;
            }
            let sub = prefix
                .get(i)
                .or(items.filter(|v| !v.is_array()))
                .or_else(|| items.and_then(Value::as_array).and_then(|a| a.get(i)));
            let v = match sub {
                Some(s) => self.value(s, variant + i, depth + 1),
                None => Some(json!(i)),
            };
            match v {
                Some(v) => out.push(v),
                None => break,
            }
        }
        out
    }
}

fn without(node: &Map<String, Value>, key: &str) -> Map<String, Value> {
    let mut m = node.clone();
    m.remove(key);
    m
}

/// Shallow merge of a branch into its parent: `properties` merged,
/// `required` united, any other keyword taken where the parent lacks it.
fn merge_into(into: &mut Map<String, Value>, branch: &Map<String, Value>) {
    for (k, v) in branch {
        match (k.as_str(), into.get_mut(k)) {
            ("properties", Some(Value::Object(have))) => {
                if let Value::Object(more) = v {
                    for (pk, pv) in more {
                        have.entry(pk.clone()).or_insert_with(|| pv.clone());
                    }
                }
            }
            ("required", Some(Value::Array(have))) => {
                if let Value::Array(more) = v {
                    for r in more {
                        if !have.contains(r) {
                            have.push(r.clone());
                        }
                    }
                }
            }
            (_, Some(_)) => {}
            (_, None) => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

/// The type a seed takes: the declared one (a type list: by variant, a
/// non-null member first), else the one the keywords imply.
fn type_of(node: &Map<String, Value>, variant: usize) -> &str {
    match node.get("type") {
        Some(Value::String(t)) => return t,
        Some(Value::Array(ts)) => {
            let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
            let non_null: Vec<&str> = names.iter().copied().filter(|t| *t != "null").collect();
            if variant == 3 && names.contains(&"null") {
                return "null";
            }
            if !non_null.is_empty() {
                return non_null[variant % non_null.len()];
            }
            if let Some(t) = names.first() {
                return t;
            }
        }
        _ => {}
    }
    // The type whose keywords the node uses (the first family that
    // matches, objects first); an untyped node without any: a string.
    crate::schema::KEYWORD_FAMILIES
        .iter()
        .find(|(_, kws)| kws.iter().any(|k| node.contains_key(*k)))
        .map_or("string", |(t, _)| t)
}

fn string(node: &Map<String, Value>, variant: usize) -> String {
    let format = node.get("format").and_then(Value::as_str).unwrap_or("");
    let sample = match format {
        "date-time" => "2024-01-02T03:04:05Z",
        "date" => "2024-01-02",
        "time" => "03:04:05Z",
        "duration" => "P1D",
        "email" => "someone@example.com",
        "hostname" => "example.com",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "uri" | "url" => "https://example.com/a",
        "uri-reference" => "/a/b",
        _ => match variant {
            0 => "abc",
            1 => "a",
            2 => "Abc-1",
            _ => "abc def",
        },
    };
    let min = usize::try_from(node.get("minLength").and_then(Value::as_u64).unwrap_or(0))
        .unwrap_or(MAX_STRING)
        .min(MAX_STRING);
    let max = usize::try_from(
        node.get("maxLength")
            .and_then(Value::as_u64)
            .unwrap_or(u64::MAX),
    )
    .unwrap_or(usize::MAX);
    let mut s: String = sample.to_owned();
    while s.chars().count() < min {
        s.push('a');
    }
    if s.chars().count() > max {
        s = s.chars().take(max).collect();
    }
    s
}

fn number(node: &Map<String, Value>, integer: bool, variant: usize) -> Value {
    let f = |k: &str| node.get(k).and_then(Value::as_f64);
    let step = f("multipleOf").filter(|m| *m > 0.0);
    let mut lo = f("minimum");
    if let Some(x) = f("exclusiveMinimum") {
        lo = Some(lo.map_or(x, |l| l.max(x)) + step.unwrap_or(if integer { 1.0 } else { 0.5 }));
    }
    let mut hi = f("maximum");
    if let Some(x) = f("exclusiveMaximum") {
        hi = Some(hi.map_or(x, |h| h.min(x)) - step.unwrap_or(if integer { 1.0 } else { 0.5 }));
    }
    let mut v = match (lo, hi) {
        (Some(l), Some(h)) if variant % 2 == 1 => h.max(l),
        (Some(l), _) => l,
        (None, Some(h)) => h.min(if variant.is_multiple_of(2) { 1.0 } else { 0.0 }),
        (None, None) => match variant {
            0 => 1.0,
            1 => 0.0,
            2 => 7.0,
            _ => 42.0,
        },
    };
    if let Some(m) = step {
        v = (v / m).ceil() * m;
    }
    if integer {
        v = v.ceil();
    }
    if integer || v.fract() == 0.0 {
        #[allow(clippy::cast_possible_truncation)]
        let i = v as i64;
        json!(i)
    } else {
        json!(v)
    }
}

/// Call `f` with the path of every position in `v`, parents first.
fn positions_of(v: &Value, path: &mut Vec<Step>, f: &mut dyn FnMut(Vec<Step>)) {
    f(path.clone());
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                path.push(Step::Key(k.clone()));
                positions_of(child, path, f);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                path.push(Step::Index(i));
                positions_of(child, path, f);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Push the near misses of `seed` at `path` onto `out`.
fn near_misses_at(seed: &Value, path: &[Step], out: &mut Vec<Instance>) {
    let Some(here) = get_at(seed, path) else {
        return;
    };
    let mut push = |v: Value, undeclared: bool| {
        out.push(Instance {
            value: replace_at(seed, path, v),
            undeclared,
        });
    };
    match here {
        Value::Object(m) => {
            // At most 8 removals per object, evenly spaced over its keys.
            let step = m.len().div_ceil(8).max(1);
            for k in m.keys().step_by(step) {
                let mut smaller = m.clone();
                smaller.remove(k);
                push(Value::Object(smaller), false);
            }
            let mut bigger = m.clone();
            bigger.insert("undeclared_property".to_owned(), json!("x"));
            push(Value::Object(bigger), true);
            push(json!("x"), false);
        }
        Value::Array(a) => {
            if let Some(first) = a.first() {
                let mut dup = a.clone();
                dup.push(first.clone());
                push(Value::Array(dup), false);
                push(Value::Array(Vec::new()), false);
            } else {
                push(json!(["x"]), false);
            }
            push(json!({}), false);
        }
        Value::String(s) => {
            push(Value::String(String::new()), false);
            push(Value::String(format!("{s}{}", "z".repeat(300))), false);
            push(json!("not a valid value!"), false);
            push(json!(7), false);
            push(Value::Null, false);
        }
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(0.0);
            push(json!(x + 0.5), false);
            #[allow(clippy::cast_possible_truncation)]
            let (up, down) = ((x + 1.0) as i64, (x - 1.0) as i64);
            push(json!(up), false);
            push(json!(down), false);
            push(json!(-1_000_000_000_i64), false);
            push(json!(1_000_000_000_i64), false);
            push(json!("7"), false);
            push(Value::Null, false);
        }
        Value::Bool(b) => {
            push(Value::Bool(!b), false);
            push(json!("true"), false);
            push(Value::Null, false);
        }
        Value::Null => {
            push(json!("x"), false);
            push(json!(0), false);
        }
    }
}

fn get_at<'a>(v: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(v, |cur, step| match (step, cur) {
        (Step::Key(k), Value::Object(m)) => m.get(k),
        (Step::Index(i), Value::Array(a)) => a.get(*i),
        _ => None,
    })
}

#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn replace_at(root: &Value, path: &[Step], v: Value) -> Value {
    let Some((first, rest)) = path.split_first() else {
        return v;
    };
    let mut out = root.clone();
    let slot = match (first, &mut out) {
        (Step::Key(k), Value::Object(m)) => m.get_mut(k),
        (Step::Index(i), Value::Array(a)) => a.get_mut(*i),
        _ => None,
    };
    if let Some(slot) = slot {
        *slot = replace_at(slot, rest, v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(schema: &Value) -> Vec<Value> {
        of(schema).into_iter().map(|i| i.value).collect()
    }

    #[test]
    fn seeds_follow_types_required_enums_bounds_and_formats() {
        let schema = json!({
            "type": "object",
            "properties": {
                "unit": {"type": "string", "enum": ["c", "f"]},
                "n": {"type": "integer", "minimum": 3, "maximum": 9},
                "when": {"type": "string", "format": "date"},
                "tags": {"type": "array", "items": {"type": "string", "minLength": 5}}
            },
            "required": ["unit"]
        });
        let v = values(&schema);
        assert_eq!(
            v[0],
            json!({"unit": "c", "n": 3, "when": "2024-01-02", "tags": ["abcaa"]})
        );
        assert_eq!(v[1], json!({"unit": "f"}));
        assert_eq!(
            v[2],
            json!({"unit": "c", "n": 3, "when": "2024-01-02", "tags": ["Abc-1", "abc def"]})
        );
    }

    #[test]
    fn refs_and_unions_are_followed_and_cycles_end() {
        let schema = json!({
            "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
            "anyOf": [{"$ref": "#/$defs/node"}, {"type": "integer", "exclusiveMinimum": 4}]
        });
        let v = values(&schema);
        assert!(v[0].is_object(), "{v:?}");
        assert_eq!(v[1], json!(5));
        assert!(v.len() <= LIMIT);
    }

    #[test]
    fn near_misses_mark_undeclared_properties_and_are_deterministic() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "boolean"}}});
        let first = of(&schema);
        assert_eq!(first, of(&schema));
        let extra: Vec<&Instance> = first.iter().filter(|i| i.undeclared).collect();
        assert_eq!(extra.len(), 3, "{first:?}");
        assert_eq!(
            extra[0].value,
            json!({"a": true, "undeclared_property": "x"})
        );
        assert!(first.iter().any(|i| i.value == json!({"a": "true"})));
        assert!(first.iter().any(|i| i.value == json!({})));
    }
}
