//! Card holders: the three creation forms (multipart JSON-text parts, multipart flat parts, JSON),
//! validation, identity-document files, merge PUT, lists and tenancy.

use acceptance::assert::envelope;
use acceptance::fixtures::{Multipart, files, id};
use acceptance::*;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn person() -> Value {
    json!({
        "firstName": "Ada",
        "lastName": "Lovelace",
        "email": "ada@example.com",
        "phoneNumber": "+2348012345678"
    })
}

/// Creates a card holder from a JSON body (asserting 201).
#[track_caller]
fn create_json(t: &Tenant, body: Value) -> Value {
    t.post("/card-holders", &body).data(201).clone()
}

fn holder_path(h: &Value) -> String {
    format!("/card-holders/{}", id(h))
}

fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

/// A file URL from a response as a path on this server (it may be absolute or a path).
fn url_path(t: &Tenant, url: &Value) -> String {
    let url = url
        .as_str()
        .unwrap_or_else(|| panic!("expected a URL string, got {url}"));
    url.strip_prefix(&t.base_url).unwrap_or(url).to_string()
}

#[test]
fn multipart_with_json_text_parts() {
    let t = tenant();
    let form = Multipart::new()
        .text("name", "Ada Lovelace")
        .text(
            "person",
            &json!({"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com",
                    "phoneNumber": "+2348012345678", "dateOfBirth": "1990-12-10", "gender": "f",
                    "nationality": "ng"})
            .to_string(),
        )
        .text(
            "address",
            &json!({"line1": "1 Marina", "city": "Lagos", "state": "LA", "postal_code": "101001",
                    "country_code": "ng"})
            .to_string(),
        )
        .text(
            "identification",
            &json!({"document": {"type": "passport", "number": "A1234567", "issue_date": "2020-01-01",
                                 "expiry_date": "2030-01-01", "issuing_country": "NG"}})
            .to_string(),
        )
        .text("meta", &json!({"fundingSource": "salary", "monthlyTransactionValue": "5000"}).to_string());
    let resp = t.multipart("POST", "/card-holders", form);
    let h = envelope(&resp, 201, "Card holder created successfully");
    object_id(&h["_id"]);
    timestamp(&h["createdAt"]);
    timestamp(&h["updatedAt"]);
    assert_eq!(h["name"], json!("Ada Lovelace"));
    let p = &h["person"];
    assert_eq!(p["firstName"], json!("Ada"));
    assert_eq!(p["lastName"], json!("Lovelace"));
    assert_eq!(p["email"], json!("ada@example.com"));
    assert_eq!(p["phoneNumber"], json!("+2348012345678"));
    assert_eq!(p["dateOfBirth"], json!("1990-12-10"));
    assert_eq!(p["gender"], json!("f"));
    assert_eq!(p["nationality"], json!("NG"));
    let a = &h["address"];
    assert_eq!(a["line1"], json!("1 Marina"));
    assert_eq!(a["city"], json!("Lagos"));
    assert_eq!(a["state"], json!("LA"));
    assert_eq!(a["postalCode"], json!("101001"));
    assert_eq!(a["countryCode"], json!("NG"));
    let doc = &h["identification"]["document"];
    assert_eq!(doc["type"], json!("passport"));
    assert_eq!(doc["number"], json!("A1234567"));
    assert_eq!(doc["issueDate"], json!("2020-01-01"));
    assert_eq!(doc["expiryDate"], json!("2030-01-01"));
    assert_eq!(doc["issuingCountry"], json!("NG"));
    assert_eq!(doc["verificationStatus"], json!("pending"));
    assert_eq!(h["meta"]["fundingSource"], json!("salary"));
    assert_eq!(h["meta"]["monthlyTransactionValue"], json!("5000"));
    // The read is the same representation.
    assert_eq!(t.get(&holder_path(h)).data(200), h);
}

#[test]
fn snake_case_person_keys_are_accepted() {
    let t = tenant();
    let form = Multipart::new().text("name", "Grace Hopper").text(
        "person",
        &json!({"first_name": "Grace", "last_name": "Hopper", "email": "grace@example.com",
                "phone_number": "+15551234567", "date_of_birth": "1906-12-09"})
        .to_string(),
    );
    let resp = t.multipart("POST", "/card-holders", form);
    let p = &resp.data(201)["person"];
    assert_eq!(p["firstName"], json!("Grace"));
    assert_eq!(p["lastName"], json!("Hopper"));
    assert_eq!(p["phoneNumber"], json!("+15551234567"));
    assert_eq!(p["dateOfBirth"], json!("1906-12-09"));
}

