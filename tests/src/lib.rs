//! Acceptance suite harness: starts the real server once per test process (the suite is one test
//! binary, `tests/acceptance/main.rs`) and talks to it over HTTP.
//!
//! ```no_run
//! use acceptance::*;
//! let t = tenant(); // a fresh API key = an empty client namespace
//! let account = fixtures::create_account(&t, serde_json::json!({"name": "Ops"}));
//! let resp = t.get(&format!("/accounts/{}", account["_id"].as_str().unwrap()));
//! assert_eq!(dec(&resp.data(200)["balance"]), d("0"));
//! ```
//!
//! The host is chosen by `CARDS_TEST_HOST` (`native` default, `spin`), its store by `CARDS_TEST_STORE`
//! (`redb` default, `postgres`); see [`host`].

pub mod assert;
pub mod client;
pub mod decision_endpoint;
pub mod fixtures;
pub mod host;
pub mod loopback;
pub mod pg_cluster;
pub mod receiver;
pub mod standard_webhooks;
pub mod wire;

pub use assert::{column, d, dec, ids, int, object_id, timestamp};
pub use client::{
    Resp, Tenant, base_url, encode, host_kind, query, raw, tenant, try_send, try_send_to,
};
pub use host::{Instance, Stop};
