//! The sandbox's simulations over HTTP: the per-client test clock (holds expire, limit periods roll,
//! tokens and idempotency records age, list order), forced declines, partial approvals and increments.

use acceptance::fixtures::{authorize, balances, funded_card, id};
use acceptance::*;
use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};
use serde_json::{Value, json};

const DAY: i64 = 24 * 3600;
const TEN_YEARS: i64 = 10 * 365 * DAY;

/// A USD card funded with `amount`, with `extra` card fields.
fn card_with(t: &Tenant, amount: &str, extra: Value) -> String {
    funded_card(t, amount, extra).0
}

fn limited(t: &Tenant, amount: &str, limit: &str, interval: &str) -> String {
    let limit: Value = serde_json::from_str(limit).unwrap();
    card_with(
        t,
        amount,
        json!({"spendingControls": {"spendingLimits": [{"amount": limit, "interval": interval}]}}),
    )
}

fn purchase(amount: &str) -> Value {
    let amount: Value = serde_json::from_str(amount).unwrap();
    json!({"amount": amount, "channel": "pos",
           "merchant": {"name": "Corner Shop", "category": "grocery_stores", "mcc": "5411"}})
}

fn with(body: Value, extra: Value) -> Value {
    fixtures::merge(body, extra)
}

/// A timestamp of the API in UTC.
fn at(v: &Value) -> DateTime<Utc> {
    timestamp(v).with_timezone(&Utc)
}

fn clock(t: &Tenant) -> (DateTime<Utc>, i64) {
    let c = t.get("/test-clock").data(200).clone();
    (at(&c["now"]), c["offsetSeconds"].as_i64().unwrap())
}

fn advance(t: &Tenant, seconds: i64) -> Value {
    t.post("/test-clock/advance", &json!({"seconds": seconds}))
        .data(200)
        .clone()
}

/// Advances the tenant's clock to one second past `target`.
fn advance_past(t: &Tenant, target: DateTime<Utc>) {
    let (now, _) = clock(t);
    let seconds = (target - now).num_seconds() + 1;
    assert!(seconds > 0);
    advance(t, seconds);
    assert!(clock(t).0 > target);
}

#[test]
fn the_clock_reads_and_moves_forward_only() {
    let t = tenant();
    let before = Utc::now();
    let (now, offset) = clock(&t);
    assert_eq!(offset, 0);
    assert!((now - before).num_seconds().abs() < 60, "{now} vs {before}");

    let moved = advance(&t, 3600);
    assert_eq!(moved["offsetSeconds"], 3600);
    let moved_now = at(&moved["now"]);
    assert!(moved_now >= now + Duration::seconds(3600), "{moved}");
    let (now2, offset2) = clock(&t);
    assert_eq!(offset2, 3600);
    assert!(now2 >= moved_now);

    // Only forward, a whole number of seconds, at most 10 years in total.
    for bad in [
        json!({"seconds": 0}),
        json!({"seconds": -5}),
        json!({"seconds": 1.5}),
        json!({"seconds": "60"}),
        json!({}),
        json!({"seconds": 60, "x": 1}),
    ] {
        t.post("/test-clock/advance", &bad)
            .expect_error(400, "validation_error");
    }
    t.post(
        "/test-clock/advance",
        &json!({"seconds": TEN_YEARS - 3600 + 1}),
    )
    .expect_field_error("seconds");
    assert_eq!(clock(&t).1, 3600, "a refused advance moves nothing");
    assert_eq!(advance(&t, TEN_YEARS - 3600)["offsetSeconds"], TEN_YEARS);
    t.post("/test-clock/advance", &json!({"seconds": 1}))
        .expect_field_error("seconds");

    // Another client's clock did not move; the key is needed.
    assert_eq!(clock(&tenant()).1, 0);
    raw("GET", "/test-clock", &[], None).expect_error(401, "unauthorized");
}

