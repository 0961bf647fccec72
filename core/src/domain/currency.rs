//! Currency codes: one type for accounts and cards.

use serde::{Deserialize, Serialize};

/// 3 to 10 characters of A-Z and 0-9 (ISO 4217 codes, or tickers such as USDT), upper case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Currency(String);

impl Currency {
    /// The currencies a card can be issued in.
    pub const CARD: &'static [&'static str] = &["NGN", "USD"];

    /// Upper-cases and checks `code`.
    pub fn parse(code: &str) -> Option<Currency> {
        let code = code.to_ascii_uppercase();
        ((3..=10).contains(&code.len())
            && code
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
        .then_some(Currency(code))
    }

    /// A card's currency when none is given.
    pub fn default_card() -> Currency {
        Currency("USD".to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Currency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_upper_cased_and_checked() {
        assert_eq!(Currency::parse("usdt").unwrap().as_str(), "USDT");
        assert!(Currency::parse("US").is_none());
        assert!(Currency::parse("U$D").is_none());
        assert!(Currency::parse("ABCDEFGHIJK").is_none());
    }
}
