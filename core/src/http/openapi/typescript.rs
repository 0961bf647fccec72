//! The browser module's TypeScript types (`host-wasm/src/browser.d.ts`), generated from the
//! document's component schemas, which are built from the request bodies' declarations (`body!`)
//! and the hand-written schemas beside them. A host-native test (`openapi_file`) checks that the
//! committed file is what this writes, and `UPDATE_OPENAPI=1` rewrites it with `docs/openapi.json`.

use serde_json::{Map, Value};

use crate::http::forms::LISTS;

/// The browser's name of each body a validator takes, and its component schema.
const BODIES: &[(&str, &str, &str)] = &[
    ("CreateAccountBody", "AccountCreate", "POST /accounts"),
    (
        "CreateCardHolderBody",
        "CardHolderCreate",
        "POST /card-holders, JSON form",
    ),
    ("CreateCardBody", "CardCreate", "POST /cards"),
    ("UpdateCardBody", "CardUpdate", "PUT /cards/{id}"),
    ("FundCardBody", "CardFunding", "POST /cards/{id}/fund"),
    (
        "CreateAuthorizationBody",
        "AuthorizationCreate",
        "POST /cards/{id}/authorizations (a simulated purchase)",
    ),
    (
        "IncrementAuthorizationBody",
        "IncrementBody",
        "POST /authorizations/{id}/increment",
    ),
    (
        "AdvanceTestClockBody",
        "TestClockAdvance",
        "POST /test-clock/advance",
    ),
    (
        "SetAuthorizationEndpointBody",
        "AuthorizationEndpointSet",
        "PUT /authorization-endpoint",
    ),
    (
        "CreateTransferBody",
        "TransferCreate",
        "POST /accounts/transfers",
    ),
    (
        "CreateDisputeBody",
        "DisputeCreate",
        "POST /card-transactions/{id}/disputes",
    ),
    (
        "ResolveDisputeBody",
        "DisputeResolve",
        "POST /disputes/{id}/resolve (the simulated network's answer)",
    ),
    (
        "CreateWebhookEndpointBody",
        "WebhookEndpointCreate",
        "POST /webhook-endpoints",
    ),
    (
        "UpdateWebhookEndpointBody",
        "WebhookEndpointUpdate",
        "PUT /webhook-endpoints/{id}",
    ),
];

/// What is not a request body: the error shape, JSON itself, and the draft a validator takes.
const PRELUDE: &str = r#"// Generated from the service's OpenAPI component schemas (card-core `http::openapi::typescript`);
// do not edit: `UPDATE_OPENAPI=1 cargo test -p host-native --test openapi_file` rewrites it.

/** One validation problem, as in the server's 400 body: `errors: FieldError[]`. */
export interface FieldError {
  /** Dot path of the offending field, e.g. "amount" or "spendingControls.spendingLimits[0].interval". */
  field: string;
  message: string;
}

/** JSON data as the server reads it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A request body being validated. Inputs are untrusted by nature (that is what validation is for),
 * so any JSON is accepted at run time; the named fields document what the server expects.
 */
export type Draft<T> = Partial<T> & { [key: string]: unknown };
"#;

/// The normalized plan of a list query (`query::Plan::to_json`), which is no body of the document.
const LIST_PLAN: &str = r#"
/** The normalized plan of a list query, as the server will run it. */
export interface ListPlan {
  page: number;
  limit: number;
  sort: { field: string; order: "asc" | "desc" }[];
  /** The projection (`_id` is always kept), or null for every field. */
  fields: string[] | null;
  search: string | null;
  /** The fields searched: those given, or the resource's default text fields. */
  searchIn: string[];
  /** The whole filter, normalized: `{status: "active", balance: {gte: 100}}`; `{}` for none. */
  filter: { [field: string]: Json };
  populate: { name: string; fields: string[] | null }[];
}

export type ParsedListQuery = { ok: true; plan: ListPlan } | { ok: false; errors: FieldError[] };
"#;

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn doc_comment(out: &mut String, indent: &str, description: Option<&str>) {
    if let Some(d) = description {
        // `*/` would end the comment early.
        let d = d.replace("*/", "*\\/");
        out.push_str(&format!("{indent}/** {d} */\n"));
    }
}

/// A property's description, and the limits its schema sets (which TypeScript cannot say): a
/// nullable property's are those of its non-null branch.
fn description(prop: &Value) -> String {
    let inner = match prop["anyOf"].as_array() {
        Some(any) if any.len() == 2 && any[1] == serde_json::json!({"type": "null"}) => &any[0],
        _ => prop,
    };
    let mut parts: Vec<String> = Vec::new();
    for d in [&prop["description"], &inner["description"]] {
        if let Some(d) = d.as_str()
            && !parts.iter().any(|p| p == d)
        {
            parts.push(d.to_string());
        }
    }
    let n = |k: &str| inner.get(k).filter(|v| v.is_number()).map(Value::to_string);
    match (n("minLength"), n("maxLength")) {
        (Some(min), Some(max)) => parts.push(format!("{min} to {max} characters.")),
        (None, Some(max)) => parts.push(format!("At most {max} characters.")),
        _ => {}
    }
    // The not-blank pattern of free text says nothing the length does not, and a date's pattern
    // only narrows what test generators draw (its description says what is accepted).
    if let Some(p) = inner["pattern"].as_str()
        && p != "[^\\s\\u0085]"
        && inner.get("format").is_none()
    {
        parts.push(format!("Matches `{p}`."));
    }
    if let Some(min) = n("minimum") {
        parts.push(format!("At least {min}."));
    }
    if let Some(min) = n("exclusiveMinimum") {
        parts.push(format!("Greater than {min}."));
    }
    if let Some(max) = n("maximum") {
        parts.push(format!("At most {max}."));
    }
    if let Some(max) = n("maxItems") {
        parts.push(format!("At most {max} items."));
    }
    if let Some(d) = inner.get("default") {
        parts.push(format!("Default: {d}."));
    }
    parts.join(" ")
}

