//! What a search pattern requires of the text it matches, in trigrams ([`crate::storage::grams`]):
//! the pattern's syntax tree (regex-syntax, parsed as the search compiles it) is walked into a
//! formula of grams that every match must contain (concatenations AND, alternations OR), on
//! folded text. A record whose text lacks them cannot match; one that has them is only a
//! candidate, re-checked with the real regex.
//!
//! Each node gives either the exact set of folded strings it can match (literals, small classes,
//! their concatenations and alternations, up to [`MAX_SET`] strings) or only a formula. Anything
//! wider (`.`, `\w`, a large class, a repetition that may match nothing) requires nothing, so a
//! pattern such as `.*`, `a|b`, `ab` or `a.b` has no usable gram and keeps the one pass.

use std::collections::{BTreeMap, BTreeSet};

use regex_syntax::hir::{Class, Hir, HirKind};

use super::{ListQuery, Source};
use crate::error::ApiResult;
use crate::storage::grams::{self, fold};

/// At most this many strings in a node's exact set (case variants fold into one).
const MAX_SET: usize = 32;
/// A class of more characters than this requires nothing.
const MAX_CLASS: u32 = 64;

/// What every match's folded text contains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Need {
    /// Nothing known: any text may match.
    Any,
    Gram(String),
    All(Vec<Need>),
    OneOf(Vec<Need>),
}

