//! The intended-divergence ledger: `<dir>/<lane>.toml`, one
//! `[[divergence]]` table per class of change, each with a reason.
//!
//! Each pipeline pair has its own ledger directory ([`pair_dir`]):
//! `corpus/ledger` for v0 → v1, `corpus/ledger/<old>--<new>` for any other
//! pair (`--ledger` overrides it). A directory or file that does not exist
//! is an empty ledger.
//!
//! A divergent case is *intended* when every one of its change tags (see
//! `diff::change_tags`) is covered by an entry of its lane's file whose
//! `case` glob matches the case id, whose `when` tags are all present, and
//! whose `new_sha256` pin (if any) equals the new output's hash. An entry
//! whose pin no longer matches is *stale*. Entries marked `external = true`
//! apply only to cases from `WIRESHAPE_CORPUS_PATH` catalogs.
//!
//! An entry that covers nothing is *unused* and fails the run, but only in
//! a run over the corpus it was written for ([`RunScope::judges`]):
//! `external = true` entries when an external catalog they can name was
//! loaded (`json-schema-test-suite/*`: one under that directory), other
//! globs (`*`, `?`) when an own catalog was, and an exact case id when its
//! catalog was. Entries for generated cases (`fuzz/…`) are never judged.
//!
//! A new output the lane's oracle rejects fails the run (shaped, failed
//! closed, or a rejection old and new share) unless a `[[rejection]]` entry
//! declares it: its `case` glob matches and its `rules` globs cover every
//! rule that rejects the output (and, with `verdicts`, the case's verdict
//! is one of those; with `failed`, the output failed closed in one of
//! those passes). Each such entry is an accepted risk and carries its
//! reason; unused ones fail the run like divergence entries.
//!
//! A `[[pin]]` entry pins the exact new bytes (sha256 of the rendered wire
//! tool) of the cases its `case` glob matches, and is checked on every such
//! case, byte-identical to the old output or not: a mismatch fails the run
//! naming the case, the expected and the actual hash. A pin that matches no
//! case is unused (fails the run, `external` respected, like every entry).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::LoadError;
use crate::outcome::{LedgerIssue, LedgerMatch, LedgerTable, LedgerUse, PinBreak};
use crate::semantic::NarrowingKind;
use crate::verdict::Verdict as OracleVerdict;

/// One `[[divergence]]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Case id or glob (`*` any run of characters, `?` one character).
    pub case: String,
    /// Short label for the report: the class of change.
    pub class: String,
    /// Why this divergence is intended.
    pub reason: String,
    /// Where the reason comes from (seed rounds, recordings, documents).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    /// Change-tag globs this entry declares; empty declares every tag.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Tags that must all be present for the entry to apply.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<String>,
    /// Applies only to cases from external corpora.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
    /// Pin: the exact new bytes (sha256 of the rendered wire tool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_sha256: Option<String>,
}

/// One `[[rejection]]` entry: new outputs the oracle rejects, accepted as
/// a risk with a reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RejectionEntry {
    /// Case id or glob.
    pub case: String,
    /// Rule-id globs this entry declares; every rule rejecting the output
    /// must be covered by one.
    pub rules: Vec<String>,
    /// Short label for the report: the accepted-risk class.
    pub class: String,
    /// Why shipping a rejected output is accepted.
    pub reason: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    /// Applies only to cases from external corpora.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
    /// Applies only to these verdicts (empty: any rejection).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verdicts: Vec<OracleVerdict>,
    /// Applies only to a new output that failed closed in one of these
    /// passes (pass-name globs, matched against [`Outcome::failed_in`];
    /// empty: any output). A tool that fails closed ships as declared,
    /// every rejection it came with included: the entry names the cause,
    /// and with `failed` it cannot declare the same rules on a tool that
    /// failed closed for another one.
    ///
    /// [`Outcome::failed_in`]: crate::pipeline::Outcome::failed_in
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
}

/// One `[[narrowing]]` or `[[widening]]` entry: new outputs whose meaning
/// differs from the original schema (see `semantic`), declared with a
/// reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SemanticEntry {
    /// Case id or glob.
    pub case: String,
    /// What the entry declares; every kind of the case must be covered.
    /// A narrowing's kinds: `drops-optional`, `closes-objects`,
    /// `ignored-nullable`, `other`.
    /// A silent widening's kinds: the passes that recorded degradations on
    /// the new output (globs), `unrecorded` when none did.
    pub kinds: Vec<String>,
    /// Pass-name globs that must each match a pass that recorded a
    /// degradation on the new output for the entry to apply (what the
    /// pipeline did that causes it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<String>,
    /// Short label for the report.
    pub class: String,
    /// Why shipping this meaning is accepted.
    pub reason: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    /// Applies only to cases from external corpora.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
}

