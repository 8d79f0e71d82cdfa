//! `GET /docs/api`: the JSON API's reference, rendered on the server from
//! the OpenAPI document that `/api/openapi.json` serves (issue 17 §3). No
//! script and nothing from elsewhere: the page is this server's HTML and
//! stylesheet, so it reads offline, on a phone, and in a terminal browser.
//!
//! Every operation (method and path) has its section with its parameters,
//! request body and responses; every schema of the document's components
//! has its own, with its properties, variants or values; a reference to a
//! schema is a link to its section. The document is rendered once per
//! process (it only changes with the code).

use std::sync::OnceLock;

use askama::Template;
use axum::response::Response;
use serde_json::Value;
use utoipa::OpenApi;

use super::{Chrome, PageError, render};

/// A parameter of an operation.
#[derive(Debug)]
struct Param {
    name: String,
    place: String,
    required: bool,
    kind: Kind,
    description: String,
}

/// A type as a reader sees it: words, with the schemas it names linked.
#[derive(Debug, Default, Clone)]
struct Kind {
    /// Pieces of text, each either plain or a schema's name (linked).
    parts: Vec<(String, bool)>,
}

impl Kind {
    fn text(t: impl Into<String>) -> Self {
        Kind {
            parts: vec![(t.into(), false)],
        }
    }

    fn push(&mut self, t: impl Into<String>, link: bool) {
        self.parts.push((t.into(), link));
    }

    fn extend(&mut self, other: Kind) {
        self.parts.extend(other.parts);
    }
}

/// A body (request or response) of one content type.
#[derive(Debug)]
struct Body {
    content_type: String,
    kind: Kind,
}

#[derive(Debug)]
struct Answer {
    status: String,
    description: String,
    bodies: Vec<Body>,
}

#[derive(Debug)]
struct Operation {
    anchor: String,
    method: String,
    path: String,
    summary: String,
    description: Vec<String>,
    params: Vec<Param>,
    request: Vec<Body>,
    request_required: bool,
    responses: Vec<Answer>,
    secured: bool,
}

#[derive(Debug)]
struct Tag {
    name: String,
    description: String,
    operations: Vec<Operation>,
}

#[derive(Debug)]
struct Property {
    name: String,
    required: bool,
    kind: Kind,
    description: String,
}

#[derive(Debug)]
struct Schema {
    name: String,
    description: Vec<String>,
    /// Its type in words (an object, one of …, a string among …).
    kind: Kind,
    properties: Vec<Property>,
    /// The variants of a one-of, each its type and description.
    variants: Vec<(Kind, String)>,
}

/// The reference, built once from the document.
#[derive(Debug)]
struct Docs {
    title: String,
    version: String,
    intro: Vec<String>,
    tags: Vec<Tag>,
    schemas: Vec<Schema>,
    operations: usize,
}

#[derive(Debug, Template)]
#[template(path = "api_docs.html")]
struct ApiDocsPage {
    chrome: Chrome,
    d: &'static Docs,
}

fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// Paragraphs of a description (blank lines part them).
fn paragraphs(text: Option<&str>) -> Vec<String> {
    text.unwrap_or_default()
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect()
}

fn text_of(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// `#/components/schemas/Name` → `Name`.
fn ref_name(v: &Value) -> Option<&str> {
    v.get("$ref")?
        .as_str()?
        .strip_prefix("#/components/schemas/")
}

/// A schema's type in words.
fn kind_of(v: &Value) -> Kind {
    if let Some(name) = ref_name(v) {
        let mut k = Kind::default();
        k.push(name, true);
        return k;
    }
    for (key, word) in [
        ("oneOf", "one of"),
        ("anyOf", "any of"),
        ("allOf", "all of"),
    ] {
        if let Some(items) = v.get(key).and_then(Value::as_array) {
            let mut k = Kind::text(format!("{word} "));
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    k.push(" | ", false);
                }
                k.extend(kind_of(item));
            }
            return k;
        }
    }
    if let Some(values) = v.get("enum").and_then(Value::as_array) {
        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
        return Kind::text(format!("one of {}", listed.join(", ")));
    }
    let types: Vec<&str> = match v.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let nullable = types.contains(&"null");
    let mut k = Kind::default();
    let main: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
    match main.first().copied() {
        Some("array") => {
            k.push("array of ", false);
            k.extend(
                v.get("items")
                    .map_or_else(|| Kind::text("anything"), kind_of),
            );
        }
        Some("object") if v.get("additionalProperties").is_some_and(Value::is_object) => {
            k.push("map of string to ", false);
            k.extend(kind_of(&v["additionalProperties"]));
        }
        Some(t) => {
            let format = v
                .get("format")
                .and_then(Value::as_str)
                .map(|f| format!(" ({f})"))
                .unwrap_or_default();
            k.push(format!("{t}{format}"), false);
        }
        None if v.is_object() && v.as_object().is_some_and(|o| o.is_empty()) => {
            k.push("anything", false)
        }
        None => k.push("see the description", false),
    }
    if nullable {
        k.push(" or null", false);
    }
    k
}

