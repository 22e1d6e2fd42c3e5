//! DeepSeek strict function calling (`deepseek-strict`), seed 002.
//!
//! v0 is one pass (`deepseek-strict-v0`): every object gets
//! `additionalProperties: false` and all its properties required, optional
//! properties gain `nullable: true`, `const` ships as is, every tool is strict.
//!
//! v1 holds the shape to DeepSeek's documented strict subset, one rule per
//! pass, in this order (after `normalize`):
//! 1. `deepseek-strict-unusable`: tools named in the configured
//!    `strict_unusable` list fail closed;
//! 2. `deepseek-pre-gate`: on the shape that will ship (optional
//!    properties excluded), fail closed on a root that is not a JSON object,
//!    schema-form
//!    `dependencies`/`dependentSchemas`, `const: null`, and a root map shape;
//! 3. `deepseek-remove-optionals`: optional properties are removed and listed
//!    in a description note; a removal that empties a root that had
//!    properties fails closed (authored no-argument roots stay strict);
//! 4. `deepseek-const-to-enum`: non-numeric `const` → `enum: [v]`, yielding to
//!    an existing `enum`; `const: null` dropped;
//! 5. `deepseek-widening-strips`: keywords outside the subset whose removal
//!    only widens what the endpoint accepts are stripped and noted;
//! 6. `deepseek-close-objects`: every object requires all its properties and
//!    gets `additionalProperties: false`;
//! 7. `deepseek-post-gate`: fail closed when the shape still needs a null
//!    encoding, a structural or conditional keyword, tuple `items`,
//!    `oneOf`/`allOf`, an emptied nested object, or a typeless map;
//! 8. `deepseek-mark-strict`: `strict: true`.
//!
//! Failing closed ships the tool exactly as it came in, without the flag.

mod gates;
mod post_gate;
mod rewrites;
mod subset;
mod v0;

pub(crate) use gates::*;
pub(crate) use post_gate::*;
pub(crate) use rewrites::*;
pub(crate) use v0::*;

#[cfg(test)]
mod tests;
