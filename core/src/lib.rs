//! card-core: the whole card-issuing service as I/O-free Rust.
//!
//! Hosts turn their HTTP request into a [`http::Request`], open a storage transaction of the kind
//! [`Service::access`] asks for, and call [`Service::handle`] with it and an [`env::Env`] (clock and
//! randomness). Nothing in this crate touches the network, the file system, the clock or the OS RNG.

pub mod account_details;
pub mod accounts;
pub mod api;
pub mod auth;
pub mod card_holders;
pub mod cards;
pub mod env;
pub mod error;
pub mod forms;
pub mod http;
pub mod id;
pub mod idempotency;
pub mod keys;
pub mod ledger;
pub mod lifecycle;
mod macros;
pub mod query;
pub mod records;
pub mod service;
#[cfg(test)]
mod service_tests;
pub mod store;
#[cfg(test)]
mod test_app;
pub mod validate;
pub mod vault;

pub use env::{Env, Timestamp};
pub use http::{Method, Request, Response};
pub use service::{Access, Config, Service};
pub use store::{Direction, MemStore, StoreError, Tx};
