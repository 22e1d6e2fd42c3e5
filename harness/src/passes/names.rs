//! Names the wire restricts: tool names and root property keys.
//!
//! Providers reject a tool whose name (or, on some wires, a root property
//! key) falls outside a character class or a length. v1 renames such a name
//! to the nearest valid one and records the old and new name, so a client
//! can map the model's calls back. A name cut short ends in `_` and eight hex
//! digits of the original's sha256, so two long names that share a prefix
//! stay apart. A valid name is never touched (the passes are idempotent).

use serde_json::{Map, Value};

use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// What a wire accepts as a name.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NameSpec {
    /// At least this many characters (a shorter name is padded with `_`).
    pub(crate) min: usize,
    /// At most this many characters.
    pub(crate) max: usize,
    /// The first character must satisfy this.
    pub(crate) first: fn(char) -> bool,
    /// Every other character must satisfy this.
    pub(crate) rest: fn(char) -> bool,
}

/// `[a-zA-Z0-9_-]`: Anthropic, OpenAI, Bedrock tool names.
pub(crate) fn word_or_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// `[a-zA-Z_]`: Gemini's first character.
pub(crate) fn letter_or_underscore(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

/// `[a-zA-Z0-9_]`.
pub(crate) fn word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl NameSpec {
    /// `^[a-zA-Z0-9_-]{1,max}$`.
    pub(crate) const fn word_or_dash(max: usize) -> Self {
        Self {
            min: 1,
            max,
            first: word_or_dash,
            rest: word_or_dash,
        }
    }

    pub(crate) fn accepts(&self, name: &str) -> bool {
        let mut chars = name.chars();
        let Some(c0) = chars.next() else {
            return false;
        };
        let n = name.chars().count();
        (self.first)(c0) && chars.all(self.rest) && n <= self.max && n >= self.min
    }

    /// The nearest valid name, or `None` when `name` is valid already.
    /// Each rejected character becomes `_`; a rejected first character gets
    /// a `_` in front (when `_` may start a name) or is replaced; an empty
    /// name becomes `_`; a name under the minimum is padded with `_`; a
    /// name over the limit is cut and suffixed with `_` and the first eight
    /// hex digits of the original's sha256.
    pub(crate) fn sanitize(&self, name: &str) -> Option<String> {
        if self.accepts(name) {
            return None;
        }
        let mut out: String = name
            .chars()
            .map(|c| if (self.rest)(c) { c } else { '_' })
            .collect();
        match out.chars().next() {
            None => out.push('_'),
            Some(c) if !(self.first)(c) => {
                if (self.first)('_') {
                    out.insert(0, '_');
                } else {
                    out.replace_range(..c.len_utf8(), "a");
                }
            }
            Some(_) => {}
        }
        while out.chars().count() < self.min {
            out.push('_');
        }
        if out.chars().count() > self.max {
            let hash = &crate::hash::sha256_hex(name)[..8];
            let keep = self.max.saturating_sub(hash.len() + 1);
            out = out.chars().take(keep).collect::<String>() + "_" + hash;
        }
        Some(out)
    }
}

/// `sanitize-tool-name`: rename a tool whose name the wire rejects.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SanitizeToolName {
    pub(crate) spec: NameSpec,
    pub(crate) rule: &'static str,
}

impl Pass for SanitizeToolName {
    fn name(&self) -> &'static str {
        "sanitize-tool-name"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        if self.spec.min > 1 {
            let mut p = *self;
            p.spec.min = 1;
            vec![PassMutant::new("accept names under the minimum length", p)]
        } else {
            Vec::new()
        }
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if let Some(new) = self.spec.sanitize(&tool.name) {
            cx.record(
                "",
                "tool-name",
                Action::Rewritten,
                format!(
                    "tool name {:?} renamed to {new:?}: the wire rejects the original; map calls to {new:?} back to {:?}",
                    tool.name, tool.name
                ),
            );
            tool.name = new;
        }
        Ok(Step::Continue)
    }
}

/// `sanitize-property-keys`: rename root `properties` keys the wire rejects
/// (and the matching `required` entries), keeping their order. A new key
/// that collides with an existing one gets the hash suffix instead.
#[derive(Debug, Clone, Copy)]
#[allow(dead_code)] // wired by the lanes that rename keys
pub(crate) struct SanitizePropertyKeys {
    pub(crate) spec: NameSpec,
    pub(crate) rule: &'static str,
}

