//! Walking JSON Schema *positions*: the one traversal every pass, rule and
//! measure uses. No module outside this one recurses into schema children
//! or compares a depth against [`MAX_DEPTH`].
//!
//! Only schema positions are walked. `properties`, `$defs`, `definitions`,
//! `$def`, `patternProperties` and `dependentSchemas` are **name maps** (their
//! values are schemas, the map itself is not); `enum`, `const`, `default` and
//! `examples` are **literals** (never walked). A property named `const`,
//! `properties` or `contains` is therefore a name, never a keyword.
//! [`for_each_child`] lists a node's positions in the node's own key order, each
//! as a [`ChildKey`]; only objects and booleans are positions, and boolean
//! schemas are never shown to a callback (they carry no keywords).
//!
//! Every callback gets the node's **JSON Pointer** (RFC 6901, tokens
//! escaped; `""` is the root, shown as `/` in messages by [`display_path`]):
//! the read-only walk builds it on one buffer as it goes down; the mutable
//! one hands out a [`NodePath`], built only when a callback reads it.
//!
//! The walks:
//! - [`walk`], read-only, **pre-order** (a node before its children).
//!   State is inherited from parent to child: `enter` turns the state a node
//!   inherited into the node's own, and `inherit` gives each child its copy
//!   or leaves the child out (OpenAI's nesting count restarts at 0 under
//!   `$defs`; DeepSeek's subset skips optional properties). `enter` can stop
//!   the whole walk early (`ControlFlow::Break`) or skip the node's children.
//!   [`visit`] and [`nodes_within_limit`] are its plain forms;
//!   [`visit_nodes`] walks the same nodes without pointers (each with its
//!   depth), for the callers that never read one, and [`search`] hands out
//!   a [`NodePath`] as the mutable walk does.
//! - [`rewrite_with`], the mutable one, driven by a [`Rewrite`]: `enter`
//!   (**pre-order**, may rewrite the node before its children are taken
//!   from it), `inherit` as above, `after` (the outcomes of one keyword's
//!   children, for a bottom-up pruning) and `leave` (**post-order**).
//!   [`rewrite_pre_order`], [`rewrite_pre_order_outside_conditionals`] and
//!   [`rewrite_post_order`] are its plain forms.
//!
//! Depth is bounded by [`MAX_DEPTH`] (the root is depth 0, each child one
//! deeper): a node past it is [`TooDeep`] at that node's pointer instead of
//! a stack overflow, checked before any callback sees the node (and after
//! `inherit` chose the child). The read-only walk can instead skip such
//! nodes or show the first one as a leaf ([`PastLimit`]).

use std::borrow::Cow;
use std::convert::Infallible;
use std::ops::ControlFlow;

use serde_json::{Map, Value};

use crate::lookup::Lookup;
pub use crate::pointer::display_path;
pub(crate) use crate::pointer::{
    ChildKey, NodePath, child_path, escape_token, push_unescaped, unescape_token,
};

/// The deepest schema nesting any walk accepts (counted in schema positions).
pub const MAX_DEPTH: usize = 128;

/// Keywords whose value is a map from names to schemas.
pub(crate) const NAME_MAPS: &[&str] = &[
    "properties",
    "$defs",
    "definitions",
    "$def",
    "patternProperties",
    "dependentSchemas",
];

/// Keywords whose value is one schema.
pub(crate) const SINGLE_SCHEMA: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];

/// Keywords whose subschema is a condition or a negation: what it says
/// decides *whether* other keywords apply, so a rewrite that tightens it
/// (closing an object, requiring every property) changes the condition.
pub(crate) const CONDITIONALS: &[&str] = &["if", "then", "else", "not"];

/// Keywords whose value is an array of schemas.
pub(crate) const SCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// The schema nests deeper than [`MAX_DEPTH`]; `path` is where the walk stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("schema nests deeper than {limit} levels at {path}")]
pub struct TooDeep {
    pub path: String,
    pub limit: usize,
}

