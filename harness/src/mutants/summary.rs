//! The counts of a run ([`MutantsSummary`], per pass [`PassCounts`]), the
//! whole report and its exit status, and the baseline failure.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::judge::{CHECKS, Evidence, MutantOutcome, MutantResult};

/// The counts of a pass's mutants (swaps count under the earlier pass).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PassCounts {
    pub viable: usize,
    pub independent: usize,
    pub examples_only: usize,
    pub missed: usize,
    pub timeout: usize,
}

impl PassCounts {
    /// Viable mutants that no independent evidence noticed.
    pub(crate) fn unseen(&self) -> usize {
        self.viable - self.independent
    }
}

/// The counts of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MutantsSummary {
    pub mutants: usize,
    /// Every mutant but the unviable ones.
    pub viable: usize,
    pub caught: usize,
    /// Caught, and at least one of [`INDEPENDENT_CHECKS`] noticed.
    pub caught_by_independent_evidence: usize,
    /// Caught, but only by `pass-examples` / `pipeline-examples`.
    pub caught_only_by_examples: usize,
    pub missed: usize,
    pub unviable: usize,
    pub timeout: usize,
    /// `caught_by_independent_evidence` in percent of `viable`, one decimal
    /// (`null` when nothing is viable).
    pub independent_percent: Option<f64>,
    /// Per check: how many mutants it noticed (a mutant counts under every
    /// check that noticed it).
    pub noticed_by: BTreeMap<String, usize>,
    /// Per pass name (over lanes).
    pub by_pass: BTreeMap<String, PassCounts>,
}

impl MutantsSummary {
    /// Count `results`.
    pub(crate) fn of(results: &[MutantResult]) -> Self {
        let mut s = Self {
            mutants: results.len(),
            noticed_by: CHECKS.iter().map(|c| ((*c).to_owned(), 0)).collect(),
            ..Self::default()
        };
        for r in results {
            match &r.outcome {
                MutantOutcome::Unviable { .. } => {
                    s.unviable += 1;
                    continue;
                }
                MutantOutcome::Missed => s.missed += 1,
                MutantOutcome::Timeout => s.timeout += 1,
                MutantOutcome::Caught {
                    caught_by,
                    evidence,
                    ..
                } => {
                    s.caught += 1;
                    match evidence {
                        Evidence::Independent => s.caught_by_independent_evidence += 1,
                        Evidence::ExamplesOnly => s.caught_only_by_examples += 1,
                    }
                    for c in caught_by {
                        *s.noticed_by.entry(c.clone()).or_default() += 1;
                    }
                }
            }
            s.viable += 1;
            let p = s.by_pass.entry(r.info.pass.clone()).or_default();
            p.viable += 1;
            match r.outcome.id() {
                "missed" => p.missed += 1,
                "timeout" => p.timeout += 1,
                _ if r.outcome.only_by_examples() => p.examples_only += 1,
                _ => p.independent += 1,
            }
        }
        s.independent_percent = percent(s.caught_by_independent_evidence, s.viable);
        s
    }

    /// Passes with viable mutants that no independent evidence noticed,
    /// most such mutants first (ties by name).
    pub(crate) fn unseen_passes(&self) -> Vec<(&str, &PassCounts)> {
        let mut v: Vec<(&str, &PassCounts)> = self
            .by_pass
            .iter()
            .filter(|(_, c)| c.unseen() > 0)
            .map(|(p, c)| (p.as_str(), c))
            .collect();
        v.sort_by(|a, b| b.1.unseen().cmp(&a.1.unseen()).then(a.0.cmp(b.0)));
        v
    }
}

/// `part` in percent of `whole`, rounded half up to one decimal.
pub(super) fn percent(part: usize, whole: usize) -> Option<f64> {
    if whole == 0 {
        return None;
    }
    let per_mille = (part as u128 * 1000 + whole as u128 / 2) / whole as u128;
    #[allow(clippy::cast_precision_loss)]
    Some(per_mille as f64 / 10.0)
}

/// A whole run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct MutantsReport {
    /// The counts (computed from `results`).
    pub summary: MutantsSummary,
    pub results: Vec<MutantResult>,
    /// Equivalent-list entries whose mutant was caught (the list must not rot).
    pub stale_equivalent: Vec<String>,
}

impl MutantsReport {
    pub(crate) fn count(&self, outcome: &str) -> usize {
        self.results
            .iter()
            .filter(|r| r.outcome.id() == outcome)
            .count()
    }

    /// Missed or timed-out mutants and stale equivalent entries are failures.
    pub(crate) fn exit_status(&self) -> crate::ExitStatus {
        let mut s = crate::ExitStatus::Clean;
        if self.count("missed") > 0 || !self.stale_equivalent.is_empty() {
            s = s.max(crate::ExitStatus::Failures);
        }
        if self.count("timeout") > 0 {
            s = s.max(crate::ExitStatus::Timeout);
        }
        s
    }
}

/// The unmutated pipeline failed the evidence suite.
#[derive(Debug, thiserror::Error)]
#[error("baseline failed: the unmutated pipeline does not pass the evidence suite:\n  {}", .problems.join("\n  "))]
pub(crate) struct BaselineFailed {
    pub problems: Vec<String>,
}
