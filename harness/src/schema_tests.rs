//! Unit tests of the schema walks.

use super::*;
use serde_json::json;

fn paths(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    visit(v, &mut |p, _| out.push(display_path(p))).unwrap();
    out
}

#[test]
fn walk_visits_property_schemas_but_not_the_properties_map() {
    let v = json!({"type":"object","properties":{"const":{"type":"string"},"properties":{"type":"object"}}});
    assert_eq!(
        paths(&v),
        ["/", "/properties/const", "/properties/properties"]
    );
}

#[test]
fn walk_never_enters_literals() {
    let v = json!({"enum":[{"type":"object"}],"const":{"anyOf":[]},"default":{"not":{}},"examples":[{"properties":{}}]});
    assert_eq!(paths(&v), ["/"]);
}

#[test]
fn walk_visits_every_name_map_and_schema_array() {
    let v = json!({
        "$defs":{"a":{}}, "definitions":{"b":{}}, "$def":{"c":{}},
        "patternProperties":{"^x":{}}, "dependentSchemas":{"d":{}},
        "anyOf":[{}], "items":[{}, {}], "not":{}, "dependencies":{"e":["f"], "g":{}}
    });
    assert_eq!(
        paths(&v),
        [
            "/",
            "/$defs/a",
            "/definitions/b",
            "/$def/c",
            "/patternProperties/^x",
            "/dependentSchemas/d",
            "/anyOf/0",
            "/items/0",
            "/items/1",
            "/not",
            "/dependencies/g"
        ]
    );
}

#[test]
fn pointer_tokens_are_escaped() {
    let v = json!({"properties":{"a/b~c":{}}});
    assert_eq!(paths(&v), ["/", "/properties/a~1b~0c"]);
}

#[test]
fn a_schema_deeper_than_the_limit_is_an_error_not_a_stack_overflow() {
    let mut v = json!({});
    for _ in 0..(MAX_DEPTH + 5) {
        v = json!({"not": v});
    }
    let err = visit(&v, &mut |_, _| {}).unwrap_err();
    assert_eq!(err.limit, MAX_DEPTH);
    assert!(err.path.starts_with("/not/not"), "{}", err.path);
    assert_eq!(err.path.matches("/not").count(), MAX_DEPTH + 1);
}

/// `depth` nested `not`s around `{}`.
fn nots(depth: usize) -> Value {
    let mut v = json!({});
    for _ in 0..depth {
        v = json!({"not": v});
    }
    v
}

/// The pointers [`walk`] shows, with the state each node inherited.
fn walked(v: &Value, past_limit: PastLimit) -> Result<Vec<String>, TooDeep> {
    let mut seen = Vec::new();
    let ControlFlow::Continue(()) = walk::<usize, Infallible>(
        v,
        past_limit,
        0,
        &mut |path, _, depth| {
            seen.push(format!("{}@{depth}", display_path(path)));
            ControlFlow::Continue(Some(depth + 1))
        },
        &every_child,
    )?;
    Ok(seen)
}

#[test]
fn walk_is_pre_order_in_key_order_with_escaped_pointers() {
    let v = json!({"properties":{"a/b":{"items":{}},"c~":{}},"anyOf":[{"not":{}}, true, {}]});
    assert_eq!(
        walked(&v, PastLimit::Fail).unwrap(),
        [
            "/@0",
            "/properties/a~1b@1",
            "/properties/a~1b/items@2",
            "/properties/c~0@1",
            "/anyOf/0@1",
            "/anyOf/0/not@2",
            "/anyOf/2@1"
        ]
    );
}

#[test]
fn walk_fails_at_the_first_node_past_max_depth() {
    assert_eq!(
        walked(&nots(MAX_DEPTH), PastLimit::Fail).unwrap().len(),
        MAX_DEPTH + 1
    );
    let err = walked(&nots(MAX_DEPTH + 3), PastLimit::Fail).unwrap_err();
    assert_eq!(err.path, "/not".repeat(MAX_DEPTH + 1));
    assert_eq!(err.limit, MAX_DEPTH);
    assert_eq!(
        err.to_string(),
        format!(
            "schema nests deeper than 128 levels at {}",
            "/not".repeat(129)
        )
    );
}

