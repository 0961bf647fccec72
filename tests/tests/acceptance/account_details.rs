//! Account details: records attached to an account, at most one primary per account.

use acceptance::assert::envelope;
use acceptance::fixtures::{create_account, create_detail, detail_body, id};
use acceptance::*;
use serde_json::{Value, json};

const UNKNOWN_ID: &str = "0123456789abcdef01234567";

fn details_path(account: &Value) -> String {
    format!("/accounts/{}/details", id(account))
}

fn detail_path(account: &Value, detail: &Value) -> String {
    format!("/accounts/{}/details/{}", id(account), id(detail))
}

/// `isPrimary` of every detail of the account, by detail id.
fn primaries(t: &Tenant, account: &Value) -> Vec<(String, bool)> {
    let resp = t.list(&details_path(account), &[("limit", "200")]);
    let mut out: Vec<(String, bool)> = resp
        .data(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                id(d),
                d["isPrimary"].as_bool().expect("isPrimary is a boolean"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn create_returns_201_with_defaults() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let body = detail_body(json!({}));
    let resp = t.post(&details_path(&a), &body);
    let d = envelope(&resp, 201, "Account detail created successfully");
    object_id(&d["_id"]);
    assert_eq!(d["type"], json!("bank_account"));
    assert_eq!(d["details"], body["details"]);
    assert_eq!(d["provider"], json!("acme-bank"));
    assert_eq!(d["isPrimary"], json!(false));
    timestamp(&d["createdAt"]);
    timestamp(&d["updatedAt"]);
}

#[test]
fn crypto_wallet_with_primary() {
    let t = tenant();
    let a = create_account(&t, json!({"category": "crypto", "currency": "USDT"}));
    let d = create_detail(
        &t,
        &id(&a),
        json!({"type": "crypto_wallet", "details": {"address": "TXYZ", "chain": "tron", "memo": null, "tags": [1, 2]}, "provider": "fireblocks", "isPrimary": true}),
    );
    assert_eq!(d["type"], json!("crypto_wallet"));
    assert_eq!(d["isPrimary"], json!(true));
    assert_eq!(
        d["details"],
        json!({"address": "TXYZ", "chain": "tron", "memo": null, "tags": [1, 2]})
    );
}

#[test]
fn create_requires_type_details_provider() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let p = details_path(&a);
    for field in ["type", "details", "provider"] {
        t.post(&p, &detail_body(json!({field: null})))
            .expect_field_error(field);
    }
    let resp = t.post(&p, &json!({}));
    for field in ["type", "details", "provider"] {
        resp.expect_field_error(field);
    }
    assert!(t.list(&p, &[]).data(200).as_array().unwrap().is_empty());
}

#[test]
fn create_validates_types() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let p = details_path(&a);
    t.post(&p, &detail_body(json!({"type": "card"})))
        .expect_field_error("type");
    t.post(&p, &detail_body(json!({"details": "GB33"})))
        .expect_field_error("details");
    t.post(&p, &detail_body(json!({"details": [1]})))
        .expect_field_error("details");
    t.post(&p, &detail_body(json!({"provider": 7})))
        .expect_field_error("provider");
    t.post(&p, &detail_body(json!({"isPrimary": "yes"})))
        .expect_field_error("isPrimary");
    t.post(&p, &detail_body(json!({"colour": "red"})))
        .expect_field_error("colour");
}

#[test]
fn list_and_read() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let d1 = create_detail(&t, &id(&a), json!({"provider": "one"}));
    let d2 = create_detail(&t, &id(&a), json!({"provider": "two"}));
    let resp = t.get(&details_path(&a));
    envelope(&resp, 200, "Account details fetched successfully");
    let mut got = ids(&resp);
    got.sort();
    let mut want = vec![id(&d1), id(&d2)];
    want.sort();
    assert_eq!(got, want);
    assert_eq!(int(&resp.body["meta"]["total"]), 2);
    assert_eq!(resp.body["filter"], json!({}));

    let resp = t.get(&detail_path(&a, &d2));
    assert_eq!(
        envelope(&resp, 200, "Account detail fetched successfully"),
        &d2
    );
}

