//! `narrow-root-composition`: v1's first-party Anthropic pass (seed 000),
//! narrowed to exactly the recorded rejection
//! (`input_schema does not support oneOf, allOf, or anyOf at the top level`).
//!
//! On a normalized schema:
//! 1. a root that is not a JSON object becomes `{}`;
//! 2. root `oneOf`/`anyOf`/`allOf` are stripped, branch properties merged
//!    (root wins, then the first branch);
//! 3. the note comes from the first of `oneOf` > `anyOf` > `allOf` present;
//!    when the root is left with no properties and that keyword gave no note,
//!    a generic keyword-specific note is used instead;
//! 4. whenever a composition was stripped and the root declares no `type`,
//!    the object floor is restored: `type: "object"` (and `properties: {}`
//!    when absent, so a second run is a no-op);
//! 5. root `required` entries left dangling by the merge are pruned.
//!
//! Root `enum`/`not`, `dependentRequired`/`dependentSchemas`, declared
//! non-object roots and nested compositions ship verbatim.

mod draft;
mod narrow;
mod strict;

pub(crate) use draft::*;
pub(crate) use narrow::*;
pub(crate) use strict::*;

#[cfg(test)]
mod strict_tests;

#[cfg(test)]
mod tests;