#[test]
fn walk_past_the_limit_skips_or_shows_one_leaf() {
    let deep = nots(MAX_DEPTH + 3);
    let skipped = walked(&deep, PastLimit::Skip).unwrap();
    assert_eq!(skipped.len(), MAX_DEPTH + 1);
    assert_eq!(
        skipped.last().unwrap(),
        &format!("{}@128", "/not".repeat(128))
    );
    let leaf = walked(&deep, PastLimit::Leaf).unwrap();
    assert_eq!(leaf.len(), MAX_DEPTH + 2);
    assert_eq!(leaf.last().unwrap(), &format!("{}@129", "/not".repeat(129)));
    assert_eq!(nodes_within_limit(&deep).len(), MAX_DEPTH + 1);
}

#[test]
fn walk_state_is_inherited_and_reset_under_defs() {
    // Object levels: each object counts one; a definition starts at 0.
    let v = json!({
        "type":"object",
        "properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}},
        "$defs":{"d":{"type":"object","properties":{"e":{"type":"object"}}}}
    });
    let mut levels = Vec::new();
    let ControlFlow::Continue(()) = walk::<usize, Infallible>(
        &v,
        PastLimit::Fail,
        0,
        &mut |path, node, above| {
            let here = above + usize::from(is_object_schema(node));
            levels.push((display_path(path), here));
            ControlFlow::Continue(Some(here))
        },
        &|here, _, child| Some(if child.is_definition() { 0 } else { *here }),
    )
    .unwrap();
    let levels: Vec<(&str, usize)> = levels.iter().map(|(p, n)| (p.as_str(), *n)).collect();
    assert_eq!(
        levels,
        [
            ("/", 1),
            ("/properties/a", 2),
            ("/properties/a/properties/b", 2),
            ("/$defs/d", 1),
            ("/$defs/d/properties/e", 2)
        ]
    );
}

#[test]
fn walk_stops_early_and_skips_children_on_request() {
    let v = json!({"properties":{"a":{"not":{"x":1}},"b":{"x":2},"c":{"x":3}}});
    let mut seen = Vec::new();
    let flow = walk::<(), String>(
        &v,
        PastLimit::Fail,
        (),
        &mut |path, node, ()| {
            seen.push(display_path(path));
            if node.contains_key("not") {
                ControlFlow::Continue(None)
            } else if node.contains_key("x") {
                ControlFlow::Break(path.to_owned())
            } else {
                ControlFlow::Continue(Some(()))
            }
        },
        &every_child,
    )
    .unwrap();
    assert_eq!(flow, ControlFlow::Break("/properties/b".to_owned()));
    assert_eq!(seen, ["/", "/properties/a", "/properties/b"]);
}

#[test]
fn walk_leaves_out_a_child_before_its_depth_is_checked() {
    let v = json!({"properties":{"deep": nots(MAX_DEPTH + 1), "kept": {}}});
    let mut seen = Vec::new();
    let ControlFlow::Continue(()) = walk::<(), Infallible>(
        &v,
        PastLimit::Fail,
        (),
        &mut |path, _, ()| {
            seen.push(display_path(path));
            ControlFlow::Continue(Some(()))
        },
        &|(), _, child| (child != &ChildKey::Named("properties", "deep".into())).then_some(()),
    )
    .unwrap();
    assert_eq!(seen, ["/", "/properties/kept"]);
}

/// Records every hook call of [`rewrite_with`].
struct Trace {
    calls: Vec<String>,
}

