//! Reading a schema on instances: the object view of a node, `$ref`
//! resolution, null admission, and filling or pruning an instance to a shape.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde_json::{Map, Value};

/// The object-level view of a schema node: its properties (its own, its
/// `$ref` target's, every composition branch's; the first declaration of a
/// name wins) and the names it requires (its own, its `$ref` target's and
/// its `allOf` branches').
pub(super) fn object_view<'a>(root: &'a Value, node: &'a Value, depth: usize) -> View<'a> {
    let mut props = Vec::new();
    let mut required = Vec::new();
    collect_view(root, node, depth, true, &mut props, &mut required);
    let mut by_name = HashMap::with_capacity(props.len());
    for (k, v) in props {
        by_name.entry(k).or_insert(v);
    }
    View {
        props: by_name,
        required: required.into_iter().collect(),
    }
}

/// Properties by name and required names (hashed: objects of thousands of
/// properties are judged in linear time).
pub(super) struct View<'a> {
    props: HashMap<&'a str, &'a Value>,
    required: HashSet<&'a str>,
}

pub(super) fn collect_view<'a>(
    root: &'a Value,
    node: &'a Value,
    depth: usize,
    requiring: bool,
    props: &mut Vec<(&'a str, &'a Value)>,
    required: &mut Vec<&'a str>,
) {
    let Some(m) = node.as_object() else { return };
    if depth > 8 {
        return;
    }
    if let Some(p) = m.get("properties").and_then(Value::as_object) {
        props.extend(p.iter().map(|(k, v)| (k.as_str(), v)));
    }
    if requiring && let Some(r) = m.get("required").and_then(Value::as_array) {
        required.extend(r.iter().filter_map(Value::as_str));
    }
    if let Some(target) = m.get("$ref").and_then(Value::as_str)
        && let Some(t) = resolve(root, target)
    {
        collect_view(root, t, depth + 1, requiring, props, required);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(bs) = m.get(key).and_then(Value::as_array) {
            // An object matches every allOf branch, and the one branch of
            // a nullable union (`[X, {"type": "null"}]`): their required
            // names hold; another union's do not.
            let non_null = bs.iter().filter(|b| !is_null_type(b)).count();
            let req = requiring && (key == "allOf" || non_null == 1);
            for b in bs {
                collect_view(root, b, depth + 1, req, props, required);
            }
        }
    }
}

/// `{"type": "null"}` (a nullable union's null branch).
pub(super) fn is_null_type(node: &Value) -> bool {
    node.get("type").and_then(Value::as_str) == Some("null")
}

/// The local target of a `$ref` (`#` or a `#/…` JSON Pointer).
pub(crate) fn resolve<'a>(root: &'a Value, target: &str) -> Option<&'a Value> {
    let pointer = target.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    root.pointer(pointer)
}

/// The item schema of an array node (`items` as one schema, its `$ref`
/// target's, or the first `anyOf`/`oneOf` branch's that has one; else
/// none).
pub(super) fn items_of<'a>(root: &'a Value, node: &'a Value, depth: usize) -> Option<&'a Value> {
    let m = node.as_object()?;
    if depth > 8 {
        return None;
    }
    if let Some(i) = m.get("items").filter(|i| i.is_object()) {
        return Some(i);
    }
    if let Some(target) = m.get("$ref").and_then(Value::as_str) {
        return items_of(root, resolve(root, target)?, depth + 1);
    }
    ["anyOf", "oneOf"].iter().find_map(|k| {
        m.get(*k)
            .and_then(Value::as_array)?
            .iter()
            .find_map(|b| items_of(root, b, depth + 1))
    })
}

/// Whether a property schema admits `null` by its own keywords.
pub(super) fn admits_null(root: &Value, node: &Value, depth: usize) -> bool {
    let Some(m) = node.as_object() else {
        return node == &Value::Bool(true);
    };
    if depth > 8 {
        return false;
    }
    let typed_null = match m.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => false,
    };
    // Every assertion beside must take null too (draft 2020-12 reads them
    // all): a type that excludes null rejects it whatever `enum`, `const`
    // or an OpenAPI `nullable` say, and so does an enum without null
    // beside a nullable type.
    if (m.contains_key("type") && !typed_null)
        || m.get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| !e.contains(&Value::Null))
        || m.get("const").is_some_and(|c| !c.is_null())
    {
        return false;
    }
    typed_null
        || m.get("nullable") == Some(&Value::Bool(true))
        || m.get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.contains(&Value::Null))
        || m.get("const") == Some(&Value::Null)
        || ["anyOf", "oneOf"].iter().any(|k| {
            m.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|bs| bs.iter().any(|b| admits_null(root, b, depth + 1)))
        })
        || m.get("$ref")
            .and_then(Value::as_str)
            .and_then(|t| resolve(root, t))
            .is_some_and(|t| admits_null(root, t, depth + 1))
}

