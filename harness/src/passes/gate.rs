//! `oracle-gate`: the last pass of a lane whose endpoint rejects malformed
//! schemas wholesale (a keyword whose value has the wrong type, say
//! `allOf: {…}`). What the passes before it could not mend has no faithful
//! rewrite, so when the lane's oracle still rejects the tool under `rule`
//! the tool fails closed with the provider's message: the outcome says why
//! instead of the shaped tool pretending to be fixed.

use super::{Cx, Pass, PassMutant, Step};
use crate::schema::TooDeep;
use crate::tool::Tool;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OracleGate {
    pub(crate) rule: &'static str,
    /// Mutation point: the gate switched off.
    pub(crate) enabled: bool,
}

impl OracleGate {
    pub(crate) const fn new(rule: &'static str) -> Self {
        Self {
            rule,
            enabled: true,
        }
    }
}

impl Pass for OracleGate {
    fn name(&self) -> &'static str {
        "oracle-gate"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.enabled {
            return Ok(Step::Continue);
        }
        let wire = crate::replay::oracle_tools(cx.lane, &[cx.lane.render(tool)]);
        let found = crate::oracle::check(&crate::oracle::Request {
            lane: cx.lane,
            tools: &wire,
            tools_present: true,
            tool_choice: None,
            response_format: None,
            as_of: crate::oracle::DEFAULT_AS_OF,
        });
        match found.iter().find(|r| r.rule == self.rule) {
            Some(r) => Ok(Step::FailClosed(format!(
                "{} still applies after the repairs: {}",
                self.rule, r.message
            ))),
            None => Ok(Step::Continue),
        }
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::flip(self, "never fail closed", |p| {
            &mut p.enabled
        })]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::run;
    use super::*;
    use crate::lane::Lane;
    use serde_json::json;

    const GATE: OracleGate = OracleGate::new("mistral-parameters-not-object-schema");

    #[test]
    fn a_tool_the_rule_still_rejects_fails_closed_with_the_message() {
        let ran = run(
            &GATE,
            Lane::Mistral,
            json!({"type":"object","properties":{"a":{"allOf":{"type":"string"}}}}),
        );
        assert!(
            matches!(&ran.step, Step::FailClosed(r) if r.starts_with("mistral-parameters-not-object-schema still applies after the repairs: Invalid tool schema")),
            "{:?}",
            ran.step
        );
    }

    #[test]
    fn a_tool_the_rule_accepts_continues_untouched() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let ran = run(&GATE, Lane::Mistral, schema.clone());
        assert_eq!(ran.step, Step::Continue);
        assert_eq!(ran.schema(), &schema);
        assert!(ran.records.is_empty());
    }
}
