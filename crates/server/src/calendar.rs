//! Private calendar feed URLs (issue 18 §4): making, listing and revoking
//! them, and `GET /calendar/{token}.ics`, the feed a calendar application
//! subscribes to.
//!
//! A feed is an account's (the games and deadlines of the players the
//! account is linked to by the competitions' own events, ARB-R50) or a
//! competition's (its rounds, seasons and deadlines; made and revoked by
//! its owner and moderators). Its URL carries a random 256-bit token: a
//! calendar application cannot log in, so whoever holds the URL reads the
//! calendar. Only the token's SHA-256 is kept, so a URL is shown once; a
//! feed is found by that hash (an index lookup on a digest of what was
//! sent, so its time tells nothing about how much of a real token a guess
//! shares), and a revoked one answers 404 at once, like a token that never
//! was (no oracle telling revoked from unknown).

use arbiter_service::ServiceError;
use arbiter_store::{AccountStore, CalendarFeed, FeedOwner};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::auth::{self, Caller};
use crate::error::{ApiError, ErrorCode};

/// The most feeds one account or competition may hold.
pub const MAX_FEEDS: usize = 20;
/// The longest label, in characters.
pub const MAX_LABEL: usize = 60;
/// The media type of a feed (RFC 5545 §8.1).
pub const MEDIA_TYPE: &str = "text/calendar; charset=utf-8";

/// The label of a new feed: trimmed, 1 to [`MAX_LABEL`] characters, no
/// control characters; refusals name the field `label`.
pub fn check_label(label: &str) -> Result<String, ApiError> {
    let label = label.trim();
    let count = label.chars().count();
    if count == 0 || count > MAX_LABEL {
        return Err(ApiError::bad_request(format!(
            "a calendar feed's label is 1 to {MAX_LABEL} characters, not {count}"
        ))
        .with_field("label"));
    }
    if label.chars().any(char::is_control) {
        return Err(
            ApiError::bad_request("a calendar feed's label holds no control characters")
                .with_field("label"),
        );
    }
    Ok(label.to_string())
}

/// The URL of the feed whose token is `token`.
pub fn feed_url(state: &AppState, token: &str) -> String {
    format!(
        "{}/calendar/{token}.ics",
        state.base_url.trim_end_matches('/')
    )
}

/// Make a feed for `owner`, made by `created_by`: its URL (shown once)
/// and the record kept. Refused past [`MAX_FEEDS`] (400 naming the field
/// `feeds`).
pub async fn create(
    state: &AppState,
    owner: FeedOwner,
    created_by: &str,
    label: &str,
) -> Result<(String, CalendarFeed), ApiError> {
    let label = check_label(label)?;
    let store = state.service.store();
    let held = store
        .feeds_of(&owner)
        .await
        .map_err(ApiError::from_store)?
        .len();
    if held >= MAX_FEEDS {
        return Err(ApiError::bad_request(format!(
            "there are already {held} calendar feeds here, the most kept: revoke one first"
        ))
        .with_field("feeds"));
    }
    let token = auth::random_token()?;
    let feed = CalendarFeed {
        hash: auth::digest(&token),
        owner,
        label,
        created_by: created_by.to_string(),
        created_at: state
            .now()
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    };
    store.put_feed(&feed).await.map_err(ApiError::from_store)?;
    Ok((feed_url(state, &token), feed))
}

/// The feeds of `owner`, oldest first.
pub async fn list(state: &AppState, owner: &FeedOwner) -> Result<Vec<CalendarFeed>, ApiError> {
    state
        .service
        .store()
        .feeds_of(owner)
        .await
        .map_err(ApiError::from_store)
}

/// Revoke the feed of `owner` whose id ([`CalendarFeed::id`]) is `id`:
/// only among that owner's feeds (404 naming `id` otherwise).
pub async fn revoke(
    state: &AppState,
    owner: &FeedOwner,
    id: &str,
) -> Result<CalendarFeed, ApiError> {
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::bad_request(
            "a calendar feed's id is the 16 hex digits its list shows",
        )
        .with_field("id"));
    }
    let Some(feed) = list(state, owner).await?.into_iter().find(|f| f.id() == id) else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            ErrorCode::NotFound,
            format!("there is no calendar feed {id:?} here (the list of feeds gives their ids)"),
        )
        .with_field("id"));
    };
    state
        .service
        .store()
        .delete_feed(&feed.hash)
        .await
        .map_err(ApiError::from_store)?;
    Ok(feed)
}