#[test]
fn multipart_with_flat_parts_derives_name_and_address() {
    let t = tenant();
    let form = Multipart::new()
        .text("firstName", "Alan")
        .text("lastName", "Turing")
        .text("email", "alan@example.com")
        .text("phoneNumber", "+447700900123")
        .text("addressLine1", "Bletchley Park")
        .text("city", "Milton Keynes")
        .text("state", "BKM")
        .text("postalCode", "MK3 6EB")
        .text("country", "gb");
    let resp = t.multipart("POST", "/card-holders", form);
    let h = resp.data(201);
    assert_eq!(h["name"], json!("Alan Turing"));
    assert_eq!(h["person"]["firstName"], json!("Alan"));
    assert_eq!(h["person"]["email"], json!("alan@example.com"));
    assert_eq!(h["address"]["line1"], json!("Bletchley Park"));
    assert_eq!(h["address"]["city"], json!("Milton Keynes"));
    assert_eq!(h["address"]["postalCode"], json!("MK3 6EB"));
    assert_eq!(h["address"]["countryCode"], json!("GB"));
}

#[test]
fn json_body_is_accepted_too() {
    let t = tenant();
    let resp = t.post(
        "/card-holders",
        &json!({"name": "Ada L", "person": person(), "address": {"line1": "x", "city": "y", "countryCode": "ng"}}),
    );
    let h = envelope(&resp, 201, "Card holder created successfully");
    assert_eq!(h["name"], json!("Ada L"));
    assert_eq!(h["address"]["countryCode"], json!("NG"));
    // Without a name, it is derived from the person.
    let h = create_json(&t, json!({"person": person()}));
    assert_eq!(h["name"], json!("Ada Lovelace"));
}

#[test]
fn required_person_fields() {
    let t = tenant();
    let resp = t.post("/card-holders", &json!({"name": "x", "person": {}}));
    for field in [
        "person.firstName",
        "person.lastName",
        "person.email",
        "person.phoneNumber",
    ] {
        resp.expect_field_error(field);
    }
    for field in ["firstName", "lastName", "email", "phoneNumber"] {
        let mut p = person();
        p.as_object_mut().unwrap().remove(field);
        t.post("/card-holders", &json!({"name": "x", "person": p}))
            .expect_field_error(&format!("person.{field}"));
    }
    // Multipart: a missing JSON-text field is named the same way.
    let form = Multipart::new().text("name", "x").text(
        "person",
        &json!({"firstName": "A", "lastName": "B", "phoneNumber": "+12345678"}).to_string(),
    );
    t.multipart("POST", "/card-holders", form)
        .expect_field_error("person.email");
    assert_eq!(int(&t.get("/card-holders").body["meta"]["total"]), 0);
}

#[test]
fn person_values_are_validated() {
    let t = tenant();
    let cases: &[(&str, Value)] = &[
        ("dateOfBirth", json!("1990-02-30")),
        ("dateOfBirth", json!("10/12/1990")),
        ("dateOfBirth", json!("2999-01-01")),
        ("email", json!("not-an-email")),
        ("email", json!("a@")),
        ("phoneNumber", json!("123456")),
        ("phoneNumber", json!("+1234567890123456")),
        ("phoneNumber", json!("+234-801-234")),
        ("gender", json!("x")),
        ("nationality", json!("NGA")),
        ("nationality", json!("1A")),
    ];
    for (field, value) in cases {
        let mut p = person();
        p[*field] = value.clone();
        t.post("/card-holders", &json!({"name": "x", "person": p}))
            .expect_field_error(&format!("person.{field}"));
    }
    for gender in ["m", "f", "o"] {
        let mut p = person();
        p["gender"] = json!(gender);
        assert_eq!(
            create_json(&t, json!({"person": p}))["person"]["gender"],
            json!(gender)
        );
    }
    let mut p = person();
    p["phoneNumber"] = json!("1234567");
    create_json(&t, json!({"person": p}));
}

