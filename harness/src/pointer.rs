//! JSON Pointers (RFC 6901) as the walks build them: reference tokens
//! escaped and unescaped, the [`ChildKey`] a child position is reached by
//! (with its pointer suffix), how a pointer is shown in messages, and
//! [`NodePath`], the pointer of a node in a mutable walk, built only when
//! something reads it, and the pointers a schema's local `$ref`s hold.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::fmt;
use std::ops::Deref;

use serde_json::{Map, Value};

/// Escape one JSON Pointer reference token (RFC 6901).
pub(crate) fn escape_token(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    push_escaped(&mut out, token);
    out
}

/// Unescape one JSON Pointer reference token (RFC 6901: `~1` is `/`, then
/// `~0` is `~`); a token with no `~` is copied as it is.
pub(crate) fn unescape_token(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    push_unescaped(&mut out, token);
    out
}

/// Append `token` unescaped ([`unescape_token`]) to `out`, without a copy
/// of its own.
pub(crate) fn push_unescaped(out: &mut String, token: &str) {
    if !token.contains('~') {
        out.push_str(token);
        return;
    }
    let mut rest = token;
    while let Some(at) = rest.find('~') {
        out.push_str(&rest[..at]);
        match rest.as_bytes().get(at + 1) {
            Some(b'1') => out.push('/'),
            Some(b'0') => out.push('~'),
            // A `~` before anything else is left as it is.
            _ => {
                out.push('~');
                rest = &rest[at + 1..];
                continue;
            }
        }
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
}

/// Append `token`, escaped as a JSON Pointer reference token, to `out`.
fn push_escaped(out: &mut String, token: &str) {
    if !token.contains(['~', '/']) {
        out.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// `parent` + `/token`, escaped.
pub(crate) fn child_path(parent: &str, token: &str) -> String {
    let mut out = String::with_capacity(parent.len() + token.len() + 1);
    out.push_str(parent);
    out.push('/');
    push_escaped(&mut out, token);
    out
}

/// One child schema position of a node: the keyword it hangs under, an
/// optional name or index inside that keyword, and its pointer suffix. The
/// walks hand out keys that borrow the name from the node
/// ([`ChildKey::into_owned`] keeps one past the borrow).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ChildKey<'n> {
    /// `node[keyword]` is a schema (`not`, `items` object form, ...).
    Single(&'static str),
    /// `node[keyword][name]` is a schema (`properties/foo`).
    Named(&'static str, Cow<'n, str>),
    /// `node[keyword][index]` is a schema (`anyOf/0`, tuple `items/1`).
    Indexed(&'static str, usize),
}

impl ChildKey<'_> {
    /// The keyword the child hangs under.
    #[cfg(test)]
    pub(crate) fn keyword(&self) -> &'static str {
        match self {
            Self::Single(k) | Self::Named(k, _) | Self::Indexed(k, _) => k,
        }
    }

    /// The same key, owning its name.
    pub(crate) fn into_owned(self) -> ChildKey<'static> {
        match self {
            Self::Single(k) => ChildKey::Single(k),
            Self::Named(k, n) => ChildKey::Named(k, Cow::Owned(n.into_owned())),
            Self::Indexed(k, i) => ChildKey::Indexed(k, i),
        }
    }

    /// Mutably borrow the child out of its parent object.
    pub(crate) fn get_mut<'a>(&self, node: &'a mut Map<String, Value>) -> Option<&'a mut Value> {
        match self {
            Self::Single(k) => node.get_mut(*k),
            Self::Named(k, n) => node.get_mut(*k)?.as_object_mut()?.get_mut(n.as_ref()),
            Self::Indexed(k, i) => node.get_mut(*k)?.as_array_mut()?.get_mut(*i),
        }
    }

    /// The pointer suffix this child adds to its parent's path.
    pub(crate) fn suffix(&self) -> String {
        let mut out = String::new();
        self.push_suffix(&mut out);
        out
    }

    /// Append the pointer suffix this child adds to its parent's path to
    /// `out`. Keywords are pushed as they are: none of the walked keywords
    /// holds `~` or `/` (a unit test checks the tables).
    pub(crate) fn push_suffix(&self, out: &mut String) {
        use std::fmt::Write as _;
        out.push('/');
        match self {
            Self::Single(k) => out.push_str(k),
            Self::Named(k, n) => {
                out.push_str(k);
                out.push('/');
                push_escaped(out, n);
            }
            Self::Indexed(k, i) => {
                out.push_str(k);
                let _ = write!(out, "/{i}");
            }
        }
    }
}

