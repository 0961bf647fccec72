//! The query string -> a typed [`ListQuery`], with every error collected.

use regex::{Regex, RegexBuilder};

use super::eval::SortKey;
use super::filter::Builder;
use super::schema::{field_type, populated};
use super::{FieldType, ListQuery, Populate, Raw, Schema};
use crate::error::FieldError;

const RESERVED: [&str; 10] = [
    "page",
    "limit",
    "sort",
    "fields",
    "search",
    "searchIn",
    "filter",
    "populate",
    "startingAfter",
    "endingBefore",
];
/// Ids are short ASCII tokens; anything longer is not one.
const MAX_CURSOR_CHARS: usize = 64;
const MAX_LIMIT: u64 = 200;
const DEFAULT_LIMIT: u64 = 20;
const MAX_SEARCH_CHARS: usize = 100;
/// Bounds the compiled regex so a hostile pattern cannot eat memory.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Parses a raw query string (no `?`) against `schema`; on failure returns every field error.
pub fn parse(raw_query: &str, schema: &'static Schema) -> Result<ListQuery, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut reserved: [Option<String>; 10] = Default::default();
    let mut repeated = [false; 10];
    let mut top_level = Vec::new();
    for (key, value) in form_urlencoded::parse(raw_query.as_bytes()) {
        match RESERVED.iter().position(|r| *r == key) {
            Some(i) if reserved[i].is_some() => {
                if !repeated[i] {
                    errors.push(FieldError::new(key, "must be given at most once"));
                }
                repeated[i] = true;
            }
            Some(i) => reserved[i] = Some(value.into_owned()),
            None => top_level.push((key.into_owned(), value.into_owned())),
        }
    }
    let [
        page,
        limit,
        sort,
        fields,
        search,
        search_in,
        filter,
        populate,
        starting_after,
        ending_before,
    ] = reserved;

    let page = count(page.as_deref(), 1, u64::MAX, 1)
        .unwrap_or_else(|| fail(&mut errors, "page", "must be an integer >= 1"));
    let limit = count(limit.as_deref(), 1, MAX_LIMIT, DEFAULT_LIMIT)
        .unwrap_or_else(|| fail(&mut errors, "limit", "must be an integer between 1 and 200"));
    let sort_keys = parse_sort(sort.as_deref(), schema, &mut errors);
    let field_list = fields
        .as_deref()
        .map(|f| parse_fields(f, schema, &mut errors))
        .filter(|f| !f.is_empty());
    let regex = search
        .as_deref()
        .filter(|s| !s.is_empty())
        .and_then(|s| compile_search(s, &mut errors));
    let search_fields = match search_in.as_deref() {
        Some(list) => parse_search_in(list, schema, &mut errors),
        None => schema
            .default_search
            .iter()
            .map(|s| s.to_string())
            .collect(),
    };

    let mut builder = Builder::new(schema, &mut errors);
    if let Some(text) = filter.as_deref() {
        builder.filter_param("filter", text);
    }
    for (key, value) in &top_level {
        builder.pair(key, key, value);
    }
    let conditions = builder.conditions;

    let after = parse_cursor("startingAfter", starting_after, &mut errors);
    let before = parse_cursor("endingBefore", ending_before, &mut errors);

    let populate_list = populate
        .as_deref()
        .map(|p| parse_populate(p, schema, &mut errors))
        .unwrap_or_default();

    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ListQuery {
        page,
        limit,
        populate: populate_list,
        sort: sort_keys,
        fields: field_list,
        search: regex,
        search_in: search_fields,
        conditions,
        after,
        before,
        raw: Raw {
            sort,
            fields,
            search,
            search_in,
            filter,
        },
    })
}

/// A record id given as `startingAfter` or `endingBefore`.
fn parse_cursor(param: &str, id: Option<String>, errors: &mut Vec<FieldError>) -> Option<String> {
    let id = id?;
    let valid = !id.is_empty()
        && id.len() <= MAX_CURSOR_CHARS
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !valid {
        errors.push(FieldError::new(
            param,
            "must be the id of a record in this list",
        ));
        return None;
    }
    Some(id)
}

fn fail(errors: &mut Vec<FieldError>, field: &str, message: &str) -> u64 {
    errors.push(FieldError::new(field, message));
    1
}

