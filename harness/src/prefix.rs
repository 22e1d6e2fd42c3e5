//! Whole-request prefix identity: the prompt-cache prefix is the request,
//! not one tool (DESIGN "Case classes and outcomes"; seed 004).
//!
//! For each catalog of a run and each lane, the request a client sends is
//! rendered with the old and with the new pipeline
//! ([`Pipeline::shape_whole_request`], then [`RequestBody::render`]), for
//! each [`RequestKind`] (`turn`, `summary`), and compared byte for byte:
//! - same bytes: `identical`;
//! - the first differing byte inside a tool, same tools in the same order:
//!   `inside-tools` ("differs at byte N, inside tool i (name), judged by its
//!   tool case": the tool case already judges that change, it is not
//!   counted again);
//! - a non-tools member changed and a request-level rule records it:
//!   `recorded`.
//!
//! Failures: `inconsistent-tools` (the new tools array is not the per-tool
//! outputs in catalog order, up to order: request shaping rewrote, added or
//! dropped a tool), `reordered-tools` (old and new send the tools in
//! another order), `unrecorded-member` (a non-tools member changed with no
//! rule recording it), and `kinds-differ` (on the new side, the `summary`
//! request's tools array is not byte-identical to the `turn` request's: the
//! cached prefix differs between kinds; reported on the `summary` request).
//!
//! The per-tool outputs come from the run's own cases where the case is in
//! the run (`differential` hands them over as each catalog's cases finish);
//! a tool whose case is not in this run (another shard, a duplicate name)
//! is shaped here (shaping is deterministic). Catalogs without tools and
//! the generated tools of `--fuzz` (no catalog a client sends together)
//! get no request.

use std::collections::HashMap;

use serde_json::Value;

use crate::diff;
use crate::lane::Lane;
use crate::outcome::{ByteDifference, RequestClass, RequestIssue, RequestOutcome, RequestSide};
use crate::pipeline::Pipeline;
use crate::request::{RequestBody, RequestChange, RequestKind};
use crate::tool::Tool;

/// A tool's old and new rendered outputs, as compact JSON (bytes only: a
/// `Value` takes several times the memory).
#[derive(Debug, Clone)]
pub(crate) struct RenderedPair {
    pub old: String,
    /// `None`: the new output is the old one, byte for byte (held once).
    new: Option<String>,
}

impl RenderedPair {
    /// The pair of `old` and `new` (`None`: the old text again).
    pub(crate) fn new(old: String, new: Option<String>) -> Self {
        Self {
            new: new.filter(|new| *new != old),
            old,
        }
    }

    /// The new output's bytes.
    pub(crate) fn new_text(&self) -> &str {
        self.new.as_deref().unwrap_or(&self.old)
    }
}

/// A [`RenderedPair`] waiting for the rest of its catalog: a catalog's
/// outputs wait until its last case finishes, which for a catalog of a
/// thousand large tools on every lane held over 500 MB of JSON at once
/// (`run --lanes` over the shared corpus). So the pair waits LZ4-compressed
/// (JSON shrinks several times), the new side only when it differs from
/// the old (most cases are identical). The one module that uses `lz4_flex`.
#[derive(Debug, Clone)]
pub(crate) struct HeldPair {
    old: Box<[u8]>,
    /// `None`: the new output is the old one, byte for byte.
    new: Option<Box<[u8]>>,
}

impl HeldPair {
    pub(crate) fn hold(pair: &RenderedPair) -> Self {
        let pack = |s: &str| lz4_flex::compress_prepend_size(s.as_bytes()).into_boxed_slice();
        Self {
            new: pair.new.as_deref().map(pack),
            old: pack(&pair.old),
        }
    }

    /// The pair as rendered. Only bytes [`hold`](Self::hold) compressed
    /// from a `String` come back, so neither step can fail on them; an
    /// impossible failure gives an empty side, which the request
    /// comparison reports as a tool no case rendered.
    pub(crate) fn release(self) -> RenderedPair {
        let unpack = |b: &[u8]| {
            lz4_flex::decompress_size_prepended(b)
                .ok()
                .and_then(|v| String::from_utf8(v).ok())
                .unwrap_or_default()
        };
        RenderedPair {
            old: unpack(&self.old),
            new: self.new.as_deref().map(unpack),
        }
    }
}

