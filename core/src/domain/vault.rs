//! Card data: PAN and CVV generation from the injected randomness, AES-256-GCM encryption at rest with
//! the card id as associated data, and single-use reveal tokens of which only a hash is stored.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Result, Scope};
use crate::env::{Env, Timestamp};
use crate::error::ApiError;
use crate::storage::codec::{self, Record};
use crate::storage::{Direction, StoreError, Tx, keys};

/// A card's secrets in clear: only ever held in memory while issuing or revealing.
pub struct CardSecrets {
    pub pan: String,
    pub cvv: String,
}

/// What the vault keeps per card: one ciphertext of `pan:cvv` under a fresh nonce.
#[derive(Debug, Serialize, Deserialize)]
struct Sealed {
    nonce: [u8; 12],
    ciphertext: Vec<u8>,
}

impl Record for Sealed {
    const VERSION: u8 = 1;
    const NAME: &'static str = "sealed card";
}

/// Parses a vault key given as 64 hex characters (surrounding whitespace ignored).
pub fn parse_key_hex(text: &str) -> std::result::Result<[u8; 32], String> {
    let bytes = hex::decode(text.trim())
        .map_err(|_| "the vault key must be 64 hex characters (32 bytes)".to_string())?;
    bytes
        .try_into()
        .map_err(|_| "the vault key must be 64 hex characters (32 bytes)".to_string())
}

/// A uniformly random integer below `bound`, by rejection sampling (no modulo bias).
fn random_below(env: &dyn Env, bound: u32) -> u32 {
    let zone = u32::MAX - (u32::MAX % bound);
    loop {
        let mut b = [0u8; 4];
        env.fill_random(&mut b);
        let v = u32::from_le_bytes(b);
        if v < zone {
            return v % bound;
        }
    }
}

fn random_digits(env: &dyn Env, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'0' + random_below(env, 10) as u8))
        .collect()
}

/// The Luhn check digit for `payload` (the number without its last digit).
pub fn luhn_digit(payload: &str) -> char {
    let sum: u32 = payload
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 0 {
                let x = d * 2;
                if x > 9 { x - 9 } else { x }
            } else {
                d
            }
        })
        .sum();
    char::from(b'0' + ((10 - sum % 10) % 10) as u8)
}

pub fn luhn_valid(number: &str) -> bool {
    number.len() >= 2
        && number.bytes().all(|b| b.is_ascii_digit())
        && luhn_digit(&number[..number.len() - 1]) == number.chars().last().unwrap_or('x')
}

/// A 16-digit Luhn-valid PAN: Visa starts with 4, MasterCard with 51 to 55.
pub fn generate_pan(env: &dyn Env, visa: bool) -> String {
    let prefix = if visa {
        "4".to_string()
    } else {
        format!("5{}", 1 + random_below(env, 5))
    };
    let payload = format!("{prefix}{}", random_digits(env, 15 - prefix.len()));
    let check = luhn_digit(&payload);
    format!("{payload}{check}")
}

pub fn generate_cvv(env: &dyn Env) -> String {
    random_digits(env, 3)
}

/// First 6, asterisks, last 4.
pub fn mask(pan: &str) -> String {
    format!("{}******{}", &pan[..6], last4(pan))
}

pub fn last4(pan: &str) -> &str {
    &pan[pan.len().saturating_sub(4)..]
}

fn corrupt(what: &str) -> ApiError {
    ApiError::internal(format!("vault: {what}"))
}

/// Why a vault key cannot serve the stored data.
#[derive(Debug)]
pub enum VaultKeyError {
    /// The data was sealed with another key.
    Mismatch,
    Storage(StoreError),
}

impl From<StoreError> for VaultKeyError {
    fn from(e: StoreError) -> VaultKeyError {
        VaultKeyError::Storage(e)
    }
}

impl From<VaultKeyError> for ApiError {
    fn from(e: VaultKeyError) -> ApiError {
        match e {
            VaultKeyError::Mismatch => ApiError::NotConfigured {
                code: KEY_MISMATCH,
                message: MISMATCH.into(),
            },
            VaultKeyError::Storage(e) => e.into(),
        }
    }
}

impl std::fmt::Display for VaultKeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VaultKeyError::Mismatch => f.write_str(MISMATCH),
            VaultKeyError::Storage(e) => write!(f, "cannot check the vault key: {e}"),
        }
    }
}

