//! Tests of `pipeline`: the profiles, the pass lists, the request rules.

use super::*;

/// Every pass of every built-in line names, as its rule, a rule some
/// oracle has (a degradation's `[rule]` must be one `wireshape check`
/// and the recordings know; a rule recorded through another wire of the
/// same provider counts), or no rule at all.
#[test]
fn every_pass_names_a_rule_an_oracle_has() {
    let ids: Vec<&str> = Lane::ALL
        .iter()
        .flat_map(|l| crate::oracle::rules_for(*l))
        .map(|r| r.id)
        .collect();
    let mut unknown = Vec::new();
    for profile in Profile::ALL {
        for lane in Lane::ALL {
            for pass in profile.passes(*lane) {
                if let Some(rule) = pass.rule()
                    && !ids.contains(&rule)
                {
                    unknown.push(format!(
                        "{}/{}/{}: {rule}",
                        profile.id(),
                        lane.id(),
                        pass.name()
                    ));
                }
            }
        }
    }
    assert_eq!(unknown, Vec::<String>::new());
}

/// A failed-closed outcome names the pass it failed in (what a ledger
/// `[[rejection]]` entry's `failed` globs match), as the built-in
/// pipelines write their reasons; nothing else does.
#[test]
fn a_failed_closed_outcome_names_the_pass_it_failed_in() {
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let tool = Tool::new("word", serde_json::json!({"type": "string"}));
    let shaped = v1.shape(Lane::DeepseekStrict, &tool);
    assert_eq!(shaped.outcome.failed_in(), Some("deepseek-pre-gate"));
    let closed = |reason: &str| Outcome::FailedClosed {
        reason: reason.into(),
    };
    assert_eq!(closed("an external pipeline's words").failed_in(), None);
    assert_eq!(Outcome::Shaped.failed_in(), None);
    assert_eq!(
        Outcome::Errored {
            message: "p: boom".into()
        }
        .failed_in(),
        None
    );
}

/// A pass id names one pass: pass examples, mutants, ledgers and reports
/// key by it, so two different passes (types) never share one, on any lane
/// of any profile.
#[test]
fn every_pass_id_names_one_pass() {
    let mut types: std::collections::BTreeMap<&str, std::collections::BTreeSet<&str>> =
        std::collections::BTreeMap::new();
    for profile in Profile::ALL {
        for lane in Lane::ALL {
            for pass in profile.passes(*lane) {
                types
                    .entry(pass.name())
                    .or_default()
                    .insert(pass.type_name());
            }
        }
    }
    let shared: Vec<String> = types
        .iter()
        .filter(|(_, t)| t.len() > 1)
        .map(|(id, t)| format!("{id}: {t:?}"))
        .collect();
    assert!(types.len() > 60, "only {} pass ids", types.len());
    assert_eq!(shared, Vec::<String>::new());
}

/// The request rules of the built-in profiles (moved from `request`).
mod request_rules {
    use super::*;
    use serde_json::Value;
    use serde_json::json;

    fn parts(tools: Option<Vec<Value>>, tool_choice: Option<Value>) -> RequestParts {
        RequestParts {
            tools,
            tool_choice,
            response_format: None,
        }
    }

    #[test]
    fn v1_omits_an_empty_tools_array() {
        let mut p = parts(Some(vec![]), None);
        let changes = Profile::V1.shape_request(Lane::OpenaiChat, &mut p);
        assert_eq!(p, parts(None, None));
        assert_eq!(changes.len(), 1);
        assert_eq!(
            (changes[0].member, changes[0].name, changes[0].rule.as_str()),
            ("tools", "omit-empty-tools", "openai-empty-tools-array")
        );
    }

    #[test]
    fn v1_drops_a_tool_choice_without_tools_after_omitting_them() {
        let mut p = parts(Some(vec![]), Some(json!("auto")));
        let changes = Profile::V1.shape_request(Lane::Xai, &mut p);
        assert_eq!(p, parts(None, None));
        let names: Vec<_> = changes.iter().map(|c| c.name).collect();
        assert_eq!(names, ["omit-empty-tools", "drop-orphan-tool-choice"]);
        assert_eq!(
            changes[1].reason,
            "tool_choice \"auto\" is rejected on a request without tools; not sent"
        );
    }

    #[test]
    fn a_tool_choice_with_tools_is_kept() {
        let tool = json!({"type": "function", "function": {"name": "f"}});
        let mut p = parts(Some(vec![tool.clone()]), Some(json!("required")));
        assert!(Profile::V1.shape_request(Lane::Xai, &mut p).is_empty());
        assert_eq!(p, parts(Some(vec![tool]), Some(json!("required"))));
    }

