//! Content hashes (the one module wrapping `sha2`): ledger pins, report
//! hashes and the hash suffix of renamed names. Plain data, bottom layer.

use sha2::{Digest, Sha256};

/// Lowercase hex sha256 of a string.
pub fn sha256_hex(s: &str) -> String {
    sha256_bytes_hex(s.as_bytes())
}

/// Lowercase hex sha256 of bytes (a fetched file's content).
pub(crate) fn sha256_bytes_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().fold(String::with_capacity(64), |mut acc, b| {
        use std::fmt::Write as _;
        let _ = write!(acc, "{b:02x}");
        acc
    })
}
