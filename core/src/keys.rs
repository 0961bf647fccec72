//! The storage key layout. Every key is a tag and its parts joined by 0x00, so one client's records of
//! one kind form a contiguous, prefix-scannable range. Client names cannot contain 0x00.

pub const API_KEY: &str = "apikey";
pub const ID_STATE: &str = "idstate";
pub const ACCOUNT: &str = "acct";
pub const ACCOUNT_DETAIL: &str = "detail";
pub const LEDGER: &str = "ledger";
pub const IDEMPOTENCY: &str = "idem";
pub const IDEMPOTENCY_EXPIRY: &str = "idemexp";
pub const CARD_HOLDER: &str = "holder";
pub const FILE: &str = "file";
pub const CARD: &str = "card";
pub const VAULT: &str = "vault";
pub const PAN_INDEX: &str = "pan";
pub const REVEAL_TOKEN: &str = "token";

/// `tag 0 part 0 part ...`
pub fn key(tag: &str, parts: &[&str]) -> Vec<u8> {
    let mut k = Vec::with_capacity(tag.len() + parts.iter().map(|p| p.len() + 1).sum::<usize>());
    k.extend_from_slice(tag.as_bytes());
    for p in parts {
        k.push(0);
        k.extend_from_slice(p.as_bytes());
    }
    k
}

/// The prefix of every key `tag 0 parts... 0 *`.
pub fn prefix(tag: &str, parts: &[&str]) -> Vec<u8> {
    let mut k = key(tag, parts);
    k.push(0);
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_do_not_overlap_between_clients() {
        let a = key(ACCOUNT, &["ab", "1"]);
        assert!(a.starts_with(&prefix(ACCOUNT, &["ab"])));
        assert!(!a.starts_with(&prefix(ACCOUNT, &["a"])));
    }
}