fn properties_of(v: &Value) -> Vec<Property> {
    let required: Vec<&str> = v
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    v.get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .map(|(name, p)| Property {
                    name: name.clone(),
                    required: required.contains(&name.as_str()),
                    kind: kind_of(p),
                    description: text_of(p, "description"),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn bodies(content: Option<&Value>) -> Vec<Body> {
    content
        .and_then(Value::as_object)
        .map(|c| {
            c.iter()
                .map(|(ct, media)| Body {
                    content_type: ct.clone(),
                    kind: media
                        .get("schema")
                        .map_or_else(|| Kind::text("as the description says"), kind_of),
                })
                .collect()
        })
        .unwrap_or_default()
}

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

fn build() -> Docs {
    let doc = serde_json::to_value(crate::api::ApiDoc::openapi()).unwrap_or(Value::Null);
    let info = &doc["info"];
    let mut tags: Vec<Tag> = doc
        .get("tags")
        .and_then(Value::as_array)
        .map(|ts| {
            ts.iter()
                .map(|t| Tag {
                    name: text_of(t, "name"),
                    description: text_of(t, "description"),
                    operations: Vec::new(),
                })
                .collect()
        })
        .unwrap_or_default();
    let mut operations = 0;
    if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
        for (path, item) in paths {
            for method in METHODS {
                let Some(op) = item.get(method) else { continue };
                operations += 1;
                let params = op
                    .get("parameters")
                    .and_then(Value::as_array)
                    .map(|ps| {
                        ps.iter()
                            .map(|p| Param {
                                name: text_of(p, "name"),
                                place: text_of(p, "in"),
                                required: p.get("required").and_then(Value::as_bool) == Some(true),
                                kind: p.get("schema").map_or_else(Kind::default, kind_of),
                                description: text_of(p, "description"),
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let responses = op
                    .get("responses")
                    .and_then(Value::as_object)
                    .map(|rs| {
                        rs.iter()
                            .map(|(status, r)| Answer {
                                status: status.clone(),
                                description: text_of(r, "description"),
                                bodies: bodies(r.get("content")),
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let description = paragraphs(op.get("description").and_then(Value::as_str));
                let operation = Operation {
                    anchor: format!("{method}-{}", slug(path)),
                    method: method.to_ascii_uppercase(),
                    path: path.clone(),
                    summary: text_of(op, "summary"),
                    description,
                    params,
                    request: bodies(op.get("requestBody").and_then(|b| b.get("content"))),
                    request_required: op
                        .get("requestBody")
                        .and_then(|b| b.get("required"))
                        .and_then(Value::as_bool)
                        == Some(true),
                    responses,
                    secured: op.get("security").is_some(),
                };
                let tag = op
                    .get("tags")
                    .and_then(Value::as_array)
                    .and_then(|t| t.first())
                    .and_then(Value::as_str)
                    .unwrap_or("other")
                    .to_string();
                match tags.iter_mut().find(|t| t.name == tag) {
                    Some(t) => t.operations.push(operation),
                    None => tags.push(Tag {
                        name: tag,
                        description: String::new(),
                        operations: vec![operation],
                    }),
                }
            }
        }
    }
    tags.retain(|t| !t.operations.is_empty());
    let schemas = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|s| {
            s.iter()
                .map(|(name, v)| {
                    let variants = ["oneOf", "anyOf"]
                        .iter()
                        .find_map(|k| v.get(*k).and_then(Value::as_array))
                        .map(|items| {
                            items
                                .iter()
                                .map(|i| (kind_of(i), text_of(i, "description")))
                                .collect()
                        })
                        .unwrap_or_default();
                    Schema {
                        name: name.clone(),
                        description: paragraphs(v.get("description").and_then(Value::as_str)),
                        kind: if v.get("properties").is_some() {
                            Kind::text("object")
                        } else {
                            kind_of(v)
                        },
                        properties: properties_of(v),
                        variants,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Docs {
        title: text_of(info, "title"),
        version: text_of(info, "version"),
        intro: paragraphs(info.get("description").and_then(Value::as_str)),
        tags,
        schemas,
        operations,
    }
}

/// The reference, made once (it changes only with the code).
fn docs() -> &'static Docs {
    static DOCS: OnceLock<Docs> = OnceLock::new();
    DOCS.get_or_init(build)
}

/// `GET /docs/api`: the sections made once, the header (which names the
/// reader) per request.
pub(crate) async fn page() -> Result<Response, PageError> {
    render(&ApiDocsPage {
        chrome: Chrome::new("The JSON API"),
        d: docs(),
    })
}