/// Whether the instance has a key the original declares nowhere: not in
/// the object's `properties` (own, `$ref`'d or in a branch), at an object
/// with no `patternProperties` or `additionalProperties` schema describing
/// other keys. A `required` name with no property schema is such a key:
/// the model is never told what to send for it.
pub(super) fn has_undeclared<'a>(
    views: &Views<'a>,
    root: &'a Value,
    node: &'a Value,
    instance: &Value,
    depth: usize,
) -> bool {
    if depth > 16 {
        return false;
    }
    match instance {
        Value::Object(obj) => {
            let view = views.of(root, node);
            let described = node.as_object().is_some_and(|m| {
                m.get("patternProperties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| !p.is_empty())
                    || m.get("additionalProperties").is_some_and(Value::is_object)
            });
            obj.iter().any(|(k, v)| match view.props.get(k.as_str()) {
                Some(s) => has_undeclared(views, root, s, v, depth + 1),
                None => !described,
            })
        }
        Value::Array(a) => items_of(root, node, 0).is_some_and(|s| {
            a.iter()
                .any(|v| has_undeclared(views, root, s, v, depth + 1))
        }),
        _ => false,
    }
}

/// The instance as the original sees it: a `null` at an optional property
/// whose schema does not admit `null` means "left out".
pub(super) fn unfill<'a>(
    views: &Views<'a>,
    root: &'a Value,
    node: &'a Value,
    instance: &Value,
    depth: usize,
) -> Value {
    if depth > 16 {
        return instance.clone();
    }
    match instance {
        Value::Object(obj) => {
            let view = views.of(root, node);
            let mut out = Map::new();
            for (k, v) in obj {
                let sub = view.props.get(k.as_str()).copied();
                if v.is_null()
                    && !view.required.contains(k.as_str())
                    && sub.is_some_and(|s| !admits_null(root, s, 0))
                {
                    continue;
                }
                let v = match sub {
                    Some(s) => unfill(views, root, s, v, depth + 1),
                    None => v.clone(),
                };
                out.insert(k.clone(), v);
            }
            Value::Object(out)
        }
        Value::Array(a) => match items_of(root, node, 0) {
            Some(s) => Value::Array(
                a.iter()
                    .map(|v| unfill(views, root, s, v, depth + 1))
                    .collect(),
            ),
            None => instance.clone(),
        },
        _ => instance.clone(),
    }
}

/// The two schemas a [`fill`] walks side by side: the original's root and
/// node, the shaped schema's root and node, and the object views read so
/// far.
#[derive(Clone, Copy)]
pub(super) struct Pair<'a> {
    pub(super) original: (&'a Value, &'a Value),
    pub(super) shaped: (&'a Value, &'a Value),
    pub(super) views: &'a Views<'a>,
}

/// The [`object_view`] of each (root, node) a judgement reads, built once:
/// [`fill`], [`prune`], [`unfill`] and [`has_undeclared`] read the same
/// nodes for every instance of a tool,
/// and a view of a large object (its `$ref` targets and branches
/// collected) was most of a judgement's time on large schemas. Keyed by
/// the nodes' addresses: the schemas are borrowed for `'a`, so an address
/// names one node for the cache's whole life.
#[derive(Default)]
pub(super) struct Views<'a>(RefCell<HashMap<(*const Value, *const Value), Rc<View<'a>>>>);

impl<'a> Views<'a> {
    pub(super) fn of(&self, root: &'a Value, node: &'a Value) -> Rc<View<'a>> {
        let key = (std::ptr::from_ref(root), std::ptr::from_ref(node));
        if let Some(v) = self.0.borrow().get(&key) {
            return Rc::clone(v);
        }
        let view = Rc::new(object_view(root, node, 0));
        self.0.borrow_mut().insert(key, Rc::clone(&view));
        view
    }
}

pub(super) const ANY: Value = Value::Bool(true);

