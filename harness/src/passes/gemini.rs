//! v1 on `gemini-openapi` and `gemini-jsonschema`: every tool passes the Gemini oracle (`rules/gemini.rs`), every loss recorded.

use super::Pass;
use crate::lane::Lane;

/// The ordered v1 passes for `lane`.
pub(crate) fn v1(lane: Lane) -> Vec<Box<dyn Pass>> {
    let _ = lane;
    Vec::new()
}
