//! Spending controls: channels, allowed or blocked merchant categories, and limits per interval.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, FieldError};
use crate::macros::str_enum;
use crate::storage::codec::money;

str_enum!(Interval {
    PerAuthorization = "per_authorization",
    Daily = "daily",
    Weekly = "weekly",
    Monthly = "monthly",
    Yearly = "yearly",
    AllTime = "all_time",
});

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Channels {
    pub atm: bool,
    pub pos: bool,
    pub web: bool,
    pub mobile: bool,
}

impl Default for Channels {
    fn default() -> Self {
        Channels {
            atm: true,
            pos: true,
            web: true,
            mobile: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpendingLimit {
    #[serde(with = "money")]
    pub amount: Decimal,
    pub interval: Interval,
    pub categories: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpendingControls {
    pub channels: Channels,
    pub allowed_categories: Vec<String>,
    pub blocked_categories: Vec<String>,
    pub spending_limits: Vec<SpendingLimit>,
}

/// Merchant category names or 4-digit MCCs: 1 to 64 of `a-z`, `0-9`, `_`.
pub fn is_category(s: &str) -> bool {
    (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The keys of a `spendingControls` object that a request gave: given keys replace, absent keys stay;
/// channels merge channel by channel.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ControlsPatch {
    pub atm: Option<bool>,
    pub pos: Option<bool>,
    pub web: Option<bool>,
    pub mobile: Option<bool>,
    pub allowed_categories: Option<Vec<String>>,
    pub blocked_categories: Option<Vec<String>>,
    pub spending_limits: Option<Vec<SpendingLimit>>,
}

impl SpendingControls {
    /// These controls with `patch` applied. Allowed and blocked categories cannot both be non-empty.
    pub fn apply(&self, patch: ControlsPatch) -> Result<SpendingControls, ApiError> {
        let mut out = self.clone();
        for (given, slot) in [
            (patch.atm, &mut out.channels.atm),
            (patch.pos, &mut out.channels.pos),
            (patch.web, &mut out.channels.web),
            (patch.mobile, &mut out.channels.mobile),
        ] {
            if let Some(b) = given {
                *slot = b;
            }
        }
        if let Some(v) = patch.allowed_categories {
            out.allowed_categories = v;
        }
        if let Some(v) = patch.blocked_categories {
            out.blocked_categories = v;
        }
        if let Some(v) = patch.spending_limits {
            out.spending_limits = v;
        }
        if !out.allowed_categories.is_empty() && !out.blocked_categories.is_empty() {
            return Err(ApiError::Validation(vec![FieldError::new(
                "spendingControls.blockedCategories",
                "cannot be combined with allowedCategories",
            )]));
        }
        Ok(out)
    }
}