/// The instance as the shaped schema sees it: each property the shaped
/// schema requires, the original does not, and the instance leaves out is
/// sent as `null`. Borrowed when there is nothing to fill (most instances):
/// only the objects on the way to a filled one are copied.
pub(super) fn fill<'a, 'i>(at: Pair<'a>, instance: &'i Value, depth: usize) -> Cow<'i, Value> {
    if depth > 16 {
        return Cow::Borrowed(instance);
    }
    let (oroot, onode) = at.original;
    let (sroot, snode) = at.shaped;
    let child = |o: Option<&'a Value>, s: &'a Value| Pair {
        original: (oroot, o.unwrap_or(&ANY)),
        shaped: (sroot, s),
        views: at.views,
    };
    match instance {
        Value::Object(obj) => {
            let shaped = at.views.of(sroot, snode);
            let original = at.views.of(oroot, onode);
            // The filled values, by position, where they differ.
            let mut changed: Vec<(usize, Value)> = Vec::new();
            for (i, (k, v)) in obj.iter().enumerate() {
                if let Some(s) = shaped.props.get(k.as_str())
                    && let Cow::Owned(v) = fill(
                        child(original.props.get(k.as_str()).copied(), s),
                        v,
                        depth + 1,
                    )
                {
                    changed.push((i, v));
                }
            }
            // In name order (determinism).
            let mut missing: Vec<&str> = shaped
                .required
                .iter()
                .copied()
                .filter(|r| {
                    !obj.contains_key(*r)
                        && !original.required.contains(r)
                        && shaped.props.contains_key(r)
                })
                .collect();
            if changed.is_empty() && missing.is_empty() {
                return Cow::Borrowed(instance);
            }
            missing.sort_unstable();
            let mut changed = changed.into_iter().peekable();
            let mut out = Map::new();
            for (i, (k, v)) in obj.iter().enumerate() {
                let v = match changed.next_if(|(at, _)| *at == i) {
                    Some((_, v)) => v,
                    None => v.clone(),
                };
                out.insert(k.clone(), v);
            }
            for r in missing {
                out.insert(r.to_owned(), Value::Null);
            }
            Cow::Owned(Value::Object(out))
        }
        Value::Array(a) => match items_of(sroot, snode, 0) {
            Some(s) => {
                let o = items_of(oroot, onode, 0);
                // Copied only from the first item filled on.
                let mut items = a.iter().enumerate();
                let first = items.find_map(|(i, v)| match fill(child(o, s), v, depth + 1) {
                    Cow::Owned(v) => Some((i, v)),
                    Cow::Borrowed(_) => None,
                });
                let Some((at, filled)) = first else {
                    return Cow::Borrowed(instance);
                };
                let mut out = Vec::with_capacity(a.len());
                out.extend(a[..at].iter().cloned());
                out.push(filled);
                out.extend(items.map(|(_, v)| fill(child(o, s), v, depth + 1).into_owned()));
                Cow::Owned(Value::Array(out))
            }
            None => Cow::Borrowed(instance),
        },
        _ => Cow::Borrowed(instance),
    }
}

/// The instance without the optional properties (of the original) that
/// the shaped schema no longer declares; with `all`, without every key
/// the shaped schema does not declare.
pub(super) fn prune(at: Pair<'_>, instance: &Value, depth: usize, all: bool) -> Value {
    if depth > 16 {
        return instance.clone();
    }
    let (oroot, onode) = at.original;
    let (sroot, snode) = at.shaped;
    match instance {
        Value::Object(obj) => {
            let shaped = at.views.of(sroot, snode);
            let original = at.views.of(oroot, onode);
            let mut out = Map::new();
            for (k, v) in obj {
                let key = k.as_str();
                match shaped.props.get(key) {
                    Some(s) => {
                        let o = original.props.get(key).copied().unwrap_or(&ANY);
                        let child = Pair {
                            original: (oroot, o),
                            shaped: (sroot, s),
                            views: at.views,
                        };
                        out.insert(k.clone(), prune(child, v, depth + 1, all));
                    }
                    None if all
                        || (original.props.contains_key(key)
                            && !original.required.contains(key)) => {}
                    None => {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => match (items_of(sroot, snode, 0), items_of(oroot, onode, 0)) {
            (Some(s), o) => {
                let child = Pair {
                    original: (oroot, o.unwrap_or(&ANY)),
                    shaped: (sroot, s),
                    views: at.views,
                };
                Value::Array(a.iter().map(|v| prune(child, v, depth + 1, all)).collect())
            }
            (None, _) => instance.clone(),
        },
        _ => instance.clone(),
    }
}
