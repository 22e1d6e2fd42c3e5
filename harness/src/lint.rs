//! `wireshape check`: would these providers reject these tools? For each
//! lane, the tools as a naive client sends them are judged by the oracle;
//! each rejection carries its rule, JSON path, the provider's message, the
//! evidence (recordings with dates and sources, documentation) and what the
//! v1 pipeline would make of it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::lane::Lane;
use crate::oracle::{self, Request, Status};
use crate::pipeline::{Outcome, Pipeline, Profile};
use crate::recording::Recording;
use crate::replay::oracle_tools;
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

fn judge(lane: Lane, tools: &[Tool], as_of: &str) -> Vec<oracle::Rejection> {
    let wire = lane.render_all(tools);
    let decl = oracle_tools(lane, wire.as_array().map_or(&[][..], Vec::as_slice));
    oracle::check(&Request {
        tools_present: true,
        lane,
        tools: &decl,
        tool_choice: None,
        response_format: None,
        as_of,
    })
}

/// Every rejection of `tools` on `lanes`, sorted by (tool index, lane, rule).
pub(crate) fn lint(
    tools: &[Tool],
    lanes: &[Lane],
    recordings: &[Recording],
    as_of: &str,
    v1: &dyn Pipeline,
) -> Vec<LintFinding> {
    let mut out = Vec::new();
    for &lane in lanes {
        let found = judge(lane, tools, as_of);
        if found.is_empty() {
            continue;
        }
        let shaped: Vec<_> = tools.iter().map(|t| v1.shape(lane, t)).collect();
        let shaped_tools: Vec<Tool> = shaped.iter().map(|s| s.tool.clone()).collect();
        let after = judge(lane, &shaped_tools, as_of);
        let has_shaping = !Profile::V1.pass_names(lane).is_empty();
        // What still rejects each tool after v1, formatted once per tool
        // (a tool of 5,001 properties has thousands of findings on both
        // sides), at most STILL_SHOWN lines and a count of the rest.
        let mut still_by_tool: BTreeMap<Option<usize>, Vec<String>> = BTreeMap::new();
        for a in &after {
            let shown = still_by_tool.entry(a.tool).or_default();
            if shown.len() < STILL_SHOWN {
                shown.push(format!("{}: {}", a.rule, a.message));
            }
        }
        for (tool, shown) in &mut still_by_tool {
            let total = after.iter().filter(|a| a.tool == *tool).count();
            if total > shown.len() {
                shown.push(format!("… and {} more", total - shown.len()));
            }
        }
        let rules = oracle::rules_for(lane);
        for r in found {
            let rule = rules.iter().find(|x| x.id == r.rule);
            let still: Vec<String> = still_by_tool.get(&r.tool).cloned().unwrap_or_default();
            let s = r.tool.and_then(|i| shaped.get(i));
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
            out.push(LintFinding {
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
                v1: v1v,
                v1_detail: detail,
            });
        }
    }
    // `Lane` orders by id.
    out.sort_by(|a, b| {
        (a.tool_index, a.lane, &a.rule, &a.path).cmp(&(b.tool_index, b.lane, &b.rule, &b.path))
    });
    out
}