/// The target of a local reference (`#` and a JSON Pointer, its `%25`
/// escapes undone) in `doc`; `None` for any other reference.
pub(crate) fn resolve_local<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.contains('%') {
        pointee(doc, &pointer.replace("%25", "%"))
    } else {
        pointee(doc, pointer)
    }
}

/// The value `pointer` (a JSON Pointer, RFC 6901) names in `doc`: what
/// serde_json's `Value::pointer` finds (a unit test compares the two),
/// without its two copies of every token (a token with no `~` is looked
/// up as it is, other tokens are unescaped into one buffer).
pub(crate) fn pointee<'a>(doc: &'a Value, pointer: &str) -> Option<&'a Value> {
    use crate::lookup::Lookup;
    if pointer.is_empty() {
        return Some(doc);
    }
    let mut target = doc;
    let mut buf = String::new();
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = if token.contains('~') {
            buf.clear();
            push_unescaped(&mut buf, token);
            buf.as_str()
        } else {
            token
        };
        target = match target {
            Value::Object(map) => map.field(token)?,
            // An array index as serde_json reads one: digits, no sign, no
            // leading zero.
            Value::Array(list) if is_index(token) => list.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(target)
}

/// Whether `token` may name an array element (serde_json's reading): no
/// `+` sign and no leading zero (digits are checked by the parse).
fn is_index(token: &str) -> bool {
    !(token.starts_with('+') || (token.starts_with('0') && token.len() != 1))
}

/// How a path is shown in messages: the root is `/`.
pub fn display_path(path: &str) -> String {
    if path.is_empty() {
        "/".to_owned()
    } else {
        path.to_owned()
    }
}

/// The JSON Pointer of the node a mutable walk ([`crate::schema::rewrite_with`])
/// is at: its parent's path and the key that leads here, turned into text
/// only when a callback reads it (as `&str`, through `Deref`, or shown).
///
/// Most nodes of most walks are never recorded, noted or compared by
/// path: building every node's pointer up front (the walk used to push
/// each child's suffix onto one buffer) touched every property name on
/// every walk of every pass. The text, once built, is kept for the
/// node's children to extend; the root's is `""`.
pub(crate) struct NodePath<'p> {
    /// The parent's path and the key from it; `None` at the root.
    up: Option<(&'p NodePath<'p>, &'p ChildKey<'p>)>,
    text: OnceCell<String>,
}

impl<'p> NodePath<'p> {
    /// The root's path, `""`.
    pub(crate) fn root() -> Self {
        Self {
            up: None,
            text: OnceCell::new(),
        }
    }

    /// The path of this node's child reached by `key`.
    pub(crate) fn child<'c>(&'c self, key: &'c ChildKey<'c>) -> NodePath<'c>
    where
        'p: 'c,
    {
        NodePath {
            up: Some((self, key)),
            text: OnceCell::new(),
        }
    }

    /// Whether this is the root (`""`), without building any text.
    pub(crate) fn is_empty(&self) -> bool {
        self.up.is_none()
    }

    /// The pointer as text (built on first use, its ancestors' with it).
    pub(crate) fn as_str(&self) -> &str {
        self.text.get_or_init(|| match self.up {
            None => String::new(),
            Some((parent, key)) => {
                let parent = parent.as_str();
                let mut out = String::with_capacity(parent.len() + 16);
                out.push_str(parent);
                key.push_suffix(&mut out);
                out
            }
        })
    }
}

