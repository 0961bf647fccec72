//! Order-preserving encodings of range-indexed values: the bytes of two values compare as the
//! values do, so a range of values is a range of keys (`keys::range_entry`).
//!
//! Each encoding is self-delimiting (its end is known from its bytes), so a key can carry the
//! record id right after it:
//!
//! | bytes | value |
//! |---|---|
//! | `01`, 255 − (e + 128), each digit as 255 − its ASCII, `ff` | a negative decimal |
//! | `02` | zero |
//! | `03`, e + 128, each digit in ASCII, `00` | a positive decimal |
//! | `10`, 8 bytes: ms big endian with the sign bit flipped | an instant |
//!
//! A decimal is `0.d1d2…dn × 10^e` with `d1 ≠ 0` and no trailing zeros (exact: `Decimal` holds at
//! most 29 digits, so `e` is between −28 and 29). Among positives a larger `e` is larger, then the
//! digits compare as text (the terminator `00` sorts a prefix first: 0.12 < 0.123); negatives are
//! the complement, so the order reverses. Equal values (1.5 and 1.50) encode alike.

use rust_decimal::Decimal;

/// A value of a range-indexed field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ordered {
    Num(Decimal),
    /// Milliseconds since the epoch.
    Millis(i64),
}

/// A span of values: each end, when given, with whether it is included.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Span {
    pub lo: Option<(Ordered, bool)>,
    pub hi: Option<(Ordered, bool)>,
}

impl Span {
    /// Whether `v` lies in the span.
    pub fn contains(&self, v: &Ordered) -> bool {
        let above = match &self.lo {
            None => true,
            Some((lo, incl)) => v > lo || (*incl && v == lo),
        };
        let below = match &self.hi {
            None => true,
            Some((hi, incl)) => v < hi || (*incl && v == hi),
        };
        above && below
    }

    /// Narrows the span by `v` as a lower (`low`) or upper end.
    pub fn narrow(&mut self, low: bool, v: Ordered, inclusive: bool) {
        let end = if low { &mut self.lo } else { &mut self.hi };
        let tighter = match end {
            None => true,
            Some((old, old_incl)) => {
                let beyond = if low { v > *old } else { v < *old };
                beyond || (v == *old && *old_incl && !inclusive)
            }
        };
        if tighter {
            *end = Some((v, inclusive));
        }
    }
}

const NEGATIVE: u8 = 0x01;
const ZERO: u8 = 0x02;
const POSITIVE: u8 = 0x03;
const MILLIS: u8 = 0x10;

impl Ordered {
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Ordered::Num(d) => decimal(*d),
            Ordered::Millis(ms) => {
                let mut out = Vec::with_capacity(9);
                out.push(MILLIS);
                out.extend_from_slice(&((*ms as u64) ^ (1 << 63)).to_be_bytes());
                out
            }
        }
    }

    /// The bucket of an encoded value: its first bytes, so that buckets are in the values' order and
    /// a bucket's count stands for many values (a decimal's sign, exponent and first two digits; an
    /// instant's top 40 bits, spans of 2^24 ms, about 4.7 hours). Range indexes keep a count per
    /// bucket, so a range's size is read from whole buckets and walked only in its two end buckets.
    pub fn bucket(encoded: &[u8]) -> &[u8] {
        let n = match encoded.first() {
            Some(&MILLIS) => 6,
            Some(&ZERO) => 1,
            _ => 4,
        };
        &encoded[..n.min(encoded.len())]
    }

    /// The length of a bucket that starts with `tag`.
    pub fn bucket_len(tag: u8) -> usize {
        match tag {
            MILLIS => 6,
            ZERO => 1,
            _ => 4,
        }
    }

    /// The length of the encoded value at the start of `bytes`, if one is there.
    pub fn encoded_len(bytes: &[u8]) -> Option<usize> {
        match *bytes.first()? {
            ZERO => Some(1),
            MILLIS => (bytes.len() >= 9).then_some(9),
            POSITIVE => bytes.iter().skip(2).position(|b| *b == 0).map(|i| i + 3),
            NEGATIVE => bytes.iter().skip(2).position(|b| *b == 0xff).map(|i| i + 3),
            _ => None,
        }
    }
}