/// The error code of a vault key that is missing (503).
pub const NOT_CONFIGURED: &str = "not_configured";
/// The error code of a vault key that did not seal the stored card data (503).
pub const KEY_MISMATCH: &str = "vault_key_mismatch";

const MISMATCH: &str = "the configured vault key is not the key the stored card data was sealed with; \
     configure the original key (card numbers cannot be read without it)";

pub struct Vault {
    cipher: Aes256Gcm,
    key: [u8; 32],
}

impl Vault {
    pub fn new(key: &[u8; 32]) -> Vault {
        Vault {
            cipher: Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key)),
            key: *key,
        }
    }

    fn seal(&self, env: &dyn Env, card_id: &str, secrets: &CardSecrets) -> Result<Sealed> {
        let mut nonce = [0u8; 12];
        env.fill_random(&mut nonce);
        let plaintext = format!("{}:{}", secrets.pan, secrets.cvv);
        let ciphertext = self
            .cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: plaintext.as_bytes(),
                    aad: card_id.as_bytes(),
                },
            )
            .map_err(|_| corrupt("encryption failed"))?;
        Ok(Sealed { nonce, ciphertext })
    }

    /// Fails on any tampering with the ciphertext, the nonce or the card id it was sealed for.
    fn open(&self, card_id: &str, sealed: &Sealed) -> Result<CardSecrets> {
        let plain = self
            .cipher
            .decrypt(
                Nonce::from_slice(&sealed.nonce),
                Payload {
                    msg: &sealed.ciphertext,
                    aad: card_id.as_bytes(),
                },
            )
            .map_err(|_| corrupt("the card data does not open with this key"))?;
        let text = String::from_utf8(plain).map_err(|_| corrupt("card data is not text"))?;
        let (pan, cvv) = text
            .split_once(':')
            .ok_or_else(|| corrupt("card data has no separator"))?;
        Ok(CardSecrets {
            pan: pan.to_string(),
            cvv: cvv.to_string(),
        })
    }

    /// Identifies the key without revealing it: stored with the data so that a different key is
    /// caught at once instead of failing every reveal.
    pub fn fingerprint(&self) -> String {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key)
            .expect("HMAC takes keys of any length");
        mac.update(b"cards vault key fingerprint v1");
        hex::encode(&mac.finalize().into_bytes()[..16])
    }

    /// Checks the key against the fingerprint stored with the data; with none stored yet, against one
    /// sealed card if there is any (then stores this key's fingerprint). Without card data any key
    /// will do: the first card issued stores its fingerprint.
    pub fn check_key(&self, tx: &mut dyn Tx) -> std::result::Result<(), VaultKeyError> {
        let ours = self.fingerprint();
        let key = keys::vault_key_fingerprint();
        if let Some(stored) = tx.get(&key)? {
            return if stored == ours.as_bytes() {
                Ok(())
            } else {
                Err(VaultKeyError::Mismatch)
            };
        }
        let start = keys::sealed_cards();
        let end = crate::storage::prefix_end(&start);
        if let Some((k, v)) = tx.scan(&start, &end, Direction::Forward, 1)?.pop() {
            let card_id = k.rsplit(|b| *b == 0).next().unwrap_or_default();
            let card_id = std::str::from_utf8(card_id).map_err(|_| VaultKeyError::Mismatch)?;
            let sealed: Sealed = codec::decode(&v).map_err(|_| VaultKeyError::Mismatch)?;
            self.open(card_id, &sealed)
                .map_err(|_| VaultKeyError::Mismatch)?;
            tx.put(&key, ours.as_bytes())?;
        }
        Ok(())
    }

    /// A keyed hash of the PAN for the uniqueness index; without the key it cannot be brute-forced.
    fn pan_fingerprint(&self, pan: &str) -> String {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key)
            .expect("HMAC takes keys of any length");
        mac.update(pan.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// Generates secrets whose PAN no other card has, stores them sealed, and returns them.
    pub fn issue(&self, s: &mut Scope, card_id: &str, visa: bool) -> Result<CardSecrets> {
        for _ in 0..32 {
            let pan = generate_pan(s.env, visa);
            let index = keys::pan_index(&self.pan_fingerprint(&pan));
            if s.tx.get(&index)?.is_some() {
                continue;
            }
            s.tx.put(&index, card_id.as_bytes())?;
            let secrets = CardSecrets {
                pan,
                cvv: generate_cvv(s.env),
            };
            let sealed = self.seal(s.env, card_id, &secrets)?;
            codec::put(s.tx, &keys::sealed_card(s.client, card_id), &sealed)?;
            let fingerprint = keys::vault_key_fingerprint();
            if s.tx.get(&fingerprint)?.is_none() {
                s.tx.put(&fingerprint, self.fingerprint().as_bytes())?;
            }
            return Ok(secrets);
        }
        Err(ApiError::internal("vault: no unused PAN after 32 tries"))
    }

    pub fn reveal(&self, s: &mut Scope, card_id: &str) -> Result<CardSecrets> {
        let sealed: Sealed = codec::get(s.tx, &keys::sealed_card(s.client, card_id))?
            .ok_or_else(|| corrupt("a live card has no sealed data"))?;
        self.open(card_id, &sealed)
    }
}

