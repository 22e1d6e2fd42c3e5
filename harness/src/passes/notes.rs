//! Model-facing description notes. Every text a pass appends to a tool's
//! description is built here, so wording changes are one-file changes and
//! each text has an exact-value test.

use serde_json::{Map, Value};

use crate::schema;

/// The required groups of a composition's branches, in branch order: each
/// object branch with a non-empty `required` list is one group.
pub(crate) fn required_groups(branches: &[Value]) -> Vec<Vec<String>> {
    branches
        .iter()
        .filter_map(Value::as_object)
        .map(schema::required_names)
        .filter(|g| !g.is_empty())
        .collect()
}

fn render_groups(groups: &[Vec<String>]) -> String {
    groups
        .iter()
        .map(|g| g.join(" + "))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The constraint note for a root composition keyword whose branches carry
/// at least two required groups; `None` below two groups (nothing to choose
/// between) or for a keyword without a note.
pub(crate) fn composition_note(keyword: &str, groups: &[Vec<String>]) -> Option<String> {
    if groups.len() < 2 {
        return None;
    }
    let lead = match keyword {
        "oneOf" => "Exactly one of these parameter groups must be provided",
        "anyOf" => "At least one of these parameter groups must be provided",
        "allOf" => "Every one of these parameter groups must be provided",
        _ => return None,
    };
    Some(format!("{lead}: {}.", render_groups(groups)))
}

/// The generic note for a stripped root composition that left the root with
/// no properties at all (the v1 Anthropic object floor).
pub(crate) fn generic_composition_note(keyword: &str) -> Option<&'static str> {
    match keyword {
        "oneOf" => Some(
            "The input must match exactly one of several alternative shapes that this schema cannot express; see the tool's documentation.",
        ),
        "anyOf" => Some(
            "The input must match at least one of several alternative shapes that this schema cannot express; see the tool's documentation.",
        ),
        "allOf" => Some(
            "The input must match several combined shapes that this schema cannot express; see the tool's documentation.",
        ),
        _ => None,
    }
}

/// Where a JSON Pointer points, for a human: the dotted property path when
/// the pointer walks `properties` only (`opts.level`), else the pointer.
pub(crate) fn location(pointer: &str) -> String {
    if pointer.is_empty() {
        return "(root)".to_owned();
    }
    names_chain(pointer).unwrap_or_else(|| pointer.to_owned())
}

/// The dotted property path [`location`] shows for a (non-empty)
/// `pointer`, or `None` when the pointer walks more than `properties`.
pub(crate) fn names_chain(pointer: &str) -> Option<String> {
    let mut tokens = pointer.split('/').skip(1);
    let mut out = String::with_capacity(pointer.len());
    let mut first = true;
    loop {
        match (tokens.next(), tokens.next()) {
            (None, _) => return Some(out),
            (Some("properties"), Some(name)) => {
                if !first {
                    out.push('.');
                }
                first = false;
                crate::schema::push_unescaped(&mut out, name);
            }
            _ => return None,
        }
    }
}

/// [`location`] of `child`, the pointer of the property `name` of the
/// node at `parent`, given `parent_chain` (`parent`'s [`names_chain`]):
/// the parent's part is worked out once for all its properties.
pub(crate) fn property_location(
    parent: &str,
    parent_chain: Option<&str>,
    name: &str,
    child: &str,
) -> String {
    match parent_chain {
        _ if parent.is_empty() => name.to_owned(),
        _ if !parent.starts_with('/') => location(child),
        Some(chain) => {
            let mut out = String::with_capacity(chain.len() + 1 + name.len());
            out.push_str(chain);
            out.push('.');
            out.push_str(name);
            out
        }
        // The pair of tokens that ended the parent's chain ends the
        // child's (or, after an odd count, the child's last token does).
        None => child.to_owned(),
    }
}

/// The note for optional parameters a strict wire removed.
pub(crate) fn removed_optionals_note(names: &[String]) -> String {
    format!(
        "Optional parameters removed for strict mode (do not send them): {}.",
        names.join(", ")
    )
}

/// One unenforced constraint: where, which keyword, which value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Unenforced {
    pub(crate) pointer: String,
    pub(crate) keyword: String,
    pub(crate) value: Value,
}

/// The note listing constraints a pass stripped although the model should
/// still honour them.
pub(crate) fn unenforced_note(items: &[Unenforced]) -> Option<String> {
    if items.is_empty() {
        return None;
    }
    let parts: Vec<String> = items
        .iter()
        .map(|u| {
            let value = match &u.value {
                Value::String(s) => s.clone(),
                other => schema::to_bytes(other),
            };
            format!("{}: {} {}", location(&u.pointer), u.keyword, value)
        })
        .collect();
    Some(format!(
        "Constraints this schema does not enforce (still follow them): {}.",
        parts.join("; ")
    ))
}