/// A union, each member once, `null` last.
fn union(members: Vec<String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    let mut null = false;
    for m in members {
        for part in split_union(&m) {
            if part == "null" {
                null = true;
            } else if !seen.contains(&part) {
                seen.push(part);
            }
        }
    }
    if null {
        seen.push("null".into());
    }
    seen.join(" | ")
}

/// The members of a union at its top level (not inside braces, brackets or quotes).
fn split_union(t: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, false, 0);
    let bytes = t.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote => i += 1,
            b'"' => quote = !quote,
            b'{' | b'(' | b'[' if !quote => depth += 1,
            b'}' | b')' | b']' if !quote => depth -= 1,
            b'|' if !quote && depth == 0 => {
                parts.push(t[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(t[start..].trim().to_string());
    parts
}

/// The TypeScript type of a schema; `refs` gathers the components it names.
fn ts_type(schema: &Value, indent: &str, refs: &mut Vec<String>) -> String {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.trim_start_matches("#/components/schemas/").to_string();
        if !refs.contains(&name) {
            refs.push(name.clone());
        }
        return name;
    }
    if let Some(c) = schema.get("const") {
        return c.to_string();
    }
    if let Some(all) = schema["enum"].as_array() {
        return union(all.iter().map(Value::to_string).collect());
    }
    if let Some(any) = schema["anyOf"].as_array()
        && !schema["properties"].is_object()
    {
        return union(any.iter().map(|s| ts_type(s, indent, refs)).collect());
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if types.is_empty() {
        return "Json".into();
    }
    union(
        types
            .into_iter()
            .map(|t| match t {
                "string" => "string".into(),
                "number" | "integer" => "number".into(),
                "boolean" => "boolean".into(),
                "null" => "null".into(),
                "array" => {
                    let item = ts_type(&schema["items"], indent, refs);
                    if split_union(&item).len() > 1 {
                        format!("({item})[]")
                    } else {
                        format!("{item}[]")
                    }
                }
                "object" => match schema["properties"].as_object() {
                    Some(props) => object(props, schema, indent, refs),
                    None => "{ [key: string]: Json }".into(),
                },
                _ => "Json".into(),
            })
            .collect(),
    )
}

/// An object's members, one a line, each with its description.
fn members(
    props: &Map<String, Value>,
    schema: &Value,
    indent: &str,
    refs: &mut Vec<String>,
) -> String {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let inner = format!("{indent}  ");
    let mut out = String::new();
    for (name, prop) in props {
        let doc = description(prop);
        doc_comment(&mut out, &inner, (!doc.is_empty()).then_some(doc.as_str()));
        let optional = if required.contains(&name.as_str()) {
            ""
        } else {
            "?"
        };
        let key = if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            name.clone()
        } else {
            quoted(name)
        };
        out.push_str(&format!(
            "{inner}{key}{optional}: {};\n",
            ts_type(prop, &inner, refs)
        ));
    }
    out
}

fn object(
    props: &Map<String, Value>,
    schema: &Value,
    indent: &str,
    refs: &mut Vec<String>,
) -> String {
    format!("{{\n{}{indent}}}", members(props, schema, indent, refs))
}

/// The browser module's types: the prelude, each body a validator takes (as its component's
/// interface, and the component schemas those name), the list resources and the list plan.
pub fn browser_types(components: &Map<String, Value>) -> String {
    let mut out = String::from(PRELUDE);
    let mut pending: Vec<String> = BODIES.iter().map(|(_, c, _)| c.to_string()).collect();
    let mut written: Vec<String> = Vec::new();
    while let Some(name) = pending.first().cloned() {
        pending.remove(0);
        if written.contains(&name) {
            continue;
        }
        written.push(name.clone());
        let schema = &components[&name];
        let mut refs = Vec::new();
        out.push('\n');
        doc_comment(&mut out, "", schema["description"].as_str());
        match schema["properties"].as_object() {
            Some(props) => out.push_str(&format!(
                "export interface {name} {{\n{}}}\n",
                members(props, schema, "", &mut refs)
            )),
            None => out.push_str(&format!(
                "export type {name} = {};\n",
                ts_type(schema, "", &mut refs)
            )),
        }
        pending.extend(refs.into_iter().filter(|r| !written.contains(r)));
    }
    out.push('\n');
    for (browser, component, route) in BODIES {
        out.push_str(&format!(
            "/** {route} */\nexport type {browser} = {component};\n"
        ));
    }
    out.push_str("\n/** The path segment of a list endpoint. */\nexport type ListResource =\n");
    for (i, (name, _)) in LISTS.iter().enumerate() {
        let sep = if i == 0 { "  " } else { "  | " };
        out.push_str(&format!("{sep}{}\n", quoted(name)));
    }
    out.pop();
    out.push_str(";\n");
    out.push_str(LIST_PLAN);
    out
}