/// Where held pairs wait for their requests: an unnamed temporary file
/// ([`crate::spill::unnamed`]: the system removes it when it is closed, a
/// crash too), so
/// a large catalog's outputs on every lane wait on disk, not in memory
/// (the shared corpus's Kubernetes catalog held 130 MB of compressed pairs
/// over 15 lanes when its last tool finished). A pair waits in memory when
/// no temporary file can be made or written. The file is emptied whenever
/// no pair waits in it.
pub(crate) struct HeldStore {
    file: Option<std::fs::File>,
    /// Where the next pair goes.
    end: u64,
    /// Pairs in the file not yet taken back.
    waiting: usize,
    /// A write failed: every later pair waits in memory.
    broken: bool,
}

/// One held pair: in the store's file (where, and its sides' lengths) or
/// in memory.
#[derive(Debug)]
pub(crate) enum Held {
    Memory(HeldPair),
    File {
        at: u64,
        old: usize,
        new: Option<usize>,
    },
}

impl HeldStore {
    /// A store on an unnamed temporary file (in memory if none can be made).
    pub(crate) fn new() -> Self {
        Self {
            file: crate::spill::unnamed(),
            end: 0,
            waiting: 0,
            broken: false,
        }
    }

    /// Keep `pair` until [`take`](Self::take).
    pub(crate) fn put(&mut self, pair: HeldPair) -> Held {
        use std::io::{Seek as _, SeekFrom, Write as _};
        let Some(file) = self.file.as_mut().filter(|_| !self.broken) else {
            return Held::Memory(pair);
        };
        let at = self.end;
        let written = file
            .seek(SeekFrom::Start(at))
            .and_then(|_| file.write_all(&pair.old))
            .and_then(|()| pair.new.as_deref().map_or(Ok(()), |n| file.write_all(n)));
        if written.is_err() {
            self.broken = true;
            return Held::Memory(pair);
        }
        let (old, new) = (pair.old.len(), pair.new.as_ref().map(|n| n.len()));
        self.end += (old + new.unwrap_or(0)) as u64;
        self.waiting += 1;
        Held::File { at, old, new }
    }

    /// The pair `held` stands for. A pair the file does not give back (an
    /// I/O error) comes back empty, and the request comparison reports it
    /// as a tool no case rendered.
    pub(crate) fn take(&mut self, held: Held) -> HeldPair {
        use std::io::{Read as _, Seek as _, SeekFrom};
        let (at, old, new) = match held {
            Held::Memory(pair) => return pair,
            Held::File { at, old, new } => (at, old, new),
        };
        let read = |file: &mut std::fs::File| -> std::io::Result<HeldPair> {
            file.seek(SeekFrom::Start(at))?;
            let mut side = |len: usize| -> std::io::Result<Box<[u8]>> {
                let mut bytes = vec![0; len];
                file.read_exact(&mut bytes)?;
                Ok(bytes.into_boxed_slice())
            };
            let old = side(old)?;
            let new = new.map(&mut side).transpose()?;
            Ok(HeldPair { old, new })
        };
        let pair = self.file.as_mut().map(read);
        self.waiting = self.waiting.saturating_sub(1);
        if self.waiting == 0
            && !self.broken
            && let Some(file) = &self.file
            && file.set_len(0).is_ok()
        {
            self.end = 0;
        }
        match pair {
            Some(Ok(pair)) => pair,
            _ => HeldPair {
                old: Box::new([]),
                new: None,
            },
        }
    }

    /// Bytes in the file (tests).
    #[cfg(test)]
    pub(crate) fn file_len(&self) -> u64 {
        self.end
    }
}

/// Shape and render one tool with both pipelines.
pub(crate) fn render_pair(
    old: &dyn Pipeline,
    new: &dyn Pipeline,
    lane: Lane,
    tool: &Tool,
) -> RenderedPair {
    let one = |p: &dyn Pipeline| crate::schema::to_bytes(&lane.render(&p.shape(lane, tool).tool));
    RenderedPair::new(one(old), Some(one(new)))
}

/// One side's request for one kind.
struct Built {
    body: RequestBody,
    changes: Vec<RequestChange>,
}