/// A secret other than card data (a decision endpoint's signing secret), sealed under the vault
/// key like card data, with associated data naming what it belongs to (so it opens nowhere else).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SealedText {
    nonce: [u8; 12],
    ciphertext: Vec<u8>,
}

impl Vault {
    pub fn seal_text(&self, env: &dyn Env, aad: &str, text: &str) -> Result<SealedText> {
        let mut nonce = [0u8; 12];
        env.fill_random(&mut nonce);
        let payload = Payload {
            msg: text.as_bytes(),
            aad: aad.as_bytes(),
        };
        let ciphertext = self
            .cipher
            .encrypt(Nonce::from_slice(&nonce), payload)
            .map_err(|_| corrupt("encryption failed"))?;
        Ok(SealedText { nonce, ciphertext })
    }

    pub fn open_text(&self, aad: &str, sealed: &SealedText) -> Result<String> {
        let payload = Payload {
            msg: &sealed.ciphertext,
            aad: aad.as_bytes(),
        };
        let plain = self
            .cipher
            .decrypt(Nonce::from_slice(&sealed.nonce), payload)
            .map_err(|_| corrupt("a sealed secret does not open with this key"))?;
        String::from_utf8(plain).map_err(|_| corrupt("a sealed secret is not text"))
    }
}

/// Destroys a card's sealed PAN and CVV (its PAN stays reserved in the keyed index).
pub fn destroy(s: &mut Scope, card_id: &str) -> Result<()> {
    s.tx.delete(&keys::sealed_card(s.client, card_id))?;
    Ok(())
}

/// A reveal token, stored under the hash of the token: never the token itself.
#[derive(Serialize, Deserialize)]
struct TokenRecord {
    expires_at: Timestamp,
}

impl Record for TokenRecord {
    const VERSION: u8 = 1;
    const NAME: &'static str = "reveal token";
}

fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Expired tokens removed per new token, so a card's token list stays short without a full sweep.
const TOKEN_SWEEP: usize = 16;

/// Creates a reveal token for one card of the caller; returns the token and its expiry.
pub fn create_token(s: &mut Scope, card_id: &str, ttl_secs: i64) -> Result<(String, Timestamp)> {
    let prefix = keys::reveal_tokens(s.client, card_id);
    let end = crate::storage::prefix_end(&prefix);
    for (key, value) in s.tx.scan(&prefix, &end, Direction::Forward, TOKEN_SWEEP)? {
        let t: TokenRecord = codec::decode(&value)?;
        if t.expires_at <= s.now {
            s.tx.delete(&key)?;
        }
    }
    let mut raw = [0u8; 32];
    s.env.fill_random(&mut raw);
    let token = format!("rvl_{}", hex::encode(raw));
    let expires = s.now.plus_seconds(ttl_secs);
    codec::put(
        s.tx,
        &keys::reveal_token(s.client, card_id, &token_hash(&token)),
        &TokenRecord {
            expires_at: expires,
        },
    )?;
    Ok((token, expires))
}