impl Rewrite for Trace {
    type State = usize;
    type Out = String;
    const KEYWORDS: Option<&'static [&'static str]> = Some(&["items", "properties", "anyOf"]);

    fn enter(
        &mut self,
        path: &NodePath<'_>,
        via: Option<&ChildKey>,
        node: &mut Map<String, Value>,
        depth: usize,
    ) -> ControlFlow<String, Option<usize>> {
        self.calls.push(format!(
            "enter {} via {via:?} at {depth}",
            display_path(path)
        ));
        node.insert("seen".into(), json!(depth));
        if node.contains_key("stop") {
            return ControlFlow::Break(format!("stopped {}", display_path(path)));
        }
        ControlFlow::Continue(Some(depth + 1))
    }

    fn after(
        &mut self,
        path: &NodePath<'_>,
        _: &mut Map<String, Value>,
        keyword: &'static str,
        outs: Vec<(ChildKey, String)>,
    ) -> ControlFlow<String> {
        self.calls
            .push(format!("after {} {keyword}: {outs:?}", display_path(path)));
        ControlFlow::Continue(())
    }

    fn leave(
        &mut self,
        path: &NodePath<'_>,
        _: Option<&ChildKey>,
        _: &mut Map<String, Value>,
    ) -> String {
        self.calls.push(format!("leave {}", display_path(path)));
        format!("left {}", display_path(path))
    }
}

/// Each listed position as `pointer-suffix=value`.
fn listed<'a>(children: impl Iterator<Item = (ChildKey<'a>, &'a mut Value)>) -> Vec<String> {
    children
        .map(|(k, s)| {
            let mut p = String::new();
            k.push_suffix(&mut p);
            format!("{p}={s}")
        })
        .collect()
}

