//! Probe constructs: `corpus/probes/<id>.json`, one minimal tool (or a
//! repeated one) per construct a live probe asks a provider about. Plain
//! data: the probe sends them, the matrix lays out what is known of them.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::LoadError;
use crate::lane::Lane;
use crate::tool::Tool;

/// One construct, as its file declares it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Construct {
    /// `[a-z0-9-]+`; the file is `<id>.json`.
    pub(crate) id: String,
    /// The question it answers, in one line.
    pub(crate) asks: String,
    /// Open questions (`facts::OPEN_QUESTIONS` ids) it helps answer.
    #[serde(default)]
    pub(crate) questions: Vec<String>,
    /// Lane ids where the question is meaningful (empty: every lane).
    #[serde(default)]
    pub(crate) lanes: Vec<String>,
    /// Send the first tool this many times (tool-count limits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) repeat: Option<usize>,
    /// Send the tools without a `strict` member, whatever the wire's
    /// rendering would add.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) omit_strict: bool,
    /// The tools sent, as a catalog declares them (the lane renders them).
    pub(crate) tools: Vec<Tool>,
}

/// The largest `repeat` a construct may ask for.
pub(crate) const MAX_REPEAT: usize = 1024;

impl Construct {
    /// Whether the construct is meant for `lane`.
    pub(crate) fn applies_to(&self, lane: Lane) -> bool {
        self.lanes.is_empty() || self.lanes.iter().any(|l| l == lane.id())
    }

    /// The tools a request carries: the declared ones, or the first one
    /// `repeat` times named `<name>_<i>` (i from 1).
    pub(crate) fn request_tools(&self) -> Vec<Tool> {
        match (self.repeat, self.tools.first()) {
            (Some(n), Some(first)) => (1..=n)
                .map(|i| {
                    let mut t = first.clone();
                    t.name = format!("{}_{i}", first.name);
                    t
                })
                .collect(),
            _ => self.tools.clone(),
        }
    }
}

