//! Request bodies to typed domain commands: one field error per problem, with dot paths, and unknown
//! fields rejected. The browser module runs the same functions (`http::forms`).

pub mod account_details;
pub mod accounts;
pub mod api_keys;
pub mod authorizations;
pub mod card_holder_validation;
pub mod card_holders;
pub mod cards;
pub mod controls;
pub mod decisions;
pub mod disputes;
pub mod input;
pub mod multipart;
pub mod test_clock;
pub mod transfers;
pub mod webhooks;
