//! The mutant plan: every mutant of a profile, named and in a fixed order
//! (lanes by id; per lane each pass switched off, each adjacent pair
//! swapped, each declared mutation point).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lane::Lane;
use crate::pipeline::{PassList, PipelineConfig, Profile};

/// What a mutant changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MutantKind {
    /// One pass switched off.
    Off,
    /// Two adjacent passes swapped.
    Swap,
    /// One of the pass's declared mutation points.
    Declared,
}

/// One mutant as the plan lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MutantInfo {
    /// `v1/<lane>/<pass>: <change>`: stable, unique.
    pub name: String,
    pub lane: Lane,
    pub pass: String,
    pub kind: MutantKind,
    pub change: String,
}

/// One mutant: its plan entry and the mutated pipeline (shared: a clone
/// is cheap, and the thread that judges the mutant owns one).
#[derive(Clone)]
pub(crate) struct Mutant {
    pub info: MutantInfo,
    pub(super) pipeline: Arc<PassList>,
    /// The pass whose examples judge the mutant and the index of its
    /// stand-in in the pass list (`None`: switched off); `None` for swaps.
    pub(super) examples: Option<(String, Option<usize>)>,
    /// Why the mutant cannot be a distinct program.
    pub(super) unviable: Option<String>,
}

/// Every mutant of `profile` on `lanes` (lanes without passes have none), in
/// a deterministic order: lanes by id, then switched-off, swapped and
/// declared mutants in pass order.
pub(crate) fn plan(profile: Profile, lanes: &[Lane], config: &PipelineConfig) -> Vec<Mutant> {
    let mut lanes = lanes.to_vec();
    lanes.sort_by_key(|l| l.id());
    lanes.dedup();
    let mut out: Vec<Mutant> = Vec::new();
    for lane in lanes {
        let names = profile.pass_names(lane);
        // A pass that runs twice on a lane (normalize on Gemini) is named by
        // its occurrence: `normalize#2`.
        let labels: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let total = names.iter().filter(|m| *m == n).count();
                let nth = names[..=i].iter().filter(|m| *m == n).count();
                if total > 1 {
                    format!("{n}#{nth}")
                } else {
                    (*n).to_owned()
                }
            })
            .collect();
        let name = |at: usize, change: &str| {
            format!("{}/{}/{}: {change}", profile.id(), lane.id(), labels[at])
        };
        let info = |at: usize, pass: &str, kind, change: String| MutantInfo {
            name: name(at, &change),
            lane,
            pass: pass.to_owned(),
            kind,
            change,
        };
        let pipeline = |info: &MutantInfo, passes| {
            Arc::new(PassList {
                id: info.name.clone(),
                base: profile,
                lane,
                passes,
                config: config.clone(),
            })
        };
        for (i, pass) in names.iter().enumerate() {
            let mut passes = profile.passes(lane);
            passes.remove(i);
            let info = info(i, pass, MutantKind::Off, "switched off".to_owned());
            out.push(Mutant {
                pipeline: pipeline(&info, passes),
                info,
                examples: Some(((*pass).to_owned(), None)),
                unviable: None,
            });
        }
        for i in 1..names.len() {
            let mut passes = profile.passes(lane);
            passes.swap(i - 1, i);
            let (a, b) = (names[i - 1], names[i]);
            let info = info(
                i - 1,
                a,
                MutantKind::Swap,
                format!("swapped with {}", labels[i]),
            );
            out.push(Mutant {
                pipeline: pipeline(&info, passes),
                info,
                examples: None,
                unviable: (a == b).then(|| "swaps two identical passes".to_owned()),
            });
        }
        for (i, pass) in profile.passes(lane).iter().enumerate() {
            for m in pass.mutants() {
                let mut passes = profile.passes(lane);
                passes[i] = m.pass;
                let info = info(i, pass.name(), MutantKind::Declared, m.change);
                out.push(Mutant {
                    pipeline: pipeline(&info, passes),
                    info,
                    examples: Some((pass.name().to_owned(), Some(i))),
                    unviable: None,
                });
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for m in &mut out {
        if !seen.insert(m.info.name.clone()) && m.unviable.is_none() {
            m.unviable = Some("same name as an earlier mutant".to_owned());
        }
    }
    out
}
