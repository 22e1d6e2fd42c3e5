//! [`Spilled`]: a run's outcomes written to disk as they finish and read
//! back one lane at a time for the report, so a run's memory does not grow
//! with its cases.
//!
//! Each outcome is kept as its stored line (`outcomes.json`'s form,
//! [`OutcomeOut`]) whose tags, ledger matches and semantic verdicts are
//! indices into tables made in the order they first appear (each tag,
//! entry and verdict held once); the lines of a lane gather in a block
//! that goes to an unnamed temporary file (`spill`) when it is full, and
//! stay in memory when no such file can be made. What every renderer
//! counts is counted as the outcomes arrive ([`Tally`]).

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::sync::Arc;

use super::files::ReportError;
use super::stored::{OutcomeIn, OutcomeOut, TablesIn, semantic_text};
use super::tally::Tally;
use crate::lane::Lane;
use crate::outcome::{CaseOutcome, LedgerMatch, OutcomeSink, WirePair};
use crate::semantic::Semantics;
use crate::spill::Spill;

/// Bytes of stored lines a lane gathers before they go to disk.
const BLOCK: usize = 1 << 20;

/// A run's outcomes, on disk by lane (see the module).
pub(crate) struct Spilled {
    /// The names of the old and new pipelines (the sides' `pipeline`).
    old: String,
    new: String,
    spill: Option<Spill>,
    lanes: BTreeMap<Lane, Blocks>,
    tags: Vec<String>,
    tag_at: HashMap<String, usize>,
    ledger: Vec<Arc<LedgerMatch>>,
    /// By address.
    ledger_at: HashMap<usize, usize>,
    semantics: Vec<Arc<Semantics>>,
    semantic_at: HashMap<String, usize>,
    /// The verdicts of the last outcomes, by address (a tool's outcomes
    /// arrive together and share theirs): each is held, so an address is
    /// never another verdict's while it is here.
    recent: Vec<(Arc<Semantics>, usize)>,
    tally: Tally,
    pairs: BTreeMap<(Lane, String), WirePair>,
    /// Outcomes put.
    count: usize,
    /// Bytes a lane's open block takes before it goes to disk.
    block: usize,
}

/// One lane's stored lines: full blocks (on disk, or in memory when the
/// disk refused them) and the block being filled.
#[derive(Default)]
struct Blocks {
    full: Vec<Block>,
    open: Vec<u8>,
}

enum Block {
    Disk { at: u64, len: usize },
    Memory(Vec<u8>),
}

/// How many verdicts [`Spilled::recent`] keeps.
const RECENT: usize = 64;

impl Spilled {
    /// Outcomes of the pipelines named `old` and `new`, on an unnamed
    /// temporary file (in memory when none can be made).
    pub(crate) fn new(old: &str, new: &str) -> Self {
        Self::with_blocks(old, new, BLOCK)
    }

    /// [`new`](Self::new), each lane's lines going to disk in blocks of
    /// about `block` bytes.
    pub(crate) fn with_blocks(old: &str, new: &str, block: usize) -> Self {
        Self {
            old: old.to_owned(),
            new: new.to_owned(),
            spill: Spill::new(),
            lanes: BTreeMap::new(),
            tags: Vec::new(),
            tag_at: HashMap::new(),
            ledger: Vec::new(),
            ledger_at: HashMap::new(),
            semantics: Vec::new(),
            semantic_at: HashMap::new(),
            recent: Vec::new(),
            tally: Tally::default(),
            pairs: BTreeMap::new(),
            count: 0,
            block,
        }
    }

    /// Blocks on disk, over every lane.
    #[cfg(test)]
    pub(crate) fn blocks_on_disk(&self) -> usize {
        self.lanes
            .values()
            .flat_map(|b| &b.full)
            .filter(|b| matches!(b, Block::Disk { .. }))
            .count()
    }

    /// Outcomes put so far.
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    /// The wire pairs the run made: each goes back on its outcome when the
    /// outcome is read.
    pub(crate) fn set_wire_pairs(&mut self, pairs: BTreeMap<(Lane, String), WirePair>) {
        self.tally.add_wires(pairs.keys());
        self.pairs = pairs;
    }

    /// The failing outcomes so far, sorted by key.
    pub(crate) fn failing(&self) -> Vec<&CaseOutcome> {
        let mut failing: Vec<&CaseOutcome> = self.tally.failing.iter().collect();
        failing.sort_by(|a, b| (a.lane, &a.case).cmp(&(b.lane, &b.case)));
        failing
    }

    /// What the renderers count, so far.
    pub(super) fn tally(&self) -> Tally {
        self.tally.clone()
    }

    /// Every ledger match, tag and semantic verdict of the outcomes so far.
    pub(super) fn tables(&self) -> (Vec<&LedgerMatch>, Vec<&str>, Vec<&Semantics>) {
        let mut ledger: Vec<&LedgerMatch> = self.ledger.iter().map(|m| &**m).collect();
        ledger.sort();
        ledger.dedup();
        let mut tags: Vec<&str> = self.tags.iter().map(String::as_str).collect();
        tags.sort_unstable();
        (ledger, tags, self.semantics.iter().map(|s| &**s).collect())
    }

    /// The tables the stored lines point into, in the order their entries
    /// first came.
    pub(super) fn tables_in_order(&self) -> (&[Arc<LedgerMatch>], &[String], &[Arc<Semantics>]) {
        (&self.ledger, &self.tags, &self.semantics)
    }

