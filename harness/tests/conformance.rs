//! Data-driven conformance: one trial per `lane::catalog::tool`, over the
//! project's own corpus (`corpus/catalogs`) and, when `WIRESHAPE_CORPUS_PATH`
//! is set, over every catalog there too.
//!
//! Each trial is one case of the differential run (`wireshape::run_case`,
//! the same code `wireshape run` uses): v0 and v1 shaped, every invariant
//! checked (idempotence of v1, determinism, never silent, no panic), and the
//! old/new difference classified by the ledger in `corpus/ledger`. A trial
//! fails when the case would fail the run. Filter like any test:
//! `cargo test --test conformance -- deepseek-strict`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use wireshape::{DiffOptions, Lane, PipelineConfig, Profile};

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let config =
        PipelineConfig::load(&root.join("corpus/config.toml")).expect("corpus/config.toml");
    let old = Profile::V0.with_config(config.clone());
    let new = Profile::V1.with_config(config);
    let external: Vec<PathBuf> = std::env::var_os("WIRESHAPE_CORPUS_PATH")
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    let opts = DiffOptions {
        old: &old,
        new: &new,
        lanes: Lane::DIFFERENTIAL.to_vec(),
        own_corpus: vec![root.join("corpus/catalogs")],
        external_corpus: external,
        ledger_dir: Some(root.join("corpus/ledger")),
        fuzz: None,
        shard: None,
        jobs: 1,
    };
    let inputs = wireshape::prepare(&opts).expect("corpus and ledger load");
    let cases: Arc<[wireshape::PlannedCase]> = inputs.cases().into();
    let ledgers = Arc::new(inputs.ledgers);
    let pipelines = Arc::new((old.clone(), new.clone()));
    let mut trials = Vec::with_capacity(cases.len());
    for i in 0..cases.len() {
        let c = &cases[i];
        let name = format!("{}::{}", c.plan.lane, c.plan.case.replacen('#', "::", 1));
        let (cases, ledgers, pipelines) = (
            Arc::clone(&cases),
            Arc::clone(&ledgers),
            Arc::clone(&pipelines),
        );
        trials.push(Trial::test(name, move || {
            let case = &cases[i];
            let (outcome, _) =
                wireshape::run_case(&pipelines.0, &pipelines.1, case, ledgers.get(&case.lane));
            if !outcome.is_failure() {
                return Ok(());
            }
            let mut msg = format!(
                "{}: {} [{}]",
                outcome.key(),
                outcome.class.id(),
                outcome.tags.join(" ")
            );
            for v in &outcome.violations {
                let _ = write!(msg, "\n{} ({}): {}", v.invariant, v.pipeline, v.message);
            }
            Err(Failed::from(msg))
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