/// One `[[pin]]` entry: the exact new bytes of the cases it matches, with
/// the promise it keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinEntry {
    /// Case id or glob.
    pub case: String,
    /// sha256 of the new rendered wire tool (`outcomes.json`: `new.sha256`).
    pub new_sha256: String,
    /// Which promise the pinned bytes keep.
    pub reason: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    /// Applies only to cases from external corpora.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    divergence: Vec<Entry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rejection: Vec<RejectionEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    narrowing: Vec<SemanticEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    widening: Vec<SemanticEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pin: Vec<PinEntry>,
}

/// The entries of one lane's file.
#[derive(Debug, Clone, Default)]
pub struct LaneLedger {
    /// File name relative to the ledger directory (`<lane>.toml`).
    pub file: String,
    pub entries: Vec<Entry>,
    pub rejections: Vec<RejectionEntry>,
    pub narrowings: Vec<SemanticEntry>,
    pub widenings: Vec<SemanticEntry>,
    pub pins: Vec<PinEntry>,
}

/// The default ledger directory of the pipeline pair `old` → `new` (their
/// `Pipeline::id`s): `corpus/ledger` for v0 → v1, else
/// `corpus/ledger/<old>--<new>`, each side the id itself when it is made of
/// `A-Z a-z 0-9 . _ -` only, else `cmd-` and the first 12 hex digits of the
/// id's sha256 (`cmd:python3 driver.py` → `cmd-` + 12 hex digits).
pub(crate) fn pair_dir(old: &str, new: &str) -> PathBuf {
    let root = PathBuf::from("corpus/ledger");
    if (old, new) == ("v0", "v1") {
        return root;
    }
    let side = |id: &str| {
        let plain = !id.is_empty()
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
        if plain {
            id.to_owned()
        } else {
            format!("cmd-{}", &crate::hash::sha256_hex(id)[..12])
        }
    };
    root.join(format!("{}--{}", side(old), side(new)))
}

/// The catalogs a run loaded (before sharding): which ledger entries it
/// judges, that is, counts and reports unused when they cover nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunScope {
    /// The ids of the own catalogs loaded.
    pub own: BTreeSet<String>,
    /// The ids of the external catalogs (`WIRESHAPE_CORPUS_PATH`) loaded.
    pub external: BTreeSet<String>,
}

impl RunScope {
    /// Whether an entry with this `case` and `external` flag is judged: the
    /// run loaded a catalog it was written for. `external = true`: an
    /// external catalog the entry can name (its id fits `case` up to the
    /// first wildcard: `json-schema-test-suite/*` needs one under
    /// `json-schema-test-suite/`); any other glob (`*`, `?`): an own
    /// catalog; an exact case id `<catalog>#<tool>`: its catalog. Entries
    /// for generated cases (`fuzz/…`) are never judged.
    pub fn judges(&self, case: &str, external: bool) -> bool {
        let literal = &case[..case.find(['*', '?']).unwrap_or(case.len())];
        let names = |id: &String| {
            id.starts_with(literal)
                || literal
                    .strip_prefix(id.as_str())
                    .is_some_and(|tool| tool.starts_with('#'))
        };
        if case.starts_with("fuzz/") {
            false
        } else if external {
            self.external.iter().any(names)
        } else if literal.len() < case.len() {
            !self.own.is_empty()
        } else {
            self.own.iter().chain(&self.external).any(names)
        }
    }
}

