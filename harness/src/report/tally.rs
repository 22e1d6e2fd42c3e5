//! [`Tally`]: what the report's renderers count of every outcome, added
//! one outcome at a time, so a run whose outcomes wait on disk counts them
//! as they finish.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::lane::Lane;
use crate::outcome::{CaseOutcome, Class, LedgerMatch, LedgerTable};

/// A case `index.html` lists: divergent (not identical) or failing.
pub(super) fn listed(o: &CaseOutcome) -> bool {
    o.class != Class::Identical || o.is_failure()
}

/// What the renderers count of every outcome, added one at a time in any
/// order, and the failing outcomes themselves (few, and every renderer
/// lists them).
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub(super) cases: usize,
    pub(super) lanes: BTreeMap<Lane, [usize; 5]>,
    /// Sorted by (lane, case) once the view is made.
    pub(super) failing: Vec<CaseOutcome>,
    pub(super) violations: usize,
    /// Listed (divergent or failing) cases per lane.
    pub(super) listed: BTreeMap<Lane, usize>,
    /// The cases with a wire pair that do not fail, sorted.
    pub(super) wired: BTreeSet<(Lane, String)>,
    /// Intended and reordered cases grouped by the class of the
    /// `[[divergence]]` entries that declare them ([`Declared`]).
    pub(super) declared: BTreeMap<(String, Lane), Declared>,
}

/// One group of declared divergences: a ledger class on a lane.
#[derive(Debug, Clone)]
pub(super) struct Declared {
    pub(super) cases: usize,
    /// The entries of that class on that lane, sorted.
    pub(super) entries: Vec<Arc<LedgerMatch>>,
}

impl Tally {
    pub(crate) fn add(&mut self, o: &CaseOutcome) {
        self.cases += 1;
        self.lanes.entry(o.lane).or_default()[class_index(o.class)] += 1;
        self.violations += o.violations.len();
        if listed(o) {
            *self.listed.entry(o.lane).or_default() += 1;
        }
        if o.is_failure() {
            self.failing.push(o.clone());
        } else if o.wire.is_some() {
            self.wired.insert((o.lane, o.case.clone()));
        }
        if !matches!(o.class, Class::Intended | Class::Reordered) {
            return;
        }
        // A case counts once per ledger class.
        let mut seen: Vec<&str> = Vec::new();
        for m in o
            .ledger
            .iter()
            .filter(|m| m.table == LedgerTable::Divergence)
        {
            let g = self
                .declared
                .entry((m.class.clone(), o.lane))
                .or_insert_with(|| Declared {
                    cases: 0,
                    entries: Vec::new(),
                });
            if !g.entries.iter().any(|e| **e == **m) {
                g.entries.push(Arc::clone(m));
                g.entries.sort();
            }
            if !seen.contains(&m.class.as_str()) {
                seen.push(&m.class);
                g.cases += 1;
            }
        }
    }

    /// Wire pairs were made for `cases` after their outcomes were added:
    /// those that do not fail join the wired ones (the failing ones get a
    /// detail first anyway).
    pub(crate) fn add_wires<'c>(&mut self, cases: impl Iterator<Item = &'c (Lane, String)>) {
        let failing: BTreeSet<(Lane, &str)> = self
            .failing
            .iter()
            .map(|o| (o.lane, o.case.as_str()))
            .collect();
        let wired: Vec<(Lane, String)> = cases
            .filter(|(lane, case)| !failing.contains(&(*lane, case.as_str())))
            .cloned()
            .collect();
        self.wired.extend(wired);
    }

    /// The failing outcomes sorted by key (stable).
    pub(super) fn sort(&mut self) {
        self.failing
            .sort_by(|a, b| (a.lane, &a.case).cmp(&(b.lane, &b.case)));
    }
}

pub(super) fn class_index(class: Class) -> usize {
    Class::ALL.iter().position(|c| *c == class).unwrap_or(0)
}
