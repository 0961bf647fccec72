//! Spend against a card's limits. One function, [`limits`], says how much of every limit is spent and
//! left; the authorization decision and `GET /cards/{id}/spending` both use it.
//!
//! Spent = pending + captured amounts of the card's approved authorizations created in the limit's
//! UTC calendar period. It is kept as running totals, one per card, interval and period
//! ([`keys::spend_total`]): an approval adds its amount to the totals of the periods it was created in,
//! and every release (reverse, the uncaptured rest of a capture, expiry) takes the released amount
//! off them. A hold that has expired by the clock but not yet been written as expired is taken off on
//! the fly, so a read needs no write.

use chrono::{Datelike, NaiveDate, TimeZone, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::Authorization;
use crate::domain::cards::{Card, Interval, SpendingLimit};
use crate::domain::{Result, Scope};
use crate::env::Timestamp;
use crate::storage::codec::{self, Record, money};
use crate::storage::keys;

/// The intervals that keep a running total (`per_authorization` compares the amount alone).
const TOTALLED: [Interval; 5] = [
    Interval::Daily,
    Interval::Weekly,
    Interval::Monthly,
    Interval::Yearly,
    Interval::AllTime,
];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct SpendTotal {
    #[serde(with = "money")]
    amount: Decimal,
}

impl Record for SpendTotal {
    const VERSION: u8 = 1;
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

fn total_key(s: &Scope, card: &str, interval: Interval, created: Timestamp) -> Vec<u8> {
    let start = period_start(interval, created).map_or(0, Timestamp::millis);
    keys::spend_total(s.client, card, interval.as_str(), start)
}

fn total(s: &mut Scope, key: &[u8]) -> Result<Decimal> {
    Ok(codec::get::<SpendTotal>(s.tx, key)?.map_or(Decimal::ZERO, |t| t.amount))
}

/// Adds `delta` (negative for a release) to every running total of the periods `created` falls in.
pub fn add(s: &mut Scope, card: &str, created: Timestamp, delta: Decimal) -> Result<()> {
    if delta.is_zero() {
        return Ok(());
    }
    for interval in TOTALLED {
        let key = total_key(s, card, interval, created);
        let amount = (total(s, &key)? + delta).normalize();
        codec::put(s.tx, &key, &SpendTotal { amount })?;
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
        self.limit.categories.is_empty()
            || self
                .limit
                .categories
                .iter()
                .any(|c| Some(c.as_str()) == category || Some(c.as_str()) == mcc)
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
    let mut out = Vec::with_capacity(card.spending_controls.spending_limits.len());
    for limit in &card.spending_controls.spending_limits {
        let period_start = period_start(limit.interval, now);
        let spent = match limit.interval {
            Interval::PerAuthorization => Decimal::ZERO,
            interval => {
                let stored = total(s, &total_key(s, &card.id, interval, now))?;
                let lapsed: Decimal = lapsed
                    .iter()
                    .filter(|a| a.expires_at <= now)
                    .filter(|a| period_start.is_none_or(|p| a.created_at >= p))
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
