//! The list-query language shared by every list endpoint (README.md, "List queries"):
//! parse the raw query string into a typed plan ([`parse`] -> [`ListQuery`]), then evaluate it over a
//! resource's documents ([`ListQuery::select`], [`ListQuery::project`], [`ListQuery::envelope`]).

mod eval;
mod filter;
mod grams;
mod output;
mod parse;
mod project;
mod ranged;
mod run;
mod schema;
mod value;

#[cfg(test)]
mod tests;

pub use parse::parse;
pub use project::project_fields;
pub use run::{ALL, Documents, Page, Pos, RangeKey, RangePos, Source};
pub use value::FILTER_NUMBER_LIMIT;

use regex::Regex;

use eval::SortKey;
use filter::Condition;

/// The type of a field, which decides how filter values are parsed and how values compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    Str,
    /// Exact decimal numbers (money, counts).
    Number,
    Bool,
    /// RFC 3339 timestamps (createdAt, updatedAt), compared as instants.
    Date,
    /// A nested object with known sub-fields listed separately (e.g. "person" with "person.email").
    Object,
    /// A free-form object (metadata, details): any dot path below it is accepted, values compare loosely.
    FreeForm,
}

/// What a resource exposes to list queries.
#[derive(Debug)]
pub struct Schema {
    /// Every queryable dot path and its type, `_id`, `createdAt`, `updatedAt` included.
    pub fields: &'static [(&'static str, FieldType)],
    /// Fields searched when `searchIn` is absent.
    pub default_search: &'static [&'static str],
    /// Relations `populate` may embed: (name, schema of the embedded resource).
    pub populate: &'static [(&'static str, &'static Schema)],
}

/// One relation to embed, with an optional field selection.
#[derive(Debug, Clone, PartialEq)]
pub struct Populate {
    pub name: String,
    pub fields: Option<Vec<String>>,
}

/// A parsed list query: a typed plan checked against the resource's schema.
#[derive(Debug, Clone)]
pub struct ListQuery {
    pub page: u64,
    pub limit: u64,
    /// Relations to embed, in the order given.
    pub populate: Vec<Populate>,
    /// Never empty: `-createdAt` when `sort` is absent.
    sort: Vec<SortKey>,
    fields: Option<Vec<String>>,
    search: Option<Regex>,
    /// `searchIn`, or the resource's default text fields.
    search_in: Vec<String>,
    /// All ANDed.
    conditions: Vec<Condition>,
    /// `startingAfter`: the list continues after this record (pages count from it).
    after: Option<String>,
    /// `endingBefore`: the list ends before this record; alone, pages count back from it.
    before: Option<String>,
    raw: Raw,
}

/// The parameters as given, echoed in `meta`.
#[derive(Debug, Clone, Default)]
struct Raw {
    sort: Option<String>,
    fields: Option<String>,
    search: Option<String>,
    search_in: Option<String>,
    filter: Option<String>,
}
