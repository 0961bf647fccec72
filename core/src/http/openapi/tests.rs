use super::*;

/// Every route is one operation of the document, under an id of its own (clients name their
/// methods after it, and links point at it).
#[test]
fn every_route_is_one_operation_with_its_own_id() {
    let doc = document();
    let mut ids = std::collections::BTreeSet::new();
    for r in ROUTES {
        let method = r.method.as_str().to_ascii_lowercase();
        let op = &doc["paths"][r.path][&method];
        assert_eq!(op["operationId"], json!(r.op.id), "{} {}", r.method, r.path);
        assert!(!r.op.id.is_empty() && !r.op.tag.is_empty() && !r.op.summary.is_empty());
        assert!(
            ids.insert(r.op.id),
            "operation id {} is given twice",
            r.op.id
        );
        // A route takes a body exactly when it checks one.
        assert_eq!(
            r.op.body != Body::None,
            r.check.is_some(),
            "{} {}",
            r.method,
            r.path
        );
    }
    let documented: usize = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| item.as_object().unwrap().len())
        .sum();
    assert_eq!(documented, ROUTES.len());
}

/// Every link names an operation of the table, and each path parameter it sets is one of that
/// operation's path.
#[test]
fn every_link_reaches_an_operation() {
    let mut count = 0;
    for r in ROUTES {
        for l in r.op.links {
            let target = ROUTES.iter().find(|t| t.op.id == l.op);
            let target = target.unwrap_or_else(|| panic!("{}: no operation {}", r.op.id, l.op));
            for (param, _) in l.parameters {
                if let Some(name) = param.strip_prefix("path.") {
                    assert!(
                        target.path.contains(&format!("{{{name}}}")),
                        "{} -> {}: {param}",
                        r.op.id,
                        l.op
                    );
                }
            }
            count += 1;
        }
    }
    assert!(count > 30, "{count} links");
}

#[test]
fn every_error_code_is_documented() {
    let doc = document();
    let codes = &doc["components"]["schemas"]["Error"]["properties"]["error"]["enum"];
    for e in every_error() {
        assert!(
            codes.as_array().unwrap().contains(&json!(e.code())),
            "{}",
            e.code()
        );
        if e.status() != 405 && e.status() != 500 {
            assert!(
                doc["components"]["responses"][format!("E{}", e.status())].is_object(),
                "{}",
                e.status()
            );
        }
    }
}

#[test]
fn every_reference_resolves() {
    fn walk(v: &Value, doc: &Value) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    let pointer = r.trim_start_matches('#');
                    assert!(doc.pointer(pointer).is_some(), "unresolved {r}");
                }
                m.values().for_each(|v| walk(v, doc));
            }
            Value::Array(a) => a.iter().for_each(|v| walk(v, doc)),
            _ => {}
        }
    }
    let doc = document();
    walk(&doc, &doc);
}

/// The view schemas list the same top-level fields as the list-query schemas of `views`.
#[test]
fn record_schemas_match_the_list_query_fields() {
    use crate::http::views;
    let doc = document();
    for (name, schema) in [
        ("Account", &views::ACCOUNT),
        ("AccountDetail", &views::ACCOUNT_DETAIL),
        ("LedgerEntry", &views::LEDGER_ENTRY),
        ("Card", &views::CARD),
        ("CardHolder", &views::CARD_HOLDER),
        ("Authorization", &views::AUTHORIZATION),
        ("CardTransaction", &views::CARD_TRANSACTION),
        ("Event", &views::EVENT),
        ("Transfer", &views::TRANSFER),
        ("WebhookEndpoint", &views::WEBHOOK_ENDPOINT),
        ("WebhookDelivery", &views::WEBHOOK_DELIVERY),
        ("Dispute", &views::DISPUTE),
    ] {
        let mut documented: Vec<&str> = doc["components"]["schemas"][name]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut queried: Vec<&str> = schema
            .fields
            .iter()
            .map(|(f, _)| *f)
            .filter(|f| !f.contains('.'))
            .collect();
        documented.sort_unstable();
        queried.sort_unstable();
        assert_eq!(documented, queried, "{name}");
    }
}
