//! `GET /c/{id}/rules` and `POST /c/{id}/rules` (issue 17 §2): the
//! ladder's rules as a form of named settings, for its owner. Each setting
//! is a field with the sentence of the document it comes from (the
//! preset's comment above it); a preview decides the change on a copy of
//! the ladder and lists what changes, from which round; saving sends the
//! rules the preview made to the desk's `change-rules` action (the same
//! action, rights and checks as the TOML box of the desk, which stays for
//! experts). A setting the rules refuse is named next to its field, with
//! everything typed kept.

use std::collections::BTreeMap;

use arbiter_engine::tws::{Command, Ladder};
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use toml::Value;

use crate::AppState;
use crate::auth::{self, Caller};
use crate::error::ApiError;
use crate::pages::forms::{problem, to_login, urlencode};
use crate::pages::{Chrome, Kind, kind_of, not_found_page, render};

/// The longest value of one setting, in characters.
const MAX_VALUE: usize = 200;
/// The longest reason, as the desk's.
const MAX_REASON: usize = 500;

/// One named setting of the form.
#[derive(Debug, Clone)]
struct Setting {
    /// Dotted for a table's setting (`bid.side`); the field is `s.<key>`.
    key: String,
    /// The document's sentence (the preset's comment), if any.
    help: String,
    /// The value in the form (the current one, or what was typed).
    value: String,
    /// `number`, `checkbox` or `text`.
    input: &'static str,
    /// Why the rules refuse the value typed.
    error: Option<String>,
}

/// A setting the preview changes.
#[derive(Debug)]
struct Change {
    key: String,
    before: String,
    after: String,
}

#[derive(Debug, Template)]
#[template(path = "rules_form.html")]
struct RulesPage {
    chrome: Chrome,
    id: String,
    name: String,
    csrf: String,
    key: String,
    version: u64,
    settings: Vec<Setting>,
    from_round: String,
    reason: String,
    next_round: u32,
    /// A refusal that names no setting (the round, the reason).
    problem: Option<String>,
    /// After a preview: what changes, and the rules to save.
    changes: Vec<Change>,
    toml: Option<String>,
}

/// The preset's comment above each setting, by dotted key; a table's
/// comment for its settings that have none of their own.
fn helps() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut pending: Vec<String> = Vec::new();
    let mut table = String::new();
    let mut table_help = String::new();
    for line in arbiter_record::preset("tws-ladder").unwrap_or("").lines() {
        let t = line.trim();
        if let Some(c) = t.strip_prefix('#') {
            pending.push(c.trim().to_string());
        } else if t.starts_with('[') {
            table = t.trim_matches(['[', ']']).trim().to_string();
            table_help = pending.join(" ");
            pending.clear();
        } else if let Some((k, _)) = t.split_once('=') {
            let k = k.trim();
            let key = if table.is_empty() {
                k.to_string()
            } else {
                format!("{table}.{k}")
            };
            let help = if pending.is_empty() {
                table_help.clone()
            } else {
                pending.join(" ")
            };
            out.insert(key, help);
            pending.clear();
        } else if t.is_empty() {
            pending.clear();
        }
    }
    out
}

/// The settings of a rules text: every scalar at the top and in its
/// tables, `format` left out (it names the file, not a setting).
fn settings_of(text: &str) -> Vec<Setting> {
    let helps = helps();
    let table: toml::Table = toml::from_str(text).unwrap_or_default();
    let mut out = Vec::new();
    let mut push = |key: String, v: &Value| {
        let (value, input) = match v {
            Value::Boolean(b) => (b.to_string(), "checkbox"),
            Value::Integer(i) => (i.to_string(), "number"),
            Value::Float(f) => (f.to_string(), "text"),
            Value::String(s) => (s.clone(), "text"),
            _ => return,
        };
        out.push(Setting {
            help: helps.get(&key).cloned().unwrap_or_default(),
            key,
            value,
            input,
            error: None,
        });
    };
    for (k, v) in &table {
        match v {
            Value::Table(t) => {
                for (k2, v2) in t {
                    push(format!("{k}.{k2}"), v2);
                }
            }
            _ if k == "format" => {}
            other => push(k.clone(), other),
        }
    }
    out
}

