//! Older dialects said the draft 2020-12 way before judging: draft 3's
//! boolean `required`, OpenAPI's `nullable`.

use serde_json::Value;

/// Draft 3's property-level `required: true` (or `"true"`) as draft
/// 2020-12 says it: the name in the parent's `required` list (a `false`
/// flag is the default and goes). Draft 2020-12 has no boolean `required`,
/// so without this an author's draft-3 schema cannot be judged at all.
pub(super) fn draft3_required(node: &mut Value, depth: usize) {
    if depth > crate::schema::MAX_DEPTH {
        return;
    }
    let Value::Object(m) = node else {
        if let Value::Array(items) = node {
            for v in items {
                draft3_required(v, depth + 1);
            }
        }
        return;
    };
    let mut lifted = Vec::new();
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for (name, prop) in props.iter_mut() {
            let Some(p) = prop.as_object_mut() else {
                continue;
            };
            let flag = match p.get("required") {
                Some(Value::Bool(b)) => *b,
                Some(Value::String(t)) if t == "true" || t == "false" => t == "true",
                _ => continue,
            };
            p.remove("required");
            if flag {
                lifted.push(Value::String(name.clone()));
            }
        }
    }
    if !lifted.is_empty() {
        match m.get_mut("required") {
            Some(Value::Array(names)) => {
                for n in lifted {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
            }
            None => {
                m.insert("required".into(), Value::Array(lifted));
            }
            Some(_) => {}
        }
    }
    for (k, v) in m.iter_mut() {
        match k.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                if let Value::Object(named) = v {
                    for s in named.values_mut() {
                        draft3_required(s, depth + 1);
                    }
                }
            }
            "enum" | "const" | "default" | "examples" | "example" | "required" => {}
            _ => draft3_required(v, depth + 1),
        }
    }
}

/// OpenAPI 3.0 `nullable: true` as draft 2020-12 says it.
pub(super) fn openapi_nullable(node: &mut Value, depth: usize) {
    if depth > crate::schema::MAX_DEPTH {
        return;
    }
    match node {
        Value::Object(m) => {
            if m.get("nullable") == Some(&Value::Bool(true)) {
                m.remove("nullable");
                match m.get_mut("type") {
                    Some(Value::String(t)) => {
                        let t = t.clone();
                        m.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
                    }
                    Some(Value::Array(ts)) if !ts.contains(&Value::from("null")) => {
                        ts.push("null".into());
                    }
                    _ => {}
                }
                if let Some(Value::Array(e)) = m.get_mut("enum")
                    && !e.contains(&Value::Null)
                {
                    e.push(Value::Null);
                }
                if let Some(Value::Array(bs)) = m.get_mut("anyOf") {
                    bs.push(serde_json::json!({"type": "null"}));
                }
            }
            for (k, v) in m.iter_mut() {
                match k.as_str() {
                    // Name → schema maps: the names are no keywords (a
                    // property may be called `nullable`).
                    "properties" | "patternProperties" | "$defs" | "definitions"
                    | "dependentSchemas" => {
                        if let Value::Object(named) = v {
                            for s in named.values_mut() {
                                openapi_nullable(s, depth + 1);
                            }
                        }
                    }
                    // Values, not schemas.
                    "enum" | "const" | "default" | "examples" | "example" | "required" => {}
                    _ => openapi_nullable(v, depth + 1),
                }
            }
        }
        Value::Array(a) => {
            for v in a {
                openapi_nullable(v, depth + 1);
            }
        }
        _ => {}
    }
}
