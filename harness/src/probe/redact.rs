//! Redaction: what a probe writes never holds a credential, an
//! organization, project or account id, or a request id. Applied to every
//! answer before it is parsed, matched, printed or written; the keys the
//! probe sent are removed verbatim, the rest by shape.

use serde_json::Value;

/// What replaces a redacted value.
pub(crate) const REDACTED: &str = "[redacted]";

/// Token prefixes of credentials: redacted whatever follows.
const SECRET_PREFIXES: &[&str] = &[
    "sk-", "sk_", "pk-", "gsk_", "xai-", "AIza", "AKIA", "ASIA", "ya29.",
];

/// Token prefixes of request, message and account ids: redacted when an id
/// follows (six characters or more, one of them a digit), so that a schema
/// word such as `req_body` in an error message stays.
const ID_PREFIXES: &[&str] = &[
    "req_",
    "req-",
    "org-",
    "org_",
    "proj_",
    "msg_",
    "chatcmpl-",
    "resp_",
    "call_",
    "toolu_",
    "user-",
    "acct_",
];

/// JSON members whose string value is an id or a credential, whatever it
/// looks like (compared lower-case).
const ID_KEYS: &[&str] = &[
    "request_id",
    "requestid",
    "request-id",
    "x-request-id",
    "organization",
    "organization_id",
    "org_id",
    "project",
    "project_id",
    "account",
    "account_id",
    "user_id",
    "api_key",
    "apikey",
    "key",
];

/// Phrases after which the next token is a request id.
const ID_PHRASES: &[&str] = &["request id", "request_id", "request-id", "requestid"];

/// Redact a text: every `secret` verbatim (longest first), then
/// credential- and id-shaped tokens, `Bearer` tokens, e-mail addresses and
/// the token after "request id".
pub(crate) fn text(s: &str, secrets: &[&str]) -> String {
    let mut out = s.to_owned();
    let mut secrets: Vec<&str> = secrets.iter().copied().filter(|k| !k.is_empty()).collect();
    secrets.sort_by_key(|k| std::cmp::Reverse(k.len()));
    for k in secrets {
        out = out.replace(k, REDACTED);
    }
    let out = tokens(&out);
    let out = emails(&out);
    after_phrases(&out)
}

