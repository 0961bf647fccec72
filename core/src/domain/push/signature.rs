//! Standard Webhooks signing (the scheme Svix and Stripe-style receivers verify): a message is signed as
//! `v1,` + base64(HMAC-SHA256(secret, "{id}.{timestamp}.{body}")), sent in the `webhook-id`,
//! `webhook-timestamp` and `webhook-signature` headers. During a secret rotation several signatures go
//! space-separated in one header, and a receiver accepts any that verifies.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::env::Env;

type HmacSha256 = Hmac<Sha256>;

const PREFIX: &str = "whsec_";
const SECRET_BYTES: usize = 32;

/// A signing secret: its raw bytes. Shown to the client once, as `whsec_` + base64.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Vec<u8>);

impl Secret {
    /// 32 random bytes from the host's randomness.
    pub fn generate(env: &dyn Env) -> Secret {
        let mut bytes = vec![0u8; SECRET_BYTES];
        env.fill_random(&mut bytes);
        Secret(bytes)
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Secret {
        Secret(bytes)
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The form a client configures its receiver with: `whsec_` + base64 of the bytes.
    pub fn to_whsec(&self) -> String {
        format!("{PREFIX}{}", BASE64.encode(&self.0))
    }

    /// Reads the `whsec_` form (the prefix is optional, as Standard Webhooks libraries accept).
    pub fn parse(text: &str) -> Option<Secret> {
        let b64 = text.strip_prefix(PREFIX).unwrap_or(text);
        let bytes = BASE64.decode(b64).ok()?;
        (!bytes.is_empty()).then_some(Secret(bytes))
    }

    fn mac(&self, msg_id: &str, timestamp: i64, body: &[u8]) -> HmacSha256 {
        // HMAC takes keys of any length; new_from_slice cannot fail for it.
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("HMAC accepts any key length");
        mac.update(msg_id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        mac
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// One signature: `v1,` + base64 of the HMAC.
pub fn sign(secret: &Secret, msg_id: &str, timestamp: i64, body: &[u8]) -> String {
    let tag = secret.mac(msg_id, timestamp, body).finalize().into_bytes();
    format!("v1,{}", BASE64.encode(tag))
}

/// The three headers of a signed message; one signature per secret (two during a rotation).
pub fn headers(
    secrets: &[&Secret],
    msg_id: &str,
    timestamp: i64,
    body: &[u8],
) -> [(&'static str, String); 3] {
    let signatures: Vec<String> = secrets
        .iter()
        .map(|s| sign(s, msg_id, timestamp, body))
        .collect();
    [
        ("webhook-id", msg_id.to_owned()),
        ("webhook-timestamp", timestamp.to_string()),
        ("webhook-signature", signatures.join(" ")),
    ]
}

/// Whether any `v1` signature in `header` is `secret`'s over the message (compared in constant time).
pub fn verify(secret: &Secret, msg_id: &str, timestamp: i64, body: &[u8], header: &str) -> bool {
    header.split(' ').any(|part| {
        let Some(b64) = part.strip_prefix("v1,") else {
            return false;
        };
        let Ok(tag) = BASE64.decode(b64) else {
            return false;
        };
        secret
            .mac(msg_id, timestamp, body)
            .verify_slice(&tag)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::DeterministicEnv;

    #[test]
    fn matches_the_standard_webhooks_reference_vector() {
        // The example of the Standard Webhooks specification and its reference libraries' tests.
        let secret = Secret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        let body = br#"{"test": 2432232314}"#;
        let sig = sign(&secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body);
        assert_eq!(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn a_rotation_carries_both_signatures_and_each_verifies() {
        let env = DeterministicEnv::default();
        let (old, new) = (Secret::generate(&env), Secret::generate(&env));
        assert_ne!(old, new);
        let [id, ts, sig] = headers(&[&new, &old], "evt_1", 1_700_000_000, b"{}");
        assert_eq!((id.0, id.1.as_str()), ("webhook-id", "evt_1"));
        assert_eq!(ts.1, "1700000000");
        assert_eq!(sig.1.split(' ').count(), 2);
        assert!(verify(&old, "evt_1", 1_700_000_000, b"{}", &sig.1));
        assert!(verify(&new, "evt_1", 1_700_000_000, b"{}", &sig.1));
        assert!(!verify(&new, "evt_1", 1_700_000_001, b"{}", &sig.1));
        assert!(!verify(&new, "evt_1", 1_700_000_000, b"{ }", &sig.1));
    }

    #[test]
    fn the_whsec_form_round_trips_and_hides_in_debug() {
        let secret = Secret::generate(&DeterministicEnv::default());
        let text = secret.to_whsec();
        assert!(text.starts_with("whsec_"));
        assert_eq!(Secret::parse(&text), Some(secret.clone()));
        assert_eq!(secret.as_bytes().len(), 32);
        assert!(!format!("{secret:?}").contains(&text[6..]));
        assert_eq!(Secret::parse("whsec_not base64!"), None);
        assert_eq!(Secret::parse("whsec_"), None);
    }
}
