//! Card data: PAN and CVV generation from the injected randomness, AES-256-GCM encryption at rest with
//! the card id as associated data, and single-use reveal tokens of which only a hash is stored.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use super::{Result, Scope};
use crate::env::{Env, Timestamp};
use crate::error::ApiError;
use crate::storage::codec::{self, Record};
use crate::storage::{Direction, StoreError, Tx, for_each_page, format, keys};

/// Entries a walk over every card's sealed data (or PAN index) reads at a time.
const PAGE: usize = 1024;

/// A card's secrets in clear: only ever held in memory while issuing or revealing, and wiped when
/// dropped.
pub struct CardSecrets {
    pub pan: String,
    pub cvv: String,
}

impl Drop for CardSecrets {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.pan.zeroize();
        self.cvv.zeroize();
    }
}

/// What the vault keeps per card: one ciphertext of `pan:cvv` under a fresh nonce, and the id of
/// the key that sealed it (empty: the store's original key, for entries written before key ids).
#[derive(Debug, Serialize, Deserialize)]
struct Sealed {
    key_id: String,
    nonce: [u8; 12],
    ciphertext: Vec<u8>,
}

impl Record for Sealed {
    const VERSION: u8 = 2;
    const NAME: &'static str = "sealed card";

    fn older(version: u8, rest: &[u8]) -> Option<std::result::Result<Self, postcard::Error>> {
        (version == 1).then(|| {
            postcard::from_bytes::<SealedV1>(rest).map(|v| Sealed {
                key_id: String::new(),
                nonce: v.nonce,
                ciphertext: v.ciphertext,
            })
        })
    }
}

/// A sealed card as version 1 stored it (before key rotation): always under the original key.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
struct SealedV1 {
    nonce: [u8; 12],
    ciphertext: Vec<u8>,
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
    /// Stored data was sealed with these keys (ids), which are not configured.
    Mismatch(Vec<String>),
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
            VaultKeyError::Mismatch(ids) => ApiError::NotConfigured {
                code: KEY_MISMATCH,
                message: mismatch(&ids),
            },
            VaultKeyError::Storage(e) => e.into(),
        }
    }
}

impl std::fmt::Display for VaultKeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VaultKeyError::Mismatch(ids) => f.write_str(&mismatch(ids)),
            VaultKeyError::Storage(e) => write!(f, "cannot check the vault key: {e}"),
        }
    }
}

/// The error code of a vault key that is missing (503).
pub const NOT_CONFIGURED: &str = "not_configured";
/// The error code of a vault key that did not seal the stored card data (503).
pub const KEY_MISMATCH: &str = "vault_key_mismatch";

fn mismatch(ids: &[String]) -> String {
    let which = if ids.is_empty() {
        String::new()
    } else {
        format!(" (key id {})", ids.join(", "))
    };
    format!(
        "the stored card data was sealed with a vault key that is not configured{which}; \
         configure it (card numbers cannot be read without it), see README \"Card data security\""
    )
}

/// One vault key: its id (the first 16 hex digits of its fingerprint), its cipher, and the key
/// itself (for the keyed hashes), wiped from memory when dropped.
struct VaultKey {
    id: String,
    cipher: Aes256Gcm,
    key: Zeroizing<[u8; 32]>,
}

impl VaultKey {
    fn new(key: &[u8; 32]) -> VaultKey {
        let mut k = VaultKey {
            id: String::new(),
            cipher: Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key)),
            key: Zeroizing::new(*key),
        };
        k.id = key_id(&k.fingerprint());
        k
    }

    fn fingerprint(&self) -> String {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&*self.key)
            .expect("HMAC takes keys of any length");
        mac.update(b"cards vault key fingerprint v1");
        hex::encode(&mac.finalize().into_bytes()[..16])
    }

    /// The PAN's keyed hash under this vault key: what format 7 indexed PANs by (one index entry
    /// per card under the key that sealed it), read now only to re-key that index and to look up
    /// the entries of cards destroyed before it was re-keyed.
    fn pan_fingerprint(&self, pan: &str) -> String {
        pan_hmac(&self.key, pan)
    }

    fn open(&self, card_id: &str, sealed: &Sealed) -> Result<CardSecrets> {
        let plain = Zeroizing::new(
            self.cipher
                .decrypt(
                    Nonce::from_slice(&sealed.nonce),
                    Payload {
                        msg: &sealed.ciphertext,
                        aad: card_id.as_bytes(),
                    },
                )
                .map_err(|_| corrupt("the card data does not open with this key"))?,
        );
        let text = std::str::from_utf8(&plain).map_err(|_| corrupt("card data is not text"))?;
        let (pan, cvv) = text
            .split_once(':')
            .ok_or_else(|| corrupt("card data has no separator"))?;
        Ok(CardSecrets {
            pan: pan.to_string(),
            cvv: cvv.to_string(),
        })
    }
}

