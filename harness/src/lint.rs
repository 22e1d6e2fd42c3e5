//! `wireshape check`: would these providers reject these tools? For each
//! lane, the tools as a naive client sends them are judged by the oracle;
//! each rejection carries its rule, JSON path, the provider's message, the
//! evidence (recordings with dates and sources, documentation) and what the
//! v1 pipeline would make of it.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::lane::Lane;
use crate::oracle::{self, Request, Status};
use crate::pipeline::{Outcome, Pipeline, Profile, Shaped};
use crate::recording::Recording;
use crate::tool::Tool;

/// One recording that evidences a rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Evidence {
    pub id: String,
    pub observed: String,
    pub url: String,
}

/// What v1 makes of a rejected tool on that lane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum V1Verdict {
    /// The v1-shaped tool is accepted.
    Fixed,
    /// v1 ships it unchanged and non-strict by design; the provider still rejects it.
    FailedClosed,
    /// v1 has no shaping for this lane yet.
    NoShaping,
    /// v1 shapes this lane but the provider would still reject the tool.
    StillRejected,
}

/// One rejection of one tool on one lane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct LintFinding {
    pub tool: String,
    pub tool_index: Option<usize>,
    pub lane: Lane,
    pub rule: String,
    pub status: String,
    pub summary: String,
    pub path: String,
    pub message: String,
    pub evidence: Vec<Evidence>,
    pub docs: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_seen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<String>,
    /// When the documentation was read (documented rules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read: Option<String>,
    pub v1: V1Verdict,
    /// What v1 did to the tool (its degradations), or why it still fails.
    pub v1_detail: Vec<String>,
}

/// Lines of "still rejected after v1" shown per finding.
const STILL_SHOWN: usize = 10;

/// The first [`STILL_SHOWN`] degradations, and a count of the rest.
fn capped(records: &[crate::degradation::Degradation]) -> Vec<String> {
    let mut out: Vec<String> = records
        .iter()
        .take(STILL_SHOWN)
        .map(ToString::to_string)
        .collect();
    if records.len() > STILL_SHOWN {
        out.push(format!("… and {} more", records.len() - STILL_SHOWN));
    }
    out
}

/// The oracle's verdict on `rendered`, the tools as [`Lane::render`]
/// puts them on `lane`'s wire: the oracle's view of the tools array they
/// make (Gemini's declarations unwrapped, `oracle_tools`) is these objects
/// themselves, so the array is never built and copied back.
fn judge(lane: Lane, rendered: &[serde_json::Value], as_of: &str) -> Vec<oracle::Rejection> {
    oracle::check(&Request {
        tools_present: true,
        lane,
        tools: rendered,
        tool_choice: None,
        response_format: None,
        walks: None,
        as_of,
    })
}

/// Every rejection of `tools` on `lanes`, sorted by (tool index, lane, rule).
/// The tools are judged in place (each schema moves into its wire object
/// and back), so they are taken: each worker needs a copy of its own, and
/// the one handed in is the first.
pub(crate) fn lint(
    tools: Vec<Tool>,
    lanes: &[Lane],
    recordings: &[Recording],
    as_of: &str,
    v1: &(dyn Pipeline + Sync),
) -> Vec<LintFinding> {
    // One lane per work item, on the available cores; the findings are
    // sorted below, so the order the lanes finish in does not show.
    let mut out = Vec::new();
    if let [lane] = lanes {
        // One lane (`metamorphic` asks one tool at a time): no thread.
        let mut tools = tools;
        out = lint_lane(&mut tools, *lane, recordings, as_of, v1);
    } else {
        let jobs = std::thread::available_parallelism().map_or(1, usize::from);
        // One copy per worker, made before any is judged in, each handed
        // from lane to lane: not a copy per lane.
        let workers = jobs.clamp(1, lanes.len().max(1));
        let mut copies = Vec::with_capacity(workers);
        for _ in 1..workers {
            copies.push(tools.clone());
        }
        copies.push(tools);
        let spare = std::sync::Mutex::new(copies);
        let started = std::sync::atomic::AtomicUsize::new(0);
        let work = |i: usize| {
            started.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            // `scoped` runs at most `workers` jobs at once, each holding one.
            let mut own = spare
                .lock()
                .ok()
                .and_then(|mut s| s.pop())
                .expect("a copy of the tools for each worker");
            let found = lint_lane(&mut own, lanes[i], recordings, as_of, v1);
            // Once every lane has started, no job will ask for a copy again
            // (each running job holds one): this worker drops its own, in
            // parallel with the others, not the calling thread after all.
            if started.load(std::sync::atomic::Ordering::SeqCst) < lanes.len()
                && let Ok(mut spare) = spare.lock()
            {
                spare.push(own);
            }
            found
        };
        crate::workers::scoped("check", jobs, lanes.len(), &work, &mut |_, found| {
            out.extend(found);
        });
    }
    sort(&mut out);
    out
}

