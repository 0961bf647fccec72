//! Spend against a card's limits. One function, [`limits`], says how much of every limit is spent and
//! left; the authorization decision and `GET /cards/{id}/spending` both use it.
//!
//! A limit's spent = pending + captured amounts of the card's approved authorizations created in the
//! limit's UTC calendar period that the limit applies to (its `categories` empty, or holding the
//! authorization's merchant category or MCC). It is kept as running totals per card, interval, period
//! and (merchant category, MCC) pair ([`keys::spend_total`]): an approval adds its amount to its
//! pair's total in each period it was created in, and every release (reverse, the uncaptured rest of a
//! capture, expiry) takes the released amount off them; a total that reaches zero is deleted. A limit
//! sums the pairs of its period it applies to, so an authorization counts once even when a limit lists
//! both its category and its MCC, and the totals need no change when a card's limits do. The cost of
//! a decision is one range read per interval in use, as long as the card's distinct pairs in that
//! period, never the number of authorizations (ARCHITECTURE.md, "Spending-limit totals"). A hold that has
//! expired by the clock but not yet been written as expired is taken off on the fly, so a read needs
//! no write.

use chrono::{Datelike, NaiveDate, TimeZone, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::Authorization;
use crate::domain::card_records::Card;
use crate::domain::controls::{Interval, SpendingLimit};
use crate::domain::{Result, Scope};
use crate::env::Timestamp;
use crate::storage::codec::{self, Record, money};
use crate::storage::{StoreError, Tx, keys};

/// The intervals that keep a running total (`per_authorization` compares the amount alone).
const TOTALLED: [Interval; 5] = [
    Interval::Daily,
    Interval::Weekly,
    Interval::Monthly,
    Interval::Yearly,
    Interval::AllTime,
];

/// What a card spent in one period on one (merchant category, MCC) pair. The pair is in the key too;
/// it is kept here so that a period's totals are read without parsing keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct SpendTotal {
    category: Option<String>,
    mcc: Option<String>,
    #[serde(with = "money")]
    amount: Decimal,
}

impl Record for SpendTotal {
    // Version 1 (data format 3) was one total per period for every purchase.
    const VERSION: u8 = 2;
    const NAME: &'static str = "spend total";
}

/// The first instant of the UTC calendar period of `interval` that holds `t`; `None` for intervals
/// without a start (all_time, per_authorization).
pub fn period_start(interval: Interval, t: Timestamp) -> Option<Timestamp> {
    let date = t.to_datetime().date_naive();
    let start: NaiveDate = match interval {
        Interval::Daily => date,
        Interval::Weekly => {
            date - chrono::Duration::days(i64::from(date.weekday().num_days_from_monday()))
        }
        Interval::Monthly => date.with_day(1)?,
        Interval::Yearly => NaiveDate::from_ymd_opt(date.year(), 1, 1)?,
        Interval::AllTime | Interval::PerAuthorization => return None,
    };
    let at = Utc.from_utc_datetime(&start.and_hms_opt(0, 0, 0)?);
    Some(Timestamp(at.timestamp_millis()))
}

/// Where a period's totals are kept: its start in ms, 0 for all time.
fn period_key(interval: Interval, t: Timestamp) -> i64 {
    period_start(interval, t).map_or(0, Timestamp::millis)
}

/// Whether `limit` counts a purchase in `category` / `mcc` (a limit without categories counts all).
pub fn applies(limit: &SpendingLimit, category: Option<&str>, mcc: Option<&str>) -> bool {
    limit.categories.is_empty()
        || limit
            .categories
            .iter()
            .any(|c| Some(c.as_str()) == category || Some(c.as_str()) == mcc)
}

/// Adds `delta` (negative for a release) to the running totals of `auth`'s merchant pair in every
/// period `auth` was created in. Also used by the data format upgrade, hence a bare transaction.
pub(crate) fn add(
    tx: &mut dyn Tx,
    client: &str,
    auth: &Authorization,
    delta: Decimal,
) -> std::result::Result<(), StoreError> {
    if delta.is_zero() {
        return Ok(());
    }
    let category = auth.merchant.category.as_deref();
    let mcc = auth.merchant.mcc.as_deref();
    for interval in TOTALLED {
        let key = keys::spend_total(
            client,
            &auth.card_id,
            interval.as_str(),
            period_key(interval, auth.created_at),
            category,
            mcc,
        );
        let stored = codec::get::<SpendTotal>(tx, &key)?.map_or(Decimal::ZERO, |t| t.amount);
        let amount = (stored + delta).normalize();
        if amount.is_zero() {
            // A pair with nothing left is not read again by every decision of the period.
            tx.delete(&key)?;
        } else {
            let total = SpendTotal {
                category: category.map(str::to_string),
                mcc: mcc.map(str::to_string),
                amount,
            };
            codec::put(tx, &key, &total)?;
        }
    }
    Ok(())
}

