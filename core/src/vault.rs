//! Card data: PAN and CVV generation from the injected randomness, AES-256-GCM encryption at rest with
//! the card id as associated data, and single-use reveal tokens of which only a hash is stored.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::env::{Env, Timestamp};
use crate::error::{ApiError, ApiResult};
use crate::keys;
use crate::records;
use crate::store::Tx;

/// A card's secrets in clear: only ever held in memory while issuing or revealing.
pub struct CardSecrets {
    pub pan: String,
    pub cvv: String,
}

/// What the vault keeps per card: one ciphertext of `pan:cvv` under a fresh nonce.
#[derive(Serialize, Deserialize)]
struct Sealed {
    nonce: String,
    ciphertext: String,
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

pub fn mask(pan: &str) -> String {
    format!("{}******{}", &pan[..6], &pan[pan.len() - 4..])
}

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

    pub fn seal(&self, env: &dyn Env, card_id: &str, secrets: &CardSecrets) -> ApiResult<Vec<u8>> {
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
            .map_err(|_| ApiError::Internal)?;
        serde_json::to_vec(&Sealed {
            nonce: hex::encode(nonce),
            ciphertext: hex::encode(ciphertext),
        })
        .map_err(|_| ApiError::Internal)
    }

    /// Fails on any tampering with the ciphertext, the nonce or the card id it was sealed for.
    pub fn open(&self, card_id: &str, sealed: &[u8]) -> ApiResult<CardSecrets> {
        let sealed: Sealed = serde_json::from_slice(sealed).map_err(|_| ApiError::Internal)?;
        let nonce = hex::decode(&sealed.nonce).map_err(|_| ApiError::Internal)?;
        let ciphertext = hex::decode(&sealed.ciphertext).map_err(|_| ApiError::Internal)?;
        if nonce.len() != 12 {
            return Err(ApiError::Internal);
        }
        let plain = self
            .cipher
            .decrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: &ciphertext,
                    aad: card_id.as_bytes(),
                },
            )
            .map_err(|_| ApiError::Internal)?;
        let text = String::from_utf8(plain).map_err(|_| ApiError::Internal)?;
        let (pan, cvv) = text.split_once(':').ok_or(ApiError::Internal)?;
        Ok(CardSecrets {
            pan: pan.to_string(),
            cvv: cvv.to_string(),
        })
    }

    /// A keyed hash of the PAN for the uniqueness index; without the key it cannot be brute-forced.
    fn pan_fingerprint(&self, pan: &str) -> ApiResult<String> {
        let mut mac =
            <Hmac<Sha256> as Mac>::new_from_slice(&self.key).map_err(|_| ApiError::Internal)?;
        mac.update(pan.as_bytes());
        Ok(hex::encode(mac.finalize().into_bytes()))
    }

    /// Generates secrets whose PAN no other card has, stores them sealed, and returns them.
    pub fn issue(
        &self,
        tx: &mut dyn Tx,
        env: &dyn Env,
        client: &str,
        card_id: &str,
        visa: bool,
    ) -> ApiResult<CardSecrets> {
        for _ in 0..32 {
            let pan = generate_pan(env, visa);
            let index = keys::key(keys::PAN_INDEX, &[&self.pan_fingerprint(&pan)?]);
            if tx.get(&index)?.is_some() {
                continue;
            }
            tx.put(&index, card_id.as_bytes())?;
            let secrets = CardSecrets {
                pan,
                cvv: generate_cvv(env),
            };
            let sealed = self.seal(env, card_id, &secrets)?;
            tx.put(&keys::key(keys::VAULT, &[client, card_id]), &sealed)?;
            return Ok(secrets);
        }
        Err(ApiError::Internal)
    }

    pub fn reveal(&self, tx: &mut dyn Tx, client: &str, card_id: &str) -> ApiResult<CardSecrets> {
        let sealed = tx
            .get(&keys::key(keys::VAULT, &[client, card_id]))?
            .ok_or(ApiError::Internal)?;
        self.open(card_id, &sealed)
    }
}

/// Destroys a card's sealed PAN and CVV (its PAN stays reserved in the keyed index).
pub fn destroy(tx: &mut dyn Tx, client: &str, card_id: &str) -> ApiResult<()> {
    tx.delete(&keys::key(keys::VAULT, &[client, card_id]))?;
    Ok(())
}

#[derive(Serialize, Deserialize)]
struct TokenRecord {
    hash: String,
    expires_at: i64,
}

fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Creates a reveal token for one card of one client; returns the token and its expiry.
pub fn create_token(
    tx: &mut dyn Tx,
    env: &dyn Env,
    client: &str,
    card_id: &str,
    ttl_secs: i64,
) -> ApiResult<(String, Timestamp)> {
    let mut raw = [0u8; 32];
    env.fill_random(&mut raw);
    let token = format!("rvl_{}", hex::encode(raw));
    let hash = hex::encode(token_hash(&token));
    let expires = env.now().plus_seconds(ttl_secs);
    let record = TokenRecord {
        hash: hash.clone(),
        expires_at: expires.millis(),
    };
    records::put(
        tx,
        &keys::key(keys::REVEAL_TOKEN, &[client, card_id, &hash]),
        &record,
    )?;
    Ok((token, expires))
}

/// Consumes a token of this card: valid once, before its expiry. Expired tokens of the card are
/// removed on the way. Anything else is `invalid_token`.
pub fn consume_token(
    tx: &mut dyn Tx,
    now: Timestamp,
    client: &str,
    card_id: &str,
    token: Option<&str>,
) -> ApiResult<()> {
    let presented = token.map(token_hash);
    let prefix = keys::prefix(keys::REVEAL_TOKEN, &[client, card_id]);
    let mut found = false;
    for (key, value) in crate::store::scan_prefix(tx, &prefix)? {
        let record: TokenRecord = serde_json::from_slice(&value).map_err(|_| ApiError::Internal)?;
        let stored = hex::decode(&record.hash).map_err(|_| ApiError::Internal)?;
        let matches = presented.is_some_and(|p| bool::from(p.as_slice().ct_eq(&stored)));
        let live = record.expires_at > now.millis();
        if matches && live {
            found = true;
            tx.delete(&key)?;
        } else if !live {
            tx.delete(&key)?;
        }
    }
    if found {
        Ok(())
    } else {
        Err(ApiError::InvalidToken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::DeterministicEnv;
    use crate::store::MemStore;

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
        assert!(!String::from_utf8_lossy(&sealed).contains("4111111111111111"));
        let opened = vault.open("card-a", &sealed).unwrap();
        assert_eq!(
            (opened.pan.as_str(), opened.cvv.as_str()),
            ("4111111111111111", "123")
        );
        // Another card id as associated data fails.
        assert!(vault.open("card-b", &sealed).is_err());
        // A flipped ciphertext bit fails.
        let mut s: Sealed = serde_json::from_slice(&sealed).unwrap();
        let mut ct = hex::decode(&s.ciphertext).unwrap();
        ct[0] ^= 1;
        s.ciphertext = hex::encode(ct);
        assert!(
            vault
                .open("card-a", &serde_json::to_vec(&s).unwrap())
                .is_err()
        );
        // Another key fails.
        assert!(Vault::new(&[8u8; 32]).open("card-a", &sealed).is_err());
        // Two seals of the same secrets use fresh nonces.
        assert_ne!(vault.seal(&env, "card-a", &secrets).unwrap(), sealed);
    }

    #[test]
    fn tokens_are_single_use_bound_and_expire() {
        let env = DeterministicEnv::default();
        let mut tx = MemStore::new();
        let (t, exp) = create_token(&mut tx, &env, "c", "card1", 120).unwrap();
        assert_eq!(exp, env.now().plus_seconds(120));
        assert!(
            !tx.iter()
                .any(|(k, v)| k.windows(t.len()).any(|w| w == t.as_bytes())
                    || v.windows(t.len()).any(|w| w == t.as_bytes()))
        );
        let now = env.now();
        assert_eq!(
            consume_token(&mut tx, now, "c", "card2", Some(&t)),
            Err(ApiError::InvalidToken)
        );
        assert_eq!(
            consume_token(&mut tx, now, "other", "card1", Some(&t)),
            Err(ApiError::InvalidToken)
        );
        assert_eq!(
            consume_token(&mut tx, now, "c", "card1", None),
            Err(ApiError::InvalidToken)
        );
        assert_eq!(
            consume_token(&mut tx, now, "c", "card1", Some("rvl_nope")),
            Err(ApiError::InvalidToken)
        );
        assert_eq!(consume_token(&mut tx, now, "c", "card1", Some(&t)), Ok(()));
        assert_eq!(
            consume_token(&mut tx, now, "c", "card1", Some(&t)),
            Err(ApiError::InvalidToken)
        );
        let (t2, _) = create_token(&mut tx, &env, "c", "card1", 120).unwrap();
        let late = now.plus_seconds(120);
        assert_eq!(
            consume_token(&mut tx, late, "c", "card1", Some(&t2)),
            Err(ApiError::InvalidToken)
        );
        let just_in_time = Timestamp(late.millis() - 1);
        let (t3, _) = create_token(&mut tx, &env, "c", "card1", 120).unwrap();
        assert_eq!(
            consume_token(&mut tx, just_in_time, "c", "card1", Some(&t3)),
            Ok(())
        );
    }
}
