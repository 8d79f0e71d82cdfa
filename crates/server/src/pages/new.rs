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

/// The formats `/new` creates: value, what the page calls it, the noun of
/// its button, a sentence about it.
const NEW_FORMATS: [(&str, &str, &str, &str); 4] = [
    (
        "tws-ladder",
        "ladder",
        "ladder",
        "A Twilight Struggle ladder: players join and are approved; rounds pair neighbours on the ladder.",
    ),
    (
        "xmadn-league",
        "XMadn league",
        "league",
        "An XMadn Double-Threat league of three players: double round-robins with rolled positions, then the playoff.",
    ),
    (
        "xmadn-challengers",
        "XMadn Challengers event",
        "event",
        "An XMadn Challengers event: Game 0 for three players, then winner stays, first to x wins.",
    ),
    (
        "sunjang-league",
        "Sunjang league",
        "league",
        "A Sunjang Baduk league: players register with rank and rating; seasons are planned into divisions and groups.",
    ),
];

#[derive(Debug, Template)]
#[template(path = "new.html")]
struct NewPage {
    chrome: Chrome,
    csrf: String,
    key: String,
    /// The chosen format's value, its name, its button's noun, about it.
    format: &'static str,
    title: &'static str,
    noun: &'static str,
    about: &'static str,
    preset: String,
    /// Every format: value, name, chosen.
    formats: Vec<(&'static str, &'static str, bool)>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct NewQuery {
    format: Option<String>,
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
    let Some(&(format, title, noun, about)) = NEW_FORMATS.iter().find(|f| f.0 == wanted) else {
        return problem(
            ApiError::bad_request(format!(
                "there is no format {wanted:?}; formats: tws-ladder, xmadn-league, xmadn-challengers, sunjang-league"
            ))
            .with_field("format"),
            "/new",
        );
    };
    let page = NewPage {
        chrome: Chrome::new(format!("New {title}")),
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        key: auth::random_token().unwrap_or_default(),
        format,
        title,
        noun,
        about,
        preset: arbiter_record::preset(format)
            .unwrap_or_default()
            .to_string(),
        formats: NEW_FORMATS
            .iter()
            .map(|f| (f.0, f.1, f.0 == format))
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
    /// One name per line (XMadn).
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
        let players: Vec<String> = form
            .players
            .as_deref()
            .unwrap_or("")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        let rules = form.rules.as_deref();
        let key = form.key.clone();
        match form.format.as_deref().unwrap_or("tws-ladder") {
            "tws-ladder" => {
                crate::formats::tws::actions::create_ladder(
                    &state, &caller, &id, &form.name, rules, key,
                )
                .await
            }
            "xmadn-league" => {
                crate::formats::xmadn::actions::create_league(
                    &state, &caller, &id, &form.name, &players, rules, key,
                )
                .await
            }
            "xmadn-challengers" => {
                let first_to = number::<u32>(&form.first_to, "first_to")?;
                crate::formats::xmadn::actions::create_challengers(
                    &state, &caller, &id, &form.name, &players, first_to, rules, key,
                )
                .await
            }
            "sunjang-league" => {
                crate::formats::sunjang::actions::create_sunjang(
                    &state, &caller, &id, &form.name, rules, key,
                )
                .await
            }
            other => Err(
                ApiError::bad_request(format!("there is no format {other:?}")).with_field("format"),
            ),
        }
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
