//! How much a pass may grow a tool: the one budget the passes that copy
//! subschemas (`gemini-anyof-only`, `gemini-inline-refs`,
//! `strict-inline-ref-siblings`) share, each counting its own growth.

/// Bytes a pass may add to a tool whose schema is `own` bytes
/// (compact JSON): [`GROWTH_FACTOR`] times its own size, at least
/// [`GROWTH_FLOOR`], at most [`GROWTH_CAP`]. No provider documents a size
/// limit for one tool's schema that this reaches (Gemini says only that
/// "very large or deeply nested schemas may be rejected"). A fixed 1 MiB
/// let a 140-byte tool nested 12 levels grow to a megabyte (such inputs
/// took 86% of the `shape_never_silent` fuzz target's time); the growth
/// now scales with the tool. The largest growth among the shared corpus's
/// 14,142 tools on `gemini-openapi` is 55 times the tool's own size
/// (12,556 → 704,310 bytes shaped), and every one of them shapes to the
/// same bytes as under the fixed 1 MiB budget.
pub(crate) fn growth_budget(own: usize) -> usize {
    own.saturating_mul(GROWTH_FACTOR)
        .clamp(GROWTH_FLOOR, GROWTH_CAP)
}

/// [`growth_budget`]: how many times its own size a tool may grow.
pub(crate) const GROWTH_FACTOR: usize = 64;
/// [`growth_budget`]: what any tool may grow by.
pub(crate) const GROWTH_FLOOR: usize = 64 << 10;
/// [`growth_budget`]: what no tool grows past.
pub(crate) const GROWTH_CAP: usize = 1 << 20;

/// The compact size of `schema`, counted only as far as the budget needs:
/// a tool of `GROWTH_CAP / GROWTH_FACTOR` bytes or more gets the cap.
pub(crate) fn own_size(schema: &serde_json::Value) -> usize {
    crate::json_len::byte_len_up_to(schema, GROWTH_CAP.div_ceil(GROWTH_FACTOR))
}