/// Which table a child keyword is in ([`NAME_MAPS`], [`SINGLE_SCHEMA`],
/// [`SCHEMA_ARRAYS`]; `dependencies` walks as a name map, `items` either
/// way), with its `'static` spelling: one `match` instead of a scan of the
/// three tables for every key of every node (a unit test checks the
/// tables and the `match` agree).
#[derive(Clone, Copy)]
enum KeywordKind {
    NameMap(&'static str),
    Single(&'static str),
    Array(&'static str),
    Items,
}

fn keyword_kind(k: &str) -> Option<KeywordKind> {
    use KeywordKind::{Array, Items, NameMap, Single};
    // By length first: most keys of most nodes (`type`, `description`,
    // `enum`, …) are no child keyword, and their length alone, or one or
    // two comparisons within it, settles them.
    Some(match k.len() {
        2 if k == "if" => Single("if"),
        3 if k == "not" => Single("not"),
        4 => match k {
            "$def" => NameMap("$def"),
            "then" => Single("then"),
            "else" => Single("else"),
            _ => return None,
        },
        5 => match k {
            "$defs" => NameMap("$defs"),
            "items" => Items,
            "allOf" => Array("allOf"),
            "anyOf" => Array("anyOf"),
            "oneOf" => Array("oneOf"),
            _ => return None,
        },
        8 if k == "contains" => Single("contains"),
        10 if k == "properties" => NameMap("properties"),
        11 => match k {
            "definitions" => NameMap("definitions"),
            "prefixItems" => Array("prefixItems"),
            _ => return None,
        },
        12 if k == "dependencies" => NameMap("dependencies"),
        13 => match k {
            "propertyNames" => Single("propertyNames"),
            "contentSchema" => Single("contentSchema"),
            _ => return None,
        },
        15 if k == "additionalItems" => Single("additionalItems"),
        16 => match k {
            "dependentSchemas" => NameMap("dependentSchemas"),
            "unevaluatedItems" => Single("unevaluatedItems"),
            _ => return None,
        },
        17 if k == "patternProperties" => NameMap("patternProperties"),
        20 if k == "additionalProperties" => Single("additionalProperties"),
        21 if k == "unevaluatedProperties" => Single("unevaluatedProperties"),
        _ => return None,
    })
}

/// The schema positions under one keyword's value (see [`for_each_child`]):
/// the keyword's `'static` spelling and how its value holds them.
#[derive(Clone, Copy)]
enum Under {
    Nothing,
    One(&'static str),
    Named(&'static str),
    Indexed(&'static str),
}

/// A schema position: objects and booleans (boolean schemas carry no
/// keywords, but they are positions).
fn is_position(v: &Value) -> bool {
    v.is_object() || v.is_boolean()
}

/// What one keyword's value holds, as the positions to list.
fn under(k: &str, v: &Value) -> Under {
    // Most values are strings or numbers (`type`, `description`, bounds):
    // no keyword holds positions in one, so the key is not read.
    if !matches!(v, Value::Object(_) | Value::Array(_) | Value::Bool(_)) {
        return Under::Nothing;
    }
    match (keyword_kind(k), v) {
        (Some(KeywordKind::NameMap(kw)), Value::Object(_)) => Under::Named(kw),
        (Some(KeywordKind::Single(kw)), v) if is_position(v) => Under::One(kw),
        (Some(KeywordKind::Array(kw)), Value::Array(_)) => Under::Indexed(kw),
        (Some(KeywordKind::Items), Value::Array(_)) => Under::Indexed("items"),
        (Some(KeywordKind::Items), Value::Object(_) | Value::Bool(_)) => Under::One("items"),
        _ => Under::Nothing,
    }
}

/// The body of [`for_each_child`] and [`for_each_child_mut`]: each
/// keyword of `$node` in order, the positions under it in order, handed
/// to `$f` until it breaks. `$iter` borrows entries (`iter` or `iter_mut`).
macro_rules! each_child {
    ($node:ident, $iter:ident, $f:ident) => {{
        for (k, v) in $node.$iter() {
            match under(k, v) {
                Under::Nothing => {}
                Under::One(kw) => $f(ChildKey::Single(kw), v)?,
                Under::Named(kw) => {
                    if let Value::Object(m) = v {
                        for (name, sub) in m.$iter() {
                            if is_position(sub) {
                                $f(ChildKey::Named(kw, Cow::Borrowed(name.as_str())), sub)?;
                            }
                        }
                    }
                }
                Under::Indexed(kw) => {
                    if let Value::Array(a) = v {
                        for (i, sub) in a.$iter().enumerate() {
                            if is_position(sub) {
                                $f(ChildKey::Indexed(kw, i), sub)?;
                            }
                        }
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }};
}

/// Hand `f` the schema positions directly under `node`, in the node's own
/// key order (so walks are deterministic and follow the author's layout),
/// each with its key (borrowing the name from `node`), until `f` breaks:
/// no allocation, no lookup. (An internal iteration: the walks spent a
/// tenth of their instructions resuming an iterator's state per child.)
///
/// `dependentSchemas` values may be arrays in malformed input; only
/// schema-shaped values (objects and booleans) are positions. Draft-7
/// `dependencies` is walked as a name map: its schema-form values are
/// positions, name-table (array) values are data.
pub(crate) fn for_each_child<'a, B>(
    node: &'a Map<String, Value>,
    mut f: impl FnMut(ChildKey<'a>, &'a Value) -> ControlFlow<B>,
) -> ControlFlow<B> {
    each_child!(node, iter, f)
}

/// [`for_each_child`] with each position borrowed mutably.
pub(crate) fn for_each_child_mut<'a, B>(
    node: &'a mut Map<String, Value>,
    mut f: impl FnMut(ChildKey<'a>, &'a mut Value) -> ControlFlow<B>,
) -> ControlFlow<B> {
    each_child!(node, iter_mut, f)
}

/// The child positions under one keyword of `node`: those
/// [`for_each_child_mut`] lists under that keyword, in the same order (a
/// unit test compares the two), found by looking the keyword up instead
/// of listing every child.
pub(crate) fn children_under_mut<'a>(
    node: &'a mut Map<String, Value>,
    keyword: &str,
) -> impl Iterator<Item = (ChildKey<'a>, &'a mut Value)> {
    let (mut one, mut named, mut indexed) = (None, None, None);
    if let Some(v) = node.field_mut(keyword) {
        match (under(keyword, v), v) {
            (Under::One(kw), v) => one = Some((ChildKey::Single(kw), v)),
            (Under::Named(kw), Value::Object(m)) => {
                named = Some(m.iter_mut().filter(|(_, sub)| is_position(sub)).map(
                    move |(name, sub)| (ChildKey::Named(kw, Cow::Borrowed(name.as_str())), sub),
                ));
            }
            (Under::Indexed(kw), Value::Array(a)) => {
                indexed = Some(
                    a.iter_mut()
                        .enumerate()
                        .filter(|(_, sub)| is_position(sub))
                        .map(move |(i, sub)| (ChildKey::Indexed(kw, i), sub)),
                );
            }
            _ => {}
        }
    }
    one.into_iter()
        .chain(named.into_iter().flatten())
        .chain(indexed.into_iter().flatten())
}

/// What a walk does at a node nested deeper than [`MAX_DEPTH`] (the root
/// is at depth 0, each child position one deeper).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PastLimit {
    /// Stop with [`TooDeep`] at the node's pointer, before the callback
    /// sees it. Every pass walks this way.
    Fail,
    /// Leave the node and everything under it out, silently (the oracle's
    /// rules: a schema too deep to shape is judged on what is in reach).
    Skip,
    /// Show the node to the callback but walk none of its children: the
    /// first node past the limit still counts (OpenAI's nesting measure).
    Leaf,
}

/// What a read-only walk hands a child: its inherited state, or `None` to
/// leave the child (and its subtree) out. Called with the parent's own
/// state, the parent and the child's key, before the child's depth is
/// checked (a child left out never trips the limit).
pub(crate) type Inherit<'f, S> = dyn Fn(&S, &Map<String, Value>, &ChildKey) -> Option<S> + 'f;

/// A read-only walk's callback: the node's pointer, the node and the state
/// it inherited; what comes next (see [`walk`]).
pub(crate) type Enter<'f, 'a, S, B> =
    dyn FnMut(&str, &'a Map<String, Value>, S) -> ControlFlow<B, Option<S>> + 'f;

/// Every child inherits a copy of its parent's state.
#[allow(clippy::unnecessary_wraps)] // the shape of an `Inherit`
pub(crate) fn every_child<S: Clone>(state: &S, _: &Map<String, Value>, _: &ChildKey) -> Option<S> {
    Some(state.clone())
}

/// The one read-only walk: every schema object in pre-order, in the node's
/// own key order, with its JSON Pointer (`""` is the root). Boolean schemas
/// are skipped (they carry no keywords).
///
/// `enter` gets the pointer, the node and the state it inherited (the root
/// gets `state`), and says what comes next: `Break(b)` ends the whole walk
/// with `b`; `Continue(None)` skips the node's children; `Continue(Some(s))`
/// walks each child `c` with the state `inherit(&s, node, c)` (a child
/// given `None` is left out). State flows from parent to child only, so a
/// child can start afresh where a keyword says so (a `$defs` entry resets
/// a nesting level). `past_limit` says what a node deeper than
/// [`MAX_DEPTH`] does.
pub(crate) fn walk<'a, S, B>(
    root: &'a Value,
    past_limit: PastLimit,
    state: S,
    enter: &mut Enter<'_, 'a, S, B>,
    inherit: &Inherit<'_, S>,
) -> Result<ControlFlow<B>, TooDeep> {
    struct Walk<'e, 'i, 'a, S, B> {
        past_limit: PastLimit,
        enter: &'e mut Enter<'i, 'a, S, B>,
        inherit: &'e Inherit<'i, S>,
    }
    impl<'a, S, B> Walk<'_, '_, 'a, S, B> {
        fn go(
            &mut self,
            v: &'a Value,
            path: &mut String,
            depth: usize,
            state: S,
        ) -> Result<ControlFlow<B>, TooDeep> {
            let Some(map) = v.as_object() else {
                return Ok(ControlFlow::Continue(()));
            };
            let leaf = depth > MAX_DEPTH;
            if leaf {
                match self.past_limit {
                    PastLimit::Fail => {
                        return Err(TooDeep {
                            path: display_path(path),
                            limit: MAX_DEPTH,
                        });
                    }
                    PastLimit::Skip => return Ok(ControlFlow::Continue(())),
                    PastLimit::Leaf => {}
                }
            }
            let own = match (self.enter)(path, map, state) {
                ControlFlow::Break(b) => return Ok(ControlFlow::Break(b)),
                ControlFlow::Continue(None) => return Ok(ControlFlow::Continue(())),
                ControlFlow::Continue(Some(_)) if leaf => return Ok(ControlFlow::Continue(())),
                ControlFlow::Continue(Some(own)) => own,
            };
            let flow = for_each_child(map, |child, sub| {
                let Some(inherited) = (self.inherit)(&own, map, &child) else {
                    return ControlFlow::Continue(());
                };
                let len = path.len();
                child.push_suffix(path);
                let done = self.go(sub, path, depth + 1, inherited);
                path.truncate(len);
                as_flow(done)
            });
            from_flow(flow)
        }
    }
    Walk {
        past_limit,
        enter,
        inherit,
    }
    .go(root, &mut String::new(), 0, state)
}

/// A child's walk as its parent's child callback returns it: an error
/// stops the listing as a `Break` does ([`for_each_child`] knows flows only).
fn as_flow<B, E>(done: Result<ControlFlow<B>, E>) -> ControlFlow<Result<B, E>> {
    match done {
        Ok(ControlFlow::Continue(())) => ControlFlow::Continue(()),
        Ok(ControlFlow::Break(b)) => ControlFlow::Break(Ok(b)),
        Err(e) => ControlFlow::Break(Err(e)),
    }
}

/// [`as_flow`] undone: the listing's flow as the walk's result.
fn from_flow<B, E>(flow: ControlFlow<Result<B, E>>) -> Result<ControlFlow<B>, E> {
    match flow {
        ControlFlow::Continue(()) => Ok(ControlFlow::Continue(())),
        ControlFlow::Break(done) => done.map(ControlFlow::Break),
    }
}

/// Visit every schema object in pre-order with its JSON Pointer (`walk`
/// without state or early stop; past [`MAX_DEPTH`] is [`TooDeep`]).
pub fn visit(root: &Value, f: &mut dyn FnMut(&str, &Map<String, Value>)) -> Result<(), TooDeep> {
    let ControlFlow::Continue(()) = walk::<(), Infallible>(
        root,
        PastLimit::Fail,
        (),
        &mut |path, node, ()| {
            f(path, node);
            ControlFlow::Continue(Some(()))
        },
        &every_child,
    )?;
    Ok(())
}

/// [`visit`] without pointers, until `f` breaks: every schema object in
/// the same pre-order, with its depth (the root is 0). For the callers
/// that never read a pointer (most pre-checks), which then build none.
/// Past [`MAX_DEPTH`] the error is [`visit`]'s (a second walk finds the
/// node's pointer), the callback having seen the same nodes before it.
pub(crate) fn visit_nodes<'a, B>(
    root: &'a Value,
    f: &mut dyn FnMut(usize, &'a Map<String, Value>) -> ControlFlow<B>,
) -> Result<ControlFlow<B>, TooDeep> {
    /// `Break(None)`: a node past [`MAX_DEPTH`].
    fn go<'a, B>(
        v: &'a Value,
        depth: usize,
        f: &mut dyn FnMut(usize, &'a Map<String, Value>) -> ControlFlow<B>,
    ) -> ControlFlow<Option<B>> {
        let Some(map) = v.as_object() else {
            return ControlFlow::Continue(());
        };
        if depth > MAX_DEPTH {
            return ControlFlow::Break(None);
        }
        if let ControlFlow::Break(b) = f(depth, map) {
            return ControlFlow::Break(Some(b));
        }
        for_each_child(map, |_, sub| go(sub, depth + 1, f))
    }
    match go(root, 0, f) {
        ControlFlow::Continue(()) => Ok(ControlFlow::Continue(())),
        ControlFlow::Break(Some(b)) => Ok(ControlFlow::Break(b)),
        ControlFlow::Break(None) => {
            visit(root, &mut |_, _| {})?;
            // Unreachable: `visit` walks the same nodes, so it fails too.
            Ok(ControlFlow::Continue(()))
        }
    }
}

/// A [`search`] callback: the node's pointer (built if read) and the
/// node; `Break` ends the search.
pub(crate) type SearchEnter<'f, 'a, B> =
    dyn FnMut(&NodePath<'_>, &'a Map<String, Value>) -> ControlFlow<B> + 'f;

/// [`walk`]'s pre-order search over the nodes reached through the
/// children `through` accepts (asked before a child's depth is checked;
/// past [`MAX_DEPTH`] is [`TooDeep`]), until `enter` breaks, each node's
/// pointer a [`NodePath`] built only if `enter` reads it: the gates that
/// judge every node name one only when it fails.
pub(crate) fn search<'a, B>(
    root: &'a Value,
    through: &dyn Fn(&Map<String, Value>, &ChildKey) -> bool,
    enter: &mut SearchEnter<'_, 'a, B>,
) -> Result<ControlFlow<B>, TooDeep> {
    fn go<'a, B>(
        v: &'a Value,
        path: &NodePath<'_>,
        depth: usize,
        through: &dyn Fn(&Map<String, Value>, &ChildKey) -> bool,
        enter: &mut SearchEnter<'_, 'a, B>,
    ) -> Result<ControlFlow<B>, TooDeep> {
        let Some(map) = v.as_object() else {
            return Ok(ControlFlow::Continue(()));
        };
        if depth > MAX_DEPTH {
            return Err(TooDeep {
                path: display_path(path),
                limit: MAX_DEPTH,
            });
        }
        if let ControlFlow::Break(b) = enter(path, map) {
            return Ok(ControlFlow::Break(b));
        }
        let flow = for_each_child(map, |key, sub| {
            if !through(map, &key) {
                return ControlFlow::Continue(());
            }
            as_flow(go(sub, &path.child(&key), depth + 1, through, enter))
        });
        from_flow(flow)
    }
    go(root, &NodePath::root(), 0, through, enter)
}

/// Whether some schema object (the root included) satisfies `pred`,
/// given its depth (the root is 0): a pre-order walk that stops at the
/// first. Past [`MAX_DEPTH`] before one is found is [`TooDeep`].
pub(crate) fn any_node(
    root: &Value,
    pred: &dyn Fn(usize, &Map<String, Value>) -> bool,
) -> Result<bool, TooDeep> {
    let found = visit_nodes(root, &mut |depth, node| {
        if pred(depth, node) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok(found.is_break())
}

/// Every schema object with its JSON Pointer, in pre-order; nodes past
/// [`MAX_DEPTH`] are left out (the oracle's rules judge what is in reach).
pub(crate) fn nodes_within_limit(root: &Value) -> Vec<(String, &Map<String, Value>)> {
    nodes_within_limit_through(root, &|_| true)
}

/// [`nodes_within_limit`] through the child positions `through` accepts
/// only: every schema object reached from the root by such steps alone, in
/// the same pre-order, with its JSON Pointer. The same nodes, in the same
/// order, as filtering [`nodes_within_limit`] by those steps, without
/// walking (or building pointers for) the subtrees it leaves out.
pub(crate) fn nodes_within_limit_through<'a>(
    root: &'a Value,
    through: &dyn Fn(&ChildKey) -> bool,
) -> Vec<(String, &'a Map<String, Value>)> {
    let mut out = Vec::new();
    // Skipping never fails.
    let _ = walk::<(), Infallible>(
        root,
        PastLimit::Skip,
        (),
        &mut |path, node, ()| {
            out.push((path.to_owned(), node));
            ControlFlow::Continue(Some(()))
        },
        &|(), _, child| through(child).then_some(()),
    );
    out
}

/// The hooks of the one mutable walk ([`rewrite_with`]). Each node is
/// entered (pre-order), then its children are rewritten, then it is left
/// (post-order); the state a node's `enter` returns is what its children
/// inherit, as in [`walk`]. A node past [`MAX_DEPTH`] is [`TooDeep`].
pub(crate) trait Rewrite {
    /// What a node inherits from its parent (the root: the walk's start).
    type State: Clone;
    /// What a finished node hands back to its parent (see [`Self::KEYWORDS`]).
    type Out;

    /// The child keywords walked, in this order, each followed by
    /// [`Self::after`] with the outcomes of its children (called whether or
    /// not it has any). `None`: every child position in the node's own key
    /// order, and `after` is never called.
    const KEYWORDS: Option<&'static [&'static str]> = None;

    /// Before the children (they are taken from the node as `enter` leaves
    /// it). `Break(out)` finishes the node with `out` (no children, no
    /// `leave`); `Continue(None)` skips the children; `Continue(Some(s))`
    /// walks them with `s`.
    fn enter(
        &mut self,
        path: &NodePath<'_>,
        via: Option<&ChildKey>,
        node: &mut Map<String, Value>,
        inherited: Self::State,
    ) -> ControlFlow<Self::Out, Option<Self::State>>;

    /// The state child `key` inherits, or `None` to leave it out (before
    /// its depth is checked).
    fn inherit(&mut self, state: &Self::State, _key: &ChildKey<'_>) -> Option<Self::State> {
        Some(state.clone())
    }

    /// After the children under `keyword` (only with [`Self::KEYWORDS`]):
    /// their keys and outcomes, in order (those [`Self::reports`] keeps). `Break(out)` finishes the node
    /// with `out` (no further keywords, no `leave`).
    fn after(
        &mut self,
        _path: &NodePath<'_>,
        _node: &mut Map<String, Value>,
        _keyword: &'static str,
        _outs: Vec<(ChildKey<'static>, Self::Out)>,
    ) -> ControlFlow<Self::Out> {
        ControlFlow::Continue(())
    }

    /// Whether a child's outcome goes into [`Self::after`]'s list (every
    /// one, unless overridden): a child whose outcome `after` ignores
    /// need not have its key copied out of the node.
    fn reports(_out: &Self::Out) -> bool {
        true
    }

    /// After the children: the node's outcome for its parent.
    fn leave(
        &mut self,
        path: &NodePath<'_>,
        via: Option<&ChildKey>,
        node: &mut Map<String, Value>,
    ) -> Self::Out;
}

/// Run a [`Rewrite`] over every schema object under `root` (`state` is
/// what the root inherits); the root's outcome, `None` when the root is
/// not an object.
pub(crate) fn rewrite_with<R: Rewrite>(
    root: &mut Value,
    state: R::State,
    r: &mut R,
) -> Result<Option<R::Out>, TooDeep> {
    fn go<R: Rewrite>(
        r: &mut R,
        v: &mut Value,
        via: Option<&ChildKey>,
        path: &NodePath<'_>,
        depth: usize,
        state: R::State,
    ) -> Result<Option<R::Out>, TooDeep> {
        let Some(map) = v.as_object_mut() else {
            return Ok(None);
        };
        if depth > MAX_DEPTH {
            return Err(TooDeep {
                path: display_path(path),
                limit: MAX_DEPTH,
            });
        }
        let own = match r.enter(path, via, map, state) {
            ControlFlow::Break(out) => return Ok(Some(out)),
            ControlFlow::Continue(None) => return Ok(Some(r.leave(path, via, map))),
            ControlFlow::Continue(Some(own)) => own,
        };
        let child = |r: &mut R, key: &ChildKey<'_>, sub: &mut Value| {
            let Some(inherited) = r.inherit(&own, key) else {
                return Ok(None);
            };
            go(r, sub, Some(key), &path.child(key), depth + 1, inherited)
        };
        match R::KEYWORDS {
            None => {
                if let ControlFlow::Break(e) =
                    for_each_child_mut(map, |key, sub| match child(r, &key, sub) {
                        Ok(_) => ControlFlow::Continue(()),
                        Err(e) => ControlFlow::Break(e),
                    })
                {
                    return Err(e);
                }
            }
            Some(keywords) => {
                for keyword in keywords {
                    let mut outs = Vec::new();
                    for (key, sub) in children_under_mut(map, keyword) {
                        if let Some(out) = child(r, &key, sub)?
                            && R::reports(&out)
                        {
                            outs.push((key.into_owned(), out));
                        }
                    }
                    if let ControlFlow::Break(out) = r.after(path, map, keyword, outs) {
                        return Ok(Some(out));
                    }
                }
            }
        }
        Ok(Some(r.leave(path, via, map)))
    }
    go(r, root, None, &NodePath::root(), 0, state)
}

/// A pre-order callback: pointer, the key the node was reached by (`None`
/// at the root), node; `false` skips the node's children.
type PreRewriter<'a> =
    dyn FnMut(&NodePath<'_>, Option<&ChildKey>, &mut Map<String, Value>) -> bool + 'a;
/// A post-order callback (nothing to skip).
type PostRewriter<'a> = dyn FnMut(&NodePath<'_>, Option<&ChildKey>, &mut Map<String, Value>) + 'a;

/// [`Rewrite`] with one pre-order callback.
struct Pre<'f, 'a>(&'f mut PreRewriter<'a>);

impl Rewrite for Pre<'_, '_> {
    type State = ();
    type Out = ();

    fn enter(
        &mut self,
        path: &NodePath<'_>,
        via: Option<&ChildKey>,
        node: &mut Map<String, Value>,
        (): (),
    ) -> ControlFlow<(), Option<()>> {
        ControlFlow::Continue((self.0)(path, via, node).then_some(()))
    }

    fn leave(&mut self, _: &NodePath<'_>, _: Option<&ChildKey>, _: &mut Map<String, Value>) {}
}

/// [`Rewrite`] with one post-order callback.
struct Post<'f, 'a>(&'f mut PostRewriter<'a>);

impl Rewrite for Post<'_, '_> {
    type State = ();
    type Out = ();

    fn enter(
        &mut self,
        _: &NodePath<'_>,
        _: Option<&ChildKey>,
        _: &mut Map<String, Value>,
        (): (),
    ) -> ControlFlow<(), Option<()>> {
        ControlFlow::Continue(Some(()))
    }

    fn leave(
        &mut self,
        path: &NodePath<'_>,
        via: Option<&ChildKey>,
        node: &mut Map<String, Value>,
    ) {
        (self.0)(path, via, node);
    }
}

/// Rewrite every schema object bottom-up (children first, then the node),
/// with its JSON Pointer and the key it was reached by (`None` at the root).
pub(crate) fn rewrite_post_order(
    root: &mut Value,
    f: &mut PostRewriter<'_>,
) -> Result<(), TooDeep> {
    rewrite_with(root, (), &mut Post(f))?;
    Ok(())
}

/// Rewrite every schema object top-down (the node, then the children it has
/// after the callback). Returning `false` from the callback skips the
/// node's children.
pub(crate) fn rewrite_pre_order(
    root: &mut Value,
    f: &mut dyn FnMut(&NodePath<'_>, &mut Map<String, Value>) -> bool,
) -> Result<(), TooDeep> {
    rewrite_with(root, (), &mut Pre(&mut |p, _, m| f(p, m)))?;
    Ok(())
}

/// Rewrite top-down like [`rewrite_pre_order`], but never enter an
/// `if`/`then`/`else`/`not` subschema ([`CONDITIONALS`]): the callback never
/// sees a node at or below one.
pub(crate) fn rewrite_pre_order_outside_conditionals(
    root: &mut Value,
    f: &mut dyn FnMut(&NodePath<'_>, &mut Map<String, Value>) -> bool,
) -> Result<(), TooDeep> {
    rewrite_pre_order_through(root, &|key| !key.is_conditional(), f)
}

/// Rewrite top-down like [`rewrite_pre_order`], entering only the child
/// positions `through` accepts: the callback never sees a node reached
/// through another, nor anything below it.
pub(crate) fn rewrite_pre_order_through(
    root: &mut Value,
    through: &dyn Fn(&ChildKey) -> bool,
    f: &mut dyn FnMut(&NodePath<'_>, &mut Map<String, Value>) -> bool,
) -> Result<(), TooDeep> {
    rewrite_with(
        root,
        (),
        &mut Pre(&mut |p, via, m| {
            if via.is_some_and(|key| !through(key)) {
                return false;
            }
            f(p, m)
        }),
    )?;
    Ok(())
}

/// Keywords whose subschemas apply only when the instance has a named
/// property: conditionals too (`{"dependentSchemas": {"a": S}}` is "if
/// `a` is present, then `S`"). Draft 7's `dependencies` in its schema form.
pub(crate) const DEPENDENT_SCHEMAS: &[&str] = &["dependentSchemas", "dependencies"];

impl ChildKey<'_> {
    /// The child is an `if`/`then`/`else`/`not` subschema.
    pub(crate) fn is_conditional(&self) -> bool {
        matches!(self, Self::Single(k) if CONDITIONALS.contains(k))
    }

    /// The child is a `$defs` or `definitions` entry: a definition, reached
    /// only through `$ref`, so it starts its own nesting count.
    pub(crate) fn is_definition(&self) -> bool {
        matches!(self, Self::Named("$defs" | "definitions", _))
    }

    /// The child is an in-place applicator: it constrains the *same*
    /// instance as its parent (`allOf`/`anyOf`/`oneOf` branches, `not`,
    /// `if`/`then`/`else`, `dependentSchemas`/`dependencies` values), so its
    /// `required` may name properties its parent declares.
    pub(crate) fn is_in_place(&self) -> bool {
        match self {
            Self::Indexed(k, _) => matches!(*k, "allOf" | "anyOf" | "oneOf"),
            Self::Single(k) => matches!(*k, "not" | "if" | "then" | "else"),
            Self::Named(k, _) => matches!(*k, "dependentSchemas" | "dependencies"),
        }
    }
}

/// The node is typed only as numbers (a nullable number included): the
/// documented strict format list is for strings, so a `format` there is an
/// open question, neither stripped nor rejected.
pub(crate) fn numeric_only(node: &Map<String, Value>) -> bool {
    let numeric = |t: &Value| matches!(t.as_str(), Some("number" | "integer"));
    match node.field("type") {
        // `null` beside the numbers (a nullable number) keeps it numeric.
        Some(Value::Array(ts)) => {
            ts.iter().any(numeric) && ts.iter().all(|t| numeric(t) || t == "null")
        }
        Some(t) => numeric(t),
        None => false,
    }
}

/// `type` is exactly the string `name`.
pub(crate) fn has_type(node: &Map<String, Value>, name: &str) -> bool {
    node.field("type").and_then(Value::as_str) == Some(name)
}

/// Remove the entries named in `names` from `map`, keeping the others in
/// their order: one pass over `map` for any number of names (removing them
/// one by one shifts the rest each time, quadratic in a map of thousands
/// of properties).
pub(crate) fn remove_keys(map: &mut Map<String, Value>, names: &[&str]) {
    match names {
        [] => {}
        [name] => {
            map.shift_remove(*name);
        }
        _ => {
            let names: std::collections::HashSet<&str> = names.iter().copied().collect();
            map.retain(|k, _| !names.contains(k.as_str()));
        }
    }
}

/// An object schema: `type: "object"`, or no `type` but `properties`.
pub(crate) fn is_object_schema(node: &Map<String, Value>) -> bool {
    has_type(node, "object") || (!node.has("type") && node.has("properties"))
}

/// Whether `node`'s `required` names `name` ([`required_names`] without
/// the copy: the walks ask it for every property).
pub(crate) fn requires(node: &Map<String, Value>, name: &str) -> bool {
    node.field("required")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|r| r.as_str() == Some(name)))
}

/// The names a node requires, in order (non-strings ignored).
pub(crate) fn required_names(node: &Map<String, Value>) -> Vec<String> {
    node.field("required")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Compact serialization (the byte form every comparison uses).
pub(crate) fn to_bytes(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Whether two values serialize to the same bytes, without serializing
/// them: equal, with object keys in the same order (`Value`'s `==` ignores
/// key order) and floats bit for bit (`0.0 == -0.0`).
pub(crate) fn same_bytes(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && same_bytes(va, vb))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_bytes(a, b))
        }
        (Value::Number(x), Value::Number(y)) => {
            x == y && x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits)
        }
        _ => a == b,
    }
}

/// Insert `key: value` right after `after` (or at the end when `after` is
/// absent); an existing `key` is replaced in place.
pub(crate) fn insert_after(node: &mut Map<String, Value>, after: &str, key: &str, value: Value) {
    if node.has(key) {
        node.insert(key.to_owned(), value);
        return;
    }
    // Shifted in place: rebuilding the map hashed every key again.
    match node.keys().position(|k| k == after) {
        Some(at) => {
            node.shift_insert(at + 1, key.to_owned(), value);
        }
        None => {
            node.insert(key.to_owned(), value);
        }
    }
}

/// Move a tuple `items: [..]` to `prefixItems` where `items` stood (its
/// draft 2020-12 spelling), unless the node already has `prefixItems`;
/// the tuple's length when it moved. `additionalItems` is the caller's.
pub(crate) fn tuple_to_prefix_items(node: &mut Map<String, Value>) -> Option<usize> {
    if node.has("prefixItems") {
        return None;
    }
    let tuple = node.field("items").and_then(Value::as_array)?.clone();
    let n = tuple.len();
    insert_after(node, "items", "prefixItems", Value::Array(tuple));
    node.shift_remove("items");
    Some(n)
}

/// Keywords by the one instance type they constrain.
pub(crate) const KEYWORD_FAMILIES: &[(&str, &[&str])] = &[
    (
        "object",
        &[
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "minProperties",
            "maxProperties",
            "propertyNames",
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
        ],
    ),
    (
        "array",
        &[
            "items",
            "prefixItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "contains",
            "minContains",
            "maxContains",
            "unevaluatedItems",
            "additionalItems",
        ],
    ),
    (
        "string",
        &[
            "minLength",
            "maxLength",
            "pattern",
            "format",
            "contentEncoding",
            "contentMediaType",
        ],
    ),
    (
        "number",
        &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        ],
    ),
];

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
