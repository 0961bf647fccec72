//! Protocol-level errors and the error envelope: routes, methods, content types, body syntax and size.

use acceptance::fixtures::{account_body, create_account, id};
use acceptance::*;
use serde_json::{Value, json};

const UNKNOWN_ID: &str = "0123456789abcdef01234567";

fn post_raw(t: &Tenant, path: &str, content_type: Option<&str>, body: &[u8]) -> Resp {
    let headers: Vec<(&str, &str)> = content_type
        .map(|ct| ("content-type", ct))
        .into_iter()
        .collect();
    t.send("POST", path, &headers, Some(body.to_vec()))
}

#[test]
fn unknown_route_is_404() {
    let t = tenant();
    t.get("/nope").expect_error(404, "not_found");
    t.get("/accounts/x/y/z").expect_error(404, "not_found");
    t.post("/nope", &json!({})).expect_error(404, "not_found");
}

#[test]
fn unknown_and_malformed_ids_are_404() {
    let t = tenant();
    t.get(&format!("/accounts/{UNKNOWN_ID}"))
        .expect_error(404, "not_found");
    for bad in [
        "xyz",
        "0123456789abcdef0123456",
        "0123456789abcdef012345678",
        "0123456789ABCDEF01234567",
        "zz23456789abcdef01234567",
    ] {
        t.get(&format!("/accounts/{bad}"))
            .expect_error(404, "not_found");
        t.put(&format!("/accounts/{bad}"), &json!({"name": "x"}))
            .expect_error(404, "not_found");
        t.get(&format!("/accounts/{bad}/transactions"))
            .expect_error(404, "not_found");
        t.get(&format!("/accounts/{bad}/details"))
            .expect_error(404, "not_found");
    }
    t.put(&format!("/accounts/{UNKNOWN_ID}"), &json!({"name": "x"}))
        .expect_error(404, "not_found");
}

#[test]
fn wrong_method_is_405_with_allow() {
    let t = tenant();
    let account = create_account(&t, json!({}));
    let cases = [
        ("DELETE", "/accounts".to_string(), vec!["GET", "POST"]),
        (
            "PATCH",
            format!("/accounts/{}", id(&account)),
            vec!["GET", "PUT"],
        ),
        (
            "DELETE",
            format!("/accounts/{}", id(&account)),
            vec!["GET", "PUT"],
        ),
        (
            "POST",
            format!("/accounts/{}/transactions", id(&account)),
            vec!["GET"],
        ),
        (
            "PUT",
            format!("/accounts/{}/details", id(&account)),
            vec!["GET", "POST"],
        ),
    ];
    for (method, path, allowed) in cases {
        let resp = t.send(method, &path, &[], None);
        resp.expect_error(405, "method_not_allowed");
        let allow = resp
            .header("allow")
            .unwrap_or_else(|| panic!("{method} {path}: no Allow header"));
        let mut got: Vec<String> = allow
            .split(',')
            .map(|m| m.trim().to_ascii_uppercase())
            .collect();
        got.sort();
        // HEAD and OPTIONS may be listed too; the route's own methods must be.
        for m in &allowed {
            assert!(
                got.iter().any(|g| g == m),
                "{method} {path}: Allow {allow:?} lacks {m}"
            );
        }
        assert!(
            !got.iter().any(|g| g == method),
            "{method} {path}: Allow {allow:?} lists {method}"
        );
    }
}

#[test]
fn malformed_json_is_400() {
    let t = tenant();
    for body in [
        &b"{\"name\": "[..],
        b"{",
        b"not json",
        b"{\"a\":1,}",
        b"",
        b"\xff\xfe{}",
    ] {
        let resp = post_raw(&t, "/accounts", Some("application/json"), body);
        resp.expect_error(400, "validation_error");
    }
}

#[test]
fn non_object_json_is_400() {
    let t = tenant();
    for body in ["[1,2]", "\"text\"", "42", "null", "true", "[]"] {
        post_raw(&t, "/accounts", Some("application/json"), body.as_bytes())
            .expect_error(400, "validation_error");
    }
    let account = create_account(&t, json!({}));
    t.send(
        "PUT",
        &format!("/accounts/{}", id(&account)),
        &[("content-type", "application/json")],
        Some(b"[]".to_vec()),
    )
    .expect_error(400, "validation_error");
}

#[test]
fn unknown_field_is_400_naming_it() {
    let t = tenant();
    t.post("/accounts", &account_body(json!({"colour": "red"})))
        .expect_field_error("colour");
    let account = create_account(&t, json!({}));
    t.put(
        &format!("/accounts/{}", id(&account)),
        &json!({"name": "x", "nickname": "y"}),
    )
    .expect_field_error("nickname");
    // Nothing was created or changed by the rejected requests.
    let list = t.get("/accounts");
    assert_eq!(int(&list.body["meta"]["total"]), 1);
    assert_eq!(
        t.get(&format!("/accounts/{}", id(&account))).data(200)["name"],
        account["name"]
    );
}