#[test]
fn address_and_identification_values_are_validated() {
    let t = tenant();
    let post = |extra: Value| {
        let mut body = json!({"name": "x", "person": person()});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        t.post("/card-holders", &body)
    };
    post(json!({"address": {"countryCode": "N1"}})).expect_field_error("address.countryCode");
    post(json!({"identification": {"document": {"type": "visa"}}}))
        .expect_field_error("identification.document.type");
    post(json!({"identification": {"document": {"type": "passport", "verificationStatus": "approved"}}}))
        .expect_field_error("identification.document.verificationStatus");
    post(json!({"identification": {"proofOfAddress": {"type": "letter"}}}))
        .expect_field_error("identification.proofOfAddress.type");
    post(json!({"person": {"firstName": "A", "lastName": "B", "email": "a@b.co", "phoneNumber": "+12345678", "shoeSize": 9}}))
        .expect_field_error("person.shoeSize");
    post(json!({"colour": "red"})).expect_field_error("colour");

    for ty in [
        "passport",
        "national_id",
        "drivers_license",
        "voters_card",
        "residence_permit",
    ] {
        let h = post(
            json!({"identification": {"document": {"type": ty, "verificationStatus": "verified"}}}),
        );
        assert_eq!(h.data(201)["identification"]["document"]["type"], json!(ty));
        assert_eq!(
            h.data(201)["identification"]["document"]["verificationStatus"],
            json!("verified")
        );
    }
    for ty in [
        "utility_bill",
        "bank_statement",
        "tenancy_agreement",
        "government_letter",
    ] {
        let h = post(json!({"identification": {"proof_of_address": {"type": ty}}}));
        let poa = &h.data(201)["identification"]["proofOfAddress"];
        assert_eq!(poa["type"], json!(ty));
        assert_eq!(poa["verificationStatus"], json!("pending"));
    }
}

#[test]
fn identity_documents_are_stored_hashed_and_served() {
    let t = tenant();
    let (png, jpeg, pdf) = (files::png(), files::jpeg(), files::pdf());
    let form = Multipart::new()
        .text("name", "Ada Lovelace")
        .text("person", &person().to_string())
        .text("identification", &json!({"document": {"type": "passport", "number": "A1"}, "proofOfAddress": {"type": "utility_bill"}}).to_string())
        // The declared content type is ignored: content decides.
        .file("documentMain", "front.bin", "application/octet-stream", &png)
        .file("documentBack", "back.jpg", "image/jpeg", &jpeg)
        .file("proofOfAddress", "bill.pdf", "text/plain", &pdf);
    let resp = t.multipart("POST", "/card-holders", form);
    let h = resp.data(201).clone();
    let doc = &h["identification"]["document"];
    assert_eq!(doc["meta"]["fileType"], json!("image/png"));
    assert_eq!(doc["meta"]["contentHash"], json!(sha256(&png)));
    let poa = &h["identification"]["proofOfAddress"];
    assert_eq!(poa["meta"]["fileType"], json!("application/pdf"));
    assert_eq!(poa["meta"]["contentHash"], json!(sha256(&pdf)));

    let files_prefix = format!("/card-holders/{}/files/", id(&h));
    for (url, bytes, mime) in [
        (&doc["urls"]["main"], &png, "image/png"),
        (&doc["urls"]["back"], &jpeg, "image/jpeg"),
        (&poa["url"], &pdf, "application/pdf"),
    ] {
        let path = url_path(&t, url);
        assert!(
            path.starts_with(&files_prefix),
            "{path} is not under {files_prefix}"
        );
        let resp = t.get(&path);
        resp.expect(200);
        assert_eq!(&resp.bytes, bytes, "bytes of {path}");
        let ct = resp.header("content-type").unwrap_or("");
        assert!(
            ct.starts_with(mime),
            "{path}: content-type {ct:?}, expected {mime}"
        );
        // Authenticated, and only for the owner.
        raw("GET", &path, &[], None).expect_error(401, "unauthorized");
        tenant().get(&path).expect_error(404, "not_found");
    }
    t.get(&format!("{files_prefix}0123456789abcdef01234567"))
        .expect_error(404, "not_found");
}

