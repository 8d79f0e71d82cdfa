//! The webhooks page of a competition (issue 18 §3), for its owner and
//! moderators: `GET /c/{id}/webhooks` lists the webhooks with their state
//! (active, or disabled and why), their last deliveries, and the forms to
//! register one (generic, whose signing secret is shown once, or
//! Discord), disable, enable and delete one (`POST /c/{id}/webhooks`,
//! `POST /c/{id}/webhooks/{hook}/{disable|enable|delete}`). Every form
//! carries the session's CSRF token; nothing here touches the
//! competition's log, so no version is sent.

use arbiter_store::{Webhook, WebhookKind, WebhookStore};
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::forms::{for_moderators, problem, urlencode};
use super::{Chrome, render};
use crate::AppState;
use crate::auth::{Caller, random_token};
use crate::error::ApiError;
use crate::webhooks::{MAX_URL, check_url};

/// Longest label, in characters.
pub const MAX_LABEL: usize = 100;
/// Most webhooks per competition.
pub const MAX_HOOKS: usize = 10;
/// Deliveries shown per webhook.
const SHOWN: u32 = 10;

#[derive(Debug)]
struct HookLine {
    id: String,
    kind: &'static str,
    label: String,
    url: String,
    created: String,
    created_by: String,
    disabled: Option<String>,
    failures: u32,
    deliveries: Vec<DeliveryLine>,
}

#[derive(Debug)]
struct DeliveryLine {
    at: String,
    version: u64,
    /// What the notification was when it is not the event's own:
    /// "standings changed", "deadline of G12".
    about: Option<String>,
    attempt: u32,
    ok: bool,
    detail: String,
}

#[derive(Debug, Template)]
#[template(path = "webhooks.html")]
struct WebhooksPage {
    chrome: Chrome,
    id: String,
    name: String,
    csrf: String,
    hooks: Vec<HookLine>,
    /// The secret of the generic webhook just registered: shown this once.
    new_secret: Option<String>,
    /// What the last form did, in words.
    done: Option<String>,
    max_label: usize,
    max_url: usize,
}

/// A delivery's topic in words for the log: `None` for the event's own
/// notification.
fn about(topic: &str) -> Option<String> {
    if topic.is_empty() {
        return None;
    }
    if topic == arbiter_service::notify::STANDINGS_TOPIC {
        return Some("standings changed".to_owned());
    }
    Some(match topic.strip_prefix("deadline:") {
        Some(rest) => format!(
            "deadline of {}",
            rest.rsplit_once(':').map_or(rest, |(game, _)| game)
        ),
        None => topic.to_owned(),
    })
}

/// Check that the caller may manage `competition`'s webhooks: it exists
/// (404), he is logged in (401) and owns or moderates it (403).
async fn may_manage(state: &AppState, caller: &Caller, competition: &str) -> Result<(), ApiError> {
    caller
        .must_moderate(state, competition, "manage its webhooks")
        .await
}

async fn render_page(
    state: &AppState,
    caller: &Caller,
    id: &str,
    new_secret: Option<String>,
    done: Option<String>,
) -> Result<Response, ApiError> {
    let store = state.service.store();
    let name = state.service.summary(id).await?.name;
    let mut hooks = Vec::new();
    for h in store.webhooks(id).await.map_err(ApiError::from_store)? {
        let deliveries = store
            .deliveries(&h.id, SHOWN)
            .await
            .map_err(ApiError::from_store)?
            .into_iter()
            .map(|d| DeliveryLine {
                at: d.at,
                version: d.seq,
                about: about(&d.topic),
                attempt: d.attempt,
                ok: d.ok,
                detail: d.detail,
            })
            .collect();
        hooks.push(HookLine {
            kind: match h.kind {
                WebhookKind::Generic => "generic (signed JSON)",
                WebhookKind::Discord => "Discord",
            },
            id: h.id,
            label: h.label,
            url: h.url,
            created: h.created_at.chars().take(10).collect(),
            created_by: h.created_by,
            disabled: h.disabled,
            failures: h.failures,
            deliveries,
        });
    }
    let page = WebhooksPage {
        chrome: Chrome::new(format!("Webhooks of {name}")),
        id: id.to_string(),
        name,
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        hooks,
        new_secret,
        done,
        max_label: MAX_LABEL,
        max_url: MAX_URL,
    };
    Ok(render(&page).into_response())
}

