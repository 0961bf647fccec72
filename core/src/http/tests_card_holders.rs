//! Card holders through `Service::serve` on MemStore with the fixed clock (2026-11-22T10:00:00Z).

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::domain::card_holders::{MAX_FILE_BYTES, files, sniff};
use crate::error::ApiError;
use crate::http::body::{MAX_JSON_BYTES, MAX_MULTIPART_BYTES};
use crate::http::handlers::card_holders::validate_create_json;
use crate::http::parse::card_holder_validation::COUNTRY_CODES;
use crate::http::parse::card_holders::camelize;
use crate::http::{Method, Request};
use crate::test_app::{KEY_A, KEY_B, TestApp as App};
const BOUNDARY: &str = "----holderTestBoundary7MA4YWxk";

const JPEG: &[u8] = &[
    0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, b'J', b'F', b'I', b'F', 0x00, 0xFF, 0xD9,
];
const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00";
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";

enum P<'a> {
    Text(&'a str, &'a str),
    File(&'a str, &'a str, &'a [u8]),
}

fn multipart(parts: &[P]) -> Vec<u8> {
    let mut b = Vec::new();
    for p in parts {
        b.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        match p {
            P::Text(name, value) => {
                b.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
                );
                b.extend_from_slice(value.as_bytes());
            }
            P::File(name, file, data) => {
                b.extend_from_slice(
                    format!(
                        "Content-Disposition: form-data; name=\"{name}\"; filename=\"{file}\"\r\n\
                         Content-Type: application/octet-stream\r\n\r\n"
                    )
                    .as_bytes(),
                );
                b.extend_from_slice(data);
            }
        }
        b.extend_from_slice(b"\r\n");
    }
    b.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    b
}

fn person() -> Value {
    json!({"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com", "phoneNumber": "+2348012345678"})
}

impl App {
    fn post(&mut self, body: Value) -> (u16, Value) {
        self.json_as(KEY_A, Method::Post, "/card-holders", Some(body))
    }

    fn put(&mut self, id: &str, body: Value) -> (u16, Value) {
        self.json_as(
            KEY_A,
            Method::Put,
            &format!("/card-holders/{id}"),
            Some(body),
        )
    }

    fn form(&mut self, parts: &[P]) -> (u16, Value) {
        self.raw_form(
            &format!("multipart/form-data; boundary={BOUNDARY}"),
            multipart(parts),
        )
    }

    fn raw_form(&mut self, content_type: &str, body: Vec<u8>) -> (u16, Value) {
        let req = Request::new(Method::Post, "/card-holders")
            .header("x-api-key", KEY_A)
            .header("content-type", content_type)
            .body(body);
        let (s, v, _) = self.send(req);
        (s, v)
    }
}