fn build(p: &dyn Pipeline, lane: Lane, kind: RequestKind, tools: Vec<Value>) -> Built {
    let shaped = p.shape_whole_request(lane, kind, tools);
    Built {
        body: RequestBody::render(lane, kind, &shaped.parts),
        changes: shaped.changes,
    }
}

/// One side's request for `kind` around the tools' compact texts: with
/// stand-ins and the texts written as they are when the pipeline's
/// request reads no tool ([`Pipeline::requests_count_tools_only`]; the
/// same bytes, test `requests_from_texts_are_the_requests_from_values`),
/// else from the parsed tools (key order preserved).
/// `names`: each text's wire tool name, when the caller has them
/// ([`crate::request::wire_tool_name_in`]; else read here).
fn build_from_texts(
    p: &dyn Pipeline,
    lane: Lane,
    kind: RequestKind,
    texts: &[&str],
    names: Option<&[String]>,
) -> Built {
    if p.requests_count_tools_only() {
        let shaped = p.shape_whole_request(lane, kind, vec![Value::Null; texts.len()]);
        let body = match names {
            Some(names) => RequestBody::render_named_texts(lane, kind, &shaped.parts, texts, names),
            None => RequestBody::render_texts(lane, kind, &shaped.parts, texts),
        };
        if let Some(body) = body {
            return Built {
                body,
                changes: shaped.changes,
            };
        }
    }
    let tools = texts
        .iter()
        .map(|b| serde_json::from_str(b).unwrap_or(Value::Null))
        .collect();
    build(p, lane, kind, tools)
}

/// `same`: the other side's request, when its bytes are `b`'s (its
/// hash is `b`'s too).
fn side(p: &dyn Pipeline, b: &Built, same: Option<&RequestSide>) -> RequestSide {
    RequestSide {
        pipeline: p.id(),
        sha256: same.map_or_else(|| diff::sha256_hex(&b.body.bytes), |s| s.sha256.clone()),
        bytes: b.body.bytes.len(),
        changes: b
            .changes
            .iter()
            .map(|c| format!("{}: {} [{}]", c.member, c.name, c.rule))
            .collect(),
    }
}

/// The first offset where `a` and `b` differ (`None`: equal).
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    if a == b {
        return None;
    }
    Some(
        a.iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len())),
    )
}

/// Where `offset` falls: in the new body if it has that byte and a member
/// there, else in the old one.
fn locate(old: &RequestBody, new: &RequestBody, offset: usize) -> ByteDifference {
    let hit = [new, old]
        .into_iter()
        .filter(|b| offset < b.bytes.len())
        .find_map(|b| b.locate(offset));
    match hit {
        Some((member, tool)) => ByteDifference {
            offset,
            member: member.to_owned(),
            tool_index: tool.map(|(i, _)| i),
            tool: tool.map(|(_, n)| n.to_owned()),
        },
        None => ByteDifference {
            offset,
            member: "structure".to_owned(),
            tool_index: None,
            tool: None,
        },
    }
}

/// For each tool of `body`, the catalog position of the per-tool output
/// with its bytes (duplicates taken in order); `Err(j)`: tool `j` is no
/// per-tool output, or the counts differ (`j` = the shorter count).
fn match_tools(body: &RequestBody, expected: &[&str]) -> Result<Vec<usize>, usize> {
    let sent: Vec<&str> = body.tools.iter().map(|r| &body.bytes[r.clone()]).collect();
    if sent.len() == expected.len() && sent.iter().zip(expected).all(|(a, b)| a == b) {
        return Ok((0..sent.len()).collect());
    }
    let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, b) in expected.iter().enumerate().rev() {
        at.entry(b).or_default().push(i);
    }
    let mut out = Vec::with_capacity(sent.len());
    for (j, s) in sent.iter().enumerate() {
        match at.get_mut(s).and_then(Vec::pop) {
            Some(i) => out.push(i),
            None => return Err(j),
        }
    }
    if out.len() == expected.len() {
        Ok(out)
    } else {
        Err(out.len().min(expected.len()))
    }
}

/// The value bytes of every member rendering a request part but `tools`.
fn part_members(b: &RequestBody) -> Vec<(&'static str, &'static str, &str)> {
    b.members
        .iter()
        .filter_map(|m| {
            m.part
                .filter(|p| *p != "tools")
                .map(|p| (p, m.label, &b.bytes[m.value.clone()]))
        })
        .collect()
}

