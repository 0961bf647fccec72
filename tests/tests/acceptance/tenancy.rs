//! Tenancy: every resource belongs to the client whose key created it; another client gets 404, never a hint.

use acceptance::fixtures::{account_body, create_account, create_detail, detail_body, id};
use acceptance::*;
use serde_json::json;

#[test]
fn another_clients_account_is_404() {
    let a = tenant();
    let b = tenant();
    let account = create_account(&a, json!({"balance": 10}));
    let p = format!("/accounts/{}", id(&account));
    b.get(&p).expect_error(404, "not_found");
    b.put(&p, &json!({"name": "stolen"}))
        .expect_error(404, "not_found");
    b.put(&p, &json!({"balance": 0}))
        .expect_error(404, "not_found");
    b.put(&p, &json!({"status": "closed"}))
        .expect_error(404, "not_found");
    b.get(&format!("{p}/transactions"))
        .expect_error(404, "not_found");
    // Unchanged for its owner.
    let read = a.get(&p);
    assert_eq!(read.data(200), &account);
    assert_eq!(ids(&a.get(&format!("{p}/transactions"))).len(), 1);
}

#[test]
fn the_404_for_another_client_looks_like_an_unknown_id() {
    let a = tenant();
    let b = tenant();
    let account = create_account(&a, json!({}));
    let theirs = b.get(&format!("/accounts/{}", id(&account)));
    let unknown = b.get("/accounts/0123456789abcdef01234567");
    theirs.expect_error(404, "not_found");
    unknown.expect_error(404, "not_found");
    // Alike but for the request id, which every response has its own of.
    let without_id = |body: &serde_json::Value| {
        let mut body = body.clone();
        body.as_object_mut().unwrap().remove("requestId");
        body
    };
    assert_ne!(theirs.body["requestId"], unknown.body["requestId"]);
    assert_eq!(without_id(&theirs.body), without_id(&unknown.body));
}

#[test]
fn another_clients_details_are_404() {
    let a = tenant();
    let b = tenant();
    let account = create_account(&a, json!({}));
    let detail = create_detail(&a, &id(&account), json!({"isPrimary": true}));
    let list = format!("/accounts/{}/details", id(&account));
    let one = format!("{list}/{}", id(&detail));
    b.get(&list).expect_error(404, "not_found");
    b.post(&list, &detail_body(json!({})))
        .expect_error(404, "not_found");
    b.get(&one).expect_error(404, "not_found");
    b.put(&one, &detail_body(json!({"provider": "stolen"})))
        .expect_error(404, "not_found");
    b.delete(&one).expect_error(404, "not_found");
    // B's own account cannot reach A's detail either.
    let own = create_account(&b, json!({}));
    b.get(&format!("/accounts/{}/details/{}", id(&own), id(&detail)))
        .expect_error(404, "not_found");
    assert_eq!(a.get(&one).data(200), &detail);
    assert_eq!(ids(&a.get(&list)), vec![id(&detail)]);
}

#[test]
fn lists_show_only_own_resources() {
    let a = tenant();
    let b = tenant();
    let mine: Vec<String> = (0..3)
        .map(|_| id(&create_account(&a, json!({"name": "shared name"}))))
        .collect();
    let theirs = id(&create_account(&b, json!({"name": "shared name"})));
    let mut listed = ids(&a.list("/accounts", &[("limit", "200")]));
    listed.sort();
    let mut want = mine.clone();
    want.sort();
    assert_eq!(listed, want);
    assert_eq!(ids(&b.get("/accounts")), vec![theirs.clone()]);
    // Search, filters and totals are scoped too.
    let resp = b.list("/accounts", &[("search", "shared")]);
    assert_eq!(ids(&resp), vec![theirs]);
    assert_eq!(int(&resp.body["meta"]["total"]), 1);
    let resp = a.list("/accounts", &[("filter", r#"{"name":"shared name"}"#)]);
    assert_eq!(int(&resp.body["meta"]["total"]), 3);
}

#[test]
fn every_account_carries_its_own_client() {
    let a = tenant();
    let b = tenant();
    assert_ne!(a.client, b.client);
    assert_eq!(create_account(&a, json!({}))["client"], json!(a.client));
    assert_eq!(create_account(&b, json!({}))["client"], json!(b.client));
    // Filtering on another client's name finds nothing.
    let resp = a.list("/accounts", &[("client", &b.client)]);
    assert!(ids(&resp).is_empty());
}

#[test]
fn cannot_create_for_another_client() {
    let a = tenant();
    let b = tenant();
    b.post("/accounts", &account_body(json!({"client": a.client})))
        .expect_field_error("client");
    assert_eq!(int(&a.get("/accounts").body["meta"]["total"]), 0);
    assert_eq!(int(&b.get("/accounts").body["meta"]["total"]), 0);
}