/// A keyed hash of the PAN for the uniqueness index; without the key it cannot be brute-forced.
fn pan_hmac(key: &[u8; 32], pan: &str) -> String {
    let mut mac =
        <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(pan.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// What the store keeps of its PAN-index key (`keys::pan_index_key`): the key sealed under a vault
/// key (rotated with the card data: a rotation re-seals this one entry, the key itself never
/// changes), and whether the index still holds entries of cards destroyed before format 8, which
/// stay keyed under the vault key that sealed them and are looked up under every configured key.
#[derive(Serialize, Deserialize)]
struct PanKeyRecord {
    sealed: SealedSecret,
    legacy: bool,
}

impl Record for PanKeyRecord {
    const VERSION: u8 = 1;
    const NAME: &'static str = "PAN index key";
}

/// The associated data the PAN-index key is sealed with.
const PAN_KEY_CONTEXT: &str = "pan index key";

/// The store's PAN-index key, opened: the uniqueness index's entries are `pan 0 HMAC(key, PAN)`,
/// whichever vault key seals the card, so re-sealing a card never moves its entry.
struct PanKey {
    key: Zeroizing<[u8; 32]>,
    legacy: bool,
}

impl PanKey {
    fn index(&self, pan: &str) -> Vec<u8> {
        keys::pan_index(&pan_hmac(&self.key, pan))
    }
}

/// What re-keying a format-7 PAN index did ([`Vault::upgrade_pan_index`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rekeyed {
    /// Cards whose PAN now has its entry under the PAN-index key.
    pub cards: u64,
    /// Entries left keyed per vault key: cards destroyed before (their PAN is gone, so their
    /// entry cannot be re-keyed; it stays reserved under the vault key that sealed it).
    pub legacy: u64,
}

/// A key's id from its fingerprint: what sealed entries, `cards vault status` and error messages name.
fn key_id(fingerprint: &str) -> String {
    fingerprint[..16.min(fingerprint.len())].to_string()
}

/// The vault: the active key, which seals, and older keys, which only open what they sealed until
/// `cards vault rotate` has re-sealed it under the active one.
pub struct Vault {
    keys: Vec<VaultKey>,
}

/// What one batch of a rotation did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RotationStep {
    /// Entries looked at.
    pub scanned: u64,
    /// Entries re-sealed under the active key.
    pub resealed: u64,
    /// Where the next batch starts; None when every entry has been seen.
    pub next: Option<Vec<u8>>,
}

/// A batch of a rotation read and re-sealed, not yet written ([`Vault::plan_batch`]).
pub struct PlannedBatch {
    /// The resume point it was read from.
    pub after: Option<Vec<u8>>,
    scanned: u64,
    next: Option<Vec<u8>>,
    entries: Vec<Resealed>,
}

/// One entry re-sealed: its key and stored bytes as read, and the bytes sealed under the active
/// key. Its PAN index entry stays: it is keyed by the PAN-index key, not the vault key.
struct Resealed {
    key: Vec<u8>,
    was: Vec<u8>,
    sealed: Vec<u8>,
}

impl Vault {
    pub fn new(key: &[u8; 32]) -> Vault {
        Vault::with_keys(key, &[])
    }

    /// `active` seals; `older` keys only open.
    pub fn with_keys(active: &[u8; 32], older: &[[u8; 32]]) -> Vault {
        let mut keys = vec![VaultKey::new(active)];
        for k in older {
            let k = VaultKey::new(k);
            if keys.iter().all(|have| have.id != k.id) {
                keys.push(k);
            }
        }
        Vault { keys }
    }

    fn active(&self) -> &VaultKey {
        &self.keys[0]
    }

    /// The id of the key that seals.
    pub fn active_id(&self) -> &str {
        &self.active().id
    }

    /// The ids of every configured key, the active one first.
    pub fn key_ids(&self) -> Vec<String> {
        self.keys.iter().map(|k| k.id.clone()).collect()
    }

