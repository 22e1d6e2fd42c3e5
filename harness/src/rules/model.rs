//! The rules' data model: what a rule is ([`Rule`], [`Status`]), what it
//! sees ([`Request`]), what it finds ([`Finding`]) and what a lane's table
//! answers ([`Rejection`]). Plain data on the floor below the rule files and
//! the oracle; it names nothing above `lane` (no `oracle`, no `rules` file).

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::lane::{Lane, Wire};
use crate::lookup::Lookup;

/// Where a rule's evidence comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Seen as a real provider rejection (a recording exists).
    Recorded,
    /// Stated by the provider's documentation only.
    Documented,
    /// Confirmed by a live probe.
    Probed,
}

impl Status {
    pub fn id(self) -> &'static str {
        match self {
            Self::Recorded => "recorded",
            Self::Documented => "documented",
            Self::Probed => "probed",
        }
    }
}

/// What a rule sees: the request as the wire carries it.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub lane: Lane,
    /// The wire tool objects (on Gemini: the function declarations).
    pub tools: &'a [Value],
    /// Whether the request carries a `tools` member at all (an absent
    /// member and an empty array are different requests).
    pub tools_present: bool,
    pub tool_choice: Option<&'a Value>,
    pub response_format: Option<&'a Value>,
    /// The date the verdict is for (`YYYY-MM-DD`), for rules that changed.
    pub as_of: &'a str,
    /// The schema walks this request's rules share: `check` sets it for
    /// the duration of one check, so a tool's nodes are listed once per
    /// request, not once per rule. Build a request with `None`.
    pub walks: Option<&'a Walks<'a>>,
}

/// Which walk of a tool's schema [`Walks`] keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum WalkKind {
    /// Every schema node within the depth limit.
    All,
    /// The nodes the Gemini `Schema` proto parses.
    Proto,
}

impl WalkKind {
    /// How many kinds there are (each indexes [`Walks`]' lists): the last
    /// one's discriminant and one.
    const COUNT: usize = WalkKind::Proto as usize + 1;
}

/// A schema's nodes in pre-order, each with its JSON Pointer.
pub(crate) type NodeList<'a> = Rc<[(String, &'a Map<String, Value>)]>;

/// A walk that lists a schema's nodes (see [`Walks::of`]).
pub(crate) type Walk = for<'v> fn(&'v Value) -> Vec<(String, &'v Map<String, Value>)>;

/// Which request [`Walks`] are of: its tools' address and count, its lane.
type RequestKey = (usize, usize, Lane);

/// The node lists of one request's tool schemas, made on first use (see
/// [`Request::walks`]). Plain storage: the walks themselves are the rule
/// helpers' (`rules::nodes`).
#[derive(Default)]
pub struct Walks<'a> {
    /// The request the walks are of, and each tool's schema address with
    /// its index.
    /// (Sorted by address: the rules ask for every tool's schema many
    /// times per request, and a binary search beats hashing the address.)
    tools: OnceCell<(RequestKey, Vec<(usize, usize)>)>,
    /// Each tool's walks, by tool index and [`WalkKind`].
    lists: RefCell<Vec<[Option<NodeList<'a>>; WalkKind::COUNT]>>,
}

impl std::fmt::Debug for Walks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Walks")
            .field(
                "lists",
                &self.lists.borrow().iter().flatten().flatten().count(),
            )
            .finish_non_exhaustive()
    }
}