fn fields(v: &Value) -> Vec<String> {
    v["errors"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| e["field"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[track_caller]
fn expect_fields(resp: (u16, Value), want: &[&str]) {
    let (s, v) = resp;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["error"], "validation_error", "{v}");
    assert_eq!(fields(&v), want, "{v}");
}

fn sha(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

#[test]
fn json_create_with_defaults_and_derived_name() {
    let mut app = App::new();
    let (s, v) = app.post(json!({"person": person()}));
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["message"], "Card holder created successfully");
    let d = &v["data"];
    assert!(crate::domain::ids::is_valid(d["_id"].as_str().unwrap()));
    assert_eq!(d["name"], "Ada Lovelace");
    assert_eq!(d["person"]["email"], "ada@example.com");
    assert_eq!(d["person"]["gender"], Value::Null);
    assert_eq!(d["address"], Value::Null);
    assert_eq!(
        d["identification"],
        json!({"document": null, "proofOfAddress": null})
    );
    assert_eq!(
        d["meta"],
        json!({"fundingSource": null, "monthlyTransactionValue": null})
    );
    assert_eq!(d["createdAt"], "2026-11-22T10:00:00.000Z");
    assert_eq!(d["updatedAt"], d["createdAt"]);
    assert!(d.get("client").is_none());

    let id = d["_id"].as_str().unwrap().to_string();
    let (s, got, _) = app.get_as(KEY_A, &format!("/card-holders/{id}"));
    assert_eq!(s, 200);
    assert_eq!(got["message"], "Card holder fetched successfully");
    assert_eq!(&got["data"], d);
    let (s, _, _) = app.get_as(KEY_B, &format!("/card-holders/{id}"));
    assert_eq!(s, 404);
}

#[test]
fn full_json_body_round_trips_with_normalised_values() {
    let mut app = App::new();
    let (s, v) = app.post(json!({
        "name": "  Ada L.  ",
        "person": {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com", "phoneNumber": "2348012345678",
                   "dateOfBirth": "1990-02-28", "gender": "F", "nationality": "ng"},
        "address": {"line1": "1 Marina", "city": "Lagos", "state": "LA", "postalCode": "101001", "countryCode": "ng"},
        "identification": {
            "document": {"type": "passport", "number": "A123", "issueDate": "2020-01-01", "expiryDate": "2030-01-01",
                         "issuingCountry": "NG", "description": "front"},
            "proofOfAddress": {"type": "utility_bill", "documentId": "U1", "verificationStatus": "verified"}
        },
        "meta": {"fundingSource": "salary", "monthlyTransactionValue": 5000}
    }));
    assert_eq!(s, 201, "{v}");
    let d = &v["data"];
    assert_eq!(d["name"], "Ada L.");
    assert_eq!(d["person"]["gender"], "f");
    assert_eq!(d["person"]["nationality"], "NG");
    assert_eq!(d["address"]["countryCode"], "NG");
    let doc = &d["identification"]["document"];
    assert_eq!(doc["type"], "passport");
    assert_eq!(doc["verificationStatus"], "pending");
    assert_eq!(doc["urls"], json!({"main": null, "back": null}));
    assert_eq!(
        d["identification"]["proofOfAddress"]["verificationStatus"],
        "verified"
    );
    assert_eq!(d["meta"]["monthlyTransactionValue"], "5000");
}

#[test]
fn every_rule_is_one_field_error_with_a_dot_path() {
    let mut app = App::new();
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"person": {"lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567"}}),
            "person.firstName",
        ),
        (
            json!({"name": "x", "person": {"firstName": "A", "email": "a@b.co", "phoneNumber": "+1234567"}}),
            "person.lastName",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "phoneNumber": "+1234567"}}),
            "person.email",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co"}}),
            "person.phoneNumber",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "not-an-email", "phoneNumber": "+1234567"}}),
            "person.email",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b", "phoneNumber": "+1234567"}}),
            "person.email",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "123456"}}),
            "person.phoneNumber",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567890123456"}}),
            "person.phoneNumber",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "+123-4567"}}),
            "person.phoneNumber",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567", "gender": "male"}}),
            "person.gender",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567", "nationality": "XX"}}),
            "person.nationality",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567", "nationality": "NGA"}}),
            "person.nationality",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567", "dateOfBirth": "1990-02-30"}}),
            "person.dateOfBirth",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567", "dateOfBirth": "1990-2-3"}}),
            "person.dateOfBirth",
        ),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567", "dateOfBirth": "2026-11-23"}}),
            "person.dateOfBirth",
        ),
        (
            json!({"person": person(), "address": {"countryCode": "ZZ"}}),
            "address.countryCode",
        ),
        (
            json!({"person": person(), "identification": {"document": {"type": "visa"}}}),
            "identification.document.type",
        ),
        (
            json!({"person": person(), "identification": {"document": {"expiryDate": "2030-13-01"}}}),
            "identification.document.expiryDate",
        ),
        (
            json!({"person": person(), "identification": {"document": {"issueDate": "2031-01-01", "expiryDate": "2030-01-01"}}}),
            "identification.document.issueDate",
        ),
        (
            json!({"person": person(), "identification": {"document": {"verificationStatus": "approved"}}}),
            "identification.document.verificationStatus",
        ),
        (
            json!({"person": person(), "identification": {"proofOfAddress": {"type": "passport"}}}),
            "identification.proofOfAddress.type",
        ),
        (
            json!({"person": person(), "identification": {"proofOfAddress": {"verificationStatus": "done"}}}),
            "identification.proofOfAddress.verificationStatus",
        ),
        (
            json!({"person": person(), "identification": {"document": {"meta": {"fileType": "text/plain", "contentHash": sha(b"x")}}}}),
            "identification.document.meta.fileType",
        ),
        (
            json!({"person": person(), "identification": {"document": {"meta": {"fileType": "image/png", "contentHash": "md5:00"}}}}),
            "identification.document.meta.contentHash",
        ),
        (json!({"person": person(), "colour": "blue"}), "colour"),
        (
            json!({"person": {"firstName": "A", "lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567", "shoe": 9}}),
            "person.shoe",
        ),
        (json!({"person": person(), "name": 7}), "name"),
        (
            json!({"person": person(), "meta": {"monthlyTransactionValue": true}}),
            "meta.monthlyTransactionValue",
        ),
        (json!({"person": "{not json"}), "person"),
    ];
    for (body, field) in cases {
        expect_fields(app.post(body.clone()), &[field]);
    }
    // Nothing at all: no name to derive and no person.
    expect_fields(app.post(json!({})), &["name", "person"]);
    // The boundary day itself is not in the future.
    let mut p = person();
    p["dateOfBirth"] = json!("2026-11-22");
    assert_eq!(app.post(json!({"person": p})).0, 201);
    assert!(app.store.iter().all(|(k, _)| !k.starts_with(b"file")));
}

