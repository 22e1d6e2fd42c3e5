//! The one judgement every runner shares: is a shaped output accepted by
//! its lane's oracle, and what does the pair (old, new) of verdicts mean?
//!
//! A provider rejects the whole request when one tool is rejected, so any
//! new output the oracle rejects is a failure, whether the pipeline shaped
//! it, failed closed, or old and new share the rejection. Only a ledger
//! `[[rejection]]` entry with a reason (an accepted risk) declares one.
//! "Handled" means accepted, in `run`, `replay`, `metamorphic` and `check`
//! alike. Sits above the oracle and below the runners.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::lane::Lane;
use crate::oracle::{self, DEFAULT_AS_OF, Rejection, Request};

/// The oracle's view of one case: present when either side is rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Old rejected, new accepted.
    Fix,
    /// Old accepted, new rejected.
    Regression,
    /// Old and new both rejected (and new shaped it): a shared rejection.
    StillRejected,
    /// New failed closed by design and the tool as declared is rejected.
    FailedClosedRejected,
}

impl Verdict {
    pub const ALL: &'static [Verdict] = &[
        Verdict::Fix,
        Verdict::Regression,
        Verdict::StillRejected,
        Verdict::FailedClosedRejected,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::Fix => "fix",
            Self::Regression => "regression",
            Self::StillRejected => "still-rejected",
            Self::FailedClosedRejected => "failed-closed-rejected",
        }
    }

    /// Whether the new output is rejected (a failure unless declared).
    pub fn is_rejection(self) -> bool {
        !matches!(self, Self::Fix)
    }

    /// The verdict of a pair: `None` when both outputs are accepted.
    pub fn of(old_rejected: bool, new_rejected: bool, new_failed_closed: bool) -> Option<Self> {
        match (old_rejected, new_rejected) {
            (false, false) => None,
            (true, false) => Some(Self::Fix),
            (_, true) if new_failed_closed => Some(Self::FailedClosedRejected),
            (false, true) => Some(Self::Regression),
            (true, true) => Some(Self::StillRejected),
        }
    }
}

/// The rejections of one wire tool sent on its own (as `tools[0]`; on
/// Gemini the one declaration), in the oracle's order, with their messages.
pub(crate) fn rejections(lane: Lane, wire_tool: &Value) -> Vec<Rejection> {
    oracle::check(&Request {
        tools_present: true,
        lane,
        tools: std::slice::from_ref(wire_tool),
        tool_choice: None,
        response_format: None,
        walks: None,
        as_of: DEFAULT_AS_OF,
    })
}

/// The rule ids rejecting one wire tool sent on its own ([`rejections`]),
/// sorted and deduplicated.
pub(crate) fn rejected_by(lane: Lane, wire_tool: &Value) -> Vec<String> {
    let mut rules: Vec<String> = rejections(lane, wire_tool)
        .into_iter()
        .map(|r| r.rule.to_owned())
        .collect();
    rules.sort();
    rules.dedup();
    rules
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rejected_new_output_is_a_rejection_whatever_its_outcome() {
        assert_eq!(Verdict::of(false, false, false), None);
        assert_eq!(Verdict::of(false, false, true), None);
        assert_eq!(Verdict::of(true, false, false), Some(Verdict::Fix));
        assert_eq!(Verdict::of(false, true, false), Some(Verdict::Regression));
        assert_eq!(Verdict::of(true, true, false), Some(Verdict::StillRejected));
        assert_eq!(
            Verdict::of(true, true, true),
            Some(Verdict::FailedClosedRejected)
        );
        assert_eq!(
            Verdict::of(false, true, true),
            Some(Verdict::FailedClosedRejected)
        );
        let rejections: Vec<Verdict> = Verdict::ALL
            .iter()
            .copied()
            .filter(|v| v.is_rejection())
            .collect();
        assert_eq!(
            rejections,
            [
                Verdict::Regression,
                Verdict::StillRejected,
                Verdict::FailedClosedRejected
            ]
        );
    }

    #[test]
    fn a_root_any_of_is_rejected_by_rule_id_on_anthropic_messages() {
        let tool = serde_json::json!({"name": "t", "description": "", "input_schema": {"type": "object", "anyOf": [{"type": "object"}]}});
        assert_eq!(
            rejected_by(Lane::AnthropicMessages, &tool),
            ["anthropic-root-composition"]
        );
        let ok = serde_json::json!({"name": "t", "description": "", "input_schema": {"type": "object", "properties": {}}});
        assert!(rejected_by(Lane::AnthropicMessages, &ok).is_empty());
    }
}