    #[test]
    fn cerebras_v1_turns_a_named_tool_choice_into_auto() {
        let tool = json!({"type": "function", "function": {"name": "Steps"}});
        let choice = json!({"type": "function", "function": {"name": "Steps"}});
        let mut p = parts(Some(vec![tool.clone()]), Some(choice.clone()));
        let changes = Profile::V1.shape_request(Lane::Cerebras, &mut p);
        assert_eq!(p, parts(Some(vec![tool.clone()]), Some(json!("auto"))));
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].rule, "cerebras-tool-choice-named-function");
        // Other lanes take a named choice: untouched.
        let mut q = parts(Some(vec![tool.clone()]), Some(choice.clone()));
        assert!(
            Profile::V1
                .shape_request(Lane::OpenaiChat, &mut q)
                .is_empty()
        );
        assert_eq!(q.tool_choice, Some(choice));
    }

    #[test]
    fn v0_and_verbatim_send_the_request_as_built() {
        for profile in [Profile::V0, Profile::Verbatim] {
            let mut p = parts(Some(vec![]), Some(json!("auto")));
            assert!(profile.shape_request(Lane::Xai, &mut p).is_empty());
            assert_eq!(p, parts(Some(vec![]), Some(json!("auto"))));
        }
    }
}

/// A strict `response_format` shaped by the lane's passes.
mod response_format {
    use super::*;
    use serde_json::Value;
    use serde_json::json;

    fn format(schema: &Value, strict: bool) -> RequestParts {
        RequestParts {
            tools: None,
            tool_choice: None,
            response_format: Some(
                json!({"type": "json_schema", "json_schema": {"name": "Movie", "strict": strict, "schema": schema}}),
            ),
        }
    }

    #[test]
    fn a_strict_format_is_closed_on_cerebras() {
        let v1 = Profile::V1.with_config(PipelineConfig::default());
        let mut p = format(
            &json!({"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}),
            true,
        );
        let changes = v1.shape_request(Lane::Cerebras, &mut p);
        assert_eq!(
            p.response_format.unwrap()["json_schema"]["schema"].to_string(),
            r#"{"type":"object","properties":{"title":{"type":"string"}},"additionalProperties":false,"required":["title"]}"#
        );
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].member, "response_format");
        assert_eq!(changes[0].name, "shape-response-format");
    }

    /// The recorded rejection (`openai-strict-ref-siblings-11381`): the
    /// `$ref`'s target is inlined into the node, the node's annotations
    /// kept, and the format stays strict.
    #[test]
    fn a_strict_format_gets_a_ref_beside_keywords_inlined_on_openai_strict() {
        let v1 = Profile::V1.with_config(PipelineConfig::default());
        let mut p = format(
            &json!({"type":"object","properties":{"query":{"default":"all","description":"what to search for","$ref":"#/$defs/s","title":"search"}},"required":["query"],"additionalProperties":false,"$defs":{"s":{"type":"string"}}}),
            true,
        );
        let changes = v1.shape_request(Lane::OpenaiStrict, &mut p);
        let js = &p.response_format.unwrap()["json_schema"];
        assert_eq!(
            js["schema"].to_string(),
            r#"{"type":"object","properties":{"query":{"type":"string","description":"what to search for","title":"search"}},"required":["query"],"additionalProperties":false,"$defs":{"s":{"type":"string"}}}"#
        );
        assert_eq!(js["strict"], json!(true));
        let rules: Vec<&str> = changes.iter().map(|c| c.rule.as_str()).collect();
        assert_eq!(
            rules,
            [
                "openai-strict-ref-siblings",
                "azure-openai-strict-default-not-permitted"
            ]
        );
    }

    /// A format strict mode cannot carry (a recursive `$ref` beside a
    /// keyword) goes non-strict, as its tool would, instead of shipping
    /// strict and rejected.
    #[test]
    fn a_strict_format_the_strict_passes_send_non_strict_ships_with_strict_false() {
        let v1 = Profile::V1.with_config(PipelineConfig::default());
        let schema = json!({"type":"object","properties":{"next":{"$ref":"#","description":"the rest"}},"required":["next"],"additionalProperties":false});
        let mut p = format(&schema, true);
        let changes = v1.shape_request(Lane::OpenaiStrict, &mut p);
        let js = &p.response_format.unwrap()["json_schema"];
        assert_eq!(js["schema"], schema);
        assert_eq!(js["strict"], json!(false));
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].rule, "openai-strict-ref-siblings");
        assert!(
            changes[0].reason.contains("its target holds it again"),
            "{}",
            changes[0].reason
        );
    }

    #[test]
    fn a_non_strict_format_and_v0_are_left_alone() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let v1 = Profile::V1.with_config(PipelineConfig::default());
        let mut p = format(&schema, false);
        assert!(v1.shape_request(Lane::Cerebras, &mut p).is_empty());
        assert_eq!(p, format(&schema, false));
        let v0 = Profile::V0.with_config(PipelineConfig::default());
        let mut q = format(&schema, true);
        assert!(v0.shape_request(Lane::Cerebras, &mut q).is_empty());
        assert_eq!(q, format(&schema, true));
    }
}
