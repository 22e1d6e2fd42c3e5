//! Dates (the one module wrapping `jiff`): the calendar dates recordings,
//! ledgers and `--as-of` write (`YYYY-MM-DD`), and a run's UTC start time.
//! Plain data, bottom layer.

use std::time::SystemTime;

/// `YYYY-MM-DD` naming a real calendar day (`2025-02-29` is not one).
pub(crate) fn is_calendar_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
        && s.parse::<jiff::civil::Date>().is_ok()
}

/// RFC 3339 UTC timestamp of `t`, whole seconds (`2026-12-02T06:30:00Z`).
pub(crate) fn utc_timestamp(t: SystemTime) -> String {
    let secs = jiff::Timestamp::try_from(t).map_or(0, jiff::Timestamp::as_second);
    jiff::Timestamp::from_second(secs)
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn calendar_dates_are_real_days_in_the_one_form() {
        for good in ["2025-01-02", "2024-02-29", "2000-02-29", "1999-12-31"] {
            assert!(is_calendar_date(good), "{good}");
        }
        for bad in [
            "2025-02-29",
            "1900-02-29",
            "2025-13-02",
            "2025-99-99",
            "2025-00-10",
            "2025-04-31",
            "2025-1-02",
            "20250102",
            "+02025-01-02",
            "2025-01-02T00:00:00",
            "",
        ] {
            assert!(!is_calendar_date(bad), "{bad}");
        }
    }

    #[test]
    fn timestamps_are_utc_whole_seconds() {
        let t = UNIX_EPOCH + Duration::from_millis(1_764_657_000_750);
        assert_eq!(utc_timestamp(t), "2025-12-02T06:30:00Z");
        assert_eq!(utc_timestamp(UNIX_EPOCH), "1970-01-01T00:00:00Z");
    }
}