/// The rules text with the form's values: each setting read by the type
/// of its current value. A value that is not one names its setting.
fn apply(
    text: &str,
    form: &BTreeMap<String, String>,
    settings: &mut [Setting],
) -> Result<String, ()> {
    let mut table: toml::Table = toml::from_str(text).map_err(|_| ())?;
    let mut failed = false;
    for s in settings.iter_mut() {
        let typed = form
            .get(&format!("s.{}", s.key))
            .map(|v| v.trim().to_string());
        // An unticked checkbox is not sent: it is false.
        let typed = match (s.input, typed) {
            ("checkbox", None) => "false".to_string(),
            ("checkbox", Some(_)) => "true".to_string(),
            (_, Some(t)) => t,
            (_, None) => s.value.clone(),
        };
        if typed.chars().count() > MAX_VALUE {
            s.error = Some(format!("at most {MAX_VALUE} characters"));
            s.value = typed.chars().take(MAX_VALUE).collect();
            failed = true;
            continue;
        }
        let (head, tail) = match s.key.split_once('.') {
            Some((t, k)) => (Some(t.to_string()), k.to_string()),
            None => (None, s.key.clone()),
        };
        let slot = match &head {
            Some(t) => table
                .get_mut(t)
                .and_then(Value::as_table_mut)
                .and_then(|t| t.get_mut(&tail)),
            None => table.get_mut(&tail),
        };
        let Some(slot) = slot else { continue };
        let value = match slot {
            Value::Boolean(_) => Ok(Value::Boolean(typed == "true")),
            Value::Integer(_) => typed
                .parse::<i64>()
                .map(Value::Integer)
                .map_err(|_| "a whole number".to_string()),
            Value::Float(_) => typed
                .parse::<f64>()
                .map(Value::Float)
                .map_err(|_| "a number".to_string()),
            _ => Ok(Value::String(typed.clone())),
        };
        s.value = typed;
        match value {
            Ok(v) => *slot = v,
            Err(why) => {
                s.error = Some(why);
                failed = true;
            }
        }
    }
    if failed {
        return Err(());
    }
    toml::to_string(&table).map_err(|_| ())
}

async fn head(
    state: &AppState,
    caller: &Caller,
    id: &str,
) -> Result<(Ladder, u64, String), ApiError> {
    if kind_of(state, id)
        .await
        .map_err(|_| ApiError::not_found(format!("there is no competition {id:?}")))?
        != Kind::TwsLadder
    {
        return Err(ApiError::not_found(
            "only a ladder's rules are changed as settings; this competition's rules are fixed when it is made",
        ));
    }
    let roles = caller.roles(state, id).await?;
    if !roles.owner {
        return Err(ApiError::forbidden(
            "only the ladder's owner changes its rules (the desk's change-rules)",
        ));
    }
    let (ladder, version) = state.service.load(id, None).await.map_err(ApiError::from)?;
    let text = arbiter_record::rules_to_toml(ladder.rules_for(ladder.next_round_number()));
    Ok((ladder, version, text))
}

fn page_of(
    caller: &Caller,
    id: &str,
    ladder: &Ladder,
    version: u64,
    settings: Vec<Setting>,
) -> Result<RulesPage, ApiError> {
    Ok(RulesPage {
        chrome: Chrome::competition(
            format!("Rules · {}", ladder.name),
            id,
            &ladder.name,
            Kind::TwsLadder,
            &format!("/c/{id}/manage"),
        ),
        id: id.to_string(),
        name: ladder.name.clone(),
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        key: auth::random_token()?,
        version,
        settings,
        from_round: ladder.next_round_number().to_string(),
        reason: String::new(),
        next_round: ladder.next_round_number(),
        problem: None,
        changes: Vec::new(),
        toml: None,
    })
}