impl Need {
    fn all(parts: Vec<Need>) -> Need {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Need::Any => {}
                Need::All(inner) => out.extend(inner),
                p => {
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        match out.len() {
            0 => Need::Any,
            1 => out.pop().unwrap_or(Need::Any),
            _ => Need::All(out),
        }
    }

    fn one_of(parts: Vec<Need>) -> Need {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Need::Any => return Need::Any,
                Need::OneOf(inner) => out.extend(inner),
                p => {
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        match out.len() {
            0 => Need::Any,
            1 => out.pop().unwrap_or(Need::Any),
            _ => Need::OneOf(out),
        }
    }

    /// Every match is one of `set` (folded strings): it holds all the grams of one of them.
    fn of_set(set: &BTreeSet<String>) -> Need {
        Need::one_of(
            set.iter()
                .map(|s| Need::all(grams::of_folded(s).into_iter().map(Need::Gram).collect()))
                .collect(),
        )
    }
}

/// What `pattern` (a search, compiled case-insensitively) requires; [`Need::Any`] when its syntax
/// is not understood (the regex itself compiled, so that only loses the index).
pub(super) fn need(pattern: &str) -> Need {
    match regex_syntax::ParserBuilder::new()
        .case_insensitive(true)
        .build()
        .parse(pattern)
    {
        Ok(hir) => Info::of(&hir).need(),
        Err(_) => Need::Any,
    }
}

/// Index ranges (field, value) walked together.
type Lanes = Vec<(String, String)>;

/// At most this many posting lists are walked together for one search.
const MAX_LANES: usize = 64;

impl ListQuery {
    /// The gram posting lists whose union holds every record the search can match, and the sum
    /// of their counts (the candidates to re-check), when each `searchIn` field has a gram index
    /// and the pattern requires a gram in each: per field, an AND walks its rarest part, an OR
    /// all of its parts. `None`: the pattern requires nothing, a field has no index, or more
    /// than [`MAX_LANES`] lists.
    pub(super) fn gram_lanes(&self, src: &mut dyn Source) -> ApiResult<Option<(u64, Lanes)>> {
        let Some(pattern) = &self.raw.search else {
            return Ok(None);
        };
        let texts = src.texts();
        if self.search_in.is_empty() || !self.search_in.iter().all(|f| texts.contains(&f.as_str()))
        {
            return Ok(None);
        }
        let need = need(pattern);
        if need == Need::Any {
            return Ok(None);
        }
        let mut cost = 0u64;
        let mut lanes: Vec<(String, String)> = Vec::new();
        for field in &self.search_in {
            let index = grams::index_field(field);
            let mut counts = BTreeMap::new();
            let Some((n, picked)) = pick(&need, &index, src, &mut counts)? else {
                return Ok(None);
            };
            cost = cost.saturating_add(n);
            lanes.extend(picked.into_iter().map(|g| (index.clone(), g)));
            if lanes.len() > MAX_LANES {
                return Ok(None);
            }
        }
        lanes.sort_unstable();
        lanes.dedup();
        Ok(Some((cost, lanes)))
    }
}

/// The grams of `index` to walk for `need`, and their entries in all: an AND's cheapest part, an
/// OR's every part. `None` for [`Need::Any`].
fn pick(
    need: &Need,
    index: &str,
    src: &mut dyn Source,
    counts: &mut BTreeMap<String, u64>,
) -> ApiResult<Option<(u64, Vec<String>)>> {
    Ok(match need {
        Need::Any => None,
        Need::Gram(g) => {
            let n = match counts.get(g) {
                Some(n) => *n,
                None => {
                    let n = src.count(index, g)?;
                    counts.insert(g.clone(), n);
                    n
                }
            };
            Some((n, vec![g.clone()]))
        }
        Need::All(parts) => {
            let mut best: Option<(u64, Vec<String>)> = None;
            for p in parts {
                if let Some(found) = pick(p, index, src, counts)?
                    && best.as_ref().is_none_or(|(b, _)| found.0 < *b)
                {
                    best = Some(found);
                }
            }
            best
        }
        Need::OneOf(parts) => {
            let mut all = (0u64, Vec::new());
            for p in parts {
                let Some((n, gs)) = pick(p, index, src, counts)? else {
                    return Ok(None);
                };
                all.0 = all.0.saturating_add(n);
                all.1.extend(gs);
            }
            Some(all)
        }
    })
}

/// A node: the exact set of folded strings it matches, when small, else what it requires.
enum Info {
    Exact(BTreeSet<String>),
    Needs(Need),
}

impl Info {
    fn need(self) -> Need {
        match self {
            Info::Exact(set) => Need::of_set(&set),
            Info::Needs(n) => n,
        }
    }

    fn empty() -> Info {
        Info::Exact(BTreeSet::from([String::new()]))
    }

    fn of(hir: &Hir) -> Info {
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Info::empty(),
            HirKind::Literal(lit) => match std::str::from_utf8(&lit.0) {
                Ok(text) => Info::Exact(BTreeSet::from([grams::fold_str(text)])),
                Err(_) => Info::Needs(Need::Any),
            },
            HirKind::Class(class) => Info::class(class),
            HirKind::Capture(cap) => Info::of(&cap.sub),
            HirKind::Repetition(rep) => match (rep.min, rep.max) {
                // May match nothing.
                (0, _) => Info::Needs(Need::Any),
                (1, Some(1)) => Info::of(&rep.sub),
                // At least one match of the part.
                _ => Info::Needs(Info::of(&rep.sub).need()),
            },
            HirKind::Concat(parts) => {
                let mut needs = Vec::new();
                let mut run = BTreeSet::from([String::new()]);
                let mut exact = true;
                for part in parts {
                    match Info::of(part) {
                        Info::Exact(set) if run.len() * set.len() <= MAX_SET => {
                            run = run
                                .iter()
                                .flat_map(|a| set.iter().map(move |b| format!("{a}{b}")))
                                .collect();
                        }
                        Info::Exact(set) => {
                            // Too many strings: what is known so far is required; a new run starts.
                            needs.push(Need::of_set(&run));
                            run = set;
                            exact = false;
                        }
                        Info::Needs(n) => {
                            needs.push(Need::of_set(&run));
                            needs.push(n);
                            run = BTreeSet::from([String::new()]);
                            exact = false;
                        }
                    }
                }
                if exact {
                    return Info::Exact(run);
                }
                needs.push(Need::of_set(&run));
                Info::Needs(Need::all(needs))
            }
            HirKind::Alternation(alts) => {
                let infos: Vec<Info> = alts.iter().map(Info::of).collect();
                let mut union = BTreeSet::new();
                let mut exact = true;
                for info in &infos {
                    match info {
                        Info::Exact(set) if union.len() + set.len() <= MAX_SET => {
                            union.extend(set.iter().cloned());
                        }
                        _ => exact = false,
                    }
                }
                if exact {
                    return Info::Exact(union);
                }
                Info::Needs(Need::one_of(infos.into_iter().map(Info::need).collect()))
            }
        }
    }

    /// A class is one folded character of a small set, or unknown.
    fn class(class: &Class) -> Info {
        let ranges: Vec<(u32, u32)> = match class {
            Class::Unicode(c) => c
                .iter()
                .map(|r| (r.start() as u32, r.end() as u32))
                .collect(),
            Class::Bytes(c) => {
                // Bytes beyond ASCII are parts of characters: unknown.
                if c.iter().any(|r| r.end() > 0x7f) {
                    return Info::Needs(Need::Any);
                }
                c.iter()
                    .map(|r| (r.start() as u32, r.end() as u32))
                    .collect()
            }
        };
        let size: u32 = ranges.iter().map(|(a, b)| b - a + 1).sum();
        if size > MAX_CLASS {
            return Info::Needs(Need::Any);
        }
        let set: BTreeSet<String> = ranges
            .iter()
            .flat_map(|(a, b)| *a..=*b)
            .filter_map(char::from_u32)
            .map(|c| fold(c).to_string())
            .collect();
        if set.len() > MAX_SET {
            return Info::Needs(Need::Any);
        }
        Info::Exact(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> Need {
        Need::Gram(s.to_string())
    }

    #[test]
    fn literals_concatenations_and_alternations() {
        assert_eq!(need("ada"), g("ADA"));
        assert_eq!(need("ADA"), g("ADA"));
        assert_eq!(need("lovelace"), need("LoveLace"));
        assert_eq!(need("adam"), Need::All(vec![g("ADA"), g("DAM")]));
        assert_eq!(need("ada|bob"), Need::OneOf(vec![g("ADA"), g("BOB")]));
        assert_eq!(need("[ab]da"), Need::OneOf(vec![g("ADA"), g("BDA")]));
        assert_eq!(need("ada.*lov"), Need::All(vec![g("ADA"), g("LOV")]));
        assert_eq!(need("(ada)+"), g("ADA"));
        assert_eq!(need("^ada$"), g("ADA"));
        assert_eq!(need("\\bada\\b"), g("ADA"));
        assert_eq!(need("\u{212A}el"), g("KEL"));
        assert_eq!(need("(?-i)Kel"), g("KEL"));
        assert_eq!(need("ΣΊΣ"), need("σίς"));
        assert_eq!(need("ſta"), g("STA"));
    }

    #[test]
    fn patterns_without_a_gram_require_nothing() {
        for p in [
            ".*", "a|b", "ab", "a.b", "(ada)?", "ada|b", "\\w+", "a*", "[^a]", "x{2}",
        ] {
            assert_eq!(need(p), Need::Any, "{p}");
        }
    }
}