/// `*`/`?` glob match over the whole string (`?` is one character).
pub fn glob_match(pattern: &str, text: &str) -> bool {
    if !pattern.contains(['*', '?']) {
        return pattern == text;
    }
    // Byte offsets, always at character boundaries.
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let char_at = |s: &[u8], i: usize| i..i + utf8_len(s[i]);
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        let tc = char_at(t, ti);
        if pi < p.len() && (p[pi] == b'?' || p[char_at(p, pi)] == t[tc.clone()]) {
            pi = char_at(p, pi).end;
            ti = tc.end;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark = char_at(t, mark).end;
            ti = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == b'*' {
        pi += 1;
    }
    pi == p.len()
}

/// The length of the UTF-8 character whose first byte is `first`.
fn utf8_len(first: u8) -> usize {
    match first {
        0xf0.. => 4,
        0xe0.. => 3,
        0xc0.. => 2,
        _ => 1,
    }
}

/// Load `<dir>/<lane>.toml`; a missing file is an empty ledger.
pub fn load_lane(dir: &Path, lane: &str) -> Result<LaneLedger, LoadError> {
    let file = format!("{lane}.toml");
    let path = dir.join(&file);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(LaneLedger {
                file,
                ..LaneLedger::default()
            });
        }
        Err(source) => return Err(LoadError::Io { path, source }),
    };
    let parsed: File = toml::from_str(&text).map_err(|e| LoadError::from_toml(&path, &text, &e))?;
    if let Some((i, what)) = parsed.rejection.iter().enumerate().find_map(|(i, r)| {
        if r.rules.is_empty() {
            Some((i, "`rules` is empty: name the rule ids the entry accepts"))
        } else if r.reason.trim().is_empty() {
            Some((i, "`reason` is empty: an accepted risk needs its reason"))
        } else {
            None
        }
    }) {
        return Err(LoadError::Shape {
            path,
            line: 0,
            column: 0,
            message: format!("[[rejection]] entry {i}: {what}"),
        });
    }
    let semantic = [
        ("narrowing", &parsed.narrowing),
        ("widening", &parsed.widening),
    ];
    if let Some((table, i, what)) = semantic.iter().find_map(|(table, entries)| {
        entries.iter().enumerate().find_map(|(i, e)| {
            let what = if e.kinds.is_empty() {
                "`kinds` is empty: name what the entry declares".to_owned()
            } else if e.reason.trim().is_empty() {
                "`reason` is empty: a declared change of meaning needs its reason".to_owned()
            } else if let Some(k) = e.kinds.iter().find(|k| {
                *table == "narrowing" && !NarrowingKind::ALL.iter().any(|n| n.id() == k.as_str())
            }) {
                format!(
                    "unknown narrowing kind `{k}`, expected one of {}",
                    NarrowingKind::ALL.map(NarrowingKind::id).join(", ")
                )
            } else {
                return None;
            };
            Some((*table, i, what))
        })
    }) {
        return Err(LoadError::Shape {
            path,
            line: 0,
            column: 0,
            message: format!("[[{table}]] entry {i}: {what}"),
        });
    }
    check_pin_entries(&path, &parsed.pin)?;
    Ok(LaneLedger {
        file,
        entries: parsed.divergence,
        rejections: parsed.rejection,
        narrowings: parsed.narrowing,
        widenings: parsed.widening,
        pins: parsed.pin,
    })
}

/// A `[[pin]]` needs a sha256 (64 lowercase hex digits) and a reason.
fn check_pin_entries(path: &Path, pins: &[PinEntry]) -> Result<(), LoadError> {
    let bad = pins.iter().enumerate().find_map(|(i, p)| {
        let hex = p.new_sha256.len() == 64
            && p.new_sha256
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !hex {
            Some((i, "`new_sha256` is not 64 lowercase hex digits"))
        } else if p.reason.trim().is_empty() {
            Some((i, "`reason` is empty: name the promise the pin keeps"))
        } else {
            None
        }
    });
    match bad {
        Some((i, what)) => Err(LoadError::Shape {
            path: path.to_owned(),
            line: 0,
            column: 0,
            message: format!("[[pin]] entry {i}: {what}"),
        }),
        None => Ok(()),
    }
}

/// The ledger's verdict on one divergent case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Every tag covered: the divergence is intended.
    pub intended: bool,
    /// Entries that covered at least one tag (as matches for the report).
    pub matches: Vec<LedgerMatch>,
    /// Indices of entries whose pin did not match this case.
    pub stale: Vec<usize>,
}