/// Load every `<dir>/*.json` (README and other files ignored), validated,
/// sorted by id.
pub(crate) fn load_constructs(dir: &Path) -> Result<Vec<Construct>, LoadError> {
    let entries = std::fs::read_dir(dir).map_err(|source| LoadError::Io {
        path: dir.to_owned(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut out: Vec<Construct> = Vec::with_capacity(paths.len());
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|source| LoadError::Io {
            path: path.clone(),
            source,
        })?;
        let c: Construct =
            serde_json::from_str(&text).map_err(|e| LoadError::from_json(&path, &e))?;
        validate(&path, &c).map_err(|message| LoadError::Shape {
            path: path.clone(),
            line: 0,
            column: 0,
            message,
        })?;
        out.push(c);
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

fn validate(path: &Path, c: &Construct) -> Result<(), String> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let slug = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    if !slug(&c.id) {
        return Err(format!("id `{}` must match [a-z0-9-]+", c.id));
    }
    if stem != c.id {
        return Err(format!(
            "file name must be `<id>.json`: id is `{}`, file is `{stem}.json`",
            c.id
        ));
    }
    if c.asks.trim().is_empty() {
        return Err("`asks` must say what the construct asks".to_owned());
    }
    for lane in &c.lanes {
        Lane::parse(lane).map_err(|e| format!("lanes: {e}"))?;
    }
    if c.tools.is_empty() {
        return Err("`tools` must hold at least one tool".to_owned());
    }
    if let Some(n) = c.repeat
        && (c.tools.len() != 1 || !(1..=MAX_REPEAT).contains(&n))
    {
        return Err(format!(
            "`repeat` needs exactly one tool and 1..={MAX_REPEAT} copies (got {} tools, repeat {n})",
            c.tools.len()
        ));
    }
    let mut names: Vec<&str> = c.tools.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        return Err("tool names must be distinct within a construct".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write(dir: &Path, name: &str, v: &serde_json::Value) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, serde_json::to_string_pretty(v).unwrap() + "\n").unwrap();
        p
    }

    fn one(id: &str) -> serde_json::Value {
        json!({"id": id, "asks": "Is x accepted?", "tools": [
            {"name": "probe_x", "input_schema": {"type": "object"}}
        ]})
    }

    #[test]
    fn a_construct_loads_and_repeat_names_its_copies() {
        let d = tempfile::tempdir().unwrap();
        let mut v = one("many");
        v["repeat"] = json!(3);
        v["lanes"] = json!(["openai-chat"]);
        write(d.path(), "many.json", &v);
        std::fs::write(d.path().join("README.md"), "x").unwrap();
        let cs = load_constructs(d.path()).unwrap();
        assert_eq!(cs.len(), 1);
        let names: Vec<_> = cs[0].request_tools().into_iter().map(|t| t.name).collect();
        assert_eq!(names, ["probe_x_1", "probe_x_2", "probe_x_3"]);
        assert!(cs[0].applies_to(Lane::OpenaiChat));
        assert!(!cs[0].applies_to(Lane::Mistral));
    }

    /// The committed constructs (`cargo test probes`: the check
    /// corpus/probes/README.md promises).
    fn committed() -> (Vec<Construct>, PathBuf) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/probes");
        (load_constructs(&dir).unwrap(), dir)
    }

    #[test]
    fn committed_probes_are_canonical_with_unique_tool_names() {
        let (cs, dir) = committed();
        assert_eq!(cs.len(), 142);
        let mut names = std::collections::BTreeSet::new();
        for c in &cs {
            let path = dir.join(format!("{}.json", c.id));
            let text = std::fs::read_to_string(&path).unwrap();
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            let canonical = serde_json::to_string_pretty(&value).unwrap() + "\n";
            assert_eq!(text, canonical, "{}: not in serde_json's pretty form", c.id);
            for t in c.request_tools() {
                assert!(names.insert(t.name.clone()), "tool name {} twice", t.name);
            }
        }
    }

    #[test]
    fn committed_probes_name_known_questions_and_cover_every_open_question() {
        let (cs, _) = committed();
        let known: Vec<&str> = crate::facts::OPEN_QUESTIONS.iter().map(|q| q.id).collect();
        for c in &cs {
            for q in &c.questions {
                assert!(
                    known.contains(&q.as_str()),
                    "{}: unknown question {q}",
                    c.id
                );
            }
        }
        for q in crate::facts::OPEN_QUESTIONS {
            let lanes_meet = |c: &&Construct| {
                q.lanes
                    .iter()
                    .any(|l| Lane::parse(l).is_ok_and(|lane| c.applies_to(lane)))
            };
            let by: Vec<&str> = cs
                .iter()
                .filter(|c| c.questions.iter().any(|x| x == q.id))
                .filter(lanes_meet)
                .map(|c| c.id.as_str())
                .collect();
            assert!(
                !by.is_empty(),
                "open question {} has no construct on its lanes",
                q.id
            );
        }
    }

    #[test]
    fn bad_constructs_are_named_with_their_file() {
        let cases = [
            ("a.json", one("b"), "file name must be `<id>.json`"),
            ("A.json", one("A"), "id `A` must match"),
            (
                "c.json",
                {
                    let mut v = one("c");
                    v["lanes"] = json!(["nope"]);
                    v
                },
                "lanes: ",
            ),
            (
                "d.json",
                {
                    let mut v = one("d");
                    v["repeat"] = json!(0);
                    v
                },
                "`repeat` needs exactly one tool",
            ),
            (
                "e.json",
                {
                    let mut v = one("e");
                    v["extra"] = json!(1);
                    v
                },
                "unknown field `extra`",
            ),
        ];
        for (file, v, want) in cases {
            let d = tempfile::tempdir().unwrap();
            let p = write(d.path(), file, &v);
            let err = load_constructs(d.path()).unwrap_err().to_string();
            assert!(err.starts_with(&p.display().to_string()), "{err}");
            assert!(err.contains(want), "{file}: {err}");
        }
    }
}
