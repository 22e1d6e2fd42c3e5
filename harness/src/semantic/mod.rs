//! The semantic differential: what a shaped schema lets the model send,
//! compared with what the author's original schema allows, on instances.
//!
//! Byte diffs say that a schema changed; this says what changed for the
//! model. Each tool's instances ([`instances::of`], generated from the
//! original schema only) are judged by the original schema and by the
//! shaped one (both compiled by the `jsonschema` crate, `format` asserted):
//!
//! | class | meaning |
//! |---|---|
//! | `preserved` | the same verdict on every instance |
//! | `widened` | the shaped schema accepts an instance the original rejects (a lost constraint) |
//! | `narrowed` | the shaped schema rejects an instance the original accepts (the model can no longer make that call) |
//! | `unjudged` | a schema cannot be compiled (a remote `$ref`, an invalid keyword value, …), or the original has over 2,000 subschemas |
//!
//! A case that both widens and narrows is `narrowed` (the call the model
//! loses is the worse harm); both witnesses are kept.
//!
//! Translations, so that each side means what its wire means:
//! - **Arguments are an object.** Every wire sends a tool's arguments as a
//!   JSON object, so only object instances are judged (an untyped root
//!   seeds objects).
//! - **Omitted vs null.** Strict modes make optional properties required
//!   and nullable: the model sends `null` for "left out". An instance is
//!   judged by the original with its `null`s at optional, non-nullable
//!   properties removed, and by the shaped schema with each property the
//!   shaped schema requires but the instance lacks filled with `null`.
//! - **OpenAPI `nullable`** (`gemini-openapi`): `nullable: true` on the
//!   shaped side means "or null" (`type` gains `null`, an `enum` gains
//!   `null`). Elsewhere draft 2020-12 ignores it, and so does this check.
//! - **No parameters** (`gemini-openapi`): a declaration shipped without
//!   `parameters` (`null`) takes no arguments, so it accepts `{}` only.
//! - **Undeclared properties.** Closing an object (`additionalProperties:
//!   false`, strict mode) rejects properties the author never declared; a
//!   narrowing seen only on such instances is not counted (a widening is).
//!
//! - **Draft-3 required flags.** An original whose property schemas say
//!   `required: true` (draft 3) is read as draft 3 means it: the parent
//!   requires the property (draft 2020-12 has no boolean `required`).
//! - **Renamed keys.** A root property key the wire refused and the
//!   pipeline renamed (a degradation record with `renamed_to`) is mapped:
//!   the client maps the call's argument back, so a rename alone is not a
//!   change of meaning.
//!
//! The judgement reads the original tool, the shaped tool and the lane;
//! of the pipeline's records it reads only the renames. Whether the model was told is read from
//! the descriptions: `silent` is a widening with no description text the
//! original did not have.

mod class;
pub(crate) mod instances;
mod legacy;
mod original;
mod view;

pub(crate) use class::*;
pub(crate) use original::*;

#[cfg(test)]
mod tests;
