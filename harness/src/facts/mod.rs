//! Provider facts: what each provider's documentation says about tool
//! schemas, as plain data. Bottom layer: it imports nothing from this crate,
//! so passes (which must not consult the oracle that judges them) and the
//! oracle's documented rules (`rules/<provider>.rs`) read the same facts.
//!
//! Every fact carries the documentation URL it was read from and the date
//! it was read ([`READ`]). What no document settles is an [`OpenQuestion`]:
//! recorded as data for a live probe to answer, never guessed either way
//! (no rule rejects it, no pass relies on it being accepted).
//!
//! Sources were read on 2026-12-01 through stored public copies of the
//! pages (see `../shared/research/documented_subsets.md`); the key OpenAI
//! facts (the format list and the `'… is not permitted'` / `'… is not a
//! valid format'` wording) were checked against public reports quoting the
//! API's answers.
//!
//! One file per provider (`openai.rs`, `anthropic.rs`, …); the open
//! questions sit in `questions.rs`; [`KEYWORD_SETS`] and [`LIMITS`] gather
//! every keyword set and limit.

// One module per provider; the other providers document no subset
// (Mistral, Groq tools, Ollama): see the open questions.
mod types;

pub mod anthropic;
pub mod bedrock;
pub mod cerebras;
pub mod deepseek;
pub mod gemini;
pub mod moonshot;
pub mod openai;
mod questions;
pub mod xai;

pub use questions::{OPEN_QUESTIONS, open_question};
pub use types::{KeywordSet, Limit, OpenQuestion, READ};

// ===========================================================================
// The tables.

/// Every documented keyword or value set.
pub static KEYWORD_SETS: &[&KeywordSet] = &[
    &openai::STRICT_FORMATS,
    &openai::STRICT_GENERAL,
    &openai::STRICT_STRING,
    &openai::STRICT_NUMBER,
    &openai::STRICT_OBJECT,
    &openai::STRICT_ARRAY,
    &openai::STRICT_REJECTED,
    &anthropic::STRICT_FORMATS,
    &anthropic::STRICT_UNSUPPORTED,
    &anthropic::STRICT_ARRAY_UNSUPPORTED,
    &gemini::SCHEMA_FIELDS,
    &gemini::SCHEMA_FIELD_ALIASES,
    &gemini::TYPES,
    &gemini::STRING_FORMATS,
    &deepseek::STRICT_FORMATS,
    &deepseek::STRICT_UNSUPPORTED,
    &bedrock::STRICT_FORMATS,
    &xai::ENFORCED_FORMATS,
    &cerebras::STRICT_UNSUPPORTED,
    &moonshot::UNSUPPORTED,
];

/// Every documented limit.
pub static LIMITS: &[&Limit] = &[
    &openai::STRICT_PROPERTIES,
    &openai::STRICT_NESTING,
    &openai::STRICT_STRING_BUDGET,
    &openai::STRICT_ENUM_VALUES,
    &openai::STRICT_LARGE_ENUM,
    &openai::STRICT_ENUM_STRING_BUDGET,
    &openai::NAME_LENGTH,
    &openai::CHAT_TOOLS,
    &anthropic::STRICT_TOOLS,
    &anthropic::STRICT_OPTIONAL,
    &anthropic::STRICT_UNIONS,
    &anthropic::STRICT_MIN_ITEMS_MAX,
    &anthropic::NAME_LENGTH,
    &gemini::NAME_LENGTH,
    &gemini::PARAMETER_NAME_LENGTH,
    &bedrock::NAME_LENGTH,
    &xai::MAX_LENGTH_CEILING,
    &xai::MAX_ITEMS_CEILING,
    &xai::MAX_PROPERTIES_CEILING,
    &cerebras::STRICT_STRING_BUDGET,
    &cerebras::STRICT_NESTING,
    &cerebras::STRICT_PROPERTIES,
    &cerebras::STRICT_ENUM_VALUES,
    &moonshot::TOOLS,
    &moonshot::NAME_LENGTH,
    &moonshot::PROPERTIES,
    &moonshot::NESTING,
    &moonshot::ENUM_VALUES,
];

#[cfg(test)]
mod tests;