fn decimal(d: Decimal) -> Vec<u8> {
    if d.is_zero() {
        return vec![ZERO];
    }
    let d = d.normalize();
    let digits = d.mantissa().unsigned_abs().to_string();
    // At most 29 digits and a scale of at most 28: `e` fits an i8 with room to spare.
    let e = digits.len() as i32 - d.scale() as i32;
    let biased = (e + 128) as u8;
    let mut out = Vec::with_capacity(digits.len() + 3);
    if d.is_sign_negative() {
        out.push(NEGATIVE);
        out.push(255 - biased);
        out.extend(digits.bytes().map(|b| 255 - b));
        out.push(0xff);
    } else {
        out.push(POSITIVE);
        out.push(biased);
        out.extend_from_slice(digits.as_bytes());
        out.push(0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arb_decimal() -> impl Strategy<Value = Decimal> {
        prop_oneof![
            (any::<i64>(), 0u32..=28).prop_map(|(m, s)| Decimal::new(m, s)),
            (any::<i128>(), 0u32..=28).prop_filter_map("fits", |(m, s)| {
                Decimal::try_from_i128_with_scale(m % (1i128 << 96), s).ok()
            }),
            (-1000i64..1000, 0u32..4).prop_map(|(m, s)| Decimal::new(m, s)),
            Just(Decimal::MAX),
            Just(Decimal::MIN),
        ]
    }

    proptest! {
        #[test]
        fn decimals_encode_in_their_order(a in arb_decimal(), b in arb_decimal()) {
            let (x, y) = (Ordered::Num(a).encode(), Ordered::Num(b).encode());
            prop_assert_eq!(x.cmp(&y), a.cmp(&b));
            prop_assert_eq!(Ordered::encoded_len(&x), Some(x.len()));
            // A following id never changes the order of two different values.
            let (mut xi, mut yi) = (x.clone(), y.clone());
            xi.extend_from_slice(b"ffff");
            yi.extend_from_slice(b"0000");
            if a != b {
                prop_assert_eq!(xi.cmp(&yi), a.cmp(&b));
            }
            prop_assert_eq!(Ordered::encoded_len(&xi), Some(x.len()));
        }

        #[test]
        fn buckets_keep_the_order(a in arb_decimal(), b in arb_decimal(), x in any::<i64>(), y in any::<i64>()) {
            for (p, q, lt) in [
                (Ordered::Num(a), Ordered::Num(b), a < b),
                (Ordered::Millis(x), Ordered::Millis(y), x < y),
            ] {
                let (p, q) = (p.encode(), q.encode());
                if lt {
                    prop_assert!(Ordered::bucket(&p) <= Ordered::bucket(&q));
                }
                prop_assert_eq!(Ordered::bucket(&p).len(), Ordered::bucket_len(p[0]));
                prop_assert!(p.starts_with(Ordered::bucket(&p)));
            }
        }

        #[test]
        fn instants_encode_in_their_order(a in any::<i64>(), b in any::<i64>()) {
            let (x, y) = (Ordered::Millis(a).encode(), Ordered::Millis(b).encode());
            prop_assert_eq!(x.cmp(&y), a.cmp(&b));
            prop_assert_eq!(Ordered::encoded_len(&x), Some(9));
        }
    }

    #[test]
    fn equal_values_encode_alike_and_signs_order() {
        let enc = |s: &str| Ordered::Num(s.parse::<Decimal>().unwrap()).encode();
        assert_eq!(enc("1.5"), enc("1.50"));
        assert_eq!(enc("0"), enc("-0.00"));
        let order = [
            "-1000", "-2.5", "-2.25", "-0.01", "0", "0.001", "0.12", "0.123", "1", "9.99", "10",
        ];
        for w in order.windows(2) {
            assert!(enc(w[0]) < enc(w[1]), "{} < {}", w[0], w[1]);
        }
    }
}
