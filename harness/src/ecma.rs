//! ECMA-262 regular expressions, as JSON Schema `pattern` uses them.
//!
//! Wraps the `regress` crate (an ECMA-262 engine) for validity, plus a small
//! lexer over the ECMA-262 `Pattern` grammar that finds group openings —
//! escapes and character classes are consumed as units, so `[(?=]` and
//! `\(?=` are not lookarounds, which a substring search would claim.

/// What kind of group a `(` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GroupKind {
    Capturing,
    NonCapturing,
    Named,
    Lookahead { negative: bool },
    Lookbehind { negative: bool },
}

impl GroupKind {
    pub(crate) fn is_lookaround(self) -> bool {
        matches!(self, Self::Lookahead { .. } | Self::Lookbehind { .. })
    }
}

/// The pattern is valid ECMA-262: under the `u` flag (what JSON Schema
/// recommends) or, failing that, under Annex B web-compatibility rules.
pub(crate) fn is_valid(pattern: &str) -> bool {
    regress::Regex::with_flags(pattern, "u").is_ok() || regress::Regex::new(pattern).is_ok()
}

/// Every group the pattern opens, in order. Assumes a valid pattern; on an
/// invalid one it still terminates and reports what it could lex.
pub(crate) fn groups(pattern: &str) -> Vec<GroupKind> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '[' => {
                // A class ends at the first unescaped `]`; `[]` is the empty
                // class in ECMA-262 (unlike PCRE), so no special first char.
                i += 1;
                while i < chars.len() && chars[i] != ']' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            }
            '(' => {
                let at = |k: usize| chars.get(i + k).copied();
                let kind = if at(1) == Some('?') {
                    match (at(2), at(3)) {
                        (Some('='), _) => GroupKind::Lookahead { negative: false },
                        (Some('!'), _) => GroupKind::Lookahead { negative: true },
                        (Some('<'), Some('=')) => GroupKind::Lookbehind { negative: false },
                        (Some('<'), Some('!')) => GroupKind::Lookbehind { negative: true },
                        (Some('<'), _) => GroupKind::Named,
                        _ => GroupKind::NonCapturing,
                    }
                } else {
                    GroupKind::Capturing
                };
                out.push(kind);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// `Some(true)` when the pattern is valid ECMA-262 and contains a lookahead
/// or lookbehind assertion, `Some(false)` when valid without one, `None`
/// when the pattern is not a valid ECMA-262 regex at all.
pub fn has_lookaround(pattern: &str) -> Option<bool> {
    if !is_valid(pattern) {
        return None;
    }
    Some(groups(pattern).iter().any(|g| g.is_lookaround()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookahead_and_lookbehind_are_found() {
        assert_eq!(has_lookaround("^(?=.*[a-z])[a-z0-9]+$"), Some(true));
        assert_eq!(has_lookaround("^(?!-)[a-z-]+$"), Some(true));
        assert_eq!(has_lookaround("(?<=@)[a-z]+"), Some(true));
        assert_eq!(has_lookaround("(?<!\\\\)x"), Some(true));
    }

    #[test]
    fn plain_patterns_have_no_lookaround() {
        assert_eq!(has_lookaround("^[a-z0-9-]+$"), Some(false));
        assert_eq!(has_lookaround("^(a|b)(?:c)+$"), Some(false));
    }

    #[test]
    fn a_lookahead_opener_inside_a_character_class_is_not_a_lookaround() {
        assert_eq!(has_lookaround("^[(?=]+$"), Some(false));
        assert!(
            "^[(?=]+$".contains("(?="),
            "a substring search would misfire here"
        );
    }

    #[test]
    fn an_escaped_paren_is_not_a_lookaround() {
        assert_eq!(has_lookaround(r"^\(\?=x\)$"), Some(false));
        assert_eq!(
            has_lookaround(r"^\\(?=x)$"),
            Some(true),
            "escaped backslash, real group"
        );
    }

    #[test]
    fn a_named_group_is_not_a_lookbehind() {
        assert_eq!(has_lookaround("^(?<year>[0-9]{4})$"), Some(false));
        assert_eq!(groups("(?<year>x)"), [GroupKind::Named]);
    }

    #[test]
    fn the_empty_class_closes_at_its_first_bracket() {
        // `[]` is an empty class in ECMA-262, so the group after it is real.
        assert_eq!(
            groups("[](?=a)"),
            [GroupKind::Lookahead { negative: false }]
        );
    }

    #[test]
    fn an_invalid_pattern_is_reported_as_unknown() {
        assert_eq!(has_lookaround("(?=unclosed"), None);
        assert_eq!(has_lookaround("[z-a]"), None);
    }

    #[test]
    fn annex_b_patterns_are_valid_without_the_u_flag() {
        // `\-` outside a class is an identity escape only in Annex B.
        assert_eq!(has_lookaround(r"^a\-b$"), Some(false));
    }
}