impl<'a> Walks<'a> {
    /// The `kind` walk of `schema` when it is one of `req`'s tool schemas
    /// (the same value, not an equal one): kept from the first call, which
    /// runs `walk` on it. `None` for any other value, and for a request
    /// other than the first one asked about.
    pub(crate) fn of(
        &self,
        req: &Request<'a>,
        schema: &Value,
        kind: WalkKind,
        walk: Walk,
    ) -> Option<NodeList<'a>> {
        let this = (req.tools.as_ptr() as usize, req.tools.len(), req.lane);
        let (of, tools) = self.tools.get_or_init(|| {
            let mut tools: Vec<_> = (0..req.tools.len())
                .filter_map(|i| Some((std::ptr::from_ref(req.schema(i)?) as usize, i)))
                .collect();
            tools.sort_unstable();
            (this, tools)
        });
        if *of != this {
            return None;
        }
        let address = std::ptr::from_ref(schema) as usize;
        let at = tools.binary_search_by_key(&address, |&(a, _)| a).ok()?;
        let i = tools[at].1;
        let own = req.schema(i)?;
        let mut lists = self.lists.borrow_mut();
        if lists.len() <= i {
            lists.resize_with(req.tools.len().max(i + 1), Default::default);
        }
        let list = lists[i][kind as usize].get_or_insert_with(|| Rc::from(walk(own)));
        Some(Rc::clone(list))
    }
}

impl<'a> Request<'a> {
    /// The tool's name on this wire.
    pub fn name(&self, i: usize) -> Option<&str> {
        self.member(i, "name")
    }

    /// A string member of the tool's function object on this wire (the
    /// Chat wire's `function`, Converse's `toolSpec`, else the tool).
    fn member(&self, i: usize, key: &str) -> Option<&str> {
        let t = self.tools.get(i)?;
        match self.lane.wire() {
            Wire::Chat => t.field("function").and_then(|f| f.field(key)),
            Wire::Bedrock => t.field("toolSpec").and_then(|s| s.field(key)),
            _ => t.field(key),
        }
        .and_then(Value::as_str)
    }

    /// The tool's description on this wire (`None` when absent or not a string).
    pub fn description(&self, i: usize) -> Option<&str> {
        self.member(i, "description")
    }

    /// The tool's input schema on this wire (`None` when the member is absent).
    pub fn schema(&self, i: usize) -> Option<&'a Value> {
        self.lane.schema_in(self.tools.get(i)?)
    }

    /// The tool's `strict` flag on this wire.
    pub fn strict(&self, i: usize) -> Option<bool> {
        let t = self.tools.get(i)?;
        let v = match self.lane.wire() {
            Wire::Chat => t.field("function").and_then(|f| f.field("strict")),
            _ => t.field("strict"),
        };
        v.and_then(Value::as_bool)
            .or_else(|| self.lane.strict_by_default().then_some(true))
    }

    /// The pointer of the schema inside the request, as providers print it
    /// (`tools.3.input_schema`, `tools[3].function.parameters`, …).
    pub fn schema_location(&self, i: usize) -> String {
        self.lane.schema_location(i)
    }
}

/// One thing a rule found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The offending tool, when the finding is about one.
    pub tool: Option<usize>,
    /// JSON Pointer inside that tool's schema (`""`: the root or the tool).
    pub path: String,
    /// The message, in the provider's own words (it contains the rule's
    /// recorded `match` text).
    pub message: String,
}

/// One rule of a provider's oracle.
pub struct Rule {
    /// Equal to the `rule` of the recordings that evidence it.
    pub id: &'static str,
    pub lanes: &'static [Lane],
    pub status: Status,
    /// What it rejects, in one line.
    pub summary: &'static str,
    /// Documentation URLs.
    pub docs: &'static [&'static str],
    /// First and last date a rejection was observed (`YYYY-MM-DD`).
    pub first_seen: Option<&'static str>,
    pub last_seen: Option<&'static str>,
    /// The date the documentation in `docs` was read (`YYYY-MM-DD`), for
    /// documented rules built from the provider-facts table (`facts.rs`).
    pub read: Option<&'static str>,
    /// HTTP status the provider answers with.
    pub status_code: u16,
    /// The predicate: every finding in the request.
    pub check: fn(&Request<'_>) -> Vec<Finding>,
}

/// A rule that rejects a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejection {
    pub rule: &'static str,
    pub status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<usize>,
    pub path: String,
    pub message: String,
}

/// Today's date for verdicts without `--as-of`: the newest rule dates.
pub const DEFAULT_AS_OF: &str = "2026-11-30";
