//! openai: recorded and documented rejections of tool schemas on this provider's
//! wire(s). Each rule's id equals the `rule` of its recordings.

use crate::oracle::Rule;

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[];
