//! Looking paths up: in a resource's schema (what may be queried) and in a document (what it holds).

use serde_json::Value;

use super::{FieldType, Schema};

/// The type of the dot path `path` in `schema`: a listed field, or any path below a free-form field
/// (which is then compared loosely). `None` for an unknown path.
pub(crate) fn field_type(schema: &Schema, path: &str) -> Option<FieldType> {
    if path.split('.').any(str::is_empty) {
        return None;
    }
    if let Some((_, t)) = schema.fields.iter().find(|(p, _)| *p == path) {
        return Some(*t);
    }
    // Below a free-form field any sub path is accepted.
    path.match_indices('.')
        .map(|(i, _)| &path[..i])
        .any(|prefix| {
            schema
                .fields
                .iter()
                .any(|(p, t)| *p == prefix && *t == FieldType::FreeForm)
        })
        .then_some(FieldType::FreeForm)
}

/// The schema of a relation `populate` may embed.
pub(crate) fn populated(schema: &Schema, name: &str) -> Option<&'static Schema> {
    schema
        .populate
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
}

/// The value at a dot path inside nested objects; `None` when any step is missing or not an object.
pub(crate) fn lookup<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(doc, |v, segment| v.as_object()?.get(segment))
}

/// Present and not null (what `exists=true` asks for).
pub(crate) fn present(v: Option<&Value>) -> bool {
    !matches!(v, None | Some(Value::Null))
}