#[test]
fn advancing_eight_days_expires_a_hold_and_gives_the_balance_back() {
    let t = tenant();
    let c = card_with(&t, "100", json!({}));
    let a = authorize(&t, &c, &purchase("40"));
    assert_eq!(a["status"], "pending");
    assert_eq!(balances(&t, &c), (d("60"), d("60"), d("100")));
    advance(&t, 8 * DAY);
    let got = t
        .get(&format!("/authorizations/{}", id(&a)))
        .data(200)
        .clone();
    assert_eq!(got["status"], "expired");
    assert_eq!(dec(&got["pendingAmount"]), d("0"));
    assert_eq!(got["updatedAt"], a["expiresAt"]);
    assert_eq!(balances(&t, &c), (d("100"), d("100"), d("100")));
    t.post(&format!("/authorizations/{}/capture", id(&a)), &json!({}))
        .expect_error(409, "invalid_state");
    // The whole balance can be spent again, and new records carry the client's time.
    let b = authorize(&t, &c, &purchase("100"));
    assert_eq!(b["approved"], true, "{b}");
    assert!(timestamp(&b["createdAt"]) >= timestamp(&a["createdAt"]) + Duration::days(8));
}

#[test]
fn a_daily_limit_has_room_again_after_midnight_utc() {
    let t = tenant();
    let c = limited(&t, "500", "50", "daily");
    assert_eq!(authorize(&t, &c, &purchase("40"))["approved"], true);
    let over = authorize(&t, &c, &purchase("20"));
    assert_eq!(over["declineReason"], "spending_limit");
    let (now, _) = clock(&t);
    let tomorrow = Utc.from_utc_datetime(
        &(now.date_naive() + Duration::days(1))
            .and_hms_opt(0, 0, 0)
            .unwrap(),
    );
    advance_past(&t, tomorrow);
    let s = t.get(&format!("/cards/{c}/spending")).data(200).clone();
    assert_eq!(at(&s[0]["periodStart"]), tomorrow);
    assert_eq!(dec(&s[0]["spent"]), d("0"));
    assert_eq!(authorize(&t, &c, &purchase("20"))["approved"], true);
    assert_eq!(authorize(&t, &c, &purchase("30"))["approved"], true);
    assert_eq!(
        authorize(&t, &c, &purchase("0.01"))["declineReason"],
        "spending_limit"
    );
}

