//! card-core: the whole card-issuing service as I/O-free Rust, in layers (see ARCHITECTURE.md):
//!
//! - [`http`]: requests and responses as plain data, the route table, bodies to typed commands, views;
//! - [`domain`]: the rules, one module per concept, over a storage transaction;
//! - [`query`]: the list language;
//! - [`storage`]: the `Tx` port, the key layout, the record codec and the data format version;
//! - [`env`]: the clock and randomness port;
//! - [`callout`]: what a write asks an outside endpoint first, and the answer hosts hand back.
//!
//! Hosts turn their HTTP request into a [`Request`] and run its stages: [`Service::precheck`] on
//! its head (route, key, grant), [`Service::validate`] once the body is read (the body parsed into
//! its typed command), then [`Service::handle`] in a storage transaction of the kind
//! [`Prechecked::access`] names, with an [`Env`]. Nothing in this crate touches the network, the
//! file system, the clock or the OS RNG.

pub mod callout;
pub mod config;
pub mod domain;
pub mod env;
pub mod error;
#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod hardening_tests;
pub mod http;
mod macros;
pub mod query;
pub mod service;
#[cfg(test)]
mod service_tests;
#[cfg(test)]
mod stage_tests;
pub mod storage;
#[cfg(test)]
mod test_app;
#[cfg(test)]
mod vault_tests;
#[cfg(test)]
mod webhook_tests;
#[cfg(test)]
mod write_keys_tests;

pub use env::{Env, Timestamp};
pub use http::{Method, Request, Response};
pub use service::{Access, Config, Prechecked, Service, Validated};
pub use storage::{Direction, MemStore, StoreError, Tx};