#[test]
fn date_of_birth_uses_the_injected_clock() {
    let mut app = App::new();
    let mut p = person();
    p["dateOfBirth"] = json!("2027-01-01");
    expect_fields(
        app.post(json!({"person": p.clone()})),
        &["person.dateOfBirth"],
    );
    app.env
        .set_now(crate::Timestamp::parse_rfc3339("2027-01-01T00:00:00.000Z").unwrap());
    assert_eq!(app.post(json!({"person": p})).0, 201);
}

#[test]
fn snake_case_aliases_at_every_level() {
    let mut app = App::new();
    let (s, v) = app.post(json!({
        "person": {"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com", "phone_number": "+2348012345678",
                   "date_of_birth": "1990-01-01"},
        "address": {"line_1": "1 Marina", "postal_code": "101001", "country_code": "gh"},
        "identification": {
            "document": {"type": "drivers_license", "issue_date": "2020-01-01", "expiry_date": "2025-01-01",
                         "issuing_country": "gh", "verification_status": "rejected",
                         "meta": {"file_type": "image/png", "content_hash": sha(PNG)}},
            "proof_of_address": {"type": "bank_statement", "document_id": "B-7"}
        },
        "meta": {"funding_source": "savings", "monthly_transaction_value": "100-500"}
    }));
    assert_eq!(s, 201, "{v}");
    let d = &v["data"];
    assert_eq!(d["person"]["firstName"], "Ada");
    assert_eq!(d["person"]["dateOfBirth"], "1990-01-01");
    assert_eq!(
        d["address"],
        json!({"line1": "1 Marina", "city": null, "state": null, "postalCode": "101001", "countryCode": "GH"})
    );
    let doc = &d["identification"]["document"];
    assert_eq!(doc["issuingCountry"], "GH");
    assert_eq!(doc["verificationStatus"], "rejected");
    assert_eq!(doc["meta"]["contentHash"], sha(PNG));
    assert_eq!(d["identification"]["proofOfAddress"]["documentId"], "B-7");
    assert_eq!(d["meta"]["fundingSource"], "savings");

    // Both spellings of one field is an error naming the second.
    expect_fields(
        app.post(json!({"person": {"firstName": "A", "first_name": "B", "lastName": "L", "email": "a@b.co", "phoneNumber": "+1234567"}})),
        &["person.first_name"],
    );
}

#[test]
fn camelize_rules() {
    assert_eq!(camelize("first_name"), "firstName");
    assert_eq!(
        camelize("monthly_transaction_value"),
        "monthlyTransactionValue"
    );
    assert_eq!(camelize("line_1"), "line1");
    assert_eq!(camelize("address_line1"), "addressLine1");
    assert_eq!(camelize("email"), "email");
}

