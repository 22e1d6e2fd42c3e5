//! [`read_report`]: a report directory read back (`cases.json`,
//! `outcomes.json`, `run.json`), as `wireshape report merge` does with
//! shard reports.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use super::data;
use super::files::{CASES_JSON, OUTCOMES_JSON, RUN_JSON, ReportError};
use super::stored::{self, OutcomeIn};
use crate::error::LoadError;
use crate::generate::FuzzSpec;
use crate::lane::Lane;
use crate::outcome::{
    LedgerIssue, LedgerMatch, LedgerUse, RequestOutcome, RunMeta, RunReport, Summary,
};
use crate::semantic::Semantics;

/// Read a report directory back (`cases.json` + `outcomes.json` +
/// `run.json`), as `wireshape report merge` does with shard reports.
pub(crate) fn read_report(dir: &Path) -> Result<(RunReport, RunMeta), ReportError> {
    let cases_path = dir.join(CASES_JSON);
    // The format first: an older report is refused as such, not for the
    // first member it lays out differently.
    let format: FormatOnly = read_json(&cases_path)?;
    check_format(&cases_path, format.format)?;
    let cases: CasesIn = read_json(&cases_path)?;
    let outcomes_path = dir.join(OUTCOMES_JSON);
    let outcomes: OutcomesIn = read_json(&outcomes_path)?;
    check_format(&outcomes_path, outcomes.format)?;
    let meta: RunMeta = read_json(&dir.join(RUN_JSON))?;
    if (&cases.old, &cases.new) != (&outcomes.old, &outcomes.new) {
        return Err(LoadError::Shape {
            path: outcomes_path,
            line: 0,
            column: 0,
            message: format!(
                "`{}` → `{}` does not match cases.json (`{}` → `{}`)",
                outcomes.old, outcomes.new, cases.old, cases.new
            ),
        }
        .into());
    }
    let shape_error = |message: String| LoadError::Shape {
        path: outcomes_path.clone(),
        line: 0,
        column: 0,
        message,
    };
    let mut list = outcomes
        .outcomes
        .into_iter()
        .flat_map(|(lane, lines)| lines.into_iter().map(move |o| (lane, o)))
        .map(|(lane, o)| {
            o.into_outcome(
                lane,
                &outcomes.old,
                &outcomes.new,
                &stored::TablesIn {
                    ledger: &outcomes.ledger,
                    tags: &outcomes.tags,
                    semantics: &outcomes.semantics,
                },
            )
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(shape_error)?;
    data::read_wire_pairs(dir, &mut list)?;
    let plan = stored::plan_in(&cases.lanes, &cases.cases, cases.only);
    let report = RunReport {
        old: outcomes.old,
        new: outcomes.new,
        plan,
        outcomes: list,
        ledger_use: outcomes.ledger_use,
        ledger_issues: outcomes.ledger_issues,
        unusable: outcomes.unusable,
        summary: outcomes.summary,
        sharded: outcomes.sharded,
        fuzz: outcomes.fuzz,
        requests: outcomes.requests,
    };
    Ok((report, meta))
}

/// A report of another format is refused with what this build reads.
fn check_format(path: &Path, format: u32) -> Result<(), ReportError> {
    if format == stored::FORMAT {
        return Ok(());
    }
    let written = if format == 0 {
        "no `format` member (format 1)".to_owned()
    } else {
        format!("format {format}")
    };
    Err(LoadError::Shape {
        path: path.to_owned(),
        line: 0,
        column: 0,
        message: format!(
            "{written}: this wireshape reads report format {}; run it again with this version",
            stored::FORMAT
        ),
    }
    .into())
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ReportError> {
    let bytes = fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_slice(&bytes).map_err(|e| LoadError::from_json(path, &e).into())
}

/// Any report file's `format` member (absent: 0, format 1).
#[derive(Deserialize)]
struct FormatOnly {
    #[serde(default)]
    format: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CasesIn {
    #[serde(rename = "format")]
    _format: u32,
    old: String,
    new: String,
    lanes: Vec<Lane>,
    only: BTreeMap<Lane, Vec<String>>,
    cases: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomesIn {
    #[serde(default)]
    format: u32,
    old: String,
    new: String,
    summary: Summary,
    outcomes: BTreeMap<Lane, Vec<OutcomeIn>>,
    ledger: Vec<Arc<LedgerMatch>>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    semantics: Vec<Arc<Semantics>>,
    ledger_use: Vec<LedgerUse>,
    ledger_issues: Vec<LedgerIssue>,
    unusable: BTreeMap<String, String>,
    #[serde(default)]
    sharded: bool,
    #[serde(default)]
    fuzz: Option<FuzzSpec>,
    #[serde(default)]
    requests: Vec<RequestOutcome>,
}
