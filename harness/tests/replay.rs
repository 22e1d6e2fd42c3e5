//! Every recording in `recordings/` as trials: `replay::<provider>::<id>`
//! checks that the oracle reproduces the recorded rejection (rule and
//! message); `replay::<provider>::<id>::v1` checks that the v1-shaped
//! request is accepted or its offending tools fail closed by design —
//! unless `recordings/known-gaps.toml` declares the recording a known gap,
//! in which case the trial checks that it still fails (a gap that closes
//! must be removed from the list, and an entry matching nothing fails too).

use std::path::Path;
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use wireshape::{Lane, PipelineConfig, Profile};

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let recordings = wireshape::load_recordings(&root.join("recordings")).expect("recordings load");
    let config = PipelineConfig::load(&root.join("corpus/config.toml")).expect("config");
    let v1 = Arc::new(Profile::V1.with_config(config));
    let gaps = Arc::new(
        wireshape::testing::load_known_gaps(&root.join("recordings/known-gaps.toml"))
            .expect("known gaps"),
    );
    let mut trials = Vec::new();
    for g in gaps.iter() {
        let matched = recordings
            .iter()
            .any(|r| wireshape::testing::glob_match(&g.recording, &r.id));
        let pattern = g.recording.clone();
        trials.push(Trial::test(format!("replay::known-gaps::{pattern}"), move || {
            if matched {
                Ok(())
            } else {
                Err(Failed::from(format!(
                    "known gap `{pattern}` matches no recording: remove it from recordings/known-gaps.toml"
                )))
            }
        }));
    }
    for rec in recordings {
        let rec = Arc::new(rec);
        let name = format!("replay::{}::{}", rec.provider, rec.id);
        let r = Arc::clone(&rec);
        trials.push(Trial::test(name.clone(), move || {
            wireshape::testing::reproduces(&r).map_err(Failed::from)
        }));
        if rec.expect.as_deref() == Some("accept") {
            continue;
        }
        let has_shaping =
            Lane::parse(&rec.lane).is_ok_and(|l| !Profile::V1.pass_names(l).is_empty());
        let (r, p, g) = (Arc::clone(&rec), Arc::clone(&v1), Arc::clone(&gaps));
        trials.push(Trial::test(format!("{name}::v1"), move || {
            let fix = wireshape::testing::replay_fix(&r, p.as_ref(), has_shaping);
            wireshape::testing::judge_fix(&r.id, &fix, &g).map_err(Failed::from)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
