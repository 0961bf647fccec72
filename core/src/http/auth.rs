//! Authentication: `Authorization: Bearer <key>` or `x-api-key: <key>` on every route but health.

use super::Request;
use crate::domain::api_keys::{self, ConfiguredKeys, KeyInfo};
use crate::domain::audit::Actor;
use crate::domain::permissions::Need;
use crate::error::ApiError;
use crate::storage::Tx;

/// The key a request presents, from either header.
fn presented_key(req: &Request) -> Option<&str> {
    if let Some(v) = req.header_value("authorization") {
        let (scheme, rest) = v.trim().split_once(' ')?;
        return scheme
            .eq_ignore_ascii_case("bearer")
            .then(|| rest.trim())
            .filter(|k| !k.is_empty());
    }
    req.header_value("x-api-key")
        .map(str::trim)
        .filter(|k| !k.is_empty())
}

/// The request's key (its client and grants); 401 without a known key.
pub fn authenticate(
    req: &Request,
    configured: &ConfiguredKeys,
    tx: &mut dyn Tx,
) -> Result<KeyInfo, ApiError> {
    let key = presented_key(req).ok_or(ApiError::Unauthorized)?;
    api_keys::lookup(key, configured, tx)?.ok_or(ApiError::Unauthorized)
}

/// A write's key read again inside its write transaction (`authenticate` read it on a snapshot
/// before the body was read): a stored key revoked since refuses the write with 401. Configured keys
/// cannot be revoked, so they are not read again.
pub fn recheck(
    req: &Request,
    key: &KeyInfo,
    configured: &ConfiguredKeys,
    tx: &mut dyn Tx,
) -> Result<KeyInfo, ApiError> {
    if key.configured {
        return Ok(key.clone());
    }
    let presented = presented_key(req).ok_or(ApiError::Unauthorized)?;
    api_keys::lookup(presented, configured, tx)?.ok_or(ApiError::Unauthorized)
}

/// Who is asking, for the audit trail: the key's id (never the key), the request id the host
/// stamped on the request, and the address the host saw.
pub fn actor(req: &Request, key: &KeyInfo) -> Actor {
    Actor {
        key_id: key.id.clone(),
        request_id: super::request_id::incoming(&req.headers).map(str::to_string),
        address: req.peer.map(|ip| ip.to_string()),
    }
}

/// The one decision on permissions: 403 `permission_denied` naming what the key lacks.
pub fn authorize(key: &KeyInfo, need: Option<Need>) -> Result<(), ApiError> {
    match need {
        Some(need) if !key.permissions.allows(need) => {
            Err(ApiError::PermissionDenied(need.describe()))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{DeterministicEnv, Env};
    use crate::http::Method;
    use crate::storage::MemStore;

    #[test]
    fn either_header_works() {
        let env = DeterministicEnv::default();
        let mut store = MemStore::new();
        let (key, _) = api_keys::create_key(
            &mut store,
            &env,
            "acme",
            crate::domain::permissions::Permissions::default_new(),
            env.now(),
        )
        .unwrap();
        let none = ConfiguredKeys::default();
        let bearer = Request::new(Method::Get, "/accounts")
            .header("Authorization", &format!("Bearer {key}"));
        let api_key = Request::new(Method::Get, "/accounts").header("x-api-key", &key);
        assert_eq!(
            authenticate(&bearer, &none, &mut store).unwrap().client,
            "acme"
        );
        assert_eq!(
            authenticate(&api_key, &none, &mut store).unwrap().client,
            "acme"
        );
        let basic = Request::new(Method::Get, "/").header("Authorization", &format!("Basic {key}"));
        assert_eq!(
            authenticate(&basic, &none, &mut store),
            Err(ApiError::Unauthorized)
        );
        let wrong = Request::new(Method::Get, "/").header("x-api-key", "nope");
        assert_eq!(
            authenticate(&wrong, &none, &mut store),
            Err(ApiError::Unauthorized)
        );
    }
}