    /// The lanes with an outcome, in order.
    pub(super) fn lanes(&self) -> Vec<Lane> {
        self.lanes.keys().copied().collect()
    }

    /// `lane`'s stored lines as a JSON list, one a line, in the order
    /// they were put (what a progress snapshot holds).
    pub(super) fn write_lines(&self, lane: Lane, w: &mut dyn io::Write) -> io::Result<()> {
        w.write_all(b"[")?;
        let mut first = true;
        self.each_block(lane, &mut |bytes| {
            for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                w.write_all(if first { b"\n" } else { b",\n" })?;
                first = false;
                w.write_all(line)?;
            }
            Ok(())
        })?;
        w.write_all(b"\n]")
    }

    /// Each block of `lane`'s stored lines, in the order they were put.
    fn each_block(&self, lane: Lane, f: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        let Some(blocks) = self.lanes.get(&lane) else {
            return Ok(());
        };
        for block in &blocks.full {
            match block {
                Block::Memory(bytes) => f(bytes)?,
                Block::Disk { at, len } => {
                    let spill = self
                        .spill
                        .as_ref()
                        .ok_or_else(|| io::Error::other("a block on disk with no file"))?;
                    f(&spill.get(*at, *len)?)?;
                }
            }
        }
        f(&blocks.open)
    }

    /// `lane`'s outcomes so far, sorted by case (equal cases in the order
    /// they were put), each with its wire pair.
    pub(super) fn lane(&self, lane: Lane) -> Result<Vec<CaseOutcome>, ReportError> {
        let tables = TablesIn {
            ledger: &self.ledger,
            tags: &self.tags,
            semantics: &self.semantics,
        };
        let mut outcomes = Vec::new();
        self.each_block(lane, &mut |bytes| {
            for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                let back = serde_json::from_slice::<OutcomeIn>(line)
                    .map_err(|e| e.to_string())
                    .and_then(|o| o.into_outcome(lane, &self.old, &self.new, &tables))
                    .map_err(io::Error::other)?;
                outcomes.push(back);
            }
            Ok(())
        })
        .map_err(|e| ReportError::Spill(format!("lane {lane}'s outcomes read back: {e}")))?;
        outcomes.sort_by(|a, b| a.case.cmp(&b.case));
        let pairs = self.pairs.range((lane, String::new())..);
        for ((_, case), pair) in pairs.take_while(|((l, _), _)| *l == lane) {
            if let Ok(at) = outcomes.binary_search_by(|o| o.case.as_str().cmp(case)) {
                outcomes[at].wire = Some(Box::new(pair.clone()));
            }
        }
        Ok(outcomes)
    }

    fn tag(&mut self, tag: &str) -> usize {
        if let Some(&i) = self.tag_at.get(tag) {
            return i;
        }
        self.tags.push(tag.to_owned());
        self.tag_at.insert(tag.to_owned(), self.tags.len() - 1);
        self.tags.len() - 1
    }

    fn ledger_match(&mut self, m: &Arc<LedgerMatch>) -> usize {
        let at = Arc::as_ptr(m).addr();
        if let Some(&i) = self.ledger_at.get(&at) {
            return i;
        }
        // Held here, so its address stays its own.
        self.ledger.push(Arc::clone(m));
        self.ledger_at.insert(at, self.ledger.len() - 1);
        self.ledger.len() - 1
    }

    fn semantic(&mut self, s: &Arc<Semantics>) -> usize {
        if let Some((_, i)) = self.recent.iter().find(|(r, _)| Arc::ptr_eq(r, s)) {
            return *i;
        }
        let text = semantic_text(s);
        let i = if let Some(&i) = self.semantic_at.get(&text) {
            i
        } else {
            self.semantics.push(Arc::clone(s));
            self.semantic_at.insert(text, self.semantics.len() - 1);
            self.semantics.len() - 1
        };
        if self.recent.len() == RECENT {
            self.recent.remove(0);
        }
        self.recent.push((Arc::clone(s), i));
        i
    }

    fn store(&mut self, outcome: &CaseOutcome) -> io::Result<()> {
        let tags = outcome.tags.iter().map(|t| self.tag(t)).collect();
        let ledger = outcome
            .ledger
            .iter()
            .map(|m| self.ledger_match(m))
            .collect();
        let semantic = [&outcome.old, &outcome.new]
            .map(|side| side.semantic.as_ref().map(|s| self.semantic(s)));
        let line = OutcomeOut::with(outcome, tags, ledger, semantic);
        let blocks = self.lanes.entry(outcome.lane).or_default();
        serde_json::to_writer(&mut blocks.open, &line)?;
        blocks.open.push(b'\n');
        if blocks.open.len() >= self.block {
            let bytes = std::mem::take(&mut blocks.open);
            let block = match self.spill.as_ref().and_then(|s| s.put(&bytes)) {
                Some(at) => Block::Disk {
                    at,
                    len: bytes.len(),
                },
                None => Block::Memory(bytes),
            };
            blocks.full.push(block);
        }
        Ok(())
    }
}

impl OutcomeSink for Spilled {
    fn put(&mut self, outcome: CaseOutcome) {
        self.tally.add(&outcome);
        self.count += 1;
        // Serializing strings, numbers and JSON values into memory cannot
        // fail.
        let _ = self.store(&outcome);
    }
}
