//! v1 on the OpenAI-compatible Chat lanes (`openai-chat`, `openai-strict`, `xai`, `groq`, `cerebras`): every tool passes that lane's oracle, every loss recorded.

use super::Pass;
use crate::lane::Lane;

/// The ordered v1 passes for `lane`.
pub(crate) fn v1(lane: Lane) -> Vec<Box<dyn Pass>> {
    let _ = lane;
    Vec::new()
}