/// A decimal integer in `min..=max` (digits only), or `default` when absent.
fn count(text: Option<&str>, min: u64, max: u64, default: u64) -> Option<u64> {
    let Some(text) = text else {
        return Some(default);
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok().filter(|n| (min..=max).contains(n))
}

/// The non-empty, trimmed items of a comma list.
fn items(list: &str) -> impl Iterator<Item = &str> {
    list.split(',').map(str::trim).filter(|s| !s.is_empty())
}

fn parse_sort(text: Option<&str>, schema: &Schema, errors: &mut Vec<FieldError>) -> Vec<SortKey> {
    let mut keys: Vec<SortKey> = Vec::new();
    for item in items(text.unwrap_or("")) {
        let (desc, path) = match item.strip_prefix('-') {
            Some(rest) => (true, rest.trim()),
            None => (false, item),
        };
        match field_type(schema, path) {
            None => errors.push(FieldError::new("sort", format!("unknown field '{path}'"))),
            Some(FieldType::Object) => errors.push(FieldError::new(
                "sort",
                format!("'{path}' is an object; sort on one of its fields"),
            )),
            Some(_) if keys.iter().any(|k| k.path == path) => errors.push(FieldError::new(
                "sort",
                format!("'{path}' is given more than once"),
            )),
            Some(ftype) => keys.push(SortKey {
                path: path.to_string(),
                ftype,
                desc,
            }),
        }
    }
    if keys.is_empty() {
        keys.push(SortKey {
            path: "createdAt".into(),
            ftype: FieldType::Date,
            desc: true,
        });
    }
    keys
}

/// Projection paths: fields of the resource, or of a relation `populate` may embed.
fn parse_fields(text: &str, schema: &Schema, errors: &mut Vec<FieldError>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for path in items(text) {
        let known = field_type(schema, path).is_some() || {
            let (name, rest) = path.split_once('.').unwrap_or((path, ""));
            populated(schema, name)
                .is_some_and(|s| rest.is_empty() || field_type(s, rest).is_some())
        };
        if !known {
            errors.push(FieldError::new("fields", format!("unknown field '{path}'")));
        } else if !out.iter().any(|p| p == path) {
            out.push(path.to_string());
        }
    }
    out
}

fn parse_search_in(text: &str, schema: &Schema, errors: &mut Vec<FieldError>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for path in items(text) {
        if field_type(schema, path).is_none() {
            errors.push(FieldError::new(
                "searchIn",
                format!("unknown field '{path}'"),
            ));
        } else if !out.iter().any(|p| p == path) {
            out.push(path.to_string());
        }
    }
    out
}

fn compile_search(pattern: &str, errors: &mut Vec<FieldError>) -> Option<Regex> {
    if pattern.chars().count() > MAX_SEARCH_CHARS {
        errors.push(FieldError::new("search", "must be at most 100 characters"));
        return None;
    }
    match RegexBuilder::new(pattern)
        .case_insensitive(true)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SIZE_LIMIT)
        .build()
    {
        Ok(re) => Some(re),
        Err(e) => {
            // The syntax error's last line names the problem without the multi-line diagram.
            let text = e.to_string();
            let reason = text
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid")
                .trim()
                .trim_start_matches("error: ")
                .to_string();
            errors.push(FieldError::new(
                "search",
                format!("is not a valid regular expression: {reason}"),
            ));
            None
        }
    }
}

/// `a,b` or `a:f1 f2;b:f3` (fields separated by spaces or commas).
fn parse_populate(text: &str, schema: &Schema, errors: &mut Vec<FieldError>) -> Vec<Populate> {
    let mut out: Vec<Populate> = Vec::new();
    for entry in text.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        let specs: Vec<(&str, Option<&str>)> = match entry.split_once(':') {
            Some((name, fields)) => vec![(name.trim(), Some(fields))],
            None => items(entry).map(|n| (n, None)).collect(),
        };
        for (name, fields) in specs {
            let Some(target) = populated(schema, name) else {
                errors.push(FieldError::new(
                    "populate",
                    format!("unknown relation '{name}'"),
                ));
                continue;
            };
            if out.iter().any(|p| p.name == name) {
                errors.push(FieldError::new(
                    "populate",
                    format!("'{name}' is given more than once"),
                ));
                continue;
            }
            let mut selected: Vec<String> = Vec::new();
            for f in fields
                .unwrap_or("")
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|f| !f.is_empty())
            {
                if field_type(target, f).is_none() {
                    errors.push(FieldError::new(
                        "populate",
                        format!("unknown field '{f}' of '{name}'"),
                    ));
                } else if !selected.iter().any(|s| s == f) {
                    selected.push(f.to_string());
                }
            }
            out.push(Populate {
                name: name.to_string(),
                fields: (!selected.is_empty()).then_some(selected),
            });
        }
    }
    out
}
