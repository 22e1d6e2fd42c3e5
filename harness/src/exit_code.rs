//! Process exit codes, with a documented precedence.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | clean |
//! | 1 | failures found (unexpected divergences, regressions, missed mutants, invariant violations, errored tools) |
//! | 2 | usage or input error |
//! | 3 | timeout |
//! | 4 | baseline failed |
//! | 70 | internal error |
//!
//! When several apply, the most severe wins: internal > baseline failed >
//! timeout > usage > failures > clean.

/// One exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ExitStatus {
    Clean,
    Failures,
    Usage,
    Timeout,
    BaselineFailed,
    Internal,
}

impl ExitStatus {
    /// The numeric code.
    pub fn code(self) -> u8 {
        match self {
            Self::Clean => 0,
            Self::Failures => 1,
            Self::Usage => 2,
            Self::Timeout => 3,
            Self::BaselineFailed => 4,
            Self::Internal => 70,
        }
    }

    fn rank(self) -> u8 {
        match self {
            Self::Clean => 0,
            Self::Failures => 1,
            Self::Usage => 2,
            Self::Timeout => 3,
            Self::BaselineFailed => 4,
            Self::Internal => 5,
        }
    }

    /// The more severe of two statuses.
    #[must_use]
    pub fn max(self, other: Self) -> Self {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

impl std::process::Termination for ExitStatus {
    fn report(self) -> std::process::ExitCode {
        std::process::ExitCode::from(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_match_the_documented_table() {
        let all = [
            (ExitStatus::Clean, 0),
            (ExitStatus::Failures, 1),
            (ExitStatus::Usage, 2),
            (ExitStatus::Timeout, 3),
            (ExitStatus::BaselineFailed, 4),
            (ExitStatus::Internal, 70),
        ];
        for (s, c) in all {
            assert_eq!(s.code(), c);
        }
    }

    #[test]
    fn precedence_is_baseline_over_timeout_over_failures() {
        assert_eq!(
            ExitStatus::Failures.max(ExitStatus::Timeout),
            ExitStatus::Timeout
        );
        assert_eq!(
            ExitStatus::Timeout.max(ExitStatus::BaselineFailed),
            ExitStatus::BaselineFailed
        );
        assert_eq!(
            ExitStatus::BaselineFailed.max(ExitStatus::Failures),
            ExitStatus::BaselineFailed
        );
        assert_eq!(ExitStatus::Clean.max(ExitStatus::Clean), ExitStatus::Clean);
        assert_eq!(
            ExitStatus::Internal.max(ExitStatus::BaselineFailed),
            ExitStatus::Internal
        );
    }
}
