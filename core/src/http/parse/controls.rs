//! The `spendingControls` object of card bodies, parsed into a typed patch.

use serde_json::{Map, Value};

use crate::domain::cards::{ControlsPatch, Interval, SpendingLimit, is_category};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

/// Most categories in one `allowedCategories`, `blockedCategories` or limit `categories` list.
pub const MAX_CATEGORIES: usize = 100;
/// Most entries in `spendingLimits`.
pub const MAX_SPENDING_LIMITS: usize = 20;

const CATEGORY: &str = "^[a-z0-9_]{1,64}$";
const NOT_A_CATEGORY: &str = "must be 1 to 64 characters of a-z, 0-9 and _";

body! {
    /// `spendingControls.channels`: each given channel on or off.
    pub struct ChannelsBody = "ChannelsInput" {
        optional atm: "atm", Bool;
        optional pos: "pos", Bool;
        optional web: "web", Bool;
        optional mobile: "mobile", Bool;
    }
}

body! {
    /// One entry of `spendingLimits`.
    pub struct LimitBody = "SpendingLimitInput" {
        required amount: "amount", Amount;
        required interval: "interval", Enum(Interval::ALL);
        optional categories: "categories",
            PatternList(MAX_CATEGORIES, CATEGORY, is_category, NOT_A_CATEGORY);
    }
}

body! {
    /// The `spendingControls` object of card bodies (the component `SpendingControlsInput`; the
    /// rule across its two category lists is the schema's `not`, beside it).
    pub struct ControlsBody = "SpendingControlsInput",
        "Allowed and blocked categories cannot both be non-empty." {
        optional channels: "channels", Inline(&ChannelsBody::BODY);
        optional allowed_categories: "allowedCategories",
            PatternList(MAX_CATEGORIES, CATEGORY, is_category, NOT_A_CATEGORY);
        optional blocked_categories: "blockedCategories",
            PatternList(MAX_CATEGORIES, CATEGORY, is_category, NOT_A_CATEGORY);
        optional spending_limits: "spendingLimits",
            InlineList(MAX_SPENDING_LIMITS, &LimitBody::BODY);
    }
}

fn limits(items: Vec<Value>, path: &str, errors: &mut Errors) -> Option<Vec<SpendingLimit>> {
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, item) in items.into_iter().enumerate() {
        let p = format!("{path}[{i}]");
        let before = errors.0.len();
        let Some(mut f) = Fields::object(item, &p, errors) else {
            ok = false;
            continue;
        };
        let amount = f.read(&LimitBody::amount);
        let interval = f
            .read(&LimitBody::interval)
            .and_then(|s| Interval::parse(&s));
        // Absent: no categories (a refused list has reported an error, checked below).
        let categories = f.read(&LimitBody::categories).unwrap_or_default();
        f.finish();
        match (amount, interval) {
            (Some(amount), Some(interval)) if errors.0.len() == before => out.push(SpendingLimit {
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
    if let Some(channels) = f.read(&ControlsBody::channels) {
        let cpath = f.path("channels");
        let mut c = Fields::new(channels, &cpath, f.errors);
        out.atm = c.read(&ChannelsBody::atm);
        out.pos = c.read(&ChannelsBody::pos);
        out.web = c.read(&ChannelsBody::web);
        out.mobile = c.read(&ChannelsBody::mobile);
        c.finish();
    }
    out.allowed_categories = f.read(&ControlsBody::allowed_categories);
    out.blocked_categories = f.read(&ControlsBody::blocked_categories);
    if let Some(items) = f.read(&ControlsBody::spending_limits) {
        let p = f.path("spendingLimits");
        out.spending_limits = limits(items, &p, f.errors);
    }
    f.finish();
    out
}