#[test]
fn a_monthly_limit_has_room_again_after_the_first() {
    let t = tenant();
    let c = limited(&t, "500", "50", "monthly");
    let a = authorize(&t, &c, &purchase("45"));
    assert_eq!(a["approved"], true);
    // Captured, it counts all month: a hold expires after seven days and gives its amount back,
    // and the month's last day may be weeks away.
    t.post(&format!("/authorizations/{}/capture", id(&a)), &json!({}))
        .expect(200);
    assert_eq!(
        authorize(&t, &c, &purchase("10"))["declineReason"],
        "spending_limit"
    );
    let (now, _) = clock(&t);
    let (y, m) = if now.month() == 12 {
        (now.year() + 1, 1)
    } else {
        (now.year(), now.month() + 1)
    };
    let first = Utc.from_utc_datetime(
        &NaiveDate::from_ymd_opt(y, m, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap(),
    );
    // The day before the 1st the month's spend still counts.
    advance_past(&t, first - Duration::days(1));
    assert_eq!(
        authorize(&t, &c, &purchase("10"))["declineReason"],
        "spending_limit"
    );
    advance_past(&t, first);
    let s = t.get(&format!("/cards/{c}/spending")).data(200).clone();
    assert_eq!(at(&s[0]["periodStart"]), first);
    assert_eq!(authorize(&t, &c, &purchase("50"))["approved"], true);
}

#[test]
fn a_reveal_token_expires_by_the_clock() {
    let t = tenant();
    let c = card_with(&t, "5", json!({}));
    let token = |t: &Tenant| {
        t.send("POST", &format!("/cards/{c}/token"), &[], None)
            .data(201)["token"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let reveal = |t: &Tenant, tok: &str| t.get(&format!("/cards/{c}/reveal?token={}", encode(tok)));
    let fresh = token(&t);
    reveal(&t, &fresh).expect(200);
    let old = token(&t);
    // The default lifetime is 120 seconds.
    advance(&t, 121);
    reveal(&t, &old).expect_error(403, "invalid_token");
}

#[test]
fn an_idempotency_record_ages_with_the_clock() {
    let t = tenant();
    let c = card_with(&t, "100", json!({}));
    let path = format!("/cards/{c}/authorizations");
    let send = |body: &Value| {
        t.send(
            "POST",
            &path,
            &[
                ("content-type", "application/json"),
                ("idempotency-key", "once"),
            ],
            Some(serde_json::to_vec(body).unwrap()),
        )
    };
    send(&purchase("10")).expect(201);
    send(&purchase("11")).expect_error(409, "idempotency_conflict");
    advance(&t, 25 * 3600);
    // 24 hours later on the client's clock the key is free again.
    let again = send(&purchase("11"));
    again.expect(201);
    assert_eq!(again.header("idempotent-replayed"), None);
}

#[test]
fn lists_keep_creation_order_across_an_advance() {
    let t = tenant();
    let c = card_with(&t, "100", json!({}));
    let first = id(&authorize(&t, &c, &purchase("1")));
    advance(&t, 30 * DAY);
    let second = id(&authorize(&t, &c, &purchase("2")));
    let listed = t.list(&format!("/cards/{c}/authorizations"), &[]);
    assert_eq!(ids(&listed), vec![second.clone(), first.clone()]);
    let asc = t.list("/authorizations", &[("sort", "createdAt")]);
    assert_eq!(ids(&asc), vec![first, second]);
}

#[test]
fn a_forced_outcome_declines_with_each_reason_and_moves_nothing() {
    let t = tenant();
    let c = card_with(&t, "100", json!({}));
    let reasons = [
        "card_canceled",
        "card_inactive",
        "currency_mismatch",
        "channel_blocked",
        "category_blocked",
        "category_not_allowed",
        "spending_limit",
        "insufficient_funds",
        "webhook_declined",
        "webhook_timeout",
        "webhook_error",
    ];
    for reason in reasons {
        let a = authorize(
            &t,
            &c,
            &with(
                purchase("10"),
                json!({"simulate": {"declineReason": reason}}),
            ),
        );
        assert_eq!(a["approved"], false, "{a}");
        assert_eq!(a["status"], "declined");
        assert_eq!(a["declineReason"], reason);
        assert_eq!(dec(&a["pendingAmount"]), d("0"));
        assert_eq!(balances(&t, &c), (d("100"), d("100"), d("100")));
    }
    let s = t.get(&format!("/cards/{c}/spending")).data(200).clone();
    assert_eq!(s, json!([]));
    for bad in [
        json!({"declineReason": "bored"}),
        json!({}),
        json!({"declineReason": "card_canceled", "x": 1}),
    ] {
        t.post(
            &format!("/cards/{c}/authorizations"),
            &with(purchase("10"), json!({"simulate": bad})),
        )
        .expect_error(400, "validation_error");
    }
    t.post(
        &format!("/cards/{c}/authorizations"),
        &with(purchase("10"), json!({"simulate": "no"})),
    )
    .expect_field_error("simulate");
    assert_eq!(balances(&t, &c), (d("100"), d("100"), d("100")));
}

#[test]
fn a_partial_approval_is_for_exactly_what_is_available() {
    let t = tenant();
    let c = card_with(&t, "100", json!({}));
    let partial = json!({"partialApprovalCapable": true});
    // Equal when nothing is short.
    let a = authorize(&t, &c, &with(purchase("30"), partial.clone()));
    assert_eq!(
        (dec(&a["amount"]), dec(&a["requestedAmount"])),
        (d("30"), d("30"))
    );
    // Without the flag a purchase over the balance is declined.
    let no = authorize(&t, &c, &purchase("70.01"));
    assert_eq!(no["declineReason"], "insufficient_funds");
    assert_eq!(dec(&no["requestedAmount"]), d("70.01"));
    let b = authorize(&t, &c, &with(purchase("150"), partial.clone()));
    assert_eq!(b["approved"], true, "{b}");
    assert_eq!(b["status"], "pending");
    assert_eq!(dec(&b["amount"]), d("70"));
    assert_eq!(dec(&b["pendingAmount"]), d("70"));
    assert_eq!(dec(&b["requestedAmount"]), d("150"));
    assert_eq!(balances(&t, &c), (d("0"), d("0"), d("100")));
    // Nothing left: declined.
    let none = authorize(&t, &c, &with(purchase("5"), partial.clone()));
    assert_eq!(none["declineReason"], "insufficient_funds");

    // A limit's room decides too, and the smaller room wins.
    let l = limited(&t, "100", "25", "daily");
    let p = authorize(&t, &l, &with(purchase("60"), partial.clone()));
    assert_eq!(
        (dec(&p["amount"]), dec(&p["requestedAmount"])),
        (d("25"), d("60"))
    );
    let s = t.get(&format!("/cards/{l}/spending")).data(200).clone();
    assert_eq!(
        (dec(&s[0]["spent"]), dec(&s[0]["available"])),
        (d("25"), d("0"))
    );
    assert_eq!(
        authorize(&t, &l, &with(purchase("1"), partial))["declineReason"],
        "spending_limit"
    );
    // Captured, the partial amount is what leaves the card.
    t.post(&format!("/authorizations/{}/capture", id(&p)), &json!({}))
        .expect(200);
    assert_eq!(balances(&t, &l), (d("75"), d("75"), d("75")));
}

#[test]
fn increments_raise_the_hold_or_are_declined_changing_nothing() {
    let t = tenant();
    let c = limited(&t, "100", "80", "daily");
    let a = authorize(&t, &c, &purchase("40"));
    let path = format!("/authorizations/{}/increment", id(&a));
    let up = t.post(&path, &json!({"amount": 30})).data(200).clone();
    assert_eq!(up["status"], "pending");
    assert_eq!(dec(&up["amount"]), d("70"));
    assert_eq!(dec(&up["pendingAmount"]), d("70"));
    assert_eq!(dec(&up["requestedAmount"]), d("70"));
    assert_eq!(up["expiresAt"], a["expiresAt"]);
    assert_eq!(balances(&t, &c), (d("30"), d("30"), d("100")));
    let s = t.get(&format!("/cards/{c}/spending")).data(200).clone();
    assert_eq!(dec(&s[0]["spent"]), d("70"));

    // Over the limit's room (10 left): 422 with the reason, nothing changes.
    t.post(&path, &json!({"amount": 10.01}))
        .expect_error(422, "spending_limit");
    let same = t
        .get(&format!("/authorizations/{}", id(&a)))
        .data(200)
        .clone();
    assert_eq!(dec(&same["amount"]), d("70"));
    assert_eq!(balances(&t, &c), (d("30"), d("30"), d("100")));

    // Over the balance on a card without limits.
    let free = card_with(&t, "50", json!({}));
    let b = authorize(&t, &free, &purchase("20"));
    let bpath = format!("/authorizations/{}/increment", id(&b));
    t.post(&bpath, &json!({"amount": 30.01}))
        .expect_error(422, "insufficient_funds");
    assert_eq!(
        dec(&t.post(&bpath, &json!({"amount": 30})).data(200)["amount"]),
        d("50")
    );
    assert_eq!(balances(&t, &free), (d("0"), d("0"), d("50")));

    // A paused card declines it too.
    t.put(&format!("/cards/{c}"), &json!({"status": "inactive"}))
        .expect(200);
    t.post(&path, &json!({"amount": 1}))
        .expect_error(422, "card_inactive");

    // Bad bodies, unknown ids, and authorizations that are not pending.
    t.post(&bpath, &json!({})).expect_field_error("amount");
    t.post(&bpath, &json!({"amount": 0}))
        .expect_field_error("amount");
    t.post(&bpath, &json!({"amount": 1.001}))
        .expect_field_error("amount");
    t.post(
        "/authorizations/000000000000000000000000/increment",
        &json!({"amount": 1}),
    )
    .expect_error(404, "not_found");
    t.post(&format!("/authorizations/{}/capture", id(&b)), &json!({}))
        .expect(200);
    t.post(&bpath, &json!({"amount": 1}))
        .expect_error(409, "invalid_state");
    let declined = authorize(&t, &free, &purchase("1000"));
    t.post(
        &format!("/authorizations/{}/increment", id(&declined)),
        &json!({"amount": 1}),
    )
    .expect_error(409, "invalid_state");
    // Another client's authorization is not found.
    tenant()
        .post(&path, &json!({"amount": 1}))
        .expect_error(404, "not_found");
}

#[test]
fn an_expired_authorization_cannot_be_incremented() {
    let t = tenant();
    let c = card_with(&t, "100", json!({}));
    let a = authorize(&t, &c, &purchase("10"));
    advance(&t, 8 * DAY);
    t.post(
        &format!("/authorizations/{}/increment", id(&a)),
        &json!({"amount": 1}),
    )
    .expect_error(409, "invalid_state");
    assert_eq!(balances(&t, &c), (d("100"), d("100"), d("100")));
}

#[test]
fn the_operator_can_turn_the_test_clock_off() {
    let server = Instance::start_with_env(&[("CARDS_TEST_CLOCK", "off")]);
    let t = server.tenant(0);
    t.get("/test-clock").expect_error(404, "not_found");
    t.post("/test-clock/advance", &json!({"seconds": 60}))
        .expect_error(404, "not_found");
    // The rest of the service is there.
    t.get("/cards").expect(200);
}