#[test]
fn country_table_is_the_sorted_iso_list() {
    assert_eq!(COUNTRY_CODES.len(), 249);
    assert!(COUNTRY_CODES.windows(2).all(|w| w[0] < w[1]));
    for code in ["NG", "US", "GB", "DE", "SS", "AX", "ZW"] {
        assert!(COUNTRY_CODES.binary_search(&code).is_ok(), "{code}");
    }
    for code in ["UK", "EU", "XK", "ZZ"] {
        assert!(COUNTRY_CODES.binary_search(&code).is_err(), "{code}");
    }
}

#[test]
fn flat_quickstart_form_derives_name_and_fills_person_and_address() {
    let mut app = App::new();
    let (s, v) = app.form(&[
        P::Text("firstName", "Grace"),
        P::Text("lastName", "Hopper"),
        P::Text("email", "grace@example.com"),
        P::Text("phoneNumber", "+15555550100"),
        P::Text("dateOfBirth", "1906-12-09"),
        P::Text("gender", "f"),
        P::Text("nationality", "us"),
        P::Text("addressLine1", "1 Navy Way"),
        P::Text("city", "Arlington"),
        P::Text("state", "VA"),
        P::Text("postalCode", "22202"),
        P::Text("country", "us"),
        P::Text("meta", ""), // an empty HTML input means "not given"
    ]);
    assert_eq!(s, 201, "{v}");
    let d = &v["data"];
    assert_eq!(d["name"], "Grace Hopper");
    assert_eq!(d["person"]["nationality"], "US");
    assert_eq!(
        d["address"],
        json!({"line1": "1 Navy Way", "city": "Arlington", "state": "VA", "postalCode": "22202", "countryCode": "US"})
    );
}

