//! [`read_report`]: a report directory read back (`cases.json`,
//! `outcomes.json`, `run.json`), as `wireshape report merge` does with
//! shard reports.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde::Deserialize;

use super::files::{CASES_JSON, OUTCOMES_JSON, RUN_JSON, ReportError};
use crate::error::LoadError;
use crate::generate::FuzzSpec;
use crate::outcome::{
    CaseOutcome, CasePlan, LedgerIssue, LedgerUse, RequestOutcome, RunMeta, RunReport, Summary,
};

/// Read a report directory back (`cases.json` + `outcomes.json` +
/// `run.json`), as `wireshape report merge` does with shard reports.
pub(crate) fn read_report(dir: &Path) -> Result<(RunReport, RunMeta), ReportError> {
    let cases: CasesIn = read_json(&dir.join(CASES_JSON))?;
    let outcomes_path = dir.join(OUTCOMES_JSON);
    let outcomes: OutcomesIn = read_json(&outcomes_path)?;
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
    let report = RunReport {
        old: outcomes.old,
        new: outcomes.new,
        plan: cases.cases,
        outcomes: outcomes.outcomes,
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

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ReportError> {
    let bytes = fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_slice(&bytes).map_err(|e| LoadError::from_json(path, &e).into())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CasesIn {
    old: String,
    new: String,
    cases: Vec<CasePlan>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomesIn {
    old: String,
    new: String,
    summary: Summary,
    outcomes: Vec<CaseOutcome>,
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