impl LaneLedger {
    /// Judge one divergent case.
    pub fn judge(&self, case: &str, external: bool, tags: &[String], new_sha256: &str) -> Verdict {
        let mut v = Verdict::default();
        let mut covered = vec![false; tags.len()];
        for (i, e) in self.entries.iter().enumerate() {
            if (e.external && !external)
                || !glob_match(&e.case, case)
                || !e.when.iter().all(|w| tags.iter().any(|t| glob_match(w, t)))
            {
                continue;
            }
            if let Some(pin) = &e.new_sha256
                && pin != new_sha256
            {
                v.stale.push(i);
                continue;
            }
            let mut used = false;
            for (ti, t) in tags.iter().enumerate() {
                if e.tags.is_empty() || e.tags.iter().any(|p| glob_match(p, t)) {
                    covered[ti] = true;
                    used = true;
                }
            }
            if used {
                v.matches.push(LedgerMatch {
                    file: self.file.clone(),
                    table: LedgerTable::Divergence,
                    index: i,
                    class: e.class.clone(),
                    reason: e.reason.clone(),
                });
            }
        }
        v.intended = !tags.is_empty() && covered.iter().all(|c| *c);
        if !v.intended {
            v.matches.clear();
        }
        v
    }

    /// The `[[rejection]]` entries declaring a new output rejected by
    /// `rules` (`failed_in`: the pass it failed closed in, if it did):
    /// empty unless every rule is covered by a matching entry.
    pub fn judge_rejection(
        &self,
        case: &str,
        external: bool,
        verdict: OracleVerdict,
        failed_in: Option<&str>,
        rules: &[String],
    ) -> Vec<LedgerMatch> {
        let applicable = self.rejections.iter().enumerate().filter(|(_, e)| {
            (external || !e.external)
                && glob_match(&e.case, case)
                && (e.verdicts.is_empty() || e.verdicts.contains(&verdict))
                && (e.failed.is_empty()
                    || failed_in.is_some_and(|p| e.failed.iter().any(|g| glob_match(g, p))))
        });
        let found = covering(applicable.map(|(i, e)| (i, e.rules.as_slice())), rules);
        found
            .into_iter()
            .map(|i| {
                let e = &self.rejections[i];
                self.matched(LedgerTable::Rejection, i, &e.class, &e.reason)
            })
            .collect()
    }

    /// The `[[narrowing]]` (`table` = Narrowing) or `[[widening]]`
    /// entries declaring a new output's change of meaning of `kinds`
    /// (`records`: the passes that recorded degradations on the new output):
    /// empty unless every kind is covered by a matching entry.
    pub fn judge_semantic(
        &self,
        table: LedgerTable,
        case: &str,
        external: bool,
        kinds: &[String],
        records: &[String],
    ) -> Vec<LedgerMatch> {
        let entries = match table {
            LedgerTable::Narrowing => &self.narrowings,
            LedgerTable::Widening => &self.widenings,
            _ => return Vec::new(),
        };
        let applicable = entries.iter().enumerate().filter(|(_, e)| {
            (external || !e.external)
                && glob_match(&e.case, case)
                && e.when
                    .iter()
                    .all(|w| records.iter().any(|r| glob_match(w, r)))
        });
        let found = covering(applicable.map(|(i, e)| (i, e.kinds.as_slice())), kinds);
        found
            .into_iter()
            .map(|i| self.matched(table, i, &entries[i].class, &entries[i].reason))
            .collect()
    }

    /// The `[[pin]]` entries matching `case`, checked against the new
    /// output's hash: a match per pin (held or broken: both count as use)
    /// and a break per pin that does not hold.
    pub fn check_pins(
        &self,
        case: &str,
        external: bool,
        new_sha256: &str,
    ) -> (Vec<LedgerMatch>, Vec<PinBreak>) {
        let mut matches = Vec::new();
        let mut breaks = Vec::new();
        for (i, p) in self.pins.iter().enumerate() {
            if (p.external && !external) || !glob_match(&p.case, case) {
                continue;
            }
            matches.push(LedgerMatch {
                file: self.file.clone(),
                table: LedgerTable::Pin,
                index: i,
                class: p.case.clone(),
                reason: p.reason.clone(),
            });
            if p.new_sha256 != new_sha256 {
                breaks.push(PinBreak {
                    file: self.file.clone(),
                    index: i,
                    expected: p.new_sha256.clone(),
                    actual: new_sha256.to_owned(),
                    message: format!(
                        "ledger pin {}#pin-{i} on {case}: expected new_sha256 {}, got {new_sha256} (pinned: {}); review the new output, then fix the pipeline or update the pin",
                        self.file, p.new_sha256, p.reason
                    ),
                });
            }
        }
        (matches, breaks)
    }

    fn matched(&self, table: LedgerTable, index: usize, class: &str, reason: &str) -> LedgerMatch {
        LedgerMatch {
            file: self.file.clone(),
            table,
            index,
            class: class.to_owned(),
            reason: reason.to_owned(),
        }
    }