#[test]
fn every_missing_required_field_is_named() {
    let t = tenant();
    let resp = t.post("/accounts", &json!({}));
    resp.expect_error(400, "validation_error");
    let fields = resp.error_fields();
    for f in ["ownerType", "name", "type", "category", "currency"] {
        assert!(
            fields.iter().any(|g| g == f),
            "missing {f} not named: {}",
            resp.text
        );
    }
}

#[test]
fn wrong_types_and_enum_values_are_400() {
    let t = tenant();
    let cases: Vec<(&str, Value)> = vec![
        ("ownerType", json!("individual")),
        ("ownerType", json!(1)),
        ("type", json!("current")),
        ("category", json!("gold")),
        ("status", json!("open")),
        ("name", json!(42)),
        ("name", json!(null)),
        ("canDebit", json!("yes")),
        ("canCredit", json!(1)),
        ("balance", json!("100")),
        ("balance", json!(true)),
        ("currency", json!(840)),
        ("network", json!({"a": 1})),
    ];
    for (field, value) in cases {
        let mut body = account_body(json!({}));
        body[field] = value.clone();
        t.post("/accounts", &body).expect_field_error(field);
    }
}

#[test]
fn wrong_content_type_is_415() {
    let t = tenant();
    let body = serde_json::to_vec(&account_body(json!({}))).unwrap();
    for ct in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
    ] {
        post_raw(&t, "/accounts", Some(ct), &body).expect_error(415, "unsupported_media_type");
    }
    let account = create_account(&t, json!({}));
    t.send(
        "PUT",
        &format!("/accounts/{}", id(&account)),
        &[("content-type", "text/plain")],
        Some(br#"{"name":"x"}"#.to_vec()),
    )
    .expect_error(415, "unsupported_media_type");
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 1);
}

#[test]
fn missing_content_type_with_a_body_is_415() {
    let t = tenant();
    let body = serde_json::to_vec(&account_body(json!({}))).unwrap();
    post_raw(&t, "/accounts", None, &body).expect_error(415, "unsupported_media_type");
}

#[test]
fn json_content_type_parameters_are_accepted() {
    let t = tenant();
    let body = serde_json::to_vec(&account_body(json!({}))).unwrap();
    post_raw(
        &t,
        "/accounts",
        Some("application/json; charset=utf-8"),
        &body,
    )
    .expect(201);
    post_raw(&t, "/accounts", Some("Application/JSON"), &body).expect(201);
}

#[test]
fn content_type_is_ignored_on_routes_without_a_body() {
    let t = tenant();
    t.send("GET", "/accounts", &[("content-type", "text/plain")], None)
        .expect(200);
    let account = create_account(&t, json!({}));
    t.send(
        "GET",
        &format!("/accounts/{}", id(&account)),
        &[("content-type", "application/xml")],
        None,
    )
    .expect(200);
}

#[test]
fn body_over_1_mib_is_413() {
    let t = tenant();
    // Valid JSON just over the limit: a long name.
    let filler = "a".repeat(1024 * 1024 + 16);
    let body = format!(
        r#"{{"ownerType":"business","name":"{filler}","type":"checking","category":"fiat","currency":"USD"}}"#
    );
    let auth = format!("Bearer {}", t.key);
    let resp = try_send(
        "POST",
        "/accounts",
        &[
            ("authorization", &auth),
            ("content-type", "application/json"),
        ],
        Some(body.into_bytes()),
    )
    .expect("the server answers 413 rather than dropping the connection");
    resp.expect_error(413, "payload_too_large");
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 0);
}

#[test]
fn body_just_under_1_mib_is_not_413() {
    let t = tenant();
    // Whitespace padding keeps the JSON valid and the account small.
    let json = serde_json::to_string(&account_body(json!({}))).unwrap();
    let padding = " ".repeat(1024 * 1024 - json.len() - 1);
    let body = format!("{padding}{json}");
    assert!(body.len() < 1024 * 1024);
    post_raw(&t, "/accounts", Some("application/json"), body.as_bytes()).expect(201);
}

#[test]
fn error_envelope_shape() {
    let t = tenant();
    // Each helper call checks the exact key set; check one by hand too.
    let resp = t.post("/accounts", &json!({"name": 1}));
    resp.expect(400);
    let body = resp.body.as_object().unwrap();
    assert_eq!(body["statusCode"], json!(400));
    assert_eq!(body["message"], json!("Validation failed"));
    assert_eq!(body["error"], json!("validation_error"));
    assert!(body["errors"].as_array().is_some_and(|e| !e.is_empty()));
    assert!(body.get("data").is_none());

    let resp = t.get(&format!("/accounts/{UNKNOWN_ID}"));
    resp.expect_error(404, "not_found");
    assert!(resp.body.get("errors").is_none());
    assert!(resp.body.get("data").is_none());
}

#[test]
fn success_responses_are_json() {
    let t = tenant();
    let resp = t.post("/accounts", &account_body(json!({})));
    resp.expect(201);
    let ct = resp.header("content-type").unwrap_or("");
    assert!(ct.starts_with("application/json"), "content-type {ct:?}");
    assert_eq!(resp.body["statusCode"], json!(201));
}
