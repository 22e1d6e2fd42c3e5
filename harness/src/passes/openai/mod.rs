//! v1 on the OpenAI-compatible Chat lanes (`openai-chat`, `openai-strict`,
//! `xai`, `groq`, `cerebras`): every tool passes that lane's oracle, every
//! loss recorded.
//!
//! Each lane gets exactly the passes its oracle asks for (`v0` ships these
//! lanes verbatim, and on `openai-chat` every change is a declared v0 → v1
//! divergence, so nothing else is touched):
//! - `openai-chat` / `openai-strict`: tool names, root compositions and
//!   root assertions, malformed keyword types (`required: null`, a name map
//!   sent as `[]`), non-schema subschemas, arrays without `items`, a root
//!   object without `properties`; then, for strict tools (every tool without
//!   a flag on `openai-strict`), the strict subset: a fallback to non-strict
//!   over the documented limits, property `default`s (Azure; `openai-strict`
//!   only), closed objects, every key required.
//! - `xai`: length and count keywords stripped (noted).
//! - `groq`: malformed keyword types and non-schema subschemas repaired,
//!   `properties: {}` beside a root `required`.
//! - `cerebras`: `minItems`/`maxItems` stripped (noted), strict tools closed
//!   (a strict tool with an `if`/`then`/`else`/`not` subschema is sent
//!   non-strict instead).

mod fallback;
mod floors;
mod gates;
mod keywords;
mod refs;
mod repair;

pub(crate) use fallback::*;
pub(crate) use floors::*;
pub(crate) use gates::*;
pub(crate) use keywords::*;
pub(crate) use refs::*;
pub(crate) use repair::*;

#[cfg(test)]
mod tests;