#[test]
fn children_under_one_keyword_are_those_every_child_lists_with_it() {
    let v = json!({
        "properties": {"a": {}, "b": 1, "c": true},
        "items": [{}, "x", {"type": "string"}],
        "anyOf": [{"a": 1}, false],
        "not": {},
        "additionalProperties": false,
        "dependencies": {"d": ["e"], "f": {}},
        "prefixItems": "no",
        "description": {"type": "object"},
        "$defs": {"g": {}}
    });
    let mut count = 0;
    for kw in [
        "properties",
        "items",
        "anyOf",
        "not",
        "additionalProperties",
        "dependencies",
        "prefixItems",
        "description",
        "$defs",
        "absent",
    ] {
        let (mut every, mut one) = (
            v.as_object().unwrap().clone(),
            v.as_object().unwrap().clone(),
        );
        let mut expected = Vec::new();
        let ControlFlow::<()>::Continue(()) = for_each_child_mut(&mut every, |k, s| {
            if k.keyword() == kw {
                expected.extend(listed(std::iter::once((k, s))));
            }
            ControlFlow::Continue(())
        }) else {
            unreachable!()
        };
        let got = listed(children_under_mut(&mut one, kw));
        assert_eq!(got, expected, "{kw}");
        count += got.len();
    }
    // Every position but the literals: a, c; items 0 and 2; anyOf 0 and 1;
    // not; additionalProperties; dependencies/f; $defs/g.
    assert_eq!(count, 10);
    let mut m = v.as_object().unwrap().clone();
    assert_eq!(
        listed(children_under_mut(&mut m, "items")),
        ["/items/0={}", r#"/items/2={"type":"string"}"#]
    );
}

#[test]
fn rewrite_with_enters_pre_order_and_leaves_post_order_keyword_by_keyword() {
    let mut v = json!({"anyOf":[{"stop":true}],"properties":{"p":{}},"not":{}});
    let mut trace = Trace { calls: Vec::new() };
    let out = rewrite_with(&mut v, 0, &mut trace).unwrap();
    assert_eq!(out.as_deref(), Some("left /"));
    assert_eq!(
        trace.calls,
        [
            "enter / via None at 0",
            "after / items: []",
            "enter /properties/p via Some(Named(\"properties\", \"p\")) at 1",
            "after /properties/p items: []",
            "after /properties/p properties: []",
            "after /properties/p anyOf: []",
            "leave /properties/p",
            "after / properties: [(Named(\"properties\", \"p\"), \"left /properties/p\")]",
            "enter /anyOf/0 via Some(Indexed(\"anyOf\", 0)) at 1",
            "after / anyOf: [(Indexed(\"anyOf\", 0), \"stopped /anyOf/0\")]",
            "leave /"
        ]
    );
    // `not` is not among the keywords: never entered.
    assert_eq!(
        to_bytes(&v),
        r#"{"anyOf":[{"stop":true,"seen":1}],"properties":{"p":{"seen":1}},"not":{},"seen":0}"#
    );
}

#[test]
fn rewrite_orders_and_depth_limit() {
    let mut v = json!({"properties":{"a":{"items":{}}},"not":{}});
    let mut pre = Vec::new();
    rewrite_pre_order(&mut v, &mut |p, _| {
        pre.push(display_path(p));
        true
    })
    .unwrap();
    assert_eq!(pre, ["/", "/properties/a", "/properties/a/items", "/not"]);
    let mut post = Vec::new();
    rewrite_post_order(&mut v, &mut |p, _, _| post.push(display_path(p))).unwrap();
    assert_eq!(post, ["/properties/a/items", "/properties/a", "/not", "/"]);
    let mut outside = Vec::new();
    rewrite_pre_order_outside_conditionals(&mut v, &mut |p, _| {
        outside.push(display_path(p));
        true
    })
    .unwrap();
    assert_eq!(outside, ["/", "/properties/a", "/properties/a/items"]);
    let mut deep = nots(MAX_DEPTH + 1);
    let err = rewrite_post_order(&mut deep, &mut |_, _, _| {}).unwrap_err();
    assert_eq!(err.path, "/not".repeat(MAX_DEPTH + 1));
    assert!(rewrite_pre_order(&mut nots(MAX_DEPTH), &mut |_, _| true).is_ok());
}

#[test]
fn keyword_kind_matches_the_keyword_tables() {
    for k in NAME_MAPS.iter().chain(["dependencies"].iter()) {
        assert!(
            matches!(keyword_kind(k), Some(KeywordKind::NameMap(s)) if s == *k),
            "{k}"
        );
    }
    for k in SINGLE_SCHEMA {
        assert!(
            matches!(keyword_kind(k), Some(KeywordKind::Single(s)) if s == *k),
            "{k}"
        );
    }
    for k in SCHEMA_ARRAYS {
        assert!(
            matches!(keyword_kind(k), Some(KeywordKind::Array(s)) if s == *k),
            "{k}"
        );
    }
    assert!(matches!(keyword_kind("items"), Some(KeywordKind::Items)));
    // Same length or same start as a keyword, but none.
    for k in [
        "",
        "i",
        "iff",
        "If",
        "nots",
        "thex",
        "item",
        "$defx",
        "anyof",
        "propertie",
        "Properties",
        "definition",
        "prefixitems",
        "dependencie",
        "contentschema",
        "additionalItem",
        "unevaluatedItemz",
        "patternProperty",
        "additionalPropertie",
        "unevaluatedPropertie",
    ] {
        assert!(keyword_kind(k).is_none(), "{k}");
    }
    // `ChildKey::push_suffix` pushes keywords unescaped: none needs escaping.
    for k in NAME_MAPS
        .iter()
        .chain(SINGLE_SCHEMA)
        .chain(SCHEMA_ARRAYS)
        .chain(&["items", "dependencies"])
    {
        assert_eq!(escape_token(k), *k);
    }
    for k in crate::generate::KEYWORDS {
        let listed = NAME_MAPS.contains(k)
            || SINGLE_SCHEMA.contains(k)
            || SCHEMA_ARRAYS.contains(k)
            || ["items", "dependencies"].contains(k);
        assert_eq!(keyword_kind(k).is_some(), listed, "{k}");
    }
}

#[test]
fn any_node_stops_at_the_first_match_and_reports_depth_only_without_one() {
    let v = json!({"properties": {"a": {"type": "string"}, "b": {"$ref": "#/x"}, "c": {"$ref": "#/y"}}});
    let seen = std::cell::RefCell::new(Vec::new());
    let found = any_node(&v, &|depth, node| {
        seen.borrow_mut().push((depth, node.get("type").cloned()));
        node.contains_key("$ref")
    });
    assert_eq!(found, Ok(true));
    assert_eq!(
        *seen.borrow(),
        [(0, None), (1, Some(json!("string"))), (1, None)]
    );
    assert_eq!(
        any_node(&v, &|_, node| node.contains_key("enum")),
        Ok(false)
    );
    let deep = nots(MAX_DEPTH + 1);
    assert_eq!(
        any_node(&deep, &|_, node| node.contains_key("enum")),
        Err(visit(&deep, &mut |_, _| {}).unwrap_err())
    );
    assert_eq!(any_node(&deep, &|depth, _| depth == 0), Ok(true));
}

#[test]
fn visit_nodes_sees_what_visit_sees_in_the_same_order_with_depths() {
    let v = json!({"type": "object", "properties": {"a": {"items": {"type": "string"}}, "b": true},
        "anyOf": [{"not": {}}, 1], "$defs": {"d": {"enum": [{"type": "x"}]}}});
    let mut paths: Vec<(String, *const Map<String, Value>)> = Vec::new();
    visit(&v, &mut |p, node| {
        paths.push((p.to_owned(), std::ptr::from_ref(node)));
    })
    .unwrap();
    let mut nodes = Vec::new();
    let flow = visit_nodes::<()>(&v, &mut |depth, node| {
        nodes.push((depth, node));
        ControlFlow::Continue(())
    });
    assert_eq!(flow, Ok(ControlFlow::Continue(())));
    assert_eq!(nodes.len(), paths.len());
    for ((_, node), (path, seen)) in nodes.iter().zip(&paths) {
        assert!(std::ptr::eq(*node, *seen), "{path}");
    }
    // `/`, `/properties/a`, `…/a/items`, `/anyOf/0`, `…/0/not`, `/$defs/d`.
    let depths: Vec<usize> = nodes.iter().map(|(d, _)| *d).collect();
    assert_eq!(depths, [0, 1, 2, 1, 2, 1]);
    // It stops where the callback breaks.
    let mut count = 0;
    let flow = visit_nodes(&v, &mut |_, _| {
        count += 1;
        if count == 2 {
            ControlFlow::Break("second")
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(flow, Ok(ControlFlow::Break("second")));
    assert_eq!(count, 2);
}

#[test]
fn unescape_token_undoes_escape_token_in_rfc_6901_order() {
    // `~01` is `~1` (a literal tilde then 1), not `/`: `~1` goes first.
    assert_eq!(unescape_token("a~1b~0c~01"), "a/b~c~1");
    assert_eq!(unescape_token("plain"), "plain");
    for t in ["a/b", "~", "~1", "x~/y", ""] {
        assert_eq!(unescape_token(&escape_token(t)), t);
    }
}
#[test]
fn same_bytes_is_byte_equality_not_value_equality() {
    assert!(same_bytes(
        &json!({"a": 1, "b": [1.5, "x"]}),
        &json!({"a": 1, "b": [1.5, "x"]})
    ));
    // `==` holds for these; their bytes differ.
    assert!(!same_bytes(
        &json!({"a": 1, "b": 2}),
        &json!({"b": 2, "a": 1})
    ));
    assert!(!same_bytes(&json!(0.0), &json!(-0.0)));
    assert!(!same_bytes(&json!(1), &json!(1.0)));
    assert!(!same_bytes(&json!([1, 2]), &json!([1, 2, 3])));
}

#[test]
fn the_mutable_walks_pointers_are_the_read_only_walks_read_in_any_order() {
    let mut v = json!({
        "properties": {
            "a/b": {"items": {"anyOf": [{"type": "string"}, {"properties": {"~x": {}}}]}},
            "c": {"not": {"additionalProperties": {"type": "integer"}}}
        },
        "$defs": {"d~/e": {"prefixItems": [{}, {"items": [{}, {"const": 1}]}]}}
    });
    let mut eager = Vec::new();
    visit(&v, &mut |p, _| eager.push(p.to_owned())).unwrap();
    assert_eq!(eager.len(), 14);
    assert!(eager.contains(&"/$defs/d~0~1e/prefixItems/1/items/1".to_owned()));
    // Pre-order reads a parent's pointer before its children's; post-order
    // the children's first (their text built with the parent's).
    let mut pre = Vec::new();
    rewrite_pre_order(&mut v, &mut |p, _| {
        pre.push(p.to_string());
        true
    })
    .unwrap();
    assert_eq!(pre, eager);
    let mut post = Vec::new();
    rewrite_post_order(&mut v, &mut |p, _, _| post.push(p.as_str().to_owned())).unwrap();
    post.sort();
    let mut sorted = eager.clone();
    sorted.sort();
    assert_eq!(post, sorted);
}

#[test]
fn insert_after_puts_a_new_key_right_after_its_anchor_and_replaces_in_place() {
    let node = |v: Value| v.as_object().unwrap().clone();
    let after = |mut m: Map<String, Value>, a: &str, k: &str| {
        insert_after(&mut m, a, k, json!(0));
        to_bytes(&Value::Object(m))
    };
    let m = node(json!({"a": 1, "b": 2, "c": 3}));
    assert_eq!(after(m.clone(), "a", "x"), r#"{"a":1,"x":0,"b":2,"c":3}"#);
    assert_eq!(after(m.clone(), "c", "x"), r#"{"a":1,"b":2,"c":3,"x":0}"#);
    assert_eq!(after(m.clone(), "z", "x"), r#"{"a":1,"b":2,"c":3,"x":0}"#);
    assert_eq!(after(m.clone(), "a", "b"), r#"{"a":1,"b":0,"c":3}"#);
    assert_eq!(after(m, "a", "a"), r#"{"a":0,"b":2,"c":3}"#);
    let mut big = Map::new();
    for i in 0..20 {
        big.insert(format!("k{i}"), json!(i));
    }
    insert_after(&mut big, "k9", "x", json!(0));
    let keys: Vec<&str> = big.keys().map(String::as_str).collect();
    assert_eq!(keys[9..12], ["k9", "x", "k10"]);
    assert_eq!(big.get("x"), Some(&json!(0)));
    assert_eq!(big.get("k19"), Some(&json!(19)));
}

#[test]
fn search_walks_what_walk_walks_with_the_same_pointers() {
    let v = json!({"type": "object", "properties": {"a": {"items": {"type": "string"}}, "b~/": {}},
        "required": ["b~/"], "anyOf": [{"not": {}}, 1], "$defs": {"d": {}}});
    let skip_a =
        |_: &Map<String, Value>, key: &ChildKey| key != &ChildKey::Named("properties", "a".into());
    let mut walked = Vec::new();
    let ControlFlow::Continue(()) = walk::<(), Infallible>(
        &v,
        PastLimit::Fail,
        (),
        &mut |path, _, ()| {
            walked.push(path.to_owned());
            ControlFlow::Continue(Some(()))
        },
        &|(), node, key| skip_a(node, key).then_some(()),
    )
    .unwrap();
    let mut searched = Vec::new();
    let flow = search::<Infallible>(&v, &skip_a, &mut |path, _| {
        searched.push(path.to_string());
        ControlFlow::Continue(())
    });
    assert_eq!(flow, Ok(ControlFlow::Continue(())));
    assert_eq!(searched, walked);
    assert_eq!(
        searched,
        [
            "",
            "/properties/b~0~1",
            "/anyOf/0",
            "/anyOf/0/not",
            "/$defs/d"
        ]
    );
    // It stops at the first break; too deep is `walk`'s error.
    let found = search(&v, &|_, _| true, &mut |path, node| {
        if node.contains_key("items") {
            ControlFlow::Break(path.to_string())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(found, Ok(ControlFlow::Break("/properties/a".to_owned())));
    let deep = nots(MAX_DEPTH + 1);
    assert_eq!(
        search::<()>(&deep, &|_, _| true, &mut |_, _| ControlFlow::Continue(())),
        Err(visit(&deep, &mut |_, _| {}).unwrap_err())
    );
}

#[test]
fn remove_keys_keeps_the_others_in_their_order() {
    let keys = |m: &Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
    let Value::Object(all) = json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}) else {
        unreachable!()
    };
    let mut m = all.clone();
    remove_keys(&mut m, &[]);
    assert_eq!(keys(&m), ["a", "b", "c", "d", "e"]);
    remove_keys(&mut m, &["c"]);
    assert_eq!(keys(&m), ["a", "b", "d", "e"]);
    // Names in any order, repeated or absent.
    let mut m = all;
    remove_keys(&mut m, &["e", "b", "x", "b"]);
    assert_eq!(keys(&m), ["a", "c", "d"]);
    assert_eq!(m["d"], json!(4));
}