#[test]
fn details_of_one_account_are_not_listed_under_another() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let b = create_account(&t, json!({}));
    let d = create_detail(&t, &id(&a), json!({}));
    assert!(ids(&t.get(&details_path(&b))).is_empty());
    t.get(&format!("{}/{}", details_path(&b), id(&d)))
        .expect_error(404, "not_found");
    t.put(
        &format!("{}/{}", details_path(&b), id(&d)),
        &json!({"provider": "x"}),
    )
    .expect_error(404, "not_found");
    t.delete(&format!("{}/{}", details_path(&b), id(&d)))
        .expect_error(404, "not_found");
    t.get(&detail_path(&a, &d)).expect(200);
}

#[test]
fn put_updates() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let d = create_detail(&t, &id(&a), json!({}));
    std::thread::sleep(std::time::Duration::from_millis(5));
    let body = json!({"type": "crypto_wallet", "details": {"address": "0xabc"}, "provider": "other", "isPrimary": true});
    let resp = t.put(&detail_path(&a, &d), &body);
    let u = envelope(&resp, 200, "Account detail updated successfully").clone();
    assert_eq!(u["_id"], d["_id"]);
    assert_eq!(u["type"], json!("crypto_wallet"));
    assert_eq!(u["details"], json!({"address": "0xabc"}));
    assert_eq!(u["provider"], json!("other"));
    assert_eq!(u["isPrimary"], json!(true));
    assert_eq!(u["createdAt"], d["createdAt"]);
    assert!(timestamp(&u["updatedAt"]) > timestamp(&d["updatedAt"]));
    assert_eq!(t.get(&detail_path(&a, &d)).data(200), &u);
}

#[test]
fn put_validates() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let d = create_detail(&t, &id(&a), json!({}));
    let p = detail_path(&a, &d);
    t.put(&p, &detail_body(json!({"type": "iban"})))
        .expect_field_error("type");
    t.put(&p, &detail_body(json!({"details": 3})))
        .expect_field_error("details");
    t.put(&p, &detail_body(json!({"isPrimary": 1})))
        .expect_field_error("isPrimary");
    t.put(&p, &detail_body(json!({"extra": 1})))
        .expect_field_error("extra");
    assert_eq!(t.get(&p).data(200), &d);
}

#[test]
fn at_most_one_primary() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let d1 = create_detail(&t, &id(&a), json!({"isPrimary": true}));
    let d2 = create_detail(&t, &id(&a), json!({}));
    let d3 = create_detail(&t, &id(&a), json!({"isPrimary": true}));
    let mut want = vec![(id(&d1), false), (id(&d2), false), (id(&d3), true)];
    want.sort();
    assert_eq!(primaries(&t, &a), want);

    // Making d2 primary by PUT clears d3.
    t.put(
        &detail_path(&a, &d2),
        &detail_body(json!({"isPrimary": true})),
    )
    .expect(200);
    let mut want = vec![(id(&d1), false), (id(&d2), true), (id(&d3), false)];
    want.sort();
    assert_eq!(primaries(&t, &a), want);
    assert_eq!(
        t.get(&detail_path(&a, &d3)).data(200)["isPrimary"],
        json!(false)
    );

    // Clearing it leaves none primary.
    t.put(
        &detail_path(&a, &d2),
        &detail_body(json!({"isPrimary": false})),
    )
    .expect(200);
    assert!(primaries(&t, &a).iter().all(|(_, p)| !p));
}

#[test]
fn primary_is_per_account() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let b = create_account(&t, json!({}));
    let da = create_detail(&t, &id(&a), json!({"isPrimary": true}));
    create_detail(&t, &id(&b), json!({"isPrimary": true}));
    assert_eq!(
        t.get(&detail_path(&a, &da)).data(200)["isPrimary"],
        json!(true)
    );
}

