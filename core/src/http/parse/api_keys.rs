//! The body of POST /api-keys.

use serde_json::{Map, Value};

use crate::domain::permissions::{Permissions, Resource};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

/// `reveal`, or a resource the service knows (or `*`) with a level: from the resource list itself.
fn grant_pattern() -> String {
    format!(
        r"^(reveal|(\*|{}):(none|read|write))$",
        Resource::ALL.join("|")
    )
}

body! {
    /// POST /api-keys.
    pub struct KeyBody = "ApiKeyCreate" {
        optional permissions: "permissions", StrList(grant_pattern),
            "Grants such as `cards:read`, `accounts:write`, `*:read`, `reveal`; unnamed resources \
             get none. Default: the caller's grants without reveal. A key can only grant what it \
             holds (else 403 permission_denied).";
    }
}

/// The grants of `permissions` (a list like `["cards:read", "reveal"]`); without it, `caller`'s
/// own grants less `reveal`. A grant `caller` does not hold is refused (403), after the body's
/// field errors (400).
pub fn create(body: Map<String, Value>, caller: &Permissions) -> ApiResult<Permissions> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let wanted = match f.read(&KeyBody::permissions) {
        Some(texts) => match Permissions::parse(texts.iter().map(String::as_str)) {
            Ok(p) => Some(p),
            Err(e) => {
                f.error("permissions", e);
                None
            }
        },
        None if f.has("permissions") && !f.is_null("permissions") => None,
        None => Some(caller.without_reveal()),
    };
    f.finish();
    let wanted = errors.finish(wanted)?;
    let Some(wanted) = wanted else {
        return Err(ApiError::internal(
            "api key grants missing without an error",
        ));
    };
    if !caller.covers(&wanted) {
        return Err(ApiError::PermissionDenied(
            "a grant this key does not hold itself".into(),
        ));
    }
    Ok(wanted)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(v: Value, caller: &Permissions) -> ApiResult<Permissions> {
        match v {
            Value::Object(m) => create(m, caller),
            _ => unreachable!(),
        }
    }

    fn fields(r: ApiResult<Permissions>) -> Vec<String> {
        match r {
            Err(ApiError::Validation(e)) => e.into_iter().map(|e| e.field).collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn grants_are_parsed_bounded_by_the_caller_and_default_to_its_own_without_reveal() {
        let full = Permissions::full();
        let p = parse(json!({"permissions": ["cards:read"]}), &full).unwrap();
        assert_eq!(p, Permissions::parse(["cards:read"]).unwrap());
        assert_eq!(parse(json!({}), &full).unwrap(), full.without_reveal());
        assert_eq!(
            parse(json!({"permissions": null}), &full).unwrap(),
            full.without_reveal()
        );
        assert_eq!(
            fields(parse(json!({"permissions": ["cards:admin"]}), &full)),
            vec!["permissions"]
        );
        assert_eq!(
            fields(parse(json!({"permissions": "cards:read"}), &full)),
            vec!["permissions"]
        );
        assert_eq!(
            fields(parse(json!({"permissions": [1]}), &full)),
            vec!["permissions"]
        );
        assert_eq!(fields(parse(json!({"name": "x"}), &full)), vec!["name"]);
        // A field error comes before the grant check.
        let none = full.without_reveal();
        assert!(matches!(
            parse(json!({"permissions": ["reveal"]}), &none),
            Err(ApiError::PermissionDenied(_))
        ));
        assert_eq!(
            fields(parse(json!({"permissions": ["reveal"], "x": 1}), &none)),
            vec!["x"]
        );
    }
}
