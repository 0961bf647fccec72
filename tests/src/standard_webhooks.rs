//! The Standard Webhooks signature, checked independently of the service: HMAC-SHA256 (RFC 2104)
//! and base64 (RFC 4648) written here from their specifications, over `{id}.{timestamp}.{body}`
//! keyed with the secret's decoded bytes, so the service's own signing code is not what checks it.

use sha2::{Digest, Sha256};

use crate::loopback::Received;

/// HMAC-SHA256 over SHA-256 (64-byte blocks).
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| n << 8 | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// None for a character outside the alphabet.
pub fn unbase64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let (mut n, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        let v = ALPHABET.iter().position(|&a| a == c)? as u32;
        n = n << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
        }
    }
    Some(out)
}

/// Whether `request` carries a valid `v1` signature by `secret` (`whsec_` + base64); with several
/// signatures (during a secret's rotation), any one will do.
pub fn signed_by(request: &Received, secret: &str) -> bool {
    let Some(key) = secret.strip_prefix("whsec_").and_then(unbase64) else {
        return false;
    };
    let mut signed = format!(
        "{}.{}.",
        request.header("webhook-id"),
        request.header("webhook-timestamp")
    )
    .into_bytes();
    signed.extend_from_slice(&request.body);
    let expected = format!("v1,{}", base64(&hmac_sha256(&key, &signed)));
    request
        .header("webhook-signature")
        .split(' ')
        .any(|s| s == expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_and_base64_match_known_answers() {
        // RFC 4231, test case 2.
        assert_eq!(
            hex::encode(hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(b"fooba"), "Zm9vYmE=");
        assert_eq!(base64(b"foob"), "Zm9vYg==");
        assert_eq!(unbase64("Zm9vYg==").unwrap(), b"foob");
        assert_eq!(unbase64("Zm9vYmE=").unwrap(), b"fooba");
        assert_eq!(unbase64("Zm9v!"), None);
    }

    #[test]
    fn matches_the_standard_webhooks_example() {
        // The example signature of the Standard Webhooks specification's reference libraries.
        let r = Received {
            method: "POST".into(),
            path: "/".into(),
            headers: vec![
                ("webhook-id".into(), "msg_p5jXN8AQM9LWM0D4loKWxJek".into()),
                ("webhook-timestamp".into(), "1614265330".into()),
                (
                    "webhook-signature".into(),
                    "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=".into(),
                ),
            ],
            body: br#"{"test": 2432232314}"#.to_vec(),
        };
        assert!(signed_by(&r, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assert!(!signed_by(&r, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSx"));
        assert!(!signed_by(&r, "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
    }
}