#[test]
fn delete_returns_the_removed_detail_then_404() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let d = create_detail(&t, &id(&a), json!({"isPrimary": true}));
    let keep = create_detail(&t, &id(&a), json!({}));
    let resp = t.delete(&detail_path(&a, &d));
    assert_eq!(
        envelope(&resp, 200, "Account detail deleted successfully"),
        &d
    );
    t.get(&detail_path(&a, &d)).expect_error(404, "not_found");
    t.delete(&detail_path(&a, &d))
        .expect_error(404, "not_found");
    t.put(&detail_path(&a, &d), &detail_body(json!({})))
        .expect_error(404, "not_found");
    assert_eq!(ids(&t.get(&details_path(&a))), vec![id(&keep)]);
}

#[test]
fn unknown_account_or_detail_is_404() {
    let t = tenant();
    let unknown = format!("/accounts/{UNKNOWN_ID}/details");
    t.post(&unknown, &detail_body(json!({})))
        .expect_error(404, "not_found");
    t.get(&unknown).expect_error(404, "not_found");
    t.get(&format!("{unknown}/{UNKNOWN_ID}"))
        .expect_error(404, "not_found");
    let a = create_account(&t, json!({}));
    let p = format!("{}/{UNKNOWN_ID}", details_path(&a));
    t.get(&p).expect_error(404, "not_found");
    t.put(&p, &detail_body(json!({})))
        .expect_error(404, "not_found");
    t.delete(&p).expect_error(404, "not_found");
    t.get(&format!("{}/not-hex", details_path(&a)))
        .expect_error(404, "not_found");
}

/// An account with three details (two bank accounts, one the crypto wallet that is primary):
/// the path of its details.
fn three_details(t: &Tenant) -> String {
    let a = create_account(t, json!({}));
    for detail in [
        json!({"provider": "Alpha Bank", "details": {"iban": "GB1", "bank": {"name": "A"}}}),
        json!({"provider": "beta", "type": "crypto_wallet", "details": {"address": "0x1"}, "isPrimary": true}),
        json!({"provider": "alphabet", "details": {"iban": "GB3"}}),
    ] {
        create_detail(t, &id(&a), detail);
    }
    details_path(&a)
}

#[test]
fn list_queries_work_on_details() {
    let t = tenant();
    let p = three_details(&t);

    // Default text field is provider.
    let resp = t.list(&p, &[("search", "^alpha")]);
    assert_eq!(ids(&resp).len(), 2);
    let resp = t.list(&p, &[("isPrimary", "true")]);
    assert_eq!(column(&resp, "provider"), vec![&json!("beta")]);
    assert_eq!(resp.body["filter"], json!({"isPrimary": true}));
    let resp = t.list(&p, &[("type", "bank_account"), ("sort", "provider")]);
    assert_eq!(
        column(&resp, "provider"),
        vec![&json!("Alpha Bank"), &json!("alphabet")]
    );
}

#[test]
fn dot_paths_reach_into_free_form_details() {
    let t = tenant();
    let p = three_details(&t);
    let resp = t.list(&p, &[("fields", "details.iban"), ("sort", "provider")]);
    let data = resp.data(200).as_array().unwrap().clone();
    assert_eq!(data.len(), 3);
    for item in &data {
        let keys: Vec<&String> = item.as_object().unwrap().keys().collect();
        assert!(
            keys.iter().all(|k| *k == "_id" || *k == "details"),
            "{item}"
        );
    }
    assert_eq!(data[0]["details"], json!({"iban": "GB1"}));
    let resp = t.list(&p, &[("fields", "details.bank.name"), ("sort", "provider")]);
    assert_eq!(resp.data(200)[0]["details"], json!({"bank": {"name": "A"}}));
    let resp = t.list(&p, &[("details.iban.exists", "true")]);
    assert_eq!(ids(&resp).len(), 2);
    let resp = t.list(&p, &[("filter", r#"{"details.address":"0x1"}"#)]);
    assert_eq!(column(&resp, "provider"), vec![&json!("beta")]);
}
