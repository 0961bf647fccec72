//! The `spendingControls` object of card bodies, parsed into a typed patch.

use std::collections::HashSet;

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use crate::domain::cards::{ControlsPatch, Interval, SpendingLimit, is_category};
use crate::http::fields::{Errors, Fields};

/// Most categories in one `allowedCategories`, `blockedCategories` or limit `categories` list.
pub const MAX_CATEGORIES: usize = 100;
/// Most entries in `spendingLimits`.
pub const MAX_SPENDING_LIMITS: usize = 20;

fn categories(value: Value, path: &str, errors: &mut Errors) -> Option<Vec<String>> {
    let Value::Array(items) = value else {
        errors.push(path, "must be an array of strings");
        return None;
    };
    // Checked before looking at any item, so a huge list costs one length check.
    if items.len() > MAX_CATEGORIES {
        errors.push(path, format!("must have at most {MAX_CATEGORIES} entries"));
        return None;
    }
    let mut out = Vec::with_capacity(items.len());
    let mut seen = HashSet::with_capacity(items.len());
    let mut ok = true;
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Value::String(s) if is_category(&s) => {
                if seen.insert(s.clone()) {
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
    if items.len() > MAX_SPENDING_LIMITS {
        errors.push(
            path,
            format!("must have at most {MAX_SPENDING_LIMITS} entries"),
        );
        return None;
    }
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

/// Parses a `spendingControls` object (at `path`) into the keys it gives.
pub fn patch(body: Map<String, Value>, path: &str, errors: &mut Errors) -> ControlsPatch {
    let mut out = ControlsPatch::default();
    let mut f = Fields::new(body, path, errors);
    if let Some(channels) = f.opt_object("channels") {
        let cpath = f.path("channels");
        let mut c = Fields::new(channels, &cpath, f.errors);
        out.atm = c.opt_bool("atm");
        out.pos = c.opt_bool("pos");
        out.web = c.opt_bool("web");
        out.mobile = c.opt_bool("mobile");
        c.finish();
    }
    if let Some(v) = f.take("allowedCategories") {
        let p = f.path("allowedCategories");
        out.allowed_categories = categories(v, &p, f.errors);
    }
    if let Some(v) = f.take("blockedCategories") {
        let p = f.path("blockedCategories");
        out.blocked_categories = categories(v, &p, f.errors);
    }
    if let Some(v) = f.take("spendingLimits") {
        let p = f.path("spendingLimits");
        out.spending_limits = limits(v, &p, f.errors);
    }
    f.finish();
    out
}