#[test]
fn files_other_than_jpeg_png_pdf_are_415() {
    let t = tenant();
    for (name, bytes) in [
        ("documentMain", b"hello, I am text".to_vec()),
        ("documentBack", b"GIF89a\x01\x00\x01\x00".to_vec()),
        ("proofOfAddress", b"PK\x03\x04 zip".to_vec()),
    ] {
        let form = Multipart::new()
            .text("name", "x")
            .text("person", &person().to_string())
            .file(name, "doc.png", "image/png", &bytes);
        t.multipart("POST", "/card-holders", form)
            .expect_error(415, "unsupported_media_type");
    }
    assert_eq!(int(&t.get("/card-holders").body["meta"]["total"]), 0);
}

#[test]
fn a_file_over_5_mib_is_refused() {
    let t = tenant();
    let mut big = files::png();
    big.resize(5 * 1024 * 1024 + 1, 0);
    let form = Multipart::new()
        .text("name", "x")
        .text("person", &person().to_string())
        .file("documentMain", "big.png", "image/png", &big);
    let resp = t.multipart("POST", "/card-holders", form);
    assert!(
        resp.status == 413 || resp.status == 400,
        "a 5 MiB + 1 file: expected 413 or 400, got {}: {}",
        resp.status,
        resp.text
    );
    assert_eq!(int(&t.get("/card-holders").body["meta"]["total"]), 0);
    // Exactly 5 MiB is fine.
    big.truncate(5 * 1024 * 1024);
    let form = Multipart::new()
        .text("name", "x")
        .text("person", &person().to_string())
        .file("documentMain", "big.png", "image/png", &big);
    let h = t.multipart("POST", "/card-holders", form).data(201).clone();
    let path = url_path(&t, &h["identification"]["document"]["urls"]["main"]);
    assert_eq!(t.get(&path).bytes, big);
}

#[test]
fn multipart_over_12_mib_is_413() {
    let t = tenant();
    let mut chunk = files::pdf();
    chunk.resize(4 * 1024 * 1024 + 512 * 1024, b' ');
    let form = Multipart::new()
        .text("name", "x")
        .text("person", &person().to_string())
        .file("documentMain", "a.pdf", "application/pdf", &chunk)
        .file("documentBack", "b.pdf", "application/pdf", &chunk)
        .file("proofOfAddress", "c.pdf", "application/pdf", &chunk);
    let (content_type, body) = form.finish();
    assert!(body.len() > 12 * 1024 * 1024);
    let auth = format!("Bearer {}", t.key);
    let resp = try_send(
        "POST",
        "/card-holders",
        &[("authorization", &auth), ("content-type", &content_type)],
        Some(body),
    )
    .expect("the server answers 413 rather than dropping the connection");
    resp.expect_error(413, "payload_too_large");
}