/// By tool index, lane (`Lane` orders by id), rule and path.
fn sort(findings: &mut [LintFinding]) {
    findings.sort_by(|a, b| {
        (a.tool_index, a.lane, &a.rule, &a.path).cmp(&(b.tool_index, b.lane, &b.rule, &b.path))
    });
}

/// [`lint`] on one lane, unsorted. Each schema of `tools` moves into its
/// wire object for the judging and back after: the tools are handed back
/// as they came.
fn lint_lane(
    tools: &mut [Tool],
    lane: Lane,
    recordings: &[Recording],
    as_of: &str,
    v1: &dyn Pipeline,
) -> Vec<LintFinding> {
    let rendered: Vec<_> = tools.iter_mut().map(|t| lane.render_taking(t)).collect();
    let found = judge(lane, &rendered, as_of);
    for (wire, tool) in rendered.into_iter().zip(tools.iter_mut()) {
        lane.return_schema(wire, tool);
    }
    let tools = &*tools;
    let mut out = Vec::new();
    if found.is_empty() {
        return out;
    }
    // Only the tools with a finding get a verdict. Where each tool is
    // judged on its own (`oracle::judges_each_tool_alone`), only they are
    // shaped and judged again; every other tool's place in the request is
    // held by `null`, so indices and the tool count stay as they are.
    let about: Option<Vec<bool>> = (oracle::judges_each_tool_alone(lane)
        && found.iter().all(|r| r.tool.is_some()))
    .then(|| {
        let mut about = vec![false; tools.len()];
        for i in found.iter().filter_map(|r| r.tool) {
            if let Some(a) = about.get_mut(i) {
                *a = true;
            }
        }
        about
    });
    let wanted = |i: usize| about.as_ref().is_none_or(|a| a[i]);
    let mut shaped: Vec<Option<Shaped>> = tools
        .iter()
        .enumerate()
        .map(|(i, t)| wanted(i).then(|| v1.shape(lane, t)))
        .collect();
    // Each shaped schema moves into its wire object: below, only the
    // outcomes and records are read.
    let rendered: Vec<_> = shaped
        .iter_mut()
        .map(|s| {
            s.as_mut()
                .map_or(Value::Null, |s| lane.render_taking(&mut s.tool))
        })
        .collect();
    let after = judge(lane, &rendered, as_of);
    drop(rendered);
    let has_shaping = !Profile::V1.pass_names(lane).is_empty();
    // What still rejects each tool after v1, formatted once per tool
    // (a tool of 5,001 properties has thousands of findings on both
    // sides), at most STILL_SHOWN lines and a count of the rest.
    let mut still_by_tool: BTreeMap<Option<usize>, (Vec<String>, usize)> = BTreeMap::new();
    for a in after.iter().filter(|a| a.tool.is_none_or(wanted)) {
        let (shown, total) = still_by_tool.entry(a.tool).or_default();
        if shown.len() < STILL_SHOWN {
            shown.push(format!("{}: {}", a.rule, a.message));
        }
        *total += 1;
    }
    let still_by_tool: BTreeMap<Option<usize>, Vec<String>> = still_by_tool
        .into_iter()
        .map(|(tool, (mut shown, total))| {
            if total > shown.len() {
                shown.push(format!("… and {} more", total - shown.len()));
            }
            (tool, shown)
        })
        .collect();
    let rules = oracle::rules_for(lane);
    let finding = |r: &oracle::Rejection, v1: V1Verdict, v1_detail: Vec<String>| {
        let rule = rules.iter().find(|x| x.id == r.rule);
        LintFinding {
            tool: r
                .tool
                .and_then(|i| tools.get(i))
                .map_or_else(|| "(request)".to_owned(), |t| t.name.clone()),
            tool_index: r.tool,
            lane,
            rule: r.rule.to_owned(),
            status: rule
                .map_or(Status::Documented, |x| x.status)
                .id()
                .to_owned(),
            summary: rule.map(|x| x.summary.to_owned()).unwrap_or_default(),
            path: r.path.clone(),
            message: r.message.clone(),
            evidence: recordings
                .iter()
                .filter(|rec| rec.rule == r.rule)
                .map(|rec| Evidence {
                    id: rec.id.clone(),
                    observed: rec.observed.clone(),
                    url: rec.source.url.clone(),
                })
                .collect(),
            docs: rule
                .map(|x| x.docs.iter().map(|d| (*d).to_owned()).collect())
                .unwrap_or_default(),
            first_seen: rule.and_then(|x| x.first_seen).map(str::to_owned),
            last_seen: rule.and_then(|x| x.last_seen).map(str::to_owned),
            read: rule.and_then(|x| x.read).map(str::to_owned),
            v1,
            v1_detail,
        }
    };
    for r in &found {
        let still: Vec<String> = still_by_tool.get(&r.tool).cloned().unwrap_or_default();
        let s = r.tool.and_then(|i| shaped.get(i)?.as_ref());
        let (v1v, detail) = if still.is_empty() {
            (
                V1Verdict::Fixed,
                s.map(|s| capped(&s.degradations)).unwrap_or_default(),
            )
        } else if let Some(Outcome::FailedClosed { reason }) = s.map(|s| &s.outcome) {
            (V1Verdict::FailedClosed, vec![reason.clone()])
        } else if has_shaping {
            (V1Verdict::StillRejected, still)
        } else {
            (V1Verdict::NoShaping, Vec::new())
        };
        out.push(finding(r, v1v, detail));
    }
    // A rejection of the whole request that only v1's request meets: the
    // provider answered the request as sent with the findings above first
    // (a Gemini parse error hides the validation of the request), and once
    // v1 fixed them, this one stands (more declarations than allowed).
    for a in after.iter().filter(|a| a.tool.is_none()) {
        if !found.iter().any(|r| r.tool.is_none() && r.rule == a.rule) {
            out.push(finding(
                a,
                V1Verdict::StillRejected,
                vec![
                    "met by v1's request once the findings about its tools are fixed (the request as sent is rejected for those first)"
                        .to_owned(),
                ],
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What [`judge`] relies on: on every wire, the oracle's view of the
    /// tools array the rendered tools make is those tools, in order.
    #[test]
    fn the_oracles_view_of_a_rendered_array_is_its_rendered_tools() {
        let tools = [
            Tool::new(
                "a",
                json!({"type": "object", "properties": {"q": {"type": "string"}}}),
            ),
            Tool::new("b", json!({"type": "object"})).with_description("B."),
        ];
        for &lane in Lane::ALL {
            let rendered: Vec<_> = tools.iter().map(|t| lane.render(t)).collect();
            let array = lane.render_all(&tools);
            let view = crate::replay::oracle_tools(lane, array.as_array().unwrap());
            assert_eq!(view, rendered, "{lane}");
        }
    }

    #[test]
    fn findings_are_the_same_on_one_lane_at_a_time_and_all_at_once() {
        let tools = [
            Tool::new("ok", json!({"type": "object", "properties": {}})),
            Tool::new(
                "bad",
                json!({"type": "object", "properties": {"x": {"type": "objekt"}}, "oneOf": [{"required": ["x"]}]}),
            ),
        ];
        let v1 = Profile::V1.with_config(crate::pipeline::PipelineConfig::default());
        let all = lint(tools.to_vec(), Lane::ALL, &[], oracle::DEFAULT_AS_OF, &v1);
        let mut one_by_one: Vec<LintFinding> = Lane::ALL
            .iter()
            .flat_map(|&l| lint(tools.to_vec(), &[l], &[], oracle::DEFAULT_AS_OF, &v1))
            .collect();
        sort(&mut one_by_one);
        assert!(all.len() > 3, "{all:?}");
        assert_eq!(all, one_by_one);
        let lanes: std::collections::BTreeSet<Lane> = all.iter().map(|f| f.lane).collect();
        assert!(lanes.len() > 1, "{lanes:?}");
        assert!(all.windows(2).all(|w| w[0].tool_index <= w[1].tool_index));
    }

    /// The findings about each tool of `wire` on `lane`: in the whole
    /// request, and with every other tool replaced by `null`.
    fn whole_and_alone(lane: Lane, wire: &[Value]) -> (Vec<oracle::Rejection>, usize) {
        let ask = |tools: &[Value]| judge(lane, tools, oracle::DEFAULT_AS_OF);
        let whole = ask(wire);
        let mut differ = 0;
        for i in 0..wire.len() {
            let mut alone = vec![Value::Null; wire.len()];
            alone[i] = wire[i].clone();
            let got: Vec<_> = ask(&alone)
                .into_iter()
                .filter(|r| r.tool == Some(i))
                .collect();
            let want: Vec<_> = whole
                .iter()
                .filter(|r| r.tool == Some(i))
                .cloned()
                .collect();
            differ += usize::from(got != want);
        }
        (whole, differ)
    }

    /// What `oracle::judges_each_tool_alone` promises and `check` relies
    /// on (it shapes and judges again only the tools with a finding), on
    /// the own corpus's catalogs, the recorded rejections' tools and
    /// generated tools, each as sent, strict, and as v1 shapes it: on every
    /// lane it names, each tool's findings in the whole request are its
    /// findings alone. On `gemini-openapi`, which it leaves out, they are
    /// not: a tool that fails to parse hides another's validation findings.
    #[test]
    fn lanes_judging_each_tool_alone_do() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut tools = crate::catalog::own_corpus_tools();
        tools.extend((0..40).map(|i| crate::generate::seeded(11, i)));
        let strict: Vec<Tool> = tools
            .iter()
            .map(|t| Tool {
                strict: Some(true),
                ..t.clone()
            })
            .collect();
        tools.extend(strict);
        let recordings = crate::recording::load_recordings(&root.join("recordings")).unwrap();
        let v1 = Profile::V1.with_config(crate::pipeline::PipelineConfig::default());
        for &lane in Lane::ALL
            .iter()
            .filter(|&&l| oracle::judges_each_tool_alone(l))
        {
            let mut wire: Vec<Value> = tools.iter().map(|t| lane.render(t)).collect();
            wire.extend(tools.iter().map(|t| lane.render(&v1.shape(lane, t).tool)));
            for rec in recordings.iter().filter(|r| r.lane == lane.id()) {
                wire.extend(crate::replay::oracle_tools(lane, &rec.request.tools));
            }
            let (whole, differ) = whole_and_alone(lane, &wire);
            assert_eq!(differ, 0, "{lane}: tools whose findings depend on others");
            if !oracle::rules_for(lane).is_empty() {
                assert!(
                    whole.iter().any(|r| r.tool.is_some()),
                    "{lane}: no finding about a tool to compare"
                );
            }
        }
        // Left out for a reason: `additionalProperties` fails to parse on
        // gemini-openapi, and the other tool's `anyOf` beside a sibling
        // is a validation finding only when every tool parses.
        let lane = Lane::GeminiOpenapi;
        assert!(!oracle::judges_each_tool_alone(lane));
        let wire = [
            Tool::new("a", json!({"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": false})),
            Tool::new("b", json!({"type": "object", "properties": {"y": {"anyOf": [{"type": "string"}], "description": "y"}}})),
        ]
        .iter()
        .map(|t| lane.render(t))
        .collect::<Vec<_>>();
        let (whole, differ) = whole_and_alone(lane, &wire);
        assert_eq!(differ, 1, "{whole:?}");
    }

    #[test]
    fn a_request_limit_only_v1s_request_meets_is_reported_as_still_rejected() {
        // 513 declarations, one with a field the Schema proto lacks: the
        // request as sent fails proto parsing first; v1 strips the field,
        // and its request is then over Gemini's 512 declarations.
        let ok = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let mut tools: Vec<Tool> = (0..513)
            .map(|i| Tool::new(format!("t{i}"), ok.clone()))
            .collect();
        tools[7] = Tool::new(
            "t7",
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false}),
        );
        let v1 = Profile::V1.with_config(crate::pipeline::PipelineConfig::default());
        let found = lint(
            tools,
            &[Lane::GeminiOpenapi],
            &[],
            oracle::DEFAULT_AS_OF,
            &v1,
        );
        let seen: Vec<(&str, &str, &V1Verdict)> = found
            .iter()
            .map(|f| (f.tool.as_str(), f.rule.as_str(), &f.v1))
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "(request)",
                    "gemini-function-declarations-limit",
                    &V1Verdict::StillRejected
                ),
                (
                    "t7",
                    "gemini-unknown-field-additionalproperties",
                    &V1Verdict::Fixed
                ),
            ]
        );
        assert_eq!(
            found[0].v1_detail,
            [
                "met by v1's request once the findings about its tools are fixed (the request as sent is rejected for those first)"
            ]
        );
    }
}