/// `GET /c/{id}/webhooks`.
pub(crate) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Response {
    let here = format!("/c/{}/webhooks", urlencode(&id));
    if let Err(refused) = for_moderators(&caller, &here, may_manage(&state, &caller, &id)).await {
        return refused;
    }
    render_page(&state, &caller, &id, None, None)
        .await
        .unwrap_or_else(|e| problem(e, "/"))
}

#[derive(Debug, Deserialize)]
pub(crate) struct NewHook {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    label: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct CsrfOnly {
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
}

fn field(message: impl Into<String>, name: &str) -> ApiError {
    ApiError::bad_request(format!("Field “{name}”: {}", message.into())).with_field(name)
}

/// The webhook a form registers, checked field by field.
fn read_new(
    form: &NewHook,
    competition: &str,
    by: &str,
    allow_private: bool,
) -> Result<Webhook, ApiError> {
    let kind = WebhookKind::parse(form.kind.trim())
        .ok_or_else(|| field("choose generic or discord", "kind"))?;
    let url = form.url.trim();
    check_url(url, allow_private).map_err(|e| field(e, "url"))?;
    let label = form.label.trim();
    let length = label.chars().count();
    if length > MAX_LABEL {
        return Err(field(
            format!("a label has at most {MAX_LABEL} characters; this one has {length}"),
            "label",
        ));
    }
    if label.chars().any(char::is_control) {
        return Err(field("a label has no control characters", "label"));
    }
    let id: String = random_token()?.chars().take(16).collect();
    Ok(Webhook {
        id,
        competition: competition.to_string(),
        kind,
        url: url.to_string(),
        secret: match kind {
            WebhookKind::Generic => random_token()?,
            WebhookKind::Discord => String::new(),
        },
        label: if label.is_empty() {
            kind.as_str().to_string()
        } else {
            label.to_string()
        },
        created_by: by.to_string(),
        created_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        disabled: None,
        failures: 0,
    })
}

/// `POST /c/{id}/webhooks`: register a webhook.
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Form(form): Form<NewHook>,
) -> Response {
    let result = async {
        may_manage(&state, &caller, &id).await?;
        caller.check_csrf(form.csrf.as_deref())?;
        let by = caller.account()?.username.clone();
        let hook = read_new(&form, &id, &by, state.config.webhooks.allow_private)?;
        let store = state.service.store();
        if store
            .webhooks(&id)
            .await
            .map_err(ApiError::from_store)?
            .len()
            >= MAX_HOOKS
        {
            return Err(ApiError::bad_request(format!(
                "a competition has at most {MAX_HOOKS} webhooks: delete one first"
            )));
        }
        store
            .add_webhook(&hook)
            .await
            .map_err(ApiError::from_store)?;
        let secret = (hook.kind == WebhookKind::Generic).then(|| hook.secret.clone());
        let done = format!("The webhook “{}” is registered.", hook.label);
        render_page(&state, &caller, &id, secret, Some(done)).await
    }
    .await;
    result.unwrap_or_else(|e| problem(e, &format!("/c/{}/webhooks", urlencode(&id))))
}

/// `POST /c/{id}/webhooks/{hook}/{disable|enable|delete}`.
pub(crate) async fn change(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, hook, what)): Path<(String, String, String)>,
    Form(form): Form<CsrfOnly>,
) -> Response {
    let result = async {
        may_manage(&state, &caller, &id).await?;
        caller.check_csrf(form.csrf.as_deref())?;
        let store = state.service.store();
        let found = store
            .webhook(&hook)
            .await
            .map_err(ApiError::from_store)?
            .filter(|h| h.competition == id)
            .ok_or_else(|| ApiError::not_found(format!("{id} has no webhook {hook:?}")))?;
        let by = caller.account()?.username.clone();
        let done = match what.as_str() {
            "disable" => {
                let reason = format!("disabled by {by}");
                store
                    .set_webhook_state(&found.id, found.failures, Some(&reason))
                    .await
                    .map_err(ApiError::from_store)?;
                format!("The webhook “{}” is disabled.", found.label)
            }
            "enable" => {
                store
                    .set_webhook_state(&found.id, 0, None)
                    .await
                    .map_err(ApiError::from_store)?;
                format!("The webhook “{}” is enabled.", found.label)
            }
            "delete" => {
                store
                    .delete_webhook(&found.id)
                    .await
                    .map_err(ApiError::from_store)?;
                format!("The webhook “{}” is deleted.", found.label)
            }
            _ => return Err(ApiError::not_found("no such change of a webhook")),
        };
        render_page(&state, &caller, &id, None, Some(done)).await
    }
    .await;
    result.unwrap_or_else(|e| problem(e, &format!("/c/{}/webhooks", urlencode(&id))))
}