/// Check that the caller may manage `competition`'s feeds: it exists (404),
/// he is logged in (401) and owns or moderates it (403).
pub async fn may_manage(
    state: &AppState,
    caller: &Caller,
    competition: &str,
) -> Result<FeedOwner, ApiError> {
    caller
        .must_moderate(state, competition, "make and revoke its calendar feeds")
        .await?;
    Ok(FeedOwner::Competition(competition.to_string()))
}

/// Whether `token` is of the form [`auth::random_token`] makes: 64
/// lowercase hex digits. Anything else is not looked up.
fn well_formed(token: &str) -> bool {
    token.len() == 64
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The answer to any URL that is not a live feed: the same for a revoked
/// feed, a token never made and a malformed one.
fn no_feed() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "No such calendar feed: it was revoked, or the address is mistyped.\n",
    )
        .into_response()
}

/// `GET /calendar/{token}.ics`: the feed, as iCalendar text. No login: the
/// token is the key. The text changes only when a competition in it does
/// (its `DTSTAMP`s are the competitions' last changes), so it carries a
/// strong `ETag` of its bytes, and an application that sends it back in
/// `If-None-Match` is answered 304.
pub async fn feed(
    State(state): State<AppState>,
    headers: HeaderMap,
    file: Result<Path<String>, PathRejection>,
) -> Response {
    let Ok(Path(file)) = file else {
        return no_feed();
    };
    let Some(token) = file.strip_suffix(".ics").filter(|t| well_formed(t)) else {
        return no_feed();
    };
    let text = match calendar_text(&state, token).await {
        Ok(Some(text)) => text,
        Ok(None) => return no_feed(),
        Err(e) => return e.into_response(),
    };
    let tag = format!("\"{}\"", &auth::digest(&text)[..32]);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let head = [
        (header::CONTENT_TYPE, MEDIA_TYPE.to_string()),
        // The URL is a secret: no shared cache keeps it.
        (header::CACHE_CONTROL, "private, max-age=300".to_string()),
        (
            header::HeaderName::from_static("x-robots-tag"),
            "noindex".to_string(),
        ),
        (header::ETAG, tag),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, head).into_response();
    }
    (StatusCode::OK, head, text).into_response()
}

/// The text of the live feed whose token is `token`, or `None`.
async fn calendar_text(state: &AppState, token: &str) -> Result<Option<String>, ApiError> {
    let store = state.service.store();
    let Some(feed) = store
        .feed(&auth::digest(token))
        .await
        .map_err(ApiError::from_store)?
    else {
        return Ok(None);
    };
    let calendar = match &feed.owner {
        FeedOwner::Account(username) => {
            let Some(account) = store
                .account(username)
                .await
                .map_err(ApiError::from_store)?
            else {
                return Ok(None);
            };
            state
                .service
                .account_calendar(&account.username, &account.display_name)
                .await?
        }
        FeedOwner::Competition(id) => match state.service.competition_calendar(id).await {
            Ok(c) => c,
            Err(ServiceError::NotFound(_)) => return Ok(None),
            Err(e) => return Err(e.into()),
        },
    };
    Ok(Some(
        calendar.to_ics(state.base_url.trim_end_matches('/'), state.now()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_tokens_of_the_made_form_are_looked_up() {
        assert!(well_formed(&"ab12".repeat(16)));
        for bad in [
            String::new(),
            "ab12".repeat(15),
            "ab12".repeat(17),
            "AB12".repeat(16),
            "xyz1".repeat(16),
            format!("{}é", "a".repeat(62)),
        ] {
            assert!(!well_formed(&bad), "{bad}");
        }
    }

    #[test]
    fn labels_are_checked_naming_the_field() {
        assert_eq!(check_label("  phone ").unwrap_or_default(), "phone");
        for bad in ["", "   ", "a\u{7}b"] {
            assert!(check_label(bad).is_err(), "{bad:?}");
        }
        assert!(check_label(&"x".repeat(MAX_LABEL)).is_ok());
        assert!(check_label(&"x".repeat(MAX_LABEL + 1)).is_err());
    }
}