/// `GET /c/{id}/rules`.
pub(crate) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Response {
    let here = format!("/c/{}/rules", urlencode(&id));
    if caller.account.is_none() {
        return to_login(&here);
    }
    let shown = async {
        let (ladder, version, text) = head(&state, &caller, &id).await?;
        page_of(&caller, &id, &ladder, version, settings_of(&text))
    }
    .await;
    match shown {
        Ok(p) => render(&p).into_response(),
        Err(e) if e.status == StatusCode::NOT_FOUND => not_found_page().into_response(),
        Err(e) => problem(e, &format!("/c/{}/manage", urlencode(&id))),
    }
}

/// `POST /c/{id}/rules`: preview the settings typed.
pub(crate) async fn preview(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Form(form): Form<BTreeMap<String, String>>,
) -> Response {
    let here = format!("/c/{}/rules", urlencode(&id));
    if caller.account.is_none() {
        return to_login(&here);
    }
    if let Err(e) = caller.check_csrf(form.get("_csrf").map(String::as_str)) {
        return problem(e, &here);
    }
    let outcome = async {
        let (ladder, version, text) = head(&state, &caller, &id).await?;
        let before = settings_of(&text);
        let mut settings = before.clone();
        let mut page = page_of(&caller, &id, &ladder, version, Vec::new())?;
        page.reason = form
            .get("reason")
            .map(|r| r.trim().chars().take(MAX_REASON).collect())
            .unwrap_or_default();
        page.from_round = form
            .get("from_round")
            .map(|r| r.trim().chars().take(12).collect())
            .unwrap_or_default();
        let Ok(new_text) = apply(&text, &form, &mut settings) else {
            page.settings = settings;
            return Ok((StatusCode::BAD_REQUEST, page));
        };
        // The rules refuse a setting: named next to its field.
        if let Err(e) = arbiter_record::parse_rules(&new_text) {
            match settings
                .iter_mut()
                .find(|s| e.field.as_deref() == Some(s.key.as_str()))
            {
                Some(s) => s.error = Some(e.message.clone()),
                None => page.problem = Some(e.to_string()),
            }
            page.settings = settings;
            return Ok((StatusCode::BAD_REQUEST, page));
        }
        let from_round = match page.from_round.parse::<u32>() {
            Ok(n) => n,
            Err(_) => {
                page.problem = Some(format!(
                    "from round: {:?} is not a round number (the next round is {})",
                    page.from_round, page.next_round
                ));
                page.settings = settings;
                return Ok((StatusCode::BAD_REQUEST, page));
            }
        };
        // Decided on a copy: the round and the reason as the desk's
        // action would have them.
        let rules = arbiter_record::parse_rules(&new_text).map_err(|e| {
            ApiError::bad_request(e.to_string()).with_field("rules")
        })?;
        if page.reason.is_empty() {
            page.problem = Some(
                "reason: say why the rules change (1 to 500 characters); the ladder's history keeps it"
                    .into(),
            );
            page.settings = settings;
            return Ok((StatusCode::BAD_REQUEST, page));
        }
        let command = Command::ChangeRules {
            rules,
            from_round: Some(from_round),
            reason: page.reason.clone(),
        };
        if let Err(e) = ladder.decide(command) {
            page.problem = Some(format!("{} [{}]", e.message, e.clause));
            page.settings = settings;
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, page));
        }
        page.changes = before
            .iter()
            .zip(&settings)
            .filter(|(a, b)| a.value != b.value)
            .map(|(a, b)| Change {
                key: a.key.clone(),
                before: a.value.clone(),
                after: b.value.clone(),
            })
            .collect();
        page.settings = settings;
        page.toml = Some(new_text);
        Ok::<_, ApiError>((StatusCode::OK, page))
    }
    .await;
    match outcome {
        Ok((status, page)) => match render(&page) {
            Ok(r) => (status, r).into_response(),
            Err(e) => e.into_response(),
        },
        Err(e) if e.status == StatusCode::NOT_FOUND => not_found_page().into_response(),
        Err(e) => problem(e, &here),
    }
}