    fn key(&self, id: &str) -> Option<&VaultKey> {
        self.keys.iter().find(|k| k.id == id)
    }

    fn seal(&self, env: &dyn Env, card_id: &str, secrets: &CardSecrets) -> Result<Sealed> {
        let mut nonce = [0u8; 12];
        env.fill_random(&mut nonce);
        let plaintext = Zeroizing::new(format!("{}:{}", secrets.pan, secrets.cvv));
        let active = self.active();
        let ciphertext = active
            .cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: plaintext.as_bytes(),
                    aad: card_id.as_bytes(),
                },
            )
            .map_err(|_| corrupt("encryption failed"))?;
        Ok(Sealed {
            key_id: active.id.clone(),
            nonce,
            ciphertext,
        })
    }

    /// Opens an entry with the key it names (an entry without a key id, from before key ids, with
    /// whichever configured key opens it); also returns that key. Fails on any tampering with the
    /// ciphertext, the nonce or the card id it was sealed for.
    fn open_with(&self, card_id: &str, sealed: &Sealed) -> Result<(CardSecrets, &VaultKey)> {
        if sealed.key_id.is_empty() {
            for k in &self.keys {
                if let Ok(secrets) = k.open(card_id, sealed) {
                    return Ok((secrets, k));
                }
            }
            return Err(ApiError::from(VaultKeyError::Mismatch(vec![
                "(the original key)".into(),
            ])));
        }
        let k = self
            .key(&sealed.key_id)
            .ok_or_else(|| ApiError::from(VaultKeyError::Mismatch(vec![sealed.key_id.clone()])))?;
        Ok((k.open(card_id, sealed)?, k))
    }

    fn open(&self, card_id: &str, sealed: &Sealed) -> Result<CardSecrets> {
        self.open_with(card_id, sealed).map(|(s, _)| s)
    }

    /// Identifies the active key without revealing it: stored with the data so that a different key
    /// is caught at once instead of failing every reveal.
    pub fn fingerprint(&self) -> String {
        self.active().fingerprint()
    }

    /// Checks the keys against the data: every key that may have sealed stored entries (the
    /// original one, whose fingerprint is stored with the data, and any recorded since) must be
    /// configured. With no fingerprint stored yet, one sealed card is opened to find the original
    /// key (then its fingerprint is stored). Without card data any key will do.
    pub fn check_key(&self, tx: &mut dyn Tx) -> std::result::Result<(), VaultKeyError> {
        let key = keys::vault_key_fingerprint();
        let original = match tx.get(&key)? {
            Some(stored) => Some(String::from_utf8_lossy(&stored).into_owned()),
            None => {
                let start = keys::sealed_cards();
                let end = crate::storage::prefix_end(&start);
                match tx.scan(&start, &end, Direction::Forward, 1)?.pop() {
                    Some((k, v)) => {
                        let card_id = k.rsplit(|b| *b == 0).next().unwrap_or_default();
                        let card_id = std::str::from_utf8(card_id)
                            .map_err(|_| VaultKeyError::Mismatch(Vec::new()))?;
                        let sealed: Sealed =
                            codec::decode(&v).map_err(|_| VaultKeyError::Mismatch(Vec::new()))?;
                        let (_, opener) = self.open_with(card_id, &sealed).map_err(|_| {
                            VaultKeyError::Mismatch(vec![if sealed.key_id.is_empty() {
                                "(the original key)".into()
                            } else {
                                sealed.key_id.clone()
                            }])
                        })?;
                        let fingerprint = opener.fingerprint();
                        tx.put(&key, fingerprint.as_bytes())?;
                        Some(fingerprint)
                    }
                    None => None,
                }
            }
        };
        let mut missing: Vec<String> = in_use(tx, original.as_deref())?
            .into_iter()
            .filter(|id| self.key(id).is_none())
            .collect();
        missing.dedup();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(VaultKeyError::Mismatch(missing))
        }
    }

    /// Whether stored data may still be sealed under a key other than the active one (or a
    /// rotation was left unfinished): what a rotation would have to do.
    pub fn needs_rotation(&self, tx: &mut dyn Tx) -> std::result::Result<bool, StoreError> {
        let original = tx
            .get(&keys::vault_key_fingerprint())?
            .map(|f| String::from_utf8_lossy(&f).into_owned());
        Ok(in_use(tx, original.as_deref())?
            .iter()
            .any(|id| *id != self.active().id)
            || tx.get(&keys::vault_rotation())?.is_some())
    }

    /// Records that the active key seals data from now on (the first key ever is the store's
    /// original; later ones are listed so a start without them is refused).
    fn register_active(&self, tx: &mut dyn Tx) -> Result<()> {
        let fingerprint = keys::vault_key_fingerprint();
        match tx.get(&fingerprint)? {
            None => tx.put(&fingerprint, self.fingerprint().as_bytes())?,
            Some(original) if key_id(&String::from_utf8_lossy(&original)) == self.active().id => {}
            Some(_) => {
                let k = keys::vault_key_in_use(&self.active().id);
                if tx.get(&k)?.is_none() {
                    tx.put(&k, b"")?;
                }
            }
        }
        Ok(())
    }

    /// Generates secrets whose PAN no other card has, stores them sealed, and returns them.
    pub fn issue(&self, s: &mut Scope, card_id: &str, visa: bool) -> Result<CardSecrets> {
        let pan_key = self.pan_key(s.tx, s.env)?;
        for _ in 0..32 {
            let pan = generate_pan(s.env, visa);
            let index = pan_key.index(&pan);
            if s.tx.get(&index)?.is_some() || self.legacy_taken(s.tx, &pan_key, &pan)? {
                continue;
            }
            s.tx.put_new(&index, card_id.as_bytes())?;
            let secrets = CardSecrets {
                pan,
                cvv: generate_cvv(s.env),
            };
            let sealed = self.seal(s.env, card_id, &secrets)?;
            codec::put(s.tx, &keys::sealed_card(s.client, card_id), &sealed)?;
            self.register_active(s.tx)?;
            return Ok(secrets);
        }
        Err(ApiError::internal("vault: no unused PAN after 32 tries"))
    }

    /// Whether a card destroyed before format 8 had this PAN: its entry is keyed under the vault
    /// key that sealed it, so it is looked up under each configured key (only in a store that kept
    /// such entries when it was upgraded).
    fn legacy_taken(&self, tx: &mut dyn Tx, pan_key: &PanKey, pan: &str) -> Result<bool> {
        if pan_key.legacy {
            for k in &self.keys {
                if tx.get(&keys::pan_index(&k.pan_fingerprint(pan)))?.is_some() {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The store's PAN-index key: created (random, from `env`) by the first card issued, after
    /// re-keying a format-7 index first ([`Vault::upgrade_pan_index`]).
    fn pan_key(&self, tx: &mut dyn Tx, env: &dyn Env) -> Result<PanKey> {
        if let Some(record) = codec::get::<PanKeyRecord>(tx, &keys::pan_index_key())? {
            return self.open_pan_key(&record);
        }
        if self.upgrade_pan_index(tx, env)?.is_none() {
            return self.new_pan_key(tx, env, false);
        }
        let record: PanKeyRecord = codec::get(tx, &keys::pan_index_key())?
            .ok_or_else(|| corrupt("the PAN index key was not stored"))?;
        self.open_pan_key(&record)
    }

    fn open_pan_key(&self, record: &PanKeyRecord) -> Result<PanKey> {
        let plain = Zeroizing::new(self.open_secret(PAN_KEY_CONTEXT, &record.sealed)?);
        let key: [u8; 32] = plain
            .as_slice()
            .try_into()
            .map_err(|_| corrupt("the PAN index key is not 32 bytes"))?;
        Ok(PanKey {
            key: Zeroizing::new(key),
            legacy: record.legacy,
        })
    }

    /// Draws a PAN-index key and stores it sealed under the active key.
    fn new_pan_key(&self, tx: &mut dyn Tx, env: &dyn Env, legacy: bool) -> Result<PanKey> {
        let mut key = Zeroizing::new([0u8; 32]);
        env.fill_random(&mut *key);
        let record = PanKeyRecord {
            sealed: self.seal_secret(env, PAN_KEY_CONTEXT, &*key)?,
            legacy,
        };
        codec::put(tx, &keys::pan_index_key(), &record)?;
        self.register_active(tx)?;
        Ok(PanKey { key, legacy })
    }

    /// Format 7's step: a store still in format 7 with PAN index entries (keyed per vault key) gets
    /// a PAN-index key, every card's entry re-keyed under it (each card opened with the key that
    /// sealed it) and the format stamped. None for a store with nothing to re-key. Runs in one
    /// transaction, so it is done whole or not at all; several instances starting together
    /// conflict and one of them does it.
    pub fn upgrade_pan_index(&self, tx: &mut dyn Tx, env: &dyn Env) -> Result<Option<Rekeyed>> {
        if format::read(tx)? != Some(format::PAN_INDEX_PER_VAULT_KEY)
            || tx.get(&keys::pan_index_key())?.is_some()
        {
            return Ok(None);
        }
        let mut before = 0u64;
        for_each_page(tx, &keys::pan_indexes(), PAGE, |_, page| {
            before += page.len() as u64;
            Ok::<_, ApiError>(())
        })?;
        let pan_key = self.new_pan_key(tx, env, false)?;
        let mut done = Rekeyed::default();
        let mut removed = 0u64;
        for_each_page::<ApiError>(tx, &keys::sealed_cards(), PAGE, |tx, page| {
            for (key, value) in page {
                let card_id = card_of(&key)?;
                let sealed: Sealed = codec::decode(&value)?;
                let secrets = self.open(&card_id, &sealed)?;
                // The entry is under the key that sealed the card (a rotation moved it with the
                // card); any configured key is tried, so none is left behind.
                for k in &self.keys {
                    let old = keys::pan_index(&k.pan_fingerprint(&secrets.pan));
                    if tx.get(&old)?.as_deref() == Some(card_id.as_bytes()) {
                        tx.delete(&old)?;
                        removed += 1;
                    }
                }
                tx.put(&pan_key.index(&secrets.pan), card_id.as_bytes())?;
                done.cards += 1;
            }
            Ok(())
        })?;
        done.legacy = before.saturating_sub(removed);
        if done.legacy > 0 {
            let record = PanKeyRecord {
                sealed: self.seal_secret(env, PAN_KEY_CONTEXT, &*pan_key.key)?,
                legacy: true,
            };
            codec::put(tx, &keys::pan_index_key(), &record)?;
        }
        format::stamp(tx)?;
        Ok(Some(done))
    }

    /// Turns a store this release wrote into format 7's PAN index (each live card's entry keyed
    /// under the vault key that sealed it, no PAN-index key): the upgrade tests' starting point.
    #[cfg(test)]
    pub(crate) fn index_per_vault_key(&self, tx: &mut dyn Tx) -> Result<()> {
        let env = crate::env::DeterministicEnv::default();
        let pan_key = self.pan_key(tx, &env)?;
        for_each_page::<ApiError>(tx, &keys::sealed_cards(), PAGE, |tx, page| {
            for (key, value) in page {
                let card_id = card_of(&key)?;
                let sealed: Sealed = codec::decode(&value)?;
                let (secrets, k) = self.open_with(&card_id, &sealed)?;
                tx.delete(&pan_key.index(&secrets.pan))?;
                tx.put(
                    &keys::pan_index(&k.pan_fingerprint(&secrets.pan)),
                    card_id.as_bytes(),
                )?;
            }
            Ok(())
        })?;
        tx.delete(&keys::pan_index_key())?;
        Ok(format::stamp_version(tx, format::PAN_INDEX_PER_VAULT_KEY)?)
    }

    /// A rotation's step for the PAN-index key: re-sealed under the active key (1), or 0 when it
    /// is there already or not created yet.
    pub fn reseal_pan_key(&self, tx: &mut dyn Tx, env: &dyn Env) -> Result<u64> {
        let Some(mut record) = codec::get::<PanKeyRecord>(tx, &keys::pan_index_key())? else {
            return Ok(0);
        };
        match self.reseal_secret(env, PAN_KEY_CONTEXT, &record.sealed)? {
            Some(sealed) => {
                record.sealed = sealed;
                codec::put(tx, &keys::pan_index_key(), &record)?;
                self.register_active(tx)?;
                Ok(1)
            }
            None => Ok(0),
        }
    }

    pub fn reveal(&self, s: &mut Scope, card_id: &str) -> Result<CardSecrets> {
        let sealed: Sealed = codec::get(s.tx, &keys::sealed_card(s.client, card_id))?
            .ok_or_else(|| corrupt("a live card has no sealed data"))?;
        self.open(card_id, &sealed)
    }

    /// Re-seals up to `limit` entries after `after` (a stored entry's key; None: from the first)
    /// under the active key (one write per entry: the PAN index does not change). Entries already under the
    /// active key are only counted, so a rotation can be run again, or resumed, at no risk.
    pub fn rotate_batch(
        &self,
        tx: &mut dyn Tx,
        env: &dyn Env,
        after: Option<&[u8]>,
        limit: usize,
    ) -> Result<RotationStep> {
        let plan = self.plan_batch(tx, env, after, limit)?;
        self.apply_batch(tx, env, &plan)
    }

    /// The reading and sealing half of [`Vault::rotate_batch`], fit for a read transaction: every
    /// entry of the batch opened and sealed again under the active key, nothing written. A server
    /// does this on a snapshot, off its writer, and writes the result with [`Vault::apply_batch`].
    pub fn plan_batch(
        &self,
        tx: &mut dyn Tx,
        env: &dyn Env,
        after: Option<&[u8]>,
        limit: usize,
    ) -> Result<PlannedBatch> {
        let prefix = keys::sealed_cards();
        let end = crate::storage::prefix_end(&prefix);
        let start = match after {
            Some(k) => {
                let mut k = k.to_vec();
                k.push(0);
                k
            }
            None => prefix.clone(),
        };
        let page = tx.scan(&start, &end, Direction::Forward, limit)?;
        let mut plan = PlannedBatch {
            after: after.map(<[u8]>::to_vec),
            scanned: page.len() as u64,
            next: (page.len() == limit)
                .then(|| page.last().map(|(k, _)| k.clone()))
                .flatten(),
            entries: Vec::new(),
        };
        for (key, value) in page {
            if let Some(entry) = self.reseal(env, key, value)? {
                plan.entries.push(entry);
            }
        }
        Ok(plan)
    }

    /// An entry opened and sealed again under the active key; None when it is under it already.
    fn reseal(&self, env: &dyn Env, key: Vec<u8>, value: Vec<u8>) -> Result<Option<Resealed>> {
        let sealed: Sealed = codec::decode(&value)?;
        if sealed.key_id == self.active().id {
            return Ok(None);
        }
        let card_id = card_of(&key)?;
        let secrets = self.open(&card_id, &sealed)?;
        let sealed_now = codec::encode(&self.seal(env, &card_id, &secrets)?)?;
        Ok(Some(Resealed {
            key,
            was: value,
            sealed: sealed_now,
        }))
    }

    /// The writing half: each planned entry still stored as it was read gets what was sealed for
    /// it; one that changed since (a card destroyed, or another rotation) is read and re-sealed
    /// here, or skipped when gone.
    pub fn apply_batch(
        &self,
        tx: &mut dyn Tx,
        env: &dyn Env,
        plan: &PlannedBatch,
    ) -> Result<RotationStep> {
        let mut step = RotationStep {
            scanned: plan.scanned,
            resealed: 0,
            next: plan.next.clone(),
        };
        if !plan.entries.is_empty() {
            self.register_active(tx)?;
        }
        for planned in &plan.entries {
            let entry = match tx.get(&planned.key)? {
                Some(now) if now == planned.was => None,
                Some(now) => match self.reseal(env, planned.key.clone(), now)? {
                    Some(entry) => Some(entry),
                    None => continue,
                },
                None => continue,
            };
            let e = entry.as_ref().unwrap_or(planned);
            tx.put(&e.key, &e.sealed)?;
            step.resealed += 1;
        }
        Ok(step)
    }

    /// After a rotation found no entry left under any other key: the active key becomes the
    /// store's original and the others are forgotten, so they can be removed from the configuration.
    pub fn retire_others(&self, tx: &mut dyn Tx) -> Result<()> {
        tx.put(
            &keys::vault_key_fingerprint(),
            self.fingerprint().as_bytes(),
        )?;
        let start = keys::vault_keys_in_use();
        let end = crate::storage::prefix_end(&start);
        for (k, _) in tx.scan(&start, &end, Direction::Forward, 1024)? {
            tx.delete(&k)?;
        }
        Ok(())
    }
}

/// The card a sealed entry's key names.
fn card_of(key: &[u8]) -> Result<String> {
    keys::text_parts(key)
        .get(2)
        .and_then(|c| std::str::from_utf8(c).ok())
        .map(str::to_string)
        .ok_or_else(|| corrupt("a sealed entry's key names no card"))
}

/// The ids of the keys that may have sealed stored data: the original and those recorded since.
fn in_use(tx: &mut dyn Tx, original: Option<&str>) -> std::result::Result<Vec<String>, StoreError> {
    let mut ids: Vec<String> = original.map(key_id).into_iter().collect();
    let start = keys::vault_keys_in_use();
    let end = crate::storage::prefix_end(&start);
    for (k, _) in tx.scan(&start, &end, Direction::Forward, 1024)? {
        if let Some(id) = keys::text_parts(&k).last() {
            ids.push(String::from_utf8_lossy(id).into_owned());
        }
    }
    Ok(ids)
}

/// How many sealed entries each key holds (the original key's entries from before key ids under
/// its id; the PAN-index key counts as one): what `cards vault status` prints, so an operator
/// knows when an old key can go.
pub fn entries_per_key(
    tx: &mut dyn Tx,
) -> std::result::Result<std::collections::BTreeMap<String, u64>, StoreError> {
    let original = tx
        .get(&keys::vault_key_fingerprint())?
        .map(|f| key_id(&String::from_utf8_lossy(&f)))
        .unwrap_or_else(|| "(original)".into());
    let mut counts = std::collections::BTreeMap::new();
    let prefix = keys::sealed_cards();
    let end = crate::storage::prefix_end(&prefix);
    let mut start = prefix.clone();
    loop {
        let page = tx.scan(&start, &end, Direction::Forward, 4096)?;
        let full = page.len() == 4096;
        for (_, v) in &page {
            let sealed: Sealed = codec::decode(v)?;
            let id = if sealed.key_id.is_empty() {
                original.clone()
            } else {
                sealed.key_id
            };
            *counts.entry(id).or_insert(0) += 1;
        }
        match page.last() {
            Some((k, _)) if full => {
                start = k.clone();
                start.push(0);
            }
            _ => break,
        }
    }
    if let Some(record) = codec::get::<PanKeyRecord>(tx, &keys::pan_index_key())? {
        *counts.entry(record.sealed.key_id).or_insert(0) += 1;
    }
    Ok(counts)
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

/// A secret other than card data (a webhook or decision endpoint's signing secret), sealed under the
/// active vault key like card data and naming that key, bound to `context` (what it belongs to) as
/// associated data, so it cannot be moved to another record. It opens with whichever configured key
/// sealed it; one sealed under a key no longer configured is a 503 naming that key, never a 500.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SealedSecret {
    key_id: String,
    nonce: [u8; 12],
    ciphertext: Vec<u8>,
}

impl SealedSecret {
    /// The id of the vault key that sealed it.
    pub fn key_id(&self) -> &str {
        &self.key_id
    }
}

impl Vault {
    pub fn seal_secret(&self, env: &dyn Env, context: &str, secret: &[u8]) -> Result<SealedSecret> {
        let mut nonce = [0u8; 12];
        env.fill_random(&mut nonce);
        let active = self.active();
        let ciphertext = active
            .cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: secret,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| corrupt("encryption failed"))?;
        Ok(SealedSecret {
            key_id: active.id.clone(),
            nonce,
            ciphertext,
        })
    }

    pub fn open_secret(&self, context: &str, sealed: &SealedSecret) -> Result<Vec<u8>> {
        let key = self
            .key(&sealed.key_id)
            .ok_or_else(|| ApiError::from(VaultKeyError::Mismatch(vec![sealed.key_id.clone()])))?;
        key.cipher
            .decrypt(
                Nonce::from_slice(&sealed.nonce),
                Payload {
                    msg: &sealed.ciphertext,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| corrupt("a sealed secret does not open with this key"))
    }

    /// The same secret sealed under the active key (a rotation's step), or None when the active key
    /// sealed it already.
    pub fn reseal_secret(
        &self,
        env: &dyn Env,
        context: &str,
        sealed: &SealedSecret,
    ) -> Result<Option<SealedSecret>> {
        if sealed.key_id == self.active().id {
            return Ok(None);
        }
        let plain = Zeroizing::new(self.open_secret(context, sealed)?);
        self.seal_secret(env, context, &plain).map(Some)
    }

    pub fn seal_text(&self, env: &dyn Env, context: &str, text: &str) -> Result<SealedSecret> {
        self.seal_secret(env, context, text.as_bytes())
    }

    pub fn open_text(&self, context: &str, sealed: &SealedSecret) -> Result<String> {
        String::from_utf8(self.open_secret(context, sealed)?)
            .map_err(|_| corrupt("a sealed secret is not text"))
    }
}
