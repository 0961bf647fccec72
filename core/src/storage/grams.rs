//! The text index's units: trigrams of case-folded text.
//!
//! A search is a case-insensitive regex (`(?i)`), which matches a character to every member of
//! its Unicode *simple case folding* orbit (`k`, `K` and the Kelvin sign `K` alike). So both the
//! index (the text of a record) and the query (a pattern's literals) map every character to one
//! member of its orbit, the smallest, with the very tables the regex uses (`regex-syntax`): two
//! characters a search cannot tell apart always fold alike, so a match's literal is in the folded
//! text whatever the case of either.

use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

/// Characters per gram.
pub const N: usize = 3;

/// The index of a text field's grams is kept as a secondary index of this name: `name#3` for the
/// field `name` (no list field has a `#`).
pub fn index_field(field: &str) -> String {
    format!("{field}#3")
}

/// Whether `field` names a gram index ([`index_field`]).
pub fn is_index_field(field: &str) -> bool {
    field.ends_with("#3")
}

/// The smallest member of `c`'s simple case folding orbit.
pub fn fold(c: char) -> char {
    if c.is_ascii() {
        // An ASCII letter's orbit holds its two ASCII cases and at most one non-ASCII member
        // (`k`: the Kelvin sign, `s`: the long s), so its upper case is the smallest.
        return c.to_ascii_uppercase();
    }
    let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
    class.case_fold_simple();
    class.ranges().first().map_or(c, |r| r.start())
}

/// `text` with every character folded.
pub fn fold_str(text: &str) -> String {
    text.chars().map(fold).collect()
}

/// The distinct grams of folded `text` (already folded: the query's literals), sorted.
pub fn of_folded(folded: &str) -> Vec<String> {
    let chars: Vec<char> = folded.chars().collect();
    let mut grams: Vec<String> = chars.windows(N).map(|w| w.iter().collect()).collect();
    grams.sort_unstable();
    grams.dedup();
    grams
}

/// The distinct grams of `text` as the index holds them, sorted.
pub fn of(text: &str) -> Vec<String> {
    of_folded(&fold_str(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every member of `c`'s orbit, as the regex sees it.
    fn orbit(c: char) -> Vec<char> {
        let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
        class.case_fold_simple();
        class.iter().flat_map(|r| r.start()..=r.end()).collect()
    }

    #[test]
    fn case_variants_fold_alike() {
        assert_eq!(fold_str("Ada"), fold_str("aDA"));
        assert_eq!(fold('k'), fold('\u{212A}'));
        assert_eq!(fold('s'), fold('ſ'));
        assert_eq!(fold('σ'), fold('ς'));
        assert_eq!(fold('Σ'), fold('ς'));
        assert_eq!(fold('é'), fold('É'));
        assert_ne!(fold('e'), fold('é'));
        assert_eq!(of("Kelvin"), of("\u{212A}ELVIN"));
        assert_eq!(of("ab"), Vec::<String>::new());
        assert_eq!(of("abab"), vec!["ABA".to_string(), "BAB".to_string()]);
    }

    proptest! {
        /// One canonical member per orbit: every member of a character's orbit folds to the same
        /// character, itself a member; the ASCII shortcut agrees with the tables.
        #[test]
        fn fold_names_one_member_of_each_orbit(c in any::<char>()) {
            let members = orbit(c);
            let f = fold(c);
            prop_assert!(members.contains(&f));
            for m in members {
                prop_assert_eq!(fold(m), f);
            }
        }
    }

    #[test]
    fn ascii_shortcut_is_the_tables_smallest_member() {
        for c in (0u8..128).map(char::from) {
            assert_eq!(Some(&fold(c)), orbit(c).iter().min(), "{c:?}");
        }
    }
}
