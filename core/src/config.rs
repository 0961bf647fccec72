//! The service's configuration, set by the host (flags, environment, Spin variables).

use std::fmt;
use std::time::Duration;

use crate::domain::api_keys::ConfiguredKeys;

#[derive(Clone)]
pub struct Config {
    pub api_keys: ConfiguredKeys,
    /// Lifetime of a reveal token.
    pub token_ttl_secs: i64,
    /// How long an approved authorization holds funds before it expires.
    pub authorization_ttl_secs: i64,
    /// AES-256 key for PAN and CVV (set by the host from configuration).
    pub vault_key: Option<[u8; 32]>,
    /// Older vault keys: they only open entries they sealed, until `cards vault rotate` has
    /// re-sealed those under `vault_key` (README "Card data security").
    pub vault_older_keys: Vec<[u8; 32]>,
    /// Keep the id generator's state in the store: for hosts that start a fresh instance per request,
    /// so ids still sort by creation. Long-lived hosts keep it in memory.
    pub stored_ids: bool,
    /// Most bytes of card-holder files one client may store (413 `quota_exceeded` past it).
    pub file_quota_bytes: u64,
    /// Whether clients may see and move their test clock (`/test-clock`); off, both routes are 404.
    /// Offsets already stored still apply, so no client's time moves back.
    pub test_clock: bool,
    /// The wait after each failed webhook attempt; after the last, a delivery is `failed`
    /// (native `--webhook-retry-schedule`, Spin `webhook_retry_schedule`; shortened for tests).
    pub webhook_retry_schedule: Vec<Duration>,
    /// Where clients' endpoints (webhooks, the decision endpoint) may point: the operator may allow
    /// private ranges; link-local and cloud metadata addresses stay refused.
    pub url_policy: crate::domain::push::UrlPolicy,
}

/// Never prints the vault key.
impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("api_keys", &self.api_keys)
            .field("token_ttl_secs", &self.token_ttl_secs)
            .field("authorization_ttl_secs", &self.authorization_ttl_secs)
            .field("vault_key", &self.vault_key.as_ref().map(|_| "<redacted>"))
            .field(
                "vault_older_keys",
                &format_args!("<{} redacted>", self.vault_older_keys.len()),
            )
            .field("stored_ids", &self.stored_ids)
            .field("file_quota_bytes", &self.file_quota_bytes)
            .field("test_clock", &self.test_clock)
            .field("webhook_retry_schedule", &self.webhook_retry_schedule)
            .field("url_policy", &self.url_policy)
            .finish()
    }
}

impl Config {
    /// The vault over the configured keys (the active one seals); None without a vault key.
    pub fn vault(&self) -> Option<crate::domain::vault::Vault> {
        self.vault_key
            .as_ref()
            .map(|k| crate::domain::vault::Vault::with_keys(k, &self.vault_older_keys))
    }

    /// 1 GiB of files per client.
    pub const DEFAULT_FILE_QUOTA_BYTES: u64 = 1 << 30;
}

impl Default for Config {
    fn default() -> Self {
        Config {
            api_keys: ConfiguredKeys::default(),
            token_ttl_secs: 120,
            authorization_ttl_secs: crate::domain::authorizations::DEFAULT_TTL_SECS,
            vault_key: None,
            vault_older_keys: Vec::new(),
            stored_ids: false,
            file_quota_bytes: Config::DEFAULT_FILE_QUOTA_BYTES,
            test_clock: true,
            webhook_retry_schedule: crate::domain::webhooks::deliveries::default_schedule(),
            url_policy: crate::domain::push::UrlPolicy::default(),
        }
    }
}