    /// Use counts for every entry `scope` judges (see
    /// [`RunScope::judges`]): an entry the run has no corpus for gets no
    /// use count, so it is never unused there. An entry whose `case` glob
    /// names generated cases only (`fuzz/…`) has no use count either:
    /// matches on generated cases never count (a run without `--fuzz` has
    /// none).
    pub fn uses(&self, counts: &MatchCounts<'_>, scope: &RunScope) -> Vec<LedgerUse> {
        let applies = |external: bool, case: &str| scope.judges(case, external);
        let count = |table: LedgerTable, i: usize| counts.get(&self.file, table, i);
        let divergences = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| applies(e.external, &e.case))
            .map(|(i, e)| (LedgerTable::Divergence, i, &e.class));
        let rejections = self
            .rejections
            .iter()
            .enumerate()
            .filter(|(_, e)| applies(e.external, &e.case))
            .map(|(i, e)| (LedgerTable::Rejection, i, &e.class));
        let semantic = [
            (LedgerTable::Narrowing, &self.narrowings),
            (LedgerTable::Widening, &self.widenings),
        ]
        .into_iter()
        .flat_map(|(table, entries)| {
            entries
                .iter()
                .enumerate()
                .filter(|(_, e)| applies(e.external, &e.case))
                .map(move |(i, e)| (table, i, &e.class))
        });
        let pins = self
            .pins
            .iter()
            .enumerate()
            .filter(|(_, p)| applies(p.external, &p.case))
            .map(|(i, p)| (LedgerTable::Pin, i, &p.case));
        divergences
            .chain(rejections)
            .chain(semantic)
            .chain(pins)
            .map(|(table, i, class)| LedgerUse {
                file: self.file.clone(),
                table,
                index: i,
                class: class.clone(),
                uses: count(table, i),
            })
            .collect()
    }

    /// A stale-pin issue for entry `index`.
    pub fn stale_issue(&self, index: usize, case: &str) -> LedgerIssue {
        let e = &self.entries[index];
        LedgerIssue {
            file: self.file.clone(),
            table: LedgerTable::Divergence,
            index,
            class: e.class.clone(),
            kind: crate::outcome::LedgerIssueKind::Stale,
            message: format!(
                "ledger entry {}#{index} ({}) pins new_sha256 that no longer matches {case}: review the new output and update the pin",
                self.file, e.class
            ),
        }
    }
}

/// The entries (index, globs) that cover at least one of `items`, when
/// together they cover every item; empty otherwise (and for no items).
fn covering<'e>(
    entries: impl Iterator<Item = (usize, &'e [String])>,
    items: &[String],
) -> Vec<usize> {
    let mut covered = vec![false; items.len()];
    let mut used = Vec::new();
    for (i, globs) in entries {
        let mut any = false;
        for (n, item) in items.iter().enumerate() {
            if globs.iter().any(|g| glob_match(g, item)) {
                covered[n] = true;
                any = true;
            }
        }
        if any {
            used.push(i);
        }
    }
    if items.is_empty() || !covered.iter().all(|c| *c) {
        used.clear();
    }
    used
}

/// Render entries as TOML `[[divergence]]` tables (for `ledger accept`).
pub(crate) fn to_toml(entries: &[Entry]) -> String {
    let file = File {
        divergence: entries.to_vec(),
        ..File::default()
    };
    toml::to_string(&file).unwrap_or_default()
}

#[cfg(test)]
#[path = "ledger_tests.rs"]
mod tests;

/// How many times each ledger entry matched, by (file, table, index):
/// counted once over a run's matches, so [`LaneLedger::uses`] looks each
/// entry up instead of scanning every match of the run per entry.
#[derive(Debug, Default)]
pub struct MatchCounts<'a>(HashMap<(&'a str, LedgerTable, usize), usize>);

impl<'a> MatchCounts<'a> {
    pub fn of(matches: impl IntoIterator<Item = &'a LedgerMatch>) -> Self {
        let mut counts = HashMap::new();
        for m in matches {
            *counts
                .entry((m.file.as_str(), m.table, m.index))
                .or_default() += 1;
        }
        Self(counts)
    }

    fn get(&self, file: &str, table: LedgerTable, index: usize) -> usize {
        self.0.get(&(file, table, index)).copied().unwrap_or(0)
    }
}