/// Consumes a token of this card: valid once, before its expiry; anything else is `invalid_token`.
/// The lookup is by the token's hash, so it costs one read whatever the card's token count.
pub fn consume_token(s: &mut Scope, card_id: &str, token: Option<&str>) -> Result<()> {
    let token = token.ok_or(ApiError::InvalidToken)?;
    let key = keys::reveal_token(s.client, card_id, &token_hash(token));
    let record: TokenRecord = codec::get(s.tx, &key)?.ok_or(ApiError::InvalidToken)?;
    s.tx.delete(&key)?;
    if record.expires_at > s.now {
        Ok(())
    } else {
        Err(ApiError::InvalidToken)
    }
}

/// A secret other than card data (a webhook endpoint's signing secret) sealed under the vault key,
/// bound to `context` (what it belongs to) as associated data, so it cannot be moved to another record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SealedSecret {
    nonce: [u8; 12],
    ciphertext: Vec<u8>,
}

impl Vault {
    pub fn seal_secret(&self, env: &dyn Env, context: &str, secret: &[u8]) -> Result<SealedSecret> {
        let mut nonce = [0u8; 12];
        env.fill_random(&mut nonce);
        let ciphertext = self
            .cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: secret,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| corrupt("encryption failed"))?;
        Ok(SealedSecret { nonce, ciphertext })
    }

    pub fn open_secret(&self, context: &str, sealed: &SealedSecret) -> Result<Vec<u8>> {
        self.cipher
            .decrypt(
                Nonce::from_slice(&sealed.nonce),
                Payload {
                    msg: &sealed.ciphertext,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| corrupt("a sealed secret does not open with this key"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::IdGen;
    use crate::env::DeterministicEnv;
    use crate::storage::MemStore;

    #[test]
    fn pans_are_luhn_valid_with_brand_prefixes() {
        let env = DeterministicEnv::default();
        for _ in 0..2000 {
            let visa = generate_pan(&env, true);
            assert_eq!(visa.len(), 16);
            assert!(visa.starts_with('4') && luhn_valid(&visa), "{visa}");
            let mc = generate_pan(&env, false);
            assert_eq!(mc.len(), 16);
            assert!(("51".."56").contains(&&mc[..2]) && luhn_valid(&mc), "{mc}");
        }
        assert!(luhn_valid("4111111111111111"));
        assert!(!luhn_valid("4111111111111112"));
        assert_eq!(mask("4111111111111111"), "411111******1111");
    }

    #[test]
    fn mastercard_prefixes_cover_51_to_55() {
        let env = DeterministicEnv::default();
        let mut seen: Vec<String> = (0..500)
            .map(|_| generate_pan(&env, false)[..2].to_string())
            .collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen, ["51", "52", "53", "54", "55"]);
    }

    #[test]
    fn sealing_round_trips_and_detects_tampering() {
        let env = DeterministicEnv::default();
        let vault = Vault::new(&[7u8; 32]);
        let secrets = CardSecrets {
            pan: "4111111111111111".into(),
            cvv: "123".into(),
        };
        let sealed = vault.seal(&env, "card-a", &secrets).unwrap();
        let bytes = codec::encode(&sealed).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("4111111111111111"));
        let opened = vault.open("card-a", &sealed).unwrap();
        assert_eq!(
            (opened.pan.as_str(), opened.cvv.as_str()),
            ("4111111111111111", "123")
        );
        // Another card id as associated data fails.
        assert!(vault.open("card-b", &sealed).is_err());
        // A flipped ciphertext bit fails.
        let mut flipped: Sealed = codec::decode(&bytes).unwrap();
        flipped.ciphertext[0] ^= 1;
        assert!(vault.open("card-a", &flipped).is_err());
        // Another key fails.
        assert!(Vault::new(&[8u8; 32]).open("card-a", &sealed).is_err());
    }

    #[test]
    fn vault_keys_parse_from_hex() {
        let hex64 = "ab".repeat(32);
        assert_eq!(parse_key_hex(&format!(" {hex64}\n")).unwrap(), [0xab; 32]);
        assert!(parse_key_hex("abcd").is_err());
        assert!(parse_key_hex(&"zz".repeat(32)).is_err());
    }

    #[test]
    fn a_vault_key_is_checked_against_the_data_it_sealed() {
        let env = DeterministicEnv::default();
        let ids = IdGen::new(&env);
        let (a, b) = (Vault::new(&[1u8; 32]), Vault::new(&[2u8; 32]));
        let mut tx = MemStore::new();
        // No card data: any key will do, and nothing is written.
        assert!(b.check_key(&mut tx).is_ok());
        assert_eq!(tx.get(&keys::vault_key_fingerprint()).unwrap(), None);
        a.issue(
            &mut scope(&mut tx, &env, &ids, "c", env.now()),
            "card1",
            true,
        )
        .unwrap();
        assert!(a.check_key(&mut tx).is_ok());
        assert!(matches!(b.check_key(&mut tx), Err(VaultKeyError::Mismatch)));
        // Data sealed before fingerprints were kept: the key is tried on a sealed card.
        tx.delete(&keys::vault_key_fingerprint()).unwrap();
        assert!(matches!(b.check_key(&mut tx), Err(VaultKeyError::Mismatch)));
        assert!(a.check_key(&mut tx).is_ok());
        assert_eq!(
            tx.get(&keys::vault_key_fingerprint()).unwrap(),
            Some(a.fingerprint().into_bytes())
        );
        assert_ne!(a.fingerprint(), b.fingerprint());
    }

    fn scope<'a>(
        tx: &'a mut MemStore,
        env: &'a DeterministicEnv,
        ids: &'a IdGen,
        client: &'a str,
        now: Timestamp,
    ) -> Scope<'a> {
        Scope {
            tx,
            client,
            now,
            ids,
            env,
        }
    }

    #[test]
    fn tokens_are_single_use_bound_and_expire() {
        let env = DeterministicEnv::default();
        let ids = IdGen::new(&env);
        let mut tx = MemStore::new();
        let now = env.now();
        let (t, exp) =
            create_token(&mut scope(&mut tx, &env, &ids, "c", now), "card1", 120).unwrap();
        assert_eq!(exp, now.plus_seconds(120));
        assert!(
            !tx.iter()
                .any(|(k, v)| k.windows(t.len()).any(|w| w == t.as_bytes())
                    || v.windows(t.len()).any(|w| w == t.as_bytes()))
        );
        let consume =
            |tx: &mut MemStore, client: &str, card: &str, at: Timestamp, token: Option<&str>| {
                consume_token(&mut scope(tx, &env, &ids, client, at), card, token)
            };
        assert_eq!(
            consume(&mut tx, "c", "card2", now, Some(&t)),
            Err(ApiError::InvalidToken)
        );
        assert_eq!(
            consume(&mut tx, "other", "card1", now, Some(&t)),
            Err(ApiError::InvalidToken)
        );
        assert_eq!(
            consume(&mut tx, "c", "card1", now, None),
            Err(ApiError::InvalidToken)
        );
        assert_eq!(
            consume(&mut tx, "c", "card1", now, Some("rvl_nope")),
            Err(ApiError::InvalidToken)
        );
        assert_eq!(consume(&mut tx, "c", "card1", now, Some(&t)), Ok(()));
        assert_eq!(
            consume(&mut tx, "c", "card1", now, Some(&t)),
            Err(ApiError::InvalidToken)
        );
        let (t2, _) =
            create_token(&mut scope(&mut tx, &env, &ids, "c", now), "card1", 120).unwrap();
        let late = now.plus_seconds(120);
        assert_eq!(
            consume(&mut tx, "c", "card1", late, Some(&t2)),
            Err(ApiError::InvalidToken)
        );
        let just_in_time = Timestamp(late.millis() - 1);
        let (t3, _) =
            create_token(&mut scope(&mut tx, &env, &ids, "c", now), "card1", 120).unwrap();
        assert_eq!(
            consume(&mut tx, "c", "card1", just_in_time, Some(&t3)),
            Ok(())
        );
    }

    #[test]
    fn expired_tokens_are_swept_when_a_new_one_is_made() {
        let env = DeterministicEnv::default();
        let ids = IdGen::new(&env);
        let mut tx = MemStore::new();
        let now = env.now();
        for _ in 0..5 {
            create_token(&mut scope(&mut tx, &env, &ids, "c", now), "card1", 1).unwrap();
        }
        let later = now.plus_seconds(10);
        create_token(&mut scope(&mut tx, &env, &ids, "c", later), "card1", 120).unwrap();
        let left =
            crate::storage::scan_prefix(&mut tx, &keys::reveal_tokens("c", "card1")).unwrap();
        assert_eq!(left.len(), 1);
    }
}
