//! Spending controls: channels, allowed or blocked merchant categories, and limits per interval.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::macros::str_enum;
use crate::validate::{Errors, Fields, join};

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
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
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

fn categories(value: Value, path: &str, errors: &mut Errors) -> Option<Vec<String>> {
    let Value::Array(items) = value else {
        errors.push(path, "must be an array of strings");
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Value::String(s) if is_category(&s) => {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
            _ => {
                errors.push(
                    format!("{path}[{i}]"),
                    "must be 1 to 64 characters of a-z, 0-9 and _",
                );
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

fn limits(value: Value, path: &str, errors: &mut Errors) -> Option<Vec<SpendingLimit>> {
    let Value::Array(items) = value else {
        errors.push(path, "must be an array");
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, item) in items.into_iter().enumerate() {
        let p = format!("{path}[{i}]");
        let before = errors.0.len();
        let Some(mut f) = Fields::object(item, &p, errors) else {
            ok = false;
            continue;
        };
        let amount = f.money("amount");
        if amount.is_some_and(|a| a <= Decimal::ZERO) {
            f.error("amount", "must be greater than 0");
        }
        let interval = f
            .enumeration("interval", Interval::ALL)
            .and_then(|s| Interval::parse(&s));
        let cats = match f.take("categories") {
            Some(v) => {
                let path = f.path("categories");
                categories(v, &path, f.errors)
            }
            None => Some(Vec::new()),
        };
        f.finish();
        match (amount, interval, cats) {
            (Some(amount), Some(interval), Some(categories)) if errors.0.len() == before => out
                .push(SpendingLimit {
                    amount,
                    interval,
                    categories,
                }),
            _ => ok = false,
        }
    }
    ok.then_some(out)
}

/// Applies the keys given in `body` (at `path`) over `base`: given keys replace, absent keys stay.
/// Channels merge channel by channel.
pub fn merge(
    base: &SpendingControls,
    body: Map<String, Value>,
    path: &str,
    errors: &mut Errors,
) -> SpendingControls {
    let mut out = base.clone();
    let mut f = Fields::new(body, path, errors);
    if let Some(channels) = f.opt_object("channels") {
        let cpath = f.path("channels");
        let mut c = Fields::new(channels, &cpath, f.errors);
        for (name, slot) in [
            ("atm", &mut out.channels.atm),
            ("pos", &mut out.channels.pos),
            ("web", &mut out.channels.web),
            ("mobile", &mut out.channels.mobile),
        ] {
            if let Some(b) = c.opt_bool(name) {
                *slot = b;
            }
        }
        c.finish();
    }
    if let Some(v) = f.take("allowedCategories") {
        let p = f.path("allowedCategories");
        if let Some(c) = categories(v, &p, f.errors) {
            out.allowed_categories = c;
        }
    }
    if let Some(v) = f.take("blockedCategories") {
        let p = f.path("blockedCategories");
        if let Some(c) = categories(v, &p, f.errors) {
            out.blocked_categories = c;
        }
    }
    if let Some(v) = f.take("spendingLimits") {
        let p = f.path("spendingLimits");
        if let Some(l) = limits(v, &p, f.errors) {
            out.spending_limits = l;
        }
    }
    f.finish();
    if !out.allowed_categories.is_empty() && !out.blocked_categories.is_empty() {
        errors.push(
            join(path, "blockedCategories"),
            "cannot be combined with allowedCategories",
        );
    }
    out
}
