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

use std::collections::{BTreeMap, BTreeSet, HashMap};
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
/// Outcomes read back and handed to the report at a time.
const CHUNK: usize = 4096;

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
    /// Outcomes [`each_chunk`](Self::each_chunk) hands over at a time.
    chunk: usize,
}

/// One lane's stored lines: full blocks (on disk, or in memory when the
/// disk refused them) and the block being filled; and the tags and ledger
/// entries of its listed cases (the lane file's tables), as indices.
#[derive(Default)]
struct Blocks {
    full: Vec<Block>,
    open: Vec<u8>,
    listed_tags: BTreeSet<usize>,
    listed_ledger: BTreeSet<usize>,
}

/// What [`Spilled::each_chunk`] calls with each chunk of a lane's
/// outcomes, and whether it is the lane's last.
pub(super) type ChunkFn<'f> = dyn FnMut(&[&CaseOutcome], bool) -> Result<(), ReportError> + 'f;

/// Where one stored line is: its case, its block (`full`'s index, or
/// `full.len()` for the open block) and its bytes within the block.
struct Line {
    case: String,
    block: usize,
    at: usize,
    len: usize,
}

/// Only the case of a stored line.
#[derive(serde::Deserialize)]
struct CaseOf<'a> {
    #[serde(borrow)]
    case: std::borrow::Cow<'a, str>,
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
        Self::with_blocks(old, new, BLOCK, CHUNK)
    }

    /// [`new`](Self::new), each lane's lines going to disk in blocks of
    /// about `block` bytes, and read back `chunk` outcomes at a time.
    pub(crate) fn with_blocks(old: &str, new: &str, block: usize, chunk: usize) -> Self {
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
            chunk: chunk.max(1),
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
    /// they were put), each with its wire pair, handed to `f` a chunk at a
    /// time (with whether it is the lane's last): the lane's stored lines are indexed by case (the
    /// case of each line read, the rest skipped), the index sorted, and
    /// the lines read in that order (they came nearly sorted: each block
    /// is read about once).
    pub(super) fn each_chunk(&self, lane: Lane, f: &mut ChunkFn<'_>) -> Result<(), ReportError> {
        let chunk = self.chunk;
        let failed =
            |e: io::Error| ReportError::Spill(format!("lane {lane}'s outcomes read back: {e}"));
        let Some(blocks) = self.lanes.get(&lane) else {
            return Ok(());
        };
        let mut lines = Vec::new();
        let mut block = 0;
        self.each_block(lane, &mut |bytes| {
            let mut at = 0;
            for line in bytes.split(|&b| b == b'\n') {
                if !line.is_empty() {
                    let case = serde_json::from_slice::<CaseOf<'_>>(line)
                        .map_err(io::Error::other)?
                        .case
                        .into_owned();
                    lines.push(Line {
                        case,
                        block,
                        at,
                        len: line.len(),
                    });
                }
                at += line.len() + 1;
            }
            block += 1;
            Ok(())
        })
        .map_err(failed)?;
        lines.sort_by(|a, b| a.case.cmp(&b.case));
        let tables = TablesIn {
            ledger: &self.ledger,
            tags: &self.tags,
            semantics: &self.semantics,
        };
        // The last two blocks read from disk.
        let mut read: Vec<(usize, Vec<u8>)> = Vec::with_capacity(2);
        let mut outcomes = Vec::with_capacity(chunk.min(lines.len()));
        for (i, line) in lines.iter().enumerate() {
            let bytes: &[u8] = match blocks.full.get(line.block) {
                None => &blocks.open,
                Some(Block::Memory(bytes)) => bytes,
                Some(Block::Disk { at, len }) => {
                    if !read.iter().any(|(b, _)| *b == line.block) {
                        let spill = self.spill.as_ref().ok_or_else(|| {
                            failed(io::Error::other("a block on disk with no file"))
                        })?;
                        if read.len() == 2 {
                            read.remove(0);
                        }
                        read.push((line.block, spill.get(*at, *len).map_err(failed)?));
                    }
                    read.iter()
                        .find(|(b, _)| *b == line.block)
                        .map_or(&[][..], |(_, bytes)| bytes)
                }
            };
            let text = bytes.get(line.at..line.at + line.len).unwrap_or_default();
            let mut back = serde_json::from_slice::<OutcomeIn>(text)
                .map_err(|e| e.to_string())
                .and_then(|o| o.into_outcome(lane, &self.old, &self.new, &tables))
                .map_err(|e| failed(io::Error::other(e)))?;
            if let Some(pair) = self.pairs.get(&(lane, back.case.clone())) {
                back.wire = Some(Box::new(pair.clone()));
            }
            outcomes.push(back);
            let last = i + 1 == lines.len();
            if outcomes.len() == chunk || last {
                f(&outcomes.iter().collect::<Vec<_>>(), last)?;
                outcomes.clear();
            }
        }
        Ok(())
    }

    /// The ledger entries and tags of `lane`'s listed cases (divergent or
    /// failing), each sorted and once: the lane file's tables.
    pub(super) fn listed_tables(&self, lane: Lane) -> (Vec<&LedgerMatch>, Vec<&str>) {
        let Some(blocks) = self.lanes.get(&lane) else {
            return (Vec::new(), Vec::new());
        };
        let mut ledger: Vec<&LedgerMatch> = blocks
            .listed_ledger
            .iter()
            .filter_map(|&i| self.ledger.get(i).map(|m| &**m))
            .collect();
        ledger.sort();
        ledger.dedup();
        let mut tags: Vec<&str> = blocks
            .listed_tags
            .iter()
            .filter_map(|&i| self.tags.get(i).map(String::as_str))
            .collect();
        tags.sort_unstable();
        tags.dedup();
        (ledger, tags)
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
        let tags: Vec<usize> = outcome.tags.iter().map(|t| self.tag(t)).collect();
        let ledger: Vec<usize> = outcome
            .ledger
            .iter()
            .map(|m| self.ledger_match(m))
            .collect();
        let semantic = [&outcome.old, &outcome.new]
            .map(|side| side.semantic.as_ref().map(|s| self.semantic(s)));
        let blocks = self.lanes.entry(outcome.lane).or_default();
        if super::tally::listed(outcome) {
            blocks.listed_tags.extend(&tags);
            blocks.listed_ledger.extend(&ledger);
        }
        let line = OutcomeOut::with(outcome, tags, ledger, semantic);
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
