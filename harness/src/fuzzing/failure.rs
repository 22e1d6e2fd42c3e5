//! The data of a fuzz run: the [`Property`]s and one minimized [`Failure`].

use crate::lane::Lane;
use crate::tool::Tool;

/// What must hold for every input on every lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Property {
    /// Shaping ends in an output or a designed refusal: no caught panic,
    /// no external driver fault.
    NoCrash,
    /// Shaping the same input twice gives the same bytes and records.
    Determinism,
    /// Shaping the output again changes nothing.
    Idempotence,
    /// Every keyword lost has a degradation record.
    NeverSilent,
    /// The lane's oracle accepts the output (shaped or failed closed).
    Oracle,
}

impl Property {
    /// Every property, in the order they are checked and reported.
    pub(crate) const ALL: &'static [Property] = &[
        Property::NoCrash,
        Property::Determinism,
        Property::Idempotence,
        Property::NeverSilent,
        Property::Oracle,
    ];

    /// The stable id (file names, the summary).
    pub(crate) fn id(self) -> &'static str {
        match self {
            Self::NoCrash => "no-crash",
            Self::Determinism => "determinism",
            Self::Idempotence => "idempotence",
            Self::NeverSilent => "never-silent",
            Self::Oracle => "oracle",
        }
    }
}

impl std::fmt::Display for Property {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// One failing input, minimized.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Failure {
    pub(crate) property: Property,
    pub(crate) lane: Lane,
    /// The generator index of the input.
    pub(crate) index: u64,
    /// The tool as generated.
    pub(crate) input: Tool,
    /// The smallest tool found that fails the same way.
    pub(crate) minimized: Tool,
    /// The violation on the minimized tool (its first line says what).
    pub(crate) message: String,
    /// Pipeline calls the shrink made.
    pub(crate) shrink_calls: usize,
}