#[test]
fn json_text_parts_with_aliases_win_over_flat_parts() {
    let mut app = App::new();
    let (s, v) = app.form(&[
        P::Text("name", "Ada Lovelace"),
        P::Text("person", r#"{"first_name":"Ada","last_name":"Lovelace","email":"ada@example.com","phone_number":"+2348012345678"}"#),
        P::Text("email", "flat@example.com"),
        P::Text("address", r#"{"line1":"1 Marina","postal_code":"101001","country_code":"NG"}"#),
        P::Text("identification", r#"{"document":{"type":"national_id","number":"N1"}}"#),
        P::Text("meta", r#"{"funding_source":"salary"}"#),
    ]);
    assert_eq!(s, 201, "{v}");
    let d = &v["data"];
    assert_eq!(d["person"]["email"], "ada@example.com");
    assert_eq!(d["address"]["postalCode"], "101001");
    assert_eq!(d["identification"]["document"]["type"], "national_id");
    assert_eq!(d["meta"]["fundingSource"], "salary");
}

#[test]
fn multipart_naming_problems_are_field_errors() {
    let mut app = App::new();
    expect_fields(
        app.form(&[
            P::Text("person", &person().to_string()),
            P::Text("favouriteColour", "blue"),
        ]),
        &["favouriteColour"],
    );
    expect_fields(
        app.form(&[
            P::Text("person", &person().to_string()),
            P::Text("name", "A"),
            P::Text("name", "B"),
        ]),
        &["name"],
    );
    expect_fields(app.form(&[P::Text("person", "{oops")]), &["person"]);
    expect_fields(app.form(&[P::Text("person", "[1,2]")]), &["person"]);
    expect_fields(
        app.form(&[
            P::Text("firstName", "A"),
            P::Text("lastName", "B"),
            P::Text("email", "bad"),
            P::Text("phoneNumber", "1"),
        ]),
        &["person.email", "person.phoneNumber"],
    );
    assert!(app.store.is_empty());
}

#[test]
fn files_are_typed_hashed_chunked_and_served_to_the_owner_only() {
    let mut app = App::new();
    // Bigger than two chunks, so reassembly is exercised.
    let mut big_pdf = PDF.to_vec();
    big_pdf.extend((0..(2 * files::CHUNK_BYTES + 1234)).map(|i| (i % 251) as u8));
    let (s, v) = app.form(&[
        P::Text("person", &person().to_string()),
        P::Text(
            "identification",
            r#"{"document":{"type":"passport","number":"P1"}}"#,
        ),
        P::File("documentMain", "front.jpg", JPEG),
        P::File("documentBack", "back.png", PNG),
        P::File("proofOfAddress", "bill.pdf", &big_pdf),
    ]);
    assert_eq!(s, 201, "{v}");
    let d = v["data"].clone();
    let id = d["_id"].as_str().unwrap();
    let doc = &d["identification"]["document"];
    assert_eq!(doc["number"], "P1");
    assert_eq!(
        doc["meta"],
        json!({"fileType": "image/jpeg", "contentHash": sha(JPEG)})
    );
    assert_eq!(
        doc["backMeta"],
        json!({"fileType": "image/png", "contentHash": sha(PNG)})
    );
    let poa = &d["identification"]["proofOfAddress"];
    assert_eq!(
        poa["meta"],
        json!({"fileType": "application/pdf", "contentHash": sha(&big_pdf)})
    );
    assert_eq!(poa["verificationStatus"], "pending");

    let chunk_count = app
        .store
        .iter()
        .filter(|(k, _)| k.starts_with(b"f\0alice\0"))
        .count();
    assert_eq!(chunk_count, 1 + 1 + 3);

    for (url, want, ct) in [
        (doc["urls"]["main"].as_str().unwrap(), JPEG, "image/jpeg"),
        (doc["urls"]["back"].as_str().unwrap(), PNG, "image/png"),
        (
            poa["url"].as_str().unwrap(),
            &big_pdf[..],
            "application/pdf",
        ),
    ] {
        assert!(
            url.starts_with(&format!("/card-holders/{id}/files/")),
            "{url}"
        );
        let (s, _, resp) = app.get_as(KEY_A, url);
        assert_eq!(s, 200, "{url}");
        assert_eq!(resp.header_value("content-type"), Some(ct));
        assert_eq!(resp.body, want);
        let (s, _, _) = app.get_as(KEY_B, url);
        assert_eq!(s, 404, "{url}");
    }
    // A file id under another holder of the same client is not found either.
    let (s, other) = app.post(json!({"person": person()}));
    assert_eq!(s, 201);
    let file_id = doc["urls"]["main"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap();
    let other_url = format!(
        "/card-holders/{}/files/{file_id}",
        other["data"]["_id"].as_str().unwrap()
    );
    assert_eq!(app.get_as(KEY_A, &other_url).0, 404);
    assert_eq!(
        app.get_as(KEY_A, &format!("/card-holders/{id}/files/nope"))
            .0,
        404
    );
}

#[test]
fn a_file_without_its_identification_object_creates_it() {
    let mut app = App::new();
    let (s, v) = app.form(&[
        P::Text("firstName", "A"),
        P::Text("lastName", "B"),
        P::Text("email", "a@b.co"),
        P::Text("phoneNumber", "+1234567"),
        P::File("proofOfAddress", "bill.png", PNG),
    ]);
    assert_eq!(s, 201, "{v}");
    let ident = &v["data"]["identification"];
    assert_eq!(ident["document"], Value::Null);
    let poa = &ident["proofOfAddress"];
    assert_eq!(poa["type"], Value::Null);
    assert_eq!(poa["verificationStatus"], "pending");
    assert!(poa["url"].as_str().unwrap().contains("/files/"));
}

#[test]
fn wrong_types_and_sizes_write_nothing() {
    let mut app = App::new();
    let p = person().to_string();
    let (s, v) = app.form(&[
        P::Text("person", &p),
        P::File("documentMain", "notes.txt", b"hello, plain text"),
    ]);
    assert_eq!(
        (s, v["error"].as_str()),
        (415, Some("unsupported_media_type")),
        "{v}"
    );
    let too_big = {
        let mut b = JPEG.to_vec();
        b.resize(MAX_FILE_BYTES + 1, 0);
        b
    };
    let (s, v) = app.form(&[
        P::Text("person", &p),
        P::File("documentMain", "big.jpg", &too_big),
    ]);
    assert_eq!(
        (s, v["error"].as_str()),
        (413, Some("payload_too_large")),
        "{v}"
    );
    let mut exact = JPEG.to_vec();
    exact.resize(MAX_FILE_BYTES, 0);
    assert!(app.store.is_empty());
    let (s, v) = app.form(&[
        P::Text("person", &p),
        P::File("documentMain", "ok.jpg", &exact),
    ]);
    assert_eq!(s, 201, "{v}");
}

#[test]
fn malformed_multipart_and_other_content_types() {
    let mut app = App::new();
    let good = multipart(&[P::Text("person", &person().to_string())]);
    let ct = format!("multipart/form-data; boundary={BOUNDARY}");
    for (content_type, body) in [
        ("multipart/form-data".to_string(), good.clone()),
        (
            "multipart/form-data; boundary=nope".to_string(),
            good.clone(),
        ),
        (ct.clone(), good[..good.len() / 2].to_vec()),
        (ct.clone(), b"complete garbage".to_vec()),
    ] {
        let (s, v) = app.raw_form(&content_type, body);
        assert_eq!(s, 400, "{content_type}: {v}");
        assert_eq!(fields(&v), ["body"], "{v}");
    }
    let (s, _) = app.raw_form(&ct, vec![b'x'; MAX_MULTIPART_BYTES + 1]);
    assert_eq!(s, 413);
    let (s, v) = app.raw_form("text/plain", b"name=x".to_vec());
    assert_eq!(
        (s, v["error"].as_str()),
        (415, Some("unsupported_media_type"))
    );
    let (s, _) = app.raw_form("application/x-www-form-urlencoded", b"name=x".to_vec());
    assert_eq!(s, 415);
    let (s, _) = app.raw_form("application/json", vec![b' '; MAX_JSON_BYTES + 1]);
    assert_eq!(s, 413);
    assert!(app.store.is_empty());
}

#[test]
fn put_merges_nested_objects_and_revalidates() {
    let mut app = App::new();
    let (_, v) = app.post(json!({
        "person": person(),
        "address": {"city": "Lagos", "countryCode": "NG"},
        "identification": {"document": {"type": "passport", "number": "P1"}}
    }));
    let id = v["data"]["_id"].as_str().unwrap().to_string();
    app.env.advance_millis(1500);

    let (s, u) = app.put(&id, json!({"person": {"email": "new@example.com"}}));
    assert_eq!(s, 200, "{u}");
    assert_eq!(u["message"], "Card holder updated successfully");
    let d = &u["data"];
    assert_eq!(d["person"]["email"], "new@example.com");
    assert_eq!(d["person"]["firstName"], "Ada");
    assert_eq!(d["address"]["city"], "Lagos");
    assert_eq!(d["identification"]["document"]["number"], "P1");
    assert_eq!(d["createdAt"], "2026-11-22T10:00:00.000Z");
    assert_eq!(d["updatedAt"], "2026-11-22T10:00:01.500Z");

    let (s, u) = app.put(
        &id,
        json!({"address": {"postal_code": "100001"}, "identification": {"document": {"verification_status": "verified"}}}),
    );
    assert_eq!(s, 200, "{u}");
    assert_eq!(u["data"]["address"]["postalCode"], "100001");
    assert_eq!(u["data"]["address"]["city"], "Lagos");
    assert_eq!(
        u["data"]["identification"]["document"]["verificationStatus"],
        "verified"
    );
    assert_eq!(u["data"]["identification"]["document"]["type"], "passport");

    let before = app.get_as(KEY_A, &format!("/card-holders/{id}")).1;
    expect_fields(
        app.put(&id, json!({"person": {"email": "broken"}})),
        &["person.email"],
    );
    expect_fields(
        app.put(&id, json!({"person": {"firstName": null}})),
        &["person.firstName"],
    );
    expect_fields(app.put(&id, json!({"name": null})), &["name"]);
    expect_fields(
        app.put(&id, json!({"_id": "x", "createdAt": "y"})),
        &["_id", "createdAt"],
    );
    expect_fields(app.put(&id, json!({"firstName": "Flat"})), &["firstName"]);
    expect_fields(
        app.put(&id, json!({"identification": {"document": {"issueDate": "2031-01-01", "expiryDate": "2030-01-01"}}})),
        &["identification.document.issueDate"],
    );
    assert_eq!(app.get_as(KEY_A, &format!("/card-holders/{id}")).1, before);

    // null clears an optional object.
    let (s, u) = app.put(&id, json!({"address": null}));
    assert_eq!(s, 200, "{u}");
    assert_eq!(u["data"]["address"], Value::Null);

    // Multipart is not accepted on PUT, and another client cannot see the holder.
    let req = Request::new(Method::Put, &format!("/card-holders/{id}"))
        .header("x-api-key", KEY_A)
        .header(
            "content-type",
            &format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(multipart(&[P::Text("name", "x")]));
    assert_eq!(app.send(req).0, 415);
    assert_eq!(
        app.json_as(
            KEY_B,
            Method::Put,
            &format!("/card-holders/{id}"),
            Some(json!({"name": "x"}))
        )
        .0,
        404
    );
}

#[test]
fn list_is_per_client_and_searches_the_default_fields() {
    let mut app = App::new();
    for (first, email) in [
        ("Ada", "ada@example.com"),
        ("Grace", "grace@navy.mil"),
        ("Alan", "alan@example.org"),
    ] {
        let mut p = person();
        p["firstName"] = json!(first);
        p["email"] = json!(email);
        assert_eq!(app.post(json!({"person": p})).0, 201);
    }
    app.json_as(
        KEY_B,
        Method::Post,
        "/card-holders",
        Some(json!({"person": person()})),
    );
    let (s, v, _) = app.get_as(KEY_A, "/card-holders");
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["message"], "Card holders fetched successfully");
    assert_eq!(v["data"].as_array().unwrap().len(), 3);
    let (s, v, _) = app.get_as(KEY_A, "/card-holders?search=navy");
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["data"][0]["person"]["firstName"], "Grace");
    assert_eq!(v["data"].as_array().unwrap().len(), 1);
    let (s, v, _) = app.get_as(
        KEY_A,
        "/card-holders?person.firstName=Alan&fields=person.email",
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["data"].as_array().unwrap().len(), 1);
    let only = v["data"][0].as_object().unwrap();
    assert_eq!(only.keys().collect::<Vec<_>>(), ["_id", "person"]);
    assert_eq!(v["data"][0]["person"], json!({"email": "alan@example.org"}));
    let (s, _, _) = app.get_as(KEY_A, "/card-holders?sort=person.shoeSize");
    assert_eq!(s, 400);
}

#[test]
fn validate_create_json_matches_the_server() {
    let now = crate::Timestamp::parse_rfc3339("2026-11-22T10:00:00.000Z").unwrap();
    let body: Map<String, Value> =
        serde_json::from_value(json!({"person": {"first_name": "A", "email": "x"}})).unwrap();
    let err = validate_create_json(body.clone(), now).unwrap_err();
    let mut app = App::new();
    let (_, v) = app.post(Value::Object(body));
    let ApiError::Validation(errors) = err else {
        panic!()
    };
    let mine: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(mine, fields(&v));
    assert_eq!(
        mine,
        ["person.lastName", "person.email", "person.phoneNumber"]
    );
    let ok: Map<String, Value> = serde_json::from_value(json!({"person": person()})).unwrap();
    assert_eq!(validate_create_json(ok, now).unwrap().name, "Ada Lovelace");
}

#[test]
fn magic_bytes() {
    assert_eq!(sniff(JPEG), Some("image/jpeg"));
    assert_eq!(sniff(PNG), Some("image/png"));
    assert_eq!(sniff(PDF), Some("application/pdf"));
    assert_eq!(sniff(b"\x89PNG\r\n"), None);
    assert_eq!(sniff(b"GIF89a"), None);
    assert_eq!(sniff(b"%PDF"), None);
    assert_eq!(sniff(b""), None);
}
