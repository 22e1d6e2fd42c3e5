//! The shapes of a fact: a documented limit, a keyword set, an open question,
//! and the date they were read.

/// The date every fact in this module was read.
pub const READ: &str = "2026-12-01";

/// A documented limit: `value` is the largest accepted quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// Short id (`openai-strict-properties`).
    pub id: &'static str,
    pub provider: &'static str,
    /// Lane ids it applies to.
    pub lanes: &'static [&'static str],
    /// What is counted, in one line.
    pub what: &'static str,
    pub value: usize,
    pub doc: &'static str,
    pub read: &'static str,
}

/// A documented set of keywords or values (closed when `closed`: anything
/// outside it is rejected according to the document).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeywordSet {
    pub id: &'static str,
    pub provider: &'static str,
    pub lanes: &'static [&'static str],
    /// What the set is (`strict string formats`, `Schema proto fields`, …).
    pub what: &'static str,
    pub items: &'static [&'static str],
    /// The document lists these as the only ones allowed.
    pub closed: bool,
    pub doc: &'static str,
    pub read: &'static str,
}

/// Something the documentation leaves open (silent, or contradicting
/// itself or a recording): a probe answers it, no rule guesses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenQuestion {
    /// Stable id (`openai-strict-min-max-length`).
    pub id: &'static str,
    pub provider: &'static str,
    pub lanes: &'static [&'static str],
    pub question: &'static str,
    /// What the sources say (and where they disagree).
    pub known: &'static str,
    pub docs: &'static [&'static str],
    pub read: &'static str,
}