impl Pass for SanitizePropertyKeys {
    fn name(&self) -> &'static str {
        "sanitize-property-keys"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        let Some(Value::Object(props)) = root.field("properties") else {
            return Ok(Step::Continue);
        };
        if props.keys().all(|k| self.spec.accepts(k)) {
            return Ok(Step::Continue);
        }
        let mut renamed: Vec<(String, String)> = Vec::new();
        // The wire's keys in order first (placeholders where the values
        // go), then the values moved in: inserting a key again keeps its
        // place, so the map comes out as copying each value in would.
        let mut out = Map::new();
        let mut names = Vec::with_capacity(props.len());
        for key in props.keys() {
            let new = match self.spec.sanitize(key) {
                None => key.clone(),
                Some(mut new) => {
                    if props.has(&new) || out.contains_key(&new) {
                        let hash = &crate::hash::sha256_hex(key)[..8];
                        new = format!("{new}_{hash}");
                        new = self.spec.sanitize(&new).unwrap_or(new);
                    }
                    renamed.push((key.clone(), new.clone()));
                    new
                }
            };
            out.insert(new.clone(), Value::Null);
            names.push(new);
        }
        if let Some(Value::Object(props)) = root.get_mut("properties").map(Value::take) {
            for (new, (_, value)) in names.into_iter().zip(props) {
                out.insert(new, value);
            }
        }
        for (old, new) in &renamed {
            cx.record_rename(
                &schema::child_path("/properties", old),
                new,
                format!(
                    "property key {old:?} renamed to {new:?}: the wire rejects the original; map the argument {new:?} back to {old:?}"
                ),
            );
        }
        root.insert("properties".to_owned(), Value::Object(out));
        if let Some(Value::Array(required)) = root.field_mut("required") {
            let mut changed = false;
            for entry in required.iter_mut() {
                if let Some((_, new)) = renamed.iter().find(|(old, _)| entry.as_str() == Some(old))
                {
                    *entry = Value::String(new.clone());
                    changed = true;
                }
            }
            if changed {
                cx.record(
                    "",
                    "required",
                    Action::Rewritten,
                    "entries follow the renamed property keys",
                );
            }
        }
        Ok(Step::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use crate::lane::Lane;
    use serde_json::json;

    const SPEC: NameSpec = NameSpec::word_or_dash(64);

    #[test]
    fn a_valid_name_is_left_alone() {
        assert_eq!(SPEC.sanitize("get_weather-2"), None);
    }

    #[test]
    fn rejected_characters_become_underscores() {
        assert_eq!(
            SPEC.sanitize("github.create issue").as_deref(),
            Some("github_create_issue")
        );
    }

    #[test]
    fn an_empty_name_becomes_an_underscore() {
        assert_eq!(SPEC.sanitize("").as_deref(), Some("_"));
    }

    #[test]
    fn a_long_name_is_cut_with_a_hash_suffix_at_exactly_the_limit() {
        let long = "a".repeat(70);
        let out = SPEC.sanitize(&long).unwrap();
        assert_eq!(out.len(), 64);
        assert_eq!(
            out,
            format!(
                "{}_{}",
                "a".repeat(55),
                &crate::hash::sha256_hex(&long)[..8]
            )
        );
        let other = SPEC.sanitize(&("a".repeat(69) + "b")).unwrap();
        assert_ne!(out, other, "same prefix, different names");
        assert_eq!(SPEC.sanitize(&"a".repeat(64)), None);
    }

    #[test]
    fn a_bad_first_character_gets_an_underscore_in_front() {
        let gemini = NameSpec {
            min: 1,
            max: 64,
            first: letter_or_underscore,
            rest: word,
        };
        assert_eq!(gemini.sanitize("3d-model").as_deref(), Some("_3d_model"));
    }

    #[test]
    fn a_name_under_the_minimum_is_padded_as_moonshot_requires() {
        // Moonshot: ^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$.
        let moonshot = NameSpec {
            min: 3,
            max: 64,
            first: letter_or_underscore,
            rest: word_or_dash,
        };
        assert_eq!(moonshot.sanitize("t").as_deref(), Some("t__"));
        assert_eq!(moonshot.sanitize("").as_deref(), Some("___"));
        assert_eq!(moonshot.sanitize("1a").as_deref(), Some("_1a"));
        assert_eq!(moonshot.sanitize("get-x"), None);
        assert!(moonshot.accepts("abc") && !moonshot.accepts("ab"));
    }

    #[test]
    fn the_tool_rename_is_recorded_with_both_names() {
        let pass = SanitizeToolName {
            spec: SPEC,
            rule: "openai-tool-name-pattern",
        };
        let ran = run_on_tool(
            &pass,
            Lane::OpenaiChat,
            Tool::new("fs.read", json!({"type": "object"})),
        );
        assert_eq!(ran.tool.name, "fs_read");
        assert_eq!(
            ran.marks(),
            vec![(String::new(), "tool-name".into(), Action::Rewritten)]
        );
        assert_eq!(
            ran.records[0].rule.as_deref(),
            Some("openai-tool-name-pattern")
        );
        assert!(ran.records[0].reason.contains("\"fs.read\""));
    }

    #[test]
    fn property_keys_are_renamed_in_order_with_required() {
        let pass = SanitizePropertyKeys {
            spec: SPEC,
            rule: "anthropic-property-key-pattern",
        };
        let ran = run(
            &pass,
            Lane::AnthropicMessages,
            json!({"type":"object","properties":{"a":{},"$b c":{"type":"string"},"z":{}},"required":["$b c","z"]}),
        );
        assert_eq!(
            bytes(ran.schema()),
            r#"{"type":"object","properties":{"a":{},"_b_c":{"type":"string"},"z":{}},"required":["_b_c","z"]}"#
        );
        assert_eq!(
            ran.marks(),
            vec![
                (
                    "/properties/$b c".into(),
                    "properties".into(),
                    Action::Rewritten
                ),
                (String::new(), "required".into(), Action::Rewritten),
            ]
        );
    }

    #[test]
    fn a_renamed_key_that_collides_gets_the_hash_suffix() {
        let pass = SanitizePropertyKeys {
            spec: SPEC,
            rule: "anthropic-property-key-pattern",
        };
        let ran = run(
            &pass,
            Lane::AnthropicMessages,
            json!({"properties":{"a_b":{},"a.b":{}}}),
        );
        let hash = &crate::hash::sha256_hex("a.b")[..8];
        assert_eq!(
            bytes(ran.schema()),
            format!(r#"{{"properties":{{"a_b":{{}},"a_b_{hash}":{{}}}}}}"#)
        );
        let again = run(&pass, Lane::AnthropicMessages, ran.schema().clone());
        assert!(again.records.is_empty(), "idempotent");
    }
}
