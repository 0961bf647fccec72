//! What an API key may do: a level (`none`, `read`, `write`) per resource, plus `reveal` (card tokens
//! and reveals), which is off unless granted. The route table says what each route needs
//! (`http::routes::Need`); [`Permissions::allows`] decides, in one place, for every host.

use serde::{Deserialize, Serialize};

use crate::macros::str_enum;

str_enum!(
    /// The resources a key is granted access to, by name. `webhooks` is reserved for the webhook
    /// routes (and `/authorization-endpoint`, a callout configured like one).
    Resource {
        Accounts = "accounts",
        CardHolders = "card_holders",
        Cards = "cards",
        Authorizations = "authorizations",
        Disputes = "disputes",
        Events = "events",
        Webhooks = "webhooks",
        TestClock = "test_clock",
        ApiKeys = "api_keys",
        Audit = "audit",
    }
);

impl Resource {
    pub fn all() -> impl Iterator<Item = Resource> {
        Resource::ALL.iter().filter_map(|n| Resource::parse(n))
    }
}

/// How much of a resource a key may touch. Ordered: `write` includes `read`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Level {
    None,
    Read,
    Write,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Read => "read",
            Level::Write => "write",
        }
    }

    fn parse(s: &str) -> Option<Level> {
        match s {
            "none" => Some(Level::None),
            "read" => Some(Level::Read),
            "write" => Some(Level::Write),
            _ => None,
        }
    }
}

/// What one route needs of the calling key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// At least this level on this resource.
    Resource(Resource, Level),
    /// The `reveal` grant (a card token, a reveal).
    Reveal,
}

impl Need {
    /// The permission as `--permissions` and error messages spell it (`cards:write`, `reveal`).
    pub fn describe(self) -> String {
        match self {
            Need::Resource(r, l) => format!("{}:{}", r.as_str(), l.as_str()),
            Need::Reveal => "reveal".into(),
        }
    }
}

/// A key's grants. `rest` is the level of every resource not listed in `levels` (so a key made with
/// "everything" also covers resources added by a later release); stored with the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Permissions {
    levels: Vec<(String, Level)>,
    rest: Level,
    reveal: bool,
}

impl Permissions {
    /// Everything, reveal included: configured keys, keys stored before permissions existed, and the
    /// key a first start prints.
    pub fn full() -> Permissions {
        Permissions {
            levels: Vec::new(),
            rest: Level::Write,
            reveal: true,
        }
    }

    /// The default of a new key: write on every resource, no `reveal` (card numbers need an explicit
    /// grant; everything else keeps working as it did for existing scripts).
    pub fn default_new() -> Permissions {
        Permissions {
            levels: Vec::new(),
            rest: Level::Write,
            reveal: false,
        }
    }

    /// The same grants without `reveal`.
    pub fn without_reveal(&self) -> Permissions {
        Permissions {
            reveal: false,
            ..self.clone()
        }
    }

    pub fn level(&self, resource: Resource) -> Level {
        self.levels
            .iter()
            .find(|(name, _)| name == resource.as_str())
            .map_or(self.rest, |(_, l)| *l)
    }

    pub fn reveal(&self) -> bool {
        self.reveal
    }

    pub fn allows(&self, need: Need) -> bool {
        match need {
            Need::Resource(r, l) => self.level(r) >= l,
            Need::Reveal => self.reveal,
        }
    }

    /// True when every grant of `other` is also one of ours: a key may only make keys it could
    /// stand in for.
    pub fn covers(&self, other: &Permissions) -> bool {
        (self.reveal || !other.reveal) && Resource::all().all(|r| self.level(r) >= other.level(r))
    }

    /// Parses a list of grants: `cards:read`, `accounts:write`, `reveal`, `*:read` (every resource;
    /// later entries win). Resources not named get `none`.
    pub fn parse<'a>(items: impl IntoIterator<Item = &'a str>) -> Result<Permissions, String> {
        let mut p = Permissions {
            levels: Vec::new(),
            rest: Level::None,
            reveal: false,
        };
        for item in items.into_iter().map(str::trim).filter(|i| !i.is_empty()) {
            if item == "reveal" {
                p.reveal = true;
                continue;
            }
            let (name, level) = item.split_once(':').ok_or_else(|| {
                format!("{item:?}: expected RESOURCE:LEVEL (e.g. cards:read) or reveal")
            })?;
            let level = Level::parse(level)
                .ok_or_else(|| format!("{item:?}: the level must be one of none, read, write"))?;
            if name == "*" {
                p.levels.clear();
                p.rest = level;
                continue;
            }
            let resource = Resource::parse(name).ok_or_else(|| {
                format!(
                    "{item:?}: unknown resource; one of {} or *",
                    Resource::ALL.join(", ")
                )
            })?;
            p.levels.retain(|(n, _)| n != resource.as_str());
            p.levels.push((resource.as_str().to_string(), level));
        }
        p.levels.retain(|(_, l)| *l != p.rest);
        p.levels.sort();
        Ok(p)
    }

    /// Every resource with its level, then `reveal` if granted: `accounts:write,...,reveal`.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = Resource::all()
            .map(|r| format!("{}:{}", r.as_str(), self.level(r).as_str()))
            .collect();
        if self.reveal {
            parts.push("reveal".into());
        }
        parts.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_parse_and_decide() {
        let p = Permissions::parse("cards:read,accounts:write,reveal".split(',')).unwrap();
        assert!(p.allows(Need::Resource(Resource::Cards, Level::Read)));
        assert!(!p.allows(Need::Resource(Resource::Cards, Level::Write)));
        assert!(p.allows(Need::Resource(Resource::Accounts, Level::Write)));
        assert!(p.allows(Need::Resource(Resource::Accounts, Level::Read)));
        assert!(!p.allows(Need::Resource(Resource::Events, Level::Read)));
        assert!(p.allows(Need::Reveal));
        let no_reveal = Permissions::parse(["*:read", "cards:write"]).unwrap();
        assert!(!no_reveal.allows(Need::Reveal));
        assert!(no_reveal.allows(Need::Resource(Resource::Audit, Level::Read)));
        assert!(!no_reveal.allows(Need::Resource(Resource::Audit, Level::Write)));
        assert!(no_reveal.allows(Need::Resource(Resource::Cards, Level::Write)));
        assert!(Permissions::parse(["cards"]).is_err());
        assert!(Permissions::parse(["cards:admin"]).is_err());
        assert!(Permissions::parse(["wallets:read"]).is_err());
        assert_eq!(
            Permissions::parse(["*:write"]).unwrap(),
            Permissions::default_new()
        );
        assert_eq!(
            Permissions::parse(["*:write", "reveal"]).unwrap(),
            Permissions::full()
        );
    }

    #[test]
    fn a_key_covers_only_what_it_holds() {
        let full = Permissions::full();
        let default = Permissions::default_new();
        let reader = Permissions::parse(["*:read"]).unwrap();
        assert!(full.covers(&default) && full.covers(&reader) && full.covers(&full));
        assert!(
            !default.covers(&full),
            "reveal is not the default's to give"
        );
        assert!(default.covers(&reader));
        assert!(!reader.covers(&default));
        assert_eq!(
            reader.describe().split(',').count(),
            Resource::ALL.len(),
            "{}",
            reader.describe()
        );
        assert!(full.describe().ends_with(",reveal"));
    }
}