/// The bytes of `b`'s tools array (at `range`; empty without one).
fn array<'b>(b: &'b RequestBody, range: Option<&std::ops::Range<usize>>) -> &'b [u8] {
    range
        .and_then(|r| b.bytes.as_bytes().get(r.clone()))
        .unwrap_or_default()
}

fn names(order: &[usize], catalog: &[&str]) -> String {
    const SHOWN: usize = 8;
    let mut s: Vec<&str> = order
        .iter()
        .take(SHOWN)
        .map(|&i| catalog.get(i).copied().unwrap_or("?"))
        .collect();
    if order.len() > SHOWN {
        s.push("…");
    }
    format!("[{}]", s.join(", "))
}

/// Compare one catalog's requests on `lane`, every kind. `tools[i]` is
/// catalog tool `i` (named `names[i]`) rendered by both pipelines.
pub(crate) fn compare(
    old: &dyn Pipeline,
    new: &dyn Pipeline,
    lane: Lane,
    catalog: &str,
    names_in_catalog: &[&str],
    tools: &[RenderedPair],
) -> Vec<RequestOutcome> {
    let old_bytes: Vec<&str> = tools.iter().map(|t| t.old.as_str()).collect();
    let new_bytes: Vec<&str> = tools.iter().map(RenderedPair::new_text).collect();
    // Each tool's wire name, read once for every kind's request (when the
    // request is written around the texts; else read from the values).
    let wire_names = |p: &dyn Pipeline, texts: &[&str]| -> Option<Vec<String>> {
        p.requests_count_tools_only().then(|| {
            texts
                .iter()
                .map(|t| crate::request::wire_tool_name_in(lane, t))
                .collect()
        })
    };
    let (old_names, new_names) = (wire_names(old, &old_bytes), wire_names(new, &new_bytes));
    // One kind at a time, its two sides built when it is compared and
    // dropped after (but the new turn request, which the other kinds'
    // tools must equal). A pipeline whose request reads no tool gets its
    // tools' texts written as they are; for any other, the tools are
    // parsed (key order preserved) for the kind's request and dropped once
    // it is rendered. A catalog of a thousand large tools takes a few
    // hundred megabytes as values, and tens as one request's bytes: every
    // side and kind held at once was the run's peak.
    let mut out = Vec::new();
    let mut turn_tools: Option<(RequestBody, Option<std::ops::Range<usize>>)> = None;
    for &kind in RequestKind::ALL {
        let nb = build_from_texts(new, lane, kind, &new_bytes, new_names.as_deref());
        // The new side's tools array must be the same bytes for every kind:
        // checked before the old side is built, so the turn request (kept
        // for it) is dropped first and no more than two requests are held.
        let tools_range = nb.body.tools_member().map(|m| m.value.clone());
        let kinds_differ = turn_tools.take().and_then(|(turn, turn_range)| {
            let (t, s) = (
                array(&turn, turn_range.as_ref()),
                array(&nb.body, tools_range.as_ref()),
            );
            let at = first_difference(t, s)?;
            let in_body = |b: &RequestBody, r: &Option<std::ops::Range<usize>>| {
                let base = r.as_ref().map_or(0, |r| r.start);
                b.tools
                    .iter()
                    .position(|t| t.contains(&(base + at)))
                    .map(|i| (i, b.tool_names[i].clone()))
            };
            let tool = in_body(&nb.body, &tools_range).or_else(|| in_body(&turn, &turn_range));
            let d = ByteDifference {
                offset: at,
                member: nb
                    .body
                    .tools_member()
                    .map_or("tools", |m| m.label)
                    .to_owned(),
                tool_index: tool.as_ref().map(|(i, _)| *i),
                tool: tool.map(|(_, name)| name),
            };
            Some(RequestIssue {
                class: RequestClass::KindsDiffer,
                message: format!(
                    "the new {kind} request's tools array differs from the turn request's at {} of the array: the cached prefix differs between kinds",
                    d.describe()
                ),
                at: Some(d),
            })
        });
        let ob = build_from_texts(old, lane, kind, &old_bytes, old_names.as_deref());
        let difference = first_difference(ob.body.bytes.as_bytes(), nb.body.bytes.as_bytes())
            .map(|at| locate(&ob.body, &nb.body, at));
        let mut issues = Vec::new();
        let recorded = |member: &str| {
            ob.changes
                .iter()
                .chain(&nb.changes)
                .any(|c| c.member == member)
        };
        // The tools: the per-tool outputs, in the same order on both sides.
        let tools_dropped = nb.body.tools_member().is_none() && recorded("tools");
        if !tools_dropped {
            match match_tools(&nb.body, &new_bytes) {
                Err(j) => issues.push(RequestIssue {
                    class: RequestClass::InconsistentTools,
                    message: format!(
                        "the new request's tools array is not the per-tool outputs: it sends {} tools for {} catalog tools, and tool {j} ({}) is no tool case's output; request shaping changed a tool no tool case judges",
                        nb.body.tools.len(),
                        tools.len(),
                        nb.body.tool_names.get(j).map_or("none", String::as_str)
                    ),
                    at: difference.clone(),
                }),
                Ok(new_order) => {
                    if let Ok(old_order) = match_tools(&ob.body, &old_bytes)
                        && old_order != new_order
                    {
                        issues.push(RequestIssue {
                            class: RequestClass::ReorderedTools,
                            message: format!(
                                "tools in another order: old {}, new {}{}",
                                names(&old_order, names_in_catalog),
                                names(&new_order, names_in_catalog),
                                difference
                                    .as_ref()
                                    .map(|d| format!("; differs at {}", d.describe()))
                                    .unwrap_or_default()
                            ),
                            at: difference.clone(),
                        });
                    }
                }
            }
        }
        // Every other member a request part renders.
        let (om, nm) = (part_members(&ob.body), part_members(&nb.body));
        let mut labels: Vec<(&str, &str)> =
            om.iter().chain(&nm).map(|(p, l, _)| (*p, *l)).collect();
        labels.sort_unstable();
        labels.dedup();
        let mut member_changed = tools_dropped;
        for (part, label) in labels {
            let get = |ms: &[(&str, &str, &str)]| {
                ms.iter()
                    .find(|(_, l, _)| *l == label)
                    .map(|(_, _, v)| (*v).to_owned())
            };
            let (a, b) = (get(&om), get(&nm));
            if a == b {
                continue;
            }
            member_changed = true;
            if !recorded(part) {
                let show = |v: Option<String>| v.unwrap_or_else(|| "absent".to_owned());
                issues.push(RequestIssue {
                    class: RequestClass::UnrecordedMember,
                    message: format!(
                        "`{label}` changed (old {}, new {}) and no request-level rule records it",
                        show(a),
                        show(b)
                    ),
                    at: difference.clone(),
                });
            }
        }
        issues.extend(kinds_differ);
        let class = issues.first().map_or_else(
            || {
                if difference.is_none() {
                    RequestClass::Identical
                } else if member_changed {
                    RequestClass::Recorded
                } else {
                    RequestClass::InsideTools
                }
            },
            |i| i.class,
        );
        let old_side = side(old, &ob, None);
        // The same bytes have the same hash.
        let new_side = side(new, &nb, difference.is_none().then_some(&old_side));
        out.push(RequestOutcome {
            lane,
            catalog: catalog.to_owned(),
            kind,
            tools: tools.len(),
            class,
            old: old_side,
            new: new_side,
            difference,
            issues,
        });
        if kind == RequestKind::Turn {
            turn_tools = Some((nb.body, tools_range));
        }
    }
    out
}

