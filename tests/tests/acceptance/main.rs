//! The acceptance suite: ONE test binary, one module per area (each was a test binary of its own).
//!
//! Every test shares one server per process ([`acceptance::host::server`], started on first use) and,
//! under `CARDS_TEST_STORE=postgres`, one throwaway PostgreSQL cluster
//! ([`acceptance::pg_cluster::shared`]); a test isolates itself by its tenant (an API key no other
//! test uses) or, on PostgreSQL, by a database of its own. Tests that need a server of their own
//! (restarts, crashes, special flags) start an [`acceptance::Instance`] or a process.
//!
//! A module name selects its group: `cargo test -p acceptance accounts::`.
//!
//! Tests run 8 at a time (`RUST_TEST_THREADS` in the workspace's `.cargo/config.toml`) unless the
//! environment or `--test-threads` says otherwise: they mostly wait (on the server, a receiver, a
//! timeout), so libtest's one per core leaves the machine idle. Time-bound assertions allow for that
//! load (generous deadlines; only the order of events is asserted tightly).

mod account_details;
mod accounts;
mod auth;
mod authorizations;
mod card_holders;
mod card_holders_forms;
mod cards;
mod concurrency;
mod decisions;
mod disputes;
mod errors;
mod events;
mod hardening_core;
mod hardening_host;
mod idempotency;
mod list_query;
mod listen;
mod native_cli;
mod openapi;
mod operate;
mod permissions;
mod persistence;
mod postgres;
mod robustness;
mod simulate;
mod tenancy;
mod transfers;
mod vault;
mod vault_key;
mod vault_rotation;
mod webhooks;