/// One spending limit with what is spent of it and what is left, at one instant.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitSpend {
    pub limit: SpendingLimit,
    pub period_start: Option<Timestamp>,
    pub spent: Decimal,
    pub available: Decimal,
}

impl LimitSpend {
    /// Whether this limit counts a purchase in `category` / `mcc` (a limit without categories counts all).
    pub fn applies_to(&self, category: Option<&str>, mcc: Option<&str>) -> bool {
        applies(&self.limit, category, mcc)
    }

    /// Whether `amount` more fits this limit.
    pub fn allows(&self, amount: Decimal) -> bool {
        match self.limit.interval {
            Interval::PerAuthorization => amount <= self.limit.amount,
            _ => self.spent + amount <= self.limit.amount,
        }
    }
}

/// Every spending limit of `card` in its order, with spent and available at `now`. `lapsed` are the
/// card's holds stored as pending but expired by `now` ([`super::lapsed_holds`]): they count as
/// released. This is the one computation behind both declines and `GET /cards/{id}/spending`.
pub fn limits(
    s: &mut Scope,
    card: &Card,
    lapsed: &[Authorization],
    now: Timestamp,
) -> Result<Vec<LimitSpend>> {
    // Each period's pair totals are read once, however many limits share the interval.
    let mut periods: Vec<(Interval, Vec<SpendTotal>)> = Vec::new();
    let mut out = Vec::with_capacity(card.spending_controls.spending_limits.len());
    for limit in &card.spending_controls.spending_limits {
        let period_start = period_start(limit.interval, now);
        let spent = match limit.interval {
            Interval::PerAuthorization => Decimal::ZERO,
            interval => {
                let at = match periods.iter().position(|(i, _)| *i == interval) {
                    Some(at) => at,
                    None => {
                        let prefix = keys::spend_totals(
                            s.client,
                            &card.id,
                            interval.as_str(),
                            period_key(interval, now),
                        );
                        periods.push((interval, codec::scan(s.tx, &prefix)?));
                        periods.len() - 1
                    }
                };
                let stored: Decimal = periods[at]
                    .1
                    .iter()
                    .filter(|t| applies(limit, t.category.as_deref(), t.mcc.as_deref()))
                    .map(|t| t.amount)
                    .sum();
                let lapsed: Decimal = lapsed
                    .iter()
                    .filter(|a| a.expires_at <= now)
                    .filter(|a| period_start.is_none_or(|p| a.created_at >= p))
                    .filter(|a| {
                        applies(
                            limit,
                            a.merchant.category.as_deref(),
                            a.merchant.mcc.as_deref(),
                        )
                    })
                    .map(|a| a.pending_amount)
                    .sum();
                (stored - lapsed).max(Decimal::ZERO).normalize()
            }
        };
        let available = match limit.interval {
            Interval::PerAuthorization => limit.amount,
            _ => (limit.amount - spent).max(Decimal::ZERO).normalize(),
        };
        out.push(LimitSpend {
            limit: limit.clone(),
            period_start,
            spent,
            available,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        Timestamp::parse_rfc3339(s).unwrap()
    }

    #[test]
    fn periods_are_utc_calendar_periods() {
        // 2026-11-25 is a Wednesday.
        let t = at("2026-11-25T13:45:00.123Z");
        let start = |i| period_start(i, t).map(Timestamp::to_rfc3339);
        assert_eq!(
            start(Interval::Daily).as_deref(),
            Some("2026-11-25T00:00:00.000Z")
        );
        assert_eq!(
            start(Interval::Weekly).as_deref(),
            Some("2026-11-23T00:00:00.000Z")
        );
        assert_eq!(
            start(Interval::Monthly).as_deref(),
            Some("2026-11-01T00:00:00.000Z")
        );
        assert_eq!(
            start(Interval::Yearly).as_deref(),
            Some("2026-01-01T00:00:00.000Z")
        );
        assert_eq!(start(Interval::AllTime), None);
        assert_eq!(start(Interval::PerAuthorization), None);
        // A Monday is the start of its own week.
        let monday = at("2026-11-23T00:00:00.000Z");
        assert_eq!(period_start(Interval::Weekly, monday), Some(monday));
    }
}