/// The dependency note the old (v0) flatten appends when it strips
/// `dependentRequired` / `dependentSchemas`.
pub(crate) fn dependencies_note(items: &[(String, String, Value)]) -> Option<String> {
    // An empty map constrains nothing: nothing to say about it.
    let parts: Vec<String> = items
        .iter()
        .filter(|(_, _, value)| value.as_object().is_none_or(|m| !m.is_empty()))
        .map(|(pointer, keyword, value)| {
            let at = location(pointer);
            match (keyword.as_str(), value) {
                ("dependentRequired", Value::Object(m)) => dependent_required(&at, m),
                (_, Value::Object(m)) => {
                    let names: Vec<&str> = m.keys().map(String::as_str).collect();
                    format!(
                        "{at}: when {} is provided, extra constraints apply",
                        names.join(" or ")
                    )
                }
                _ => format!("{at}: {keyword}"),
            }
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    Some(format!("Parameter dependencies: {}.", parts.join("; ")))
}

fn dependent_required(at: &str, m: &Map<String, Value>) -> String {
    m.iter()
        .map(|(k, v)| {
            let needs: Vec<&str> = v
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            format!("{at}: {k} requires {}", needs.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn property_location_is_the_location_of_the_property_pointer() {
        for parent in [
            "",
            "/",
            "/properties",
            "/properties/",
            "/properties/a",
            "/properties/a~1b/properties/c~0d",
            "/properties/a/items",
            "/items/properties/a",
            "/anyOf/0",
            "/properties/properties",
            "abc",
        ] {
            let chain = super::names_chain(parent);
            for name in ["b", "", "x/y", "~1", "a.b", "é", "properties"] {
                let child = crate::schema::child_path(&format!("{parent}/properties"), name);
                assert_eq!(
                    super::property_location(parent, chain.as_deref(), name, &child),
                    super::location(&child),
                    "{parent:?} {name:?}"
                );
            }
        }
    }

    use super::*;
    use serde_json::json;

    #[test]
    fn one_of_note_names_every_group() {
        let groups = vec![vec!["a".to_owned(), "b".to_owned()], vec!["c".to_owned()]];
        assert_eq!(
            composition_note("oneOf", &groups).unwrap(),
            "Exactly one of these parameter groups must be provided: a + b | c."
        );
        assert_eq!(
            composition_note("anyOf", &groups).unwrap(),
            "At least one of these parameter groups must be provided: a + b | c."
        );
    }

    #[test]
    fn a_single_group_gets_no_note() {
        assert_eq!(composition_note("oneOf", &[vec!["a".to_owned()]]), None);
    }

    /// An empty dependency map constrains nothing and gets no words (found
    /// by a mutation check: "when  is provided, extra constraints apply").
    #[test]
    fn dependencies_note_skips_empty_maps() {
        let item = |kw: &str, v: Value| ("/properties/o".to_owned(), kw.to_owned(), v);
        assert_eq!(
            dependencies_note(&[
                item("dependentSchemas", json!({})),
                item("dependentRequired", json!({}))
            ]),
            None
        );
        assert_eq!(
            dependencies_note(&[
                item("dependentSchemas", json!({})),
                item("dependentRequired", json!({"a": ["b"]}))
            ])
            .as_deref(),
            Some("Parameter dependencies: o: a requires b.")
        );
    }

    #[test]
    fn required_groups_skip_branches_without_required() {
        let b = [
            json!({"required":["a"]}),
            json!(true),
            json!({}),
            json!({"required":["b","c"]}),
        ];
        assert_eq!(required_groups(&b), vec![vec!["a"], vec!["b", "c"]]);
    }

    #[test]
    fn locations_use_dotted_property_paths() {
        assert_eq!(location(""), "(root)");
        assert_eq!(location("/properties/opts/properties/level"), "opts.level");
        assert_eq!(location("/properties/a~1b"), "a/b");
        assert_eq!(location("/properties/xs/items"), "/properties/xs/items");
        assert_eq!(
            location("/properties/xs/properties"),
            "/properties/xs/properties"
        );
        assert_eq!(location("/properties//properties/x"), ".x");
        assert_eq!(location("/properties/a~01"), "a~1");
    }

    #[test]
    fn unenforced_note_lists_each_constraint() {
        let items = vec![
            Unenforced {
                pointer: "/properties/d".into(),
                keyword: "pattern".into(),
                value: json!("^(?!-)x$"),
            },
            Unenforced {
                pointer: "/properties/n".into(),
                keyword: "maxLength".into(),
                value: json!(64),
            },
        ];
        assert_eq!(
            unenforced_note(&items).unwrap(),
            "Constraints this schema does not enforce (still follow them): d: pattern ^(?!-)x$; n: maxLength 64."
        );
    }

    #[test]
    fn dependencies_note_spells_out_dependent_required() {
        let items = vec![(
            String::new(),
            "dependentRequired".to_owned(),
            json!({"card":["cvv","expiry"]}),
        )];
        assert_eq!(
            dependencies_note(&items).unwrap(),
            "Parameter dependencies: (root): card requires cvv, expiry."
        );
    }
}