impl Deref for NodePath<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for NodePath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for NodePath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// The JSON Pointer (the `#` dropped) of every local `$ref` (`#/…`)
/// anywhere in `v`: under literals and unknown keywords too (a definition
/// kept under one may refer to another). Each once, in document order.
pub(crate) fn local_ref_pointers(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                if let Some(p) = o
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix('#'))
                    .filter(|p| p.starts_with('/'))
                    && seen.insert(p)
                {
                    out.push(p.to_owned());
                }
                // Children in reverse: the first is visited first.
                stack.extend(o.values().rev());
            }
            Value::Array(a) => stack.extend(a.iter().rev()),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6901's order: `~1` first, then `~0`, so `~01` is `~1`; a `~`
    /// before anything else stays.
    #[test]
    fn unescaping_replaces_tilde_one_then_tilde_zero() {
        for (token, want) in [
            ("plain", "plain"),
            ("a~1b~0c~01", "a/b~c~1"),
            ("~~1", "~/"),
            ("~~10", "~/0"),
            ("~~0", "~~"),
            ("~0~1", "~/"),
            ("~2~", "~2~"),
            ("é~1ü", "é/ü"),
            ("", ""),
        ] {
            let mut pushed = "x".to_owned();
            push_unescaped(&mut pushed, token);
            assert_eq!(pushed, format!("x{want}"), "{token}");
            assert_eq!(unescape_token(token), want, "{token}");
            assert_eq!(
                token.replace("~1", "/").replace("~0", "~"),
                want,
                "{token}: RFC 6901's replacements"
            );
        }
    }

    #[test]
    fn pointee_finds_what_serde_json_pointer_finds() {
        let doc = serde_json::json!({
            "a/b": {"c~d": [10, {"e": "f"}, [true]]},
            "": {"": 1},
            "~1": 2,
            "0": {"01": 3, "+1": 4},
            "arr": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
            "big": {"x": 1, "y": 2, "z": 3, "w": 4, "v": 5, "u": 6, "t": 7, "s": 8, "r": 9, "q": 10}
        });
        for p in [
            "",
            "/",
            "//",
            "/a~1b",
            "/a~1b/c~0d",
            "/a~1b/c~0d/1/e",
            "/a~1b/c~0d/2/0",
            "/a~1b/c~0d/3",
            "/a~1b/c~0d/01",
            "/a~1b/c~0d/+1",
            "/a~1b/c~0d/-1",
            "/a~1b/c~0d/1/e/x",
            "/~01",
            "/~1",
            "/0",
            "/0/01",
            "/0/+1",
            "/arr/0",
            "/arr/10",
            "/arr/00",
            "/arr/1e1",
            "/arr/ 1",
            "/arr/18446744073709551616",
            "/big/q",
            "/big/p",
            "a",
            "#/a",
            "/a~2b",
            "/a~",
            "/~",
        ] {
            assert_eq!(pointee(&doc, p), doc.pointer(p), "{p:?}");
        }
    }

    #[test]
    fn a_node_path_is_the_pointer_of_its_keys_escaped_and_built_on_demand() {
        let root = NodePath::root();
        assert!(root.is_empty());
        assert_eq!(root.as_str(), "");
        let props = ChildKey::Named("properties", Cow::Borrowed("a/b~c"));
        let branch = ChildKey::Indexed("anyOf", 12);
        let items = ChildKey::Single("items");
        let p = root.child(&props);
        let b = p.child(&branch);
        let i = b.child(&items);
        assert!(!p.is_empty());
        // Nothing is built until read.
        assert_eq!(
            (p.text.get(), b.text.get(), i.text.get()),
            (None, None, None)
        );
        assert_eq!(&*i, "/properties/a~1b~0c/anyOf/12/items");
        // Reading a node built its ancestors' text too, for siblings to reuse.
        assert_eq!(
            p.text.get().map(String::as_str),
            Some("/properties/a~1b~0c")
        );
        assert_eq!(
            b.text.get().map(String::as_str),
            Some("/properties/a~1b~0c/anyOf/12")
        );
        assert_eq!(
            format!("{b} {i:?}"),
            r#"/properties/a~1b~0c/anyOf/12 "/properties/a~1b~0c/anyOf/12/items""#
        );
        assert_eq!(display_path(&root), "/");
    }

    #[test]
    fn local_ref_pointers_lists_each_local_reference_once_in_document_order() {
        let v = serde_json::json!({
            "properties": {
                "a": {"$ref": "#/$defs/A"},
                "b": {"items": [{"$ref": "#/properties/a"}, {"$ref": "#/$defs/A"}]},
                "c": {"$ref": "https://example.com/s.json#/x"},
                "d": {"$ref": "#anchor"},
                "e": {"$ref": "#"}
            },
            "x-kept": {"inner": {"$ref": "#/x-kept/other"}},
            "default": {"$ref": "#/in/a/literal"},
            "$defs": {"A": {"type": "string"}}
        });
        assert_eq!(
            local_ref_pointers(&v),
            [
                "/$defs/A",
                "/properties/a",
                "/x-kept/other",
                "/in/a/literal"
            ]
        );
    }
}