#[path = "prefix_held.rs"]
mod held;
pub(crate) use held::HeldRequests;

/// Pipelines the tests of this module and the differential's share.
#[cfg(test)]
pub(crate) mod test_pipelines {
    use serde_json::Value;

    use crate::lane::Lane;
    use crate::pipeline::{BuiltinPipeline, Pipeline, Shaped};
    use crate::request::{RequestKind, ShapedRequest};
    use crate::tool::Tool;

    /// v1, but the `summary` request sends its tools in reverse order: a
    /// client that rebuilds the array for compaction.
    pub(crate) struct ReverseSummary(pub(crate) BuiltinPipeline);

    impl Pipeline for ReverseSummary {
        fn id(&self) -> String {
            "v1-reversed-summary".to_owned()
        }
        fn shape(&self, lane: Lane, tool: &Tool) -> Shaped {
            self.0.shape(lane, tool)
        }
        fn shape_whole_request(
            &self,
            lane: Lane,
            kind: RequestKind,
            mut tools: Vec<Value>,
        ) -> ShapedRequest {
            if kind == RequestKind::Summary {
                tools.reverse();
            }
            crate::pipeline::build_request(&self.0, lane, kind, tools)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{PipelineConfig, Profile, Shaped};
    use crate::request::ShapedRequest;
    use serde_json::json;

    use super::test_pipelines::ReverseSummary;

    fn catalog() -> Vec<Tool> {
        let t = |name: &str| {
            Tool::new(
                name,
                json!({"type": "object", "properties": {"q": {"type": "string"}}}),
            )
        };
        vec![t("alpha"), t("beta"), t("gamma")]
    }

    /// A built-in pipeline's whole request built around stand-ins, with
    /// the tools' texts written as they are, is the request built from the
    /// parsed tools: body bytes, members, each tool's range and name, and
    /// every change, on every lane and kind, for the own corpus's tools and
    /// for none.
    #[test]
    fn requests_from_texts_are_the_requests_from_values() {
        let mut tools = crate::catalog::own_corpus_tools();
        tools.push(Tool::new(
            "odd \"name\" é",
            json!({"type": "object", "properties": {"n": {"type": "number", "minimum": 1.0, "maximum": 1e300, "default": -0.0}}}),
        ));
        assert!(tools.len() > 50, "{} tools", tools.len());
        let (mut built, mut named) = (0, 0);
        for profile in [Profile::V0, Profile::V1, Profile::Verbatim] {
            let p = profile.with_config(PipelineConfig::default());
            assert!(p.requests_count_tools_only());
            for &lane in Lane::ALL {
                let texts: Vec<String> = tools
                    .iter()
                    .map(|t| crate::schema::to_bytes(&lane.render(&p.shape(lane, t).tool)))
                    .collect();
                let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
                for &kind in RequestKind::ALL {
                    for texts in [&texts[..], &[]] {
                        let fast = build_from_texts(&p, lane, kind, texts, None);
                        let values = texts
                            .iter()
                            .map(|t| serde_json::from_str(t).unwrap())
                            .collect();
                        let slow = build(&p, lane, kind, values);
                        let at = format!("{} {lane} {kind} {} tools", p.id(), texts.len());
                        assert_eq!(fast.body, slow.body, "{at}");
                        assert_eq!(fast.changes, slow.changes, "{at}");
                        built += 1;
                        named += fast
                            .body
                            .tool_names
                            .iter()
                            .filter(|n| !n.is_empty())
                            .count();
                    }
                }
            }
        }
        assert_eq!(built, 3 * Lane::ALL.len() * 2 * 2);
        assert_eq!(named, 3 * Lane::ALL.len() * 2 * tools.len());
    }

    fn pair(old: &str, new: &str) -> RenderedPair {
        RenderedPair::new(old.to_owned(), Some(new.to_owned()))
    }

    /// A tool's text that compresses well.
    fn long_tool() -> String {
        format!(r#"{{"name":"é","d":"{}"}}"#, "ab".repeat(5000))
    }

    #[test]
    fn a_held_pair_gives_back_the_bytes_it_was_given() {
        let long = long_tool();
        for (old, new) in [
            (long.as_str(), long.as_str()),
            (long.as_str(), r#"{"name":"é"}"#),
            ("", "{}"),
            ("", ""),
        ] {
            let p = pair(old, new);
            // The new side is kept apart only when it differs.
            assert_eq!(p.new.is_none(), old == new);
            assert_eq!(HeldPair::hold(&p).new.is_none(), old == new);
            let back = HeldPair::hold(&p).release();
            assert_eq!((back.old.as_str(), back.new_text()), (old, new));
        }
        // Held compressed: the repeated text takes a fraction of its bytes.
        let held = HeldPair::hold(&pair(&long, &long));
        assert!(held.old.len() < long.len() / 10, "{} bytes", held.old.len());
    }

    #[test]
    fn the_store_gives_back_each_pair_in_any_order_and_empties_its_file() {
        let long = long_tool();
        let pairs = [
            pair(&long, &long),
            pair(&long, r#"{"name":"é"}"#),
            pair("", "{}"),
            pair("x", "x"),
        ];
        let mut store = HeldStore::new();
        let mut held: Vec<Option<Held>> = pairs
            .iter()
            .map(|p| Some(store.put(HeldPair::hold(p))))
            .collect();
        assert!(
            held.iter()
                .flatten()
                .all(|h| matches!(h, Held::File { .. }))
        );
        let written = store.file_len();
        assert!(written > 0);
        for i in [2, 0, 3] {
            let back = store.take(held[i].take().unwrap()).release();
            assert_eq!(
                (back.old, back.new),
                (pairs[i].old.clone(), pairs[i].new.clone())
            );
            // Emptied only when no pair waits.
            assert_eq!(store.file_len(), written);
        }
        let back = store.take(held[1].take().unwrap()).release();
        assert_eq!(
            (back.old, back.new),
            (pairs[1].old.clone(), pairs[1].new.clone())
        );
        assert_eq!(store.file_len(), 0);
        // The next pair starts the file again.
        let again = store.put(HeldPair::hold(&pairs[2]));
        assert!(matches!(again, Held::File { at: 0, .. }), "{again:?}");
        let back = store.take(again).release();
        assert_eq!(
            (back.old, back.new),
            (pairs[2].old.clone(), pairs[2].new.clone())
        );
        // Without a file, pairs wait in memory.
        let mut memory = HeldStore {
            file: None,
            end: 0,
            waiting: 0,
            broken: false,
        };
        let kept = memory.put(HeldPair::hold(&pairs[1]));
        assert!(matches!(kept, Held::Memory(_)));
        let back = memory.take(kept).release();
        assert_eq!(
            (back.old, back.new),
            (pairs[1].old.clone(), pairs[1].new.clone())
        );
    }

    fn compare_all(
        old: &dyn Pipeline,
        new: &dyn Pipeline,
        lane: Lane,
        c: &[Tool],
    ) -> Vec<RequestOutcome> {
        let tools: Vec<RenderedPair> = c.iter().map(|t| render_pair(old, new, lane, t)).collect();
        let names: Vec<&str> = c.iter().map(|t| t.name.as_str()).collect();
        compare(old, new, lane, "c", &names, &tools)
    }

    fn run(old: &dyn Pipeline, new: &dyn Pipeline, lane: Lane) -> Vec<RequestOutcome> {
        compare_all(old, new, lane, &catalog())
    }

    fn v1() -> crate::pipeline::BuiltinPipeline {
        Profile::V1.with_config(PipelineConfig::default())
    }

    #[test]
    fn v1_against_itself_is_identical_on_every_lane_and_kind() {
        for &lane in Lane::ALL {
            let r = run(&v1(), &v1(), lane);
            assert_eq!(r.len(), 2);
            for o in &r {
                assert_eq!(o.class, RequestClass::Identical, "{}", o.key());
                assert!(o.issues.is_empty() && o.difference.is_none());
                assert_eq!(o.old.sha256, o.new.sha256);
            }
        }
    }

    #[test]
    fn a_summary_that_reverses_the_tools_fails_reordered_tools_and_kinds_differ() {
        let new = ReverseSummary(v1());
        let r = run(&v1(), &new, Lane::AnthropicMessages);
        let turn = &r[0];
        assert_eq!(
            (turn.kind, turn.class),
            (RequestKind::Turn, RequestClass::Identical)
        );
        let summary = &r[1];
        assert_eq!(summary.key(), "anthropic-messages::c@summary");
        assert_eq!(summary.class, RequestClass::ReorderedTools);
        // The bodies agree up to `"tools":[{"name":"` and then send
        // `alpha` (old) and `gamma` (new): byte 343 is the `a`/`g`.
        let d = summary.difference.clone().unwrap();
        assert_eq!(
            (d.offset, d.member.as_str(), d.tool_index, d.tool.as_deref()),
            (343, "tools", Some(0), Some("gamma"))
        );
        let classes: Vec<RequestClass> = summary.issues.iter().map(|i| i.class).collect();
        assert_eq!(
            classes,
            [RequestClass::ReorderedTools, RequestClass::KindsDiffer]
        );
        assert_eq!(
            summary.issues[0].message,
            "tools in another order: old [alpha, beta, gamma], new [gamma, beta, alpha]; differs at byte 343, inside tool 0 (gamma)"
        );
        // Within the tools arrays, turn vs summary first differ at byte 10
        // (`[{"name":"` is 10 bytes), inside the summary's tool 0.
        let k = summary.issues[1].at.clone().unwrap();
        assert_eq!(
            (k.offset, k.tool_index, k.tool.as_deref()),
            (10, Some(0), Some("gamma"))
        );
        assert_eq!(
            summary.issues[1].message,
            "the new summary request's tools array differs from the turn request's at byte 10, inside tool 0 (gamma) of the array: the cached prefix differs between kinds"
        );
    }

    #[test]
    fn the_reported_offset_is_where_the_tools_array_starts_plus_the_name_key() {
        // Independent of the skeleton: recompute the offset from the body.
        let body = RequestBody::render(
            Lane::AnthropicMessages,
            RequestKind::Summary,
            &crate::request::RequestParts {
                tools: Some(vec![Lane::AnthropicMessages.render(&catalog()[0])]),
                tool_choice: RequestKind::Summary.tool_choice(Lane::AnthropicMessages),
                response_format: None,
            },
        );
        let at =
            body.bytes.find("\"tools\":[{\"name\":\"").unwrap() + "\"tools\":[{\"name\":\"".len();
        assert_eq!(at, 343);
        assert_eq!(&body.bytes[at..at + 5], "alpha");
    }

    #[test]
    fn a_tool_choice_no_rule_records_is_an_unrecorded_member() {
        struct ForceChoice(crate::pipeline::BuiltinPipeline);
        impl Pipeline for ForceChoice {
            fn id(&self) -> String {
                "forced".into()
            }
            fn shape(&self, lane: Lane, tool: &Tool) -> Shaped {
                self.0.shape(lane, tool)
            }
            fn shape_whole_request(
                &self,
                lane: Lane,
                kind: RequestKind,
                tools: Vec<Value>,
            ) -> ShapedRequest {
                let mut r = crate::pipeline::build_request(&self.0, lane, kind, tools);
                r.parts.tool_choice = Some(json!("required"));
                r
            }
        }
        let r = run(&v1(), &ForceChoice(v1()), Lane::OpenaiChat);
        assert_eq!(r[0].class, RequestClass::UnrecordedMember);
        assert_eq!(
            r[0].issues[0].message,
            "`tool_choice` changed (old \"auto\", new \"required\") and no request-level rule records it"
        );
        assert_eq!(r[0].difference.as_ref().unwrap().member, "tool_choice");
    }

    #[test]
    fn a_tool_rewritten_by_request_shaping_is_inconsistent() {
        struct DropLast(crate::pipeline::BuiltinPipeline);
        impl Pipeline for DropLast {
            fn id(&self) -> String {
                "drop-last".into()
            }
            fn shape(&self, lane: Lane, tool: &Tool) -> Shaped {
                self.0.shape(lane, tool)
            }
            fn shape_whole_request(
                &self,
                lane: Lane,
                kind: RequestKind,
                mut tools: Vec<Value>,
            ) -> ShapedRequest {
                tools.pop();
                crate::pipeline::build_request(&self.0, lane, kind, tools)
            }
        }
        let r = run(&v1(), &DropLast(v1()), Lane::OpenaiResponses);
        assert_eq!(r[0].class, RequestClass::InconsistentTools);
        assert_eq!(
            r[0].issues[0].message,
            "the new request's tools array is not the per-tool outputs: it sends 2 tools for 3 catalog tools, and tool 2 (none) is no tool case's output; request shaping changed a tool no tool case judges"
        );
    }

    #[test]
    fn a_changed_tool_in_place_differs_inside_tools_only() {
        // v0 → v1 on openai-responses: a lookaround pattern v1 strips.
        let c = vec![
            Tool::new("a", json!({"type": "object"})),
            Tool::new(
                "slug",
                json!({"type":"object","properties":{"s":{"type":"string","pattern":"^(?!-)[a-z-]+$"}}}),
            ),
        ];
        let v0 = Profile::V0.with_config(PipelineConfig::default());
        let r = compare_all(&v0, &v1(), Lane::OpenaiResponses, &c);
        for o in &r {
            assert_eq!(o.class, RequestClass::InsideTools, "{o:?}");
            let d = o.difference.as_ref().unwrap();
            assert_eq!((d.tool_index, d.tool.as_deref()), (Some(1), Some("slug")));
        }
    }
}
