//! `wireshape matrix`: what is known of each probe construct on each lane,
//! from the recordings and the documented rules. Rows are constructs,
//! columns lanes; a cell is accepted (date, model), rejected (rule,
//! message, date), documented only, unknown, or not asked there.
//!
//! A live probe's answer outranks everything else for its cell; when the
//! oracle does not reproduce it (`replay::reproduces`: the provider
//! retired a rule, or enforces something no rule knows) the cell says so,
//! and `wireshape replay` fails until the rule's dated history agrees.

use serde::Serialize;

use crate::construct::Construct;
use crate::lane::Lane;
use crate::oracle::Status;
use crate::recording::Recording;

/// What a cell knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum State {
    /// A live probe saw the provider accept it.
    Accepted,
    /// A recorded answer (live probe or public report) shows a rejection.
    Rejected,
    /// Only the documentation says it is rejected.
    Documented,
    /// No recording and no rule: nobody knows.
    Unknown,
    /// The construct does not ask about this lane.
    NotAsked,
}

impl State {
    pub(crate) fn id(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::Rejected => "rejected",
            Self::Documented => "documented",
            Self::Unknown => "unknown",
            Self::NotAsked => "not-asked",
        }
    }
}

/// One cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Cell {
    pub state: State,
    /// The rule behind a rejection (or the rule a probe contradicts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The date the answer was observed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The recording the cell rests on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recording: Option<String>,
    /// Set when a probe and the oracle disagree: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disagreement: Option<String>,
}

impl Cell {
    fn bare(state: State) -> Self {
        Self {
            state,
            rule: None,
            message: None,
            date: None,
            model: None,
            recording: None,
            disagreement: None,
        }
    }
}

/// One construct's row.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Row {
    pub construct: String,
    pub asks: String,
    pub cells: Vec<Cell>,
}

/// The whole matrix.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Matrix {
    /// The date rules are judged as of (cells without a probe).
    pub as_of: String,
    pub lanes: Vec<Lane>,
    pub rows: Vec<Row>,
    /// Cells per state, and disagreements.
    pub totals: Totals,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Totals {
    pub accepted: usize,
    pub rejected: usize,
    pub documented: usize,
    pub unknown: usize,
    pub not_asked: usize,
    pub disagreements: usize,
}

/// Build the matrix of `constructs` × `lanes` from `recordings` and the
/// rules as of `as_of`.
pub(crate) fn build(
    constructs: &[Construct],
    lanes: &[Lane],
    recordings: &[Recording],
    as_of: &str,
) -> Matrix {
    let mut totals = Totals::default();
    let rows = constructs
        .iter()
        .map(|c| {
            let cells = lanes
                .iter()
                .map(|&lane| {
                    let cell = cell(c, lane, recordings, as_of);
                    match cell.state {
                        State::Accepted => totals.accepted += 1,
                        State::Rejected => totals.rejected += 1,
                        State::Documented => totals.documented += 1,
                        State::Unknown => totals.unknown += 1,
                        State::NotAsked => totals.not_asked += 1,
                    }
                    totals.disagreements += usize::from(cell.disagreement.is_some());
                    cell
                })
                .collect();
            Row {
                construct: c.id.clone(),
                asks: c.asks.clone(),
                cells,
            }
        })
        .collect();
    Matrix {
        as_of: as_of.to_owned(),
        lanes: lanes.to_vec(),
        rows,
        totals,
    }
}

fn cell(c: &Construct, lane: Lane, recordings: &[Recording], as_of: &str) -> Cell {
    if !c.applies_to(lane) {
        return Cell::bare(State::NotAsked);
    }
    // The newest probe of this construct on this lane (ids break ties).
    let probe = recordings
        .iter()
        .filter(|r| r.construct.as_deref() == Some(&c.id) && r.lane == lane.id())
        .max_by(|a, b| (&a.observed, &a.id).cmp(&(&b.observed, &b.id)));
    if let Some(rec) = probe {
        let accepted = rec.expects_accept();
        return Cell {
            state: if accepted {
                State::Accepted
            } else {
                State::Rejected
            },
            rule: (!rec.rule.starts_with("probe-")).then(|| rec.rule.clone()),
            message: (!accepted).then(|| rec.match_text.clone()),
            date: Some(rec.observed.clone()),
            model: rec.model.clone(),
            recording: Some(format!("{}/{}.json", rec.provider, rec.id)),
            disagreement: crate::replay::reproduces(rec).err(),
        };
    }
    let wire = crate::probe::wire_tools(c, lane);
    let found = crate::probe::oracle_verdict(lane, &wire, as_of);
    let Some(first) = found.first() else {
        return Cell::bare(State::Unknown);
    };
    let rule = crate::oracle::rules_for(lane)
        .into_iter()
        .find(|r| r.id == first.rule);
    let evidence = recordings
        .iter()
        .filter(|r| r.rule == first.rule && !r.expects_accept())
        .max_by(|a, b| (&a.observed, &a.id).cmp(&(&b.observed, &b.id)));
    let recorded = matches!(
        rule.map(|r| r.status),
        Some(Status::Recorded | Status::Probed)
    );
    let state = if recorded && evidence.is_some() {
        State::Rejected
    } else {
        State::Documented
    };
    Cell {
        state,
        rule: Some(first.rule.to_owned()),
        message: Some(first.message.clone()),
        date: evidence
            .map(|r| r.observed.clone())
            .or_else(|| rule.and_then(|r| r.read.or(r.last_seen)).map(str::to_owned)),
        model: None,
        recording: evidence.map(|r| format!("{}/{}.json", r.provider, r.id)),
        disagreement: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn construct(id: &str, schema: &serde_json::Value, lanes: &[&str]) -> Construct {
        serde_json::from_value(json!({
            "id": id, "asks": "?", "lanes": lanes,
            "tools": [{"name": "probe_t", "description": "d", "input_schema": schema}]
        }))
        .unwrap()
    }

    fn committed_recordings() -> Vec<Recording> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings");
        crate::recording::load_recordings(&dir).unwrap()
    }

    #[test]
    fn a_recorded_rule_is_a_rejection_with_its_evidence_and_date() {
        let root_anyof = construct(
            "root-anyof",
            &json!({"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}),
            &[],
        );
        let m = build(
            &[root_anyof],
            &[Lane::AnthropicMessages],
            &committed_recordings(),
            crate::oracle::DEFAULT_AS_OF,
        );
        let cell = &m.rows[0].cells[0];
        assert_eq!(cell.state, State::Rejected);
        assert_eq!(cell.rule.as_deref(), Some("anthropic-root-composition"));
        assert!(
            cell.recording
                .as_deref()
                .unwrap()
                .starts_with("anthropic/anthropic-root-composition-")
        );
        assert!(cell.date.is_some());
        assert_eq!(cell.disagreement, None);
    }

    #[test]
    fn a_clean_tool_nobody_probed_is_unknown_and_another_lanes_construct_is_not_asked() {
        let clean = construct(
            "clean",
            &json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            &["openai-chat"],
        );
        let m = build(
            &[clean],
            &[Lane::OpenaiChat, Lane::Mistral],
            &[],
            crate::oracle::DEFAULT_AS_OF,
        );
        assert_eq!(m.rows[0].cells[0].state, State::Unknown);
        assert_eq!(m.rows[0].cells[1].state, State::NotAsked);
        assert_eq!(
            m.totals,
            Totals {
                unknown: 1,
                not_asked: 1,
                ..Totals::default()
            }
        );
    }
}
