//! `/new`: creating a competition of any format from its preset.

use askama::Template;
use axum::Form;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::desk::number;
use super::forms::{problem, see_other, to_login, urlencode};
use super::{Chrome, render};
use crate::AppState;
use crate::auth::{self, Caller};
use crate::error::ApiError;
use crate::formats::{Creation, NewPage as NewPageOf, WebFormat};
use crate::pages::Kind;

/// How `/new` shows `format`, and its presets.
fn new_page_of(format: Kind) -> (NewPageOf, Vec<(&'static str, &'static str)>) {
    arbiter_service::with_format!(format, |F| (
        <F as WebFormat>::NEW,
        <F as WebFormat>::presets()
    ))
}

#[derive(Debug, Template)]
#[template(path = "new.html")]
struct NewPage {
    chrome: Chrome,
    csrf: String,
    key: String,
    /// The chosen format's value and how the page shows it.
    format: &'static str,
    new: NewPageOf,
    /// The chosen preset's name and its rules file.
    preset: &'static str,
    rules: &'static str,
    /// The format's presets when it has several: name, chosen.
    presets: Vec<(&'static str, bool)>,
    /// Every format: value, name, chosen.
    formats: Vec<(&'static str, &'static str, bool)>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct NewQuery {
    format: Option<String>,
    /// The preset to start from, where the format has several.
    preset: Option<String>,
}

/// `GET /new` (`?format=…`): create a competition from its format's
/// preset; a ladder unless another format is chosen.
pub(crate) async fn new_page(caller: Caller, Query(q): Query<NewQuery>) -> Response {
    let Some(account) = &caller.account else {
        return to_login("/new");
    };
    if !account.organizer {
        return problem(
            ApiError::forbidden(
                "only an organizer's account may create competitions; an organizer makes one with `arbiter account add --organizer`",
            ),
            "/account",
        );
    }
    let wanted = q.format.as_deref().unwrap_or("tws-ladder");
    let Some(format) = Kind::of_id(wanted) else {
        return problem(
            ApiError::bad_request(format!(
                "there is no format {wanted:?}; formats: {}",
                Kind::ids_in_words()
            ))
            .with_field("format"),
            "/new",
        );
    };
    let (new, presets) = new_page_of(format);
    let chosen = q
        .preset
        .as_deref()
        .and_then(|p| presets.iter().find(|(name, _)| *name == p))
        .or(presets.first())
        .copied()
        .unwrap_or_default();
    let page = NewPage {
        chrome: Chrome::new(format!("New {}", new.title)),
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        key: auth::random_token().unwrap_or_default(),
        format: format.id(),
        new,
        preset: chosen.0,
        rules: chosen.1,
        presets: if presets.len() > 1 {
            presets.iter().map(|(n, _)| (*n, *n == chosen.0)).collect()
        } else {
            Vec::new()
        },
        formats: Kind::ALL
            .iter()
            .copied()
            .map(|f| (f.id(), new_page_of(f).0.title, f == format))
            .collect(),
    };
    render(&page).into_response()
}

#[derive(Debug, Deserialize)]
pub(crate) struct NewForm {
    #[serde(default)]
    format: Option<String>,
    id: String,
    name: String,
    rules: Option<String>,
    /// The preset the rules came from (round robin).
    #[serde(default)]
    preset: Option<String>,
    /// One name per line (XMadn, round robin).
    #[serde(default)]
    players: Option<String>,
    #[serde(default)]
    first_to: Option<String>,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
    #[serde(rename = "_key")]
    key: Option<String>,
}

/// `POST /new`.
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Form(form): Form<NewForm>,
) -> Response {
    if caller.account.is_none() {
        return to_login("/new");
    }
    let id = form.id.trim().to_string();
    let result = async {
        caller.account()?;
        caller.check_csrf(form.csrf.as_deref())?;
        arbiter_service::check_competition_id(&id)
            .map_err(|e| ApiError::from(e).with_field("id"))?;
        let wanted = form.format.as_deref().unwrap_or("tws-ladder");
        let format = Kind::of_id(wanted).ok_or_else(|| {
            ApiError::bad_request(format!("there is no format {wanted:?}")).with_field("format")
        })?;
        let (new, presets) = new_page_of(format);
        // A form sends its fields empty: a field the format's page does not
        // show counts as not given.
        let creation = Creation {
            id: id.clone(),
            name: form.name.clone(),
            rules: form.rules.clone(),
            preset: form.preset.clone().filter(|_| presets.len() > 1),
            players: form
                .players
                .as_deref()
                .filter(|_| new.players.is_some())
                .map(|p| p.lines().map(str::to_string).collect()),
            first_to: if new.first_to {
                number::<u32>(&form.first_to, "first_to")?
            } else {
                None
            },
            key: form.key.clone(),
        };
        arbiter_service::with_format!(format, |F| {
            <F as WebFormat>::create(&state, &caller, &creation).await
        })
    }
    .await;
    match result {
        Ok(_) => see_other(&format!("/c/{id}/manage")),
        Err(e) => problem(
            e,
            &format!(
                "/new?format={}",
                urlencode(form.format.as_deref().unwrap_or("tws-ladder"))
            ),
        ),
    }
}