#[test]
fn wrong_content_type_is_415() {
    let t = tenant();
    let body = serde_json::to_vec(&json!({"name": "x", "person": person()})).unwrap();
    t.send(
        "POST",
        "/card-holders",
        &[("content-type", "text/plain")],
        Some(body),
    )
    .expect_error(415, "unsupported_media_type");
    let h = create_json(&t, json!({"person": person()}));
    t.send(
        "PUT",
        &holder_path(&h),
        &[("content-type", "text/plain")],
        Some(br#"{"name":"y"}"#.to_vec()),
    )
    .expect_error(415, "unsupported_media_type");
}

#[test]
fn put_merges_nested_objects() {
    let t = tenant();
    let h = create_json(
        &t,
        json!({"name": "Ada", "person": person(), "address": {"line1": "1 Marina", "city": "Lagos", "countryCode": "NG"}}),
    );
    std::thread::sleep(std::time::Duration::from_millis(5));
    let resp = t.put(
        &holder_path(&h),
        &json!({"person": {"email": "new@example.com"}}),
    );
    let u = envelope(&resp, 200, "Card holder updated successfully").clone();
    assert_eq!(u["person"]["email"], json!("new@example.com"));
    for f in ["firstName", "lastName", "phoneNumber"] {
        assert_eq!(u["person"][f], h["person"][f], "person.{f}");
    }
    assert_eq!(u["name"], h["name"]);
    assert_eq!(u["address"], h["address"]);
    assert_eq!(u["createdAt"], h["createdAt"]);
    assert!(timestamp(&u["updatedAt"]) > timestamp(&h["updatedAt"]));

    let u2 = t
        .put(
            &holder_path(&h),
            &json!({"address": {"city": "Abuja"}, "name": "Ada L."}),
        )
        .data(200)
        .clone();
    assert_eq!(u2["address"]["city"], json!("Abuja"));
    assert_eq!(u2["address"]["line1"], json!("1 Marina"));
    assert_eq!(u2["name"], json!("Ada L."));
    assert_eq!(u2["person"]["email"], json!("new@example.com"));
    assert_eq!(t.get(&holder_path(&h)).data(200), &u2);
}

#[test]
fn put_validates() {
    let t = tenant();
    let h = create_json(&t, json!({"person": person()}));
    let p = holder_path(&h);
    t.put(&p, &json!({"person": {"email": "nope"}}))
        .expect_field_error("person.email");
    t.put(&p, &json!({"person": {"gender": "z"}}))
        .expect_field_error("person.gender");
    t.put(&p, &json!({"address": {"countryCode": "Nigeria"}}))
        .expect_field_error("address.countryCode");
    t.put(&p, &json!({"colour": "red"}))
        .expect_field_error("colour");
    assert_eq!(t.get(&p).data(200), &h);
}

#[test]
fn unknown_holder_is_404() {
    let t = tenant();
    t.get("/card-holders/0123456789abcdef01234567")
        .expect_error(404, "not_found");
    t.put(
        "/card-holders/0123456789abcdef01234567",
        &json!({"name": "x"}),
    )
    .expect_error(404, "not_found");
    t.get("/card-holders/nope").expect_error(404, "not_found");
}

#[test]
fn another_clients_holder_is_404() {
    let a = tenant();
    let b = tenant();
    let h = create_json(&a, json!({"person": person()}));
    b.get(&holder_path(&h)).expect_error(404, "not_found");
    b.put(&holder_path(&h), &json!({"name": "stolen"}))
        .expect_error(404, "not_found");
    assert!(ids(&b.get("/card-holders")).is_empty());
    assert_eq!(a.get(&holder_path(&h)).data(200), &h);
}

#[test]
fn list_search_filter_and_nested_projection() {
    let t = tenant();
    let mk = |first: &str, last: &str, email: &str, nat: &str| {
        create_json(
            &t,
            json!({"person": {"firstName": first, "lastName": last, "email": email,
                              "phoneNumber": "+2348000000000", "nationality": nat}}),
        )
    };
    mk("Ada", "Lovelace", "ada@analytical.org", "GB");
    mk("Chinua", "Achebe", "chinua@things.ng", "NG");
    mk("Wole", "Soyinka", "wole@nobel.ng", "NG");

    let resp = t.get("/card-holders");
    envelope(&resp, 200, "Card holders fetched successfully");
    assert_eq!(int(&resp.body["meta"]["total"]), 3);

    // Default search fields: name, person.firstName, person.lastName, person.email.
    let resp = t.list("/card-holders", &[("search", "\\.ng$")]);
    assert_eq!(ids(&resp).len(), 2);
    let resp = t.list("/card-holders", &[("search", "lovelace")]);
    assert_eq!(ids(&resp).len(), 1);
    let resp = t.list(
        "/card-holders",
        &[("search", "ng"), ("searchIn", "person.nationality")],
    );
    assert_eq!(ids(&resp).len(), 2);

    let resp = t.list(
        "/card-holders",
        &[("person.nationality", "NG"), ("sort", "person.lastName")],
    );
    let last: Vec<&Value> = resp
        .data(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|h| &h["person"]["lastName"])
        .collect();
    assert_eq!(last, vec![&json!("Achebe"), &json!("Soyinka")]);
    assert_eq!(resp.body["filter"], json!({"person.nationality": "NG"}));

    let resp = t.list(
        "/card-holders",
        &[("fields", "person.email"), ("sort", "person.email")],
    );
    let data = resp.data(200).as_array().unwrap();
    assert_eq!(data.len(), 3);
    for item in data {
        assert_eq!(item.as_object().unwrap().len(), 2, "{item}");
        object_id(&item["_id"]);
        assert_eq!(item["person"].as_object().unwrap().len(), 1, "{item}");
    }
    assert_eq!(data[0]["person"], json!({"email": "ada@analytical.org"}));

    t.list("/card-holders", &[("fields", "person.shoeSize")])
        .expect_field_error("fields");
    t.list("/card-holders", &[("person.shoeSize", "9")])
        .expect_error(400, "validation_error");
}
