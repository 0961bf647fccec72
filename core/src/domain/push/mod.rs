//! What the service sends out (webhook deliveries, authorization requests): how a message is signed and
//! which addresses it may go to. The core decides what to send; hosts move the bytes (ARCHITECTURE.md,
//! "Calling out").

pub mod signature;
pub mod url_policy;

pub use signature::Secret;
pub use url_policy::{Refusal, Target, UrlPolicy};