/// Redact a JSON value in place: id members by name, every string by
/// [`text`].
pub(crate) fn json(v: &mut Value, secrets: &[&str]) {
    match v {
        Value::String(s) => *s = text(s, secrets),
        Value::Array(items) => items.iter_mut().for_each(|i| json(i, secrets)),
        Value::Object(map) => {
            for (k, val) in map.iter_mut() {
                if val.is_string() && ID_KEYS.contains(&k.to_ascii_lowercase().as_str()) {
                    *val = Value::String(REDACTED.to_owned());
                } else {
                    json(val, secrets);
                }
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Whether a token is a credential or an id.
fn secret_token(t: &str) -> bool {
    if SECRET_PREFIXES
        .iter()
        .any(|p| t.starts_with(p) && t.len() > p.len() + 3)
    {
        return true;
    }
    ID_PREFIXES.iter().any(|p| {
        t.strip_prefix(p)
            .is_some_and(|rest| rest.len() >= 6 && rest.chars().any(|c| c.is_ascii_digit()))
    })
}

/// Replace credential- and id-shaped tokens, and the token after `Bearer`.
fn tokens(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    let mut bearer = false;
    while !rest.is_empty() {
        let start = rest.find(is_token_char).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        if rest.is_empty() {
            break;
        }
        let end = rest.find(|c| !is_token_char(c)).unwrap_or(rest.len());
        let token = &rest[..end];
        // A trailing dot ends a sentence, not the token.
        let core = token.trim_end_matches('.');
        if bearer || secret_token(core) {
            out.push_str(REDACTED);
            out.push_str(&token[core.len()..]);
        } else {
            out.push_str(token);
        }
        bearer = token.eq_ignore_ascii_case("bearer");
        rest = &rest[end..];
    }
    out
}

/// Replace e-mail addresses (`local@domain.tld`).
fn emails(s: &str) -> String {
    let local = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-');
    let domain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-');
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('@') {
        let before = &rest[..at];
        let after = &rest[at + 1..];
        let l = before.len() - before.trim_end_matches(local).len();
        let d = after.find(|c| !domain(c)).unwrap_or(after.len());
        let dom = after[..d].trim_end_matches('.');
        if l > 0 && dom.contains('.') && !dom.starts_with('.') {
            out.push_str(&before[..before.len() - l]);
            out.push_str(REDACTED);
            rest = &after[dom.len()..];
        } else {
            out.push_str(&rest[..=at]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Replace the token after "request id" (any case, with `:`, `=`, quotes
/// or spaces between) when it is eight characters or more.
fn after_phrases(s: &str) -> String {
    let lower = s.to_ascii_lowercase();
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for phrase in ID_PHRASES {
        for (at, _) in lower.match_indices(phrase) {
            let from = at + phrase.len();
            let skip = s[from..]
                .find(|c: char| !(c.is_whitespace() || matches!(c, ':' | '=' | '"' | '\'' | '\\')))
                .unwrap_or(s.len() - from);
            let start = from + skip;
            let len = s[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-')))
                .unwrap_or(s.len() - start);
            if len >= 8 && !s[start..start + len].starts_with(REDACTED) {
                cuts.push((start, start + len));
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    for (a, b) in cuts {
        if a < at {
            continue;
        }
        out.push_str(&s[at..a]);
        out.push_str(REDACTED);
        at = b;
    }
    out.push_str(&s[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_sent_key_is_removed_verbatim_even_inside_words() {
        assert_eq!(
            text(
                "Incorrect API key provided: canary123xyz.",
                &["canary123xyz"]
            ),
            "Incorrect API key provided: [redacted]."
        );
    }

    #[test]
    fn credential_and_id_shaped_tokens_are_removed() {
        let cases = [
            ("key sk-proj-abc123def456 bad", "key [redacted] bad"),
            ("Bearer abc.def-ghi", "Bearer [redacted]"),
            (
                "in organization org-AbC123dEf456 on",
                "in organization [redacted] on",
            ),
            (
                "request req_011CSHoEeqs5C35K2UUqR7Fy.",
                "request [redacted].",
            ),
            ("id chatcmpl-9x8y7z6w5v", "id [redacted]"),
            ("mail ops@example.com now", "mail [redacted] now"),
            ("(request id: 7f9c2b1e44aa)", "(request id: [redacted])"),
            ("AIzaSyD-abcdefghijkl", "[redacted]"),
        ];
        for (input, want) in cases {
            assert_eq!(text(input, &[]), want, "{input}");
        }
    }

    #[test]
    fn schema_words_in_messages_stay() {
        for keep in [
            "Unknown name \"req_body\" at 'tools[0].function_declarations[0].parameters'",
            "Invalid schema for function 'get_user_profile': user-facing text",
            "properties.user_id: format 'email' is not supported",
            "tools.0.custom.input_schema: JSON schema is invalid",
        ] {
            assert_eq!(text(keep, &[]), keep);
        }
    }

    #[test]
    fn id_members_are_redacted_by_name_whatever_their_shape() {
        let mut v = json!({
            "type": "error",
            "error": {"type": "invalid_request_error", "message": "bad org-Zz9Yy8Xx7Ww6"},
            "request_id": "abc",
            "organization": "acme",
        });
        json(&mut v, &[]);
        assert_eq!(
            v,
            json!({
                "type": "error",
                "error": {"type": "invalid_request_error", "message": "bad [redacted]"},
                "request_id": "[redacted]",
                "organization": "[redacted]",
            })
        );
    }
}
