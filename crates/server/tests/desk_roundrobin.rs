//! The round-robin league's desk (issue 16), in process: an organizer
//! creates a FIFA World Cup group from `/new` and enters the six results of
//! FIFA World Cup 2022 Group E through the desk's own forms (each form read
//! from the page, its hidden fields sent as a browser sends them), and the
//! desk and the public page give the published order with every tiebreak
//! explained; a 20-team double round robin stays one page with forms for
//! the running and next rounds only; stale forms answer 409 with the desk
//! as it is now, forms without the CSRF token, players, moderators who play
//! in the game and anonymous callers are refused with nothing stored;
//! hostile names are escaped; oversize fields are refused naming the
//! field.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::{AppState, Clock, auth};

use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::{StatusCode, header};
use common::{Answer, form_body, get_with_cookie, hidden, login_session, post_form};

const PASSWORD: &str = "a-long-password";

/// FIFA World Cup 2022, Group E, as published
/// (<https://en.wikipedia.org/wiki/2022_FIFA_World_Cup_Group_E>): home,
/// away and the score, home first.
const GROUP_E: [(&str, &str, &str); 6] = [
    ("Germany", "Japan", "1-2"),
    ("Spain", "Costa Rica", "7-0"),
    ("Japan", "Costa Rica", "0-1"),
    ("Spain", "Germany", "1-1"),
    ("Japan", "Spain", "2-1"),
    ("Costa Rica", "Germany", "2-4"),
];

struct World {
    app: Router,
    /// Session cookies: the organizer, a moderator, a player, an outsider.
    org: String,
    mona: String,
    pat: String,
    otto: String,
}

async fn world() -> World {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let now = common::now();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(now));
    let store = state.service.store();
    auth::create_account(store, now, "org", "Org", None, PASSWORD, true)
        .await
        .unwrap();
    for (user, name) in [("mona", "Mona"), ("pat", "Pat"), ("otto", "Otto")] {
        auth::create_account(store, now, user, name, None, PASSWORD, false)
            .await
            .unwrap();
    }
    let app = arbiter_server::app(state.clone());
    World {
        org: login_session(&app, "org", PASSWORD).await,
        mona: login_session(&app, "mona", PASSWORD).await,
        pat: login_session(&app, "pat", PASSWORD).await,
        otto: login_session(&app, "otto", PASSWORD).await,
        app,
    }
}

/// One form of a page: its hidden fields and the names of its other fields.
#[derive(Debug, Clone)]
struct PageForm {
    html: String,
    hidden: Vec<(String, String)>,
    fields: Vec<String>,
}

fn unescape(s: &str) -> String {
    s.replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#38;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

fn attribute(element: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = element.find(&key)? + key.len();
    let rest = &element[at..];
    Some(unescape(&rest[..rest.find('"')?]))
}

/// Every form of `html` posting to a desk.
fn forms(html: &str) -> Vec<PageForm> {
    html.split("<form ")
        .skip(1)
        .filter_map(|chunk| chunk.split("</form>").next())
        .map(|f| {
            let mut hidden = Vec::new();
            let mut fields = Vec::new();
            for tag in ["<input", "<select", "<textarea"] {
                for (i, _) in f.match_indices(tag) {
                    let el = &f[i..i + f[i..].find('>').unwrap()];
                    let Some(name) = attribute(el, "name") else {
                        continue;
                    };
                    if el.contains("type=\"hidden\"") {
                        hidden.push((name, attribute(el, "value").unwrap_or_default()));
                    } else {
                        fields.push(name);
                    }
                }
            }
            PageForm {
                html: f.to_string(),
                hidden,
                fields,
            }
        })
        .collect()
}

impl PageForm {
    fn hidden(&self, name: &str) -> Option<&str> {
        self.hidden
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body a browser sends: the hidden fields and `filled`, each of
    /// which must be a field of the form.
    fn body(&self, filled: &[(&str, &str)]) -> String {
        for (k, _) in filled {
            assert!(
                self.fields.iter().any(|f| f == k),
                "the form has no field {k}: {}",
                self.html
            );
        }
        let mut all: Vec<(&str, &str)> = self
            .hidden
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        all.extend_from_slice(filled);
        form_body(&all)
    }
}

/// The form of `html` for `action` whose hidden fields include `with`.
fn form_for(html: &str, action: &str, with: &[(&str, &str)]) -> PageForm {
    forms(html)
        .into_iter()
        .find(|f| {
            f.hidden("action") == Some(action) && with.iter().all(|(k, v)| f.hidden(k) == Some(*v))
        })
        .unwrap_or_else(|| panic!("no form {action} {with:?} in {html}"))
}

/// The form of `html` for `action` with the visible fields `has` and
/// without those of `lacks`.
fn form_with(html: &str, action: &str, has: &[&str], lacks: &[&str]) -> PageForm {
    forms(html)
        .into_iter()
        .find(|f| {
            f.hidden("action") == Some(action)
                && has.iter().all(|n| f.fields.iter().any(|x| x == n))
                && lacks.iter().all(|n| !f.fields.iter().any(|x| x == n))
        })
        .unwrap_or_else(|| panic!("no form {action} with {has:?} without {lacks:?} in {html}"))
}

/// A desk page: 200, one h1, no inline script or style, every visible
/// input, select and textarea labelled, and every form with the CSRF
/// token, an idempotency key and the version.
fn check_desk(a: &Answer, what: &str) -> String {
    let html = a.text();
    assert_eq!(a.status, StatusCode::OK, "{what}: {html}");
    assert_eq!(html.matches("<h1").count(), 1, "{what}: one h1");
    assert!(
        !html.contains("<script>") && !html.contains("style=\""),
        "{what}: no inline script or style"
    );
    for tag in ["<input", "<select", "<textarea"] {
        for (i, _) in html.match_indices(tag) {
            let el = &html[i..i + html[i..].find('>').unwrap()];
            if el.contains("type=\"hidden\"") {
                continue;
            }
            let id = attribute(el, "id").unwrap_or_else(|| panic!("{what}: {el} has no id"));
            assert!(
                html.contains(&format!("<label for=\"{id}\"")),
                "{what}: {el} has no label"
            );
        }
    }
    for f in forms(&html) {
        if !f.html.contains("/act\"") {
            continue;
        }
        for field in ["_csrf", "_key", "_version", "action"] {
            assert!(
                f.hidden(field).is_some_and(|v| !v.is_empty()),
                "{what}: a form without {field}: {}",
                f.html
            );
        }
    }
    html
}

impl World {
    async fn page(&self, uri: &str, cookie: &str) -> Answer {
        get_with_cookie(&self.app, uri, cookie).await
    }

    async fn desk(&self, id: &str, cookie: &str) -> String {
        let a = self.page(&format!("/c/{id}/manage"), cookie).await;
        check_desk(&a, &format!("{id}'s desk"))
    }

    async fn post(&self, id: &str, cookie: &str, body: String) -> Answer {
        post_form(&self.app, &format!("/c/{id}/act"), cookie, body).await
    }

    async fn version(&self, id: &str) -> u64 {
        common::version(&self.app, id).await
    }

    /// Fill in the desk's form `action` (with hidden fields `with`) as
    /// `cookie` and send it; it must work, landing on the desk with its
    /// sentence.
    async fn submit(
        &self,
        id: &str,
        cookie: &str,
        action: &str,
        with: &[(&str, &str)],
        filled: &[(&str, &str)],
    ) -> String {
        let desk = self.desk(id, cookie).await;
        let before = self.version(id).await;
        let form = form_for(&desk, action, with);
        let a = self.post(id, cookie, form.body(filled)).await;
        assert_eq!(
            a.status,
            StatusCode::SEE_OTHER,
            "{action} {with:?} {filled:?}: {}",
            a.text()
        );
        assert!(
            a.location()
                .starts_with(&format!("/c/{id}/manage?done={action}")),
            "{}",
            a.location()
        );
        if !action.ends_with("-moderator") {
            // Moderators are grants, not events.
            assert!(self.version(id).await > before, "{action}: stored");
        }
        let after = self.page(a.location(), cookie).await;
        let html = check_desk(&after, action);
        assert!(html.contains("id=\"done\""), "{action}: the done sentence");
        html
    }

    /// Send `body` to the desk and check that it is refused with
    /// `status`, storing nothing.
    async fn refused(&self, id: &str, cookie: &str, body: String, status: StatusCode) -> String {
        let before = self.version(id).await;
        let a = self.post(id, cookie, body).await;
        assert_eq!(a.status, status, "{}", a.text());
        assert_eq!(self.version(id).await, before, "nothing stored");
        a.text()
    }

    /// Create a round-robin league from `/new` as the organizer.
    async fn create(&self, id: &str, name: &str, preset: &str, rules: &str, players: &[&str]) {
        let page = self.page("/new?format=round-robin", &self.org).await.text();
        let a = post_form(
            &self.app,
            "/new",
            &self.org,
            form_body(&[
                ("_csrf", &hidden(&page, "_csrf")),
                ("_key", &hidden(&page, "_key")),
                ("format", "round-robin"),
                ("id", id),
                ("name", name),
                ("preset", preset),
                ("rules", rules),
                ("players", &players.join("\r\n")),
            ]),
        )
        .await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
        assert_eq!(a.headers[header::LOCATION], format!("/c/{id}/manage"));
    }

    /// The FIFA group `id` of Group E's teams, started.
    async fn group_e(&self, id: &str) {
        self.create(
            id,
            "World Cup 2022, Group E",
            "fifa-world-cup",
            "",
            &["Germany", "Japan", "Spain", "Costa Rica"],
        )
        .await;
        self.submit(id, &self.org, "start", &[], &[]).await;
    }
}

/// The games with a result form on `html`: label, home, away.
fn result_cards(html: &str) -> Vec<(String, String, String)> {
    html.split("<h3 id=\"rec-")
        .skip(1)
        .map(|s| {
            let label = s[..s.find('"').unwrap()].to_string();
            let title = &s[s.find('>').unwrap() + 1..s.find("</h3>").unwrap()];
            let teams = unescape(title.split(": ").nth(1).unwrap());
            let (home, away) = teams.split_once(" v ").unwrap();
            (label, home.to_string(), away.to_string())
        })
        .collect()
}

/// The published score of the game between `home` and `away`, home first.
fn published(home: &str, away: &str) -> String {
    for (h, a, score) in GROUP_E {
        if (h, a) == (home, away) {
            return score.to_string();
        }
        if (h, a) == (away, home) {
            let (x, y) = score.split_once('-').unwrap();
            return format!("{y}-{x}");
        }
    }
    panic!("{home} v {away} is not a game of Group E");
}

/// The order of the table on the desk (each line its explanation).
fn desk_order(html: &str) -> Vec<String> {
    let table = &html[html.find("<h2 id=\"table\">").unwrap()..];
    table
        .split("<li>")
        .skip(1)
        .map(|li| li[..li.find(" is ").unwrap()].to_string())
        .collect()
}

#[tokio::test]
async fn group_e_is_run_from_the_desk_and_gives_the_published_order_explained() {
    let w = world().await;
    w.create(
        "wc-e",
        "World Cup 2022, Group E",
        "fifa-world-cup",
        "",
        &["Germany", "Japan"],
    )
    .await;
    // The other two teams enter through the desk's form before the start.
    let desk = w.desk("wc-e", &w.org).await;
    assert!(desk.contains("<h1>Desk of World Cup 2022, Group E</h1>"));
    assert!(desk.contains("Start play"));
    assert!(!desk.contains("Results to record"), "nothing to record yet");
    for team in ["Spain", "Costa Rica"] {
        let html = w
            .submit("wc-e", &w.org, "add-player", &[], &[("name", team)])
            .await;
        assert!(html.contains("The player or team entered."));
    }
    let html = w.submit("wc-e", &w.org, "start", &[], &[]).await;
    assert!(html.contains("Play began: the schedule is fixed."));
    assert!(!html.contains("Enter a player or team"), "late entries");
    // A single round robin of four: three rounds of two games; the forms
    // cover the running round and the next.
    let cards = result_cards(&html);
    assert_eq!(cards.len(), 4, "{cards:?}");
    assert!(html.contains("rounds 1 and 2"));
    assert!(html.contains("Score, "));
    assert!(html.contains("placeholder=\"2-1\""));

    // Enter every result through its form, home first.
    let mut entered = 0;
    loop {
        let desk = w.desk("wc-e", &w.org).await;
        let Some((label, home, away)) = result_cards(&desk).into_iter().next() else {
            break;
        };
        let score = published(&home, &away);
        let html = w
            .submit(
                "wc-e",
                &w.org,
                "record-result",
                &[("game", &label)],
                &[("score", &score)],
            )
            .await;
        assert!(html.contains("The result was recorded."));
        assert!(
            html.contains(&format!("{label} {home} {score} {away}")),
            "{label} among the recorded results"
        );
        entered += 1;
        assert!(entered <= 6);
    }
    assert_eq!(entered, 6);
    let desk = w.desk("wc-e", &w.org).await;
    assert!(desk.contains("every game is played: the table is final"));
    assert!(desk.contains("Every game has its result: the table is final."));
    assert_eq!(
        desk_order(&desk),
        ["Japan", "Spain", "Germany", "Costa Rica"]
    );
    assert!(desk.contains(
        "Spain is 2nd with 4 points. Behind Japan on points (4 against 6). Ahead of Germany on score difference: +6 against +1, level on points (4)."
    ));

    // The public page: the same order, Spain's place explained, and the
    // desk in the competition's navigation.
    let public = w.page("/c/wc-e", "").await.text();
    // Each team is a link to its page (issue 17 §1).
    let at = |name: &str| public.find(&format!(">{name}</a></th>")).unwrap();
    assert!(at("Japan") < at("Spain") && at("Spain") < at("Germany"));
    assert!(at("Germany") < at("Costa Rica"));
    assert!(public.contains("Ahead of Germany on score difference: +6 against +1"));
    assert!(public.contains("href=\"/c/wc-e/manage\">Desk"));
    let desk_page = w.page("/c/wc-e/manage", &w.org).await.text();
    assert!(desk_page.contains("href=\"/c/wc-e/manage\" aria-current=\"page\">Desk"));

    // A correction, with its reason, from the round's folded results.
    let desk = w.desk("wc-e", &w.org).await;
    let correct = forms(&desk)
        .into_iter()
        .find(|f| f.hidden("action") == Some("correct-result"))
        .unwrap();
    let game = correct
        .html
        .split("<option value=\"")
        .nth(1)
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .unwrap();
    let before = w.version("wc-e").await;
    let a = w
        .post(
            "wc-e",
            &w.org,
            correct.body(&[
                ("game", &game),
                ("score", "0-0"),
                ("reason", "a typo in the score"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert_eq!(a.location(), "/c/wc-e/manage?done=correct-result#done");
    assert_eq!(w.version("wc-e").await, before + 1);
    let view = common::view(&w.app, "wc-e").await;
    let corrected = view["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap())
        .find(|g| g["label"] == game.as_str())
        .unwrap();
    assert_eq!(corrected["score"], "0-0");
    let history = w.page("/c/wc-e/history", "").await.text();
    // The history says it in words, with its reason (issue 17 §3).
    assert!(
        history.contains(" corrected to 0-0 (a typo in the score)</span>"),
        "{history}"
    );
}

#[tokio::test]
async fn a_stale_form_answers_409_with_the_desk_now_and_stores_nothing() {
    let w = world().await;
    w.group_e("wc").await;
    let desk = w.desk("wc", &w.org).await;
    let (label, home, away) = result_cards(&desk).into_iter().next().unwrap();
    let old = form_for(&desk, "record-result", &[("game", &label)]);
    // Someone else records a result meanwhile.
    let (other, ..) = result_cards(&desk).into_iter().nth(1).unwrap();
    w.submit(
        "wc",
        &w.org,
        "record-result",
        &[("game", &other)],
        &[("score", "1-1")],
    )
    .await;
    let html = w
        .refused(
            "wc",
            &w.org,
            old.body(&[("score", "3-0")]),
            StatusCode::CONFLICT,
        )
        .await;
    assert!(html.contains("Nothing was changed."), "{html}");
    assert!(
        html.contains(" round-robin-result by org at 2026-03-02T12:00:00Z: "),
        "the change since: {html}"
    );
    assert!(
        html.contains("<dt>score</dt><dd>3-0</dd>"),
        "what the form held"
    );
    assert!(
        html.contains(&format!("{home} v {away}")),
        "the desk as it is now"
    );
    // Without its version: 428 naming _version.
    let fresh = w.desk("wc", &w.org).await;
    let form = form_for(&fresh, "record-result", &[("game", &label)]);
    let body = form
        .body(&[("score", "3-0")])
        .split('&')
        .filter(|kv| !kv.starts_with("_version="))
        .collect::<Vec<_>>()
        .join("&");
    let html = w
        .refused("wc", &w.org, body, StatusCode::PRECONDITION_REQUIRED)
        .await;
    assert!(html.contains("<code>_version</code>"));
}

#[tokio::test]
async fn forms_without_csrf_from_players_or_from_nobody_are_refused() {
    let w = world().await;
    w.group_e("wc").await;
    // Pat's account is linked to Japan through the desk's form; Mona is
    // made a moderator there and linked to Spain.
    w.submit(
        "wc",
        &w.org,
        "link-account",
        &[],
        &[("player", "Japan"), ("username", "pat")],
    )
    .await;
    w.submit("wc", &w.org, "add-moderator", &[], &[("username", "mona")])
        .await;
    let html = w
        .submit(
            "wc",
            &w.org,
            "link-account",
            &[],
            &[("player", "Spain"), ("username", "mona")],
        )
        .await;
    assert!(html.contains("Japan: pat") && html.contains("Spain: mona"));

    let desk = w.desk("wc", &w.org).await;
    let cards = result_cards(&desk);
    let japan = cards
        .iter()
        .find(|(_, h, a)| h == "Japan" || a == "Japan")
        .unwrap();
    let spain = cards
        .iter()
        .find(|(_, h, a)| h == "Spain" || a == "Spain")
        .unwrap();
    let form = form_for(&desk, "record-result", &[("game", &japan.0)]);

    // Without the CSRF token: 403.
    let body = form
        .body(&[("score", "1-0")])
        .split('&')
        .filter(|kv| !kv.starts_with("_csrf="))
        .collect::<Vec<_>>()
        .join("&");
    let html = w.refused("wc", &w.org, body, StatusCode::FORBIDDEN).await;
    assert!(html.contains("CSRF"));
    // With another session's token: 403.
    let otto_csrf = hidden(&w.page("/account", &w.otto).await.text(), "_csrf");
    let body = form
        .body(&[("score", "1-0")])
        .replace(&form.hidden("_csrf").unwrap().to_string(), &otto_csrf);
    w.refused("wc", &w.org, body, StatusCode::FORBIDDEN).await;

    // Pat plays for Japan: his desk has no result form, and his own form
    // built from the organizer's is refused.
    let pats = w.desk("wc", &w.pat).await;
    assert!(pats.contains("playing as Japan"));
    assert!(pats.contains("recorded by its moderators"));
    assert!(!pats.contains("name=\"action\""), "no form for a player");
    let pat_csrf = hidden(&w.page("/account", &w.pat).await.text(), "_csrf");
    let body = form
        .body(&[("score", "1-0")])
        .replace(form.hidden("_csrf").unwrap(), &pat_csrf);
    let html = w.refused("wc", &w.pat, body, StatusCode::FORBIDDEN).await;
    assert!(html.contains("Not allowed"));

    // Mona moderates but plays for Spain: no form for Spain's game, and
    // the organizer's form sent by her is refused (ARB-R45); Japan's game
    // she may record, if it is not Spain's.
    let monas = w.desk("wc", &w.mona).await;
    assert!(monas.contains("You play in this game: another moderator records it (ARB-R45)."));
    assert!(
        forms(&monas)
            .iter()
            .all(|f| f.hidden("game") != Some(spain.0.as_str()))
    );
    let org_form = form_for(&desk, "record-result", &[("game", &spain.0)]);
    let body = org_form
        .body(&[("score", "1-0")])
        .replace(org_form.hidden("_csrf").unwrap(), &hidden(&monas, "_csrf"));
    let html = w.refused("wc", &w.mona, body, StatusCode::FORBIDDEN).await;
    assert!(html.contains("ARB-R45"), "{html}");
    if japan.0 != spain.0 {
        w.submit(
            "wc",
            &w.mona,
            "record-result",
            &[("game", &japan.0)],
            &[("score", "2-2")],
        )
        .await;
    }

    // Nobody: the desk and its forms send him to the login, storing nothing.
    let a = w.page("/c/wc/manage", "").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    assert!(a.location().starts_with("/login"));
    let fresh = w.desk("wc", &w.org).await;
    let (label, ..) = result_cards(&fresh).into_iter().last().unwrap();
    let form = form_for(&fresh, "record-result", &[("game", &label)]);
    let before = w.version("wc").await;
    let a = w.post("wc", "", form.body(&[("score", "1-0")])).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    assert!(a.location().starts_with("/login"));
    assert_eq!(w.version("wc").await, before);
    // An outsider (logged in, no role) is refused.
    let body = form
        .body(&[("score", "1-0")])
        .replace(form.hidden("_csrf").unwrap(), &otto_csrf);
    w.refused("wc", &w.otto, body, StatusCode::FORBIDDEN).await;
    // The owner unlinks Pat: the link is gone from the desk.
    let html = w
        .submit("wc", &w.org, "unlink-account", &[("username", "pat")], &[])
        .await;
    assert!(!html.contains("Japan: pat"));
}

#[tokio::test]
async fn hostile_names_are_escaped_and_oversize_fields_refused_naming_the_field() {
    let w = world().await;
    let hostile = "<script>alert(1)</script>";
    w.create(
        "x",
        "Cup <b>\"&'",
        "fifa-world-cup",
        "",
        &[hostile, "Ann \"quoted\"", "Bob & Co", "Cid's"],
    )
    .await;
    let desk = w.desk("x", &w.org).await;
    assert!(!desk.contains(hostile) && !desk.contains("<b>"));
    assert!(desk.contains("&#60;script&#62;alert(1)&#60;/script&#62;"));
    w.submit("x", &w.org, "start", &[], &[]).await;
    let desk = w.desk("x", &w.org).await;
    assert!(!desk.contains(hostile), "escaped after the start too");
    assert!(desk.contains("<h3 id=\"rec-G") && desk.contains("&#60;script&#62;"));
    // The hostile name goes back through the forms as it was entered.
    let html = w
        .submit("x", &w.org, "withdraw", &[], &[("player", hostile)])
        .await;
    assert!(html.contains("The withdrawal was recorded."));
    assert!(!html.contains(hostile));

    // Oversize fields: refused, the field named, nothing stored.
    let long = "x".repeat(201);
    let desk = w.desk("x", &w.org).await;
    let (label, ..) = result_cards(&desk).into_iter().next().unwrap();
    let record = form_for(&desk, "record-result", &[("game", &label)]);
    let html = w
        .refused(
            "x",
            &w.org,
            record.body(&[("score", &long)]),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(html.contains("<code>score</code>"), "{html}");
    assert!(html.contains("longer than 200"));
    let link = form_for(&desk, "link-account", &[]);
    let html = w
        .refused(
            "x",
            &w.org,
            link.body(&[("player", "Bob & Co"), ("username", &long)]),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(html.contains("<code>username</code>"), "{html}");
    let lots = form_for(&desk, "enter-lots", &[]);
    let many = vec!["Bob & Co"; 65].join("\n");
    let html = w
        .refused(
            "x",
            &w.org,
            lots.body(&[("order", &many), ("how", "by hand")]),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(html.contains("<code>order</code>"), "{html}");
    let html = w
        .refused(
            "x",
            &w.org,
            lots.body(&[("order", "Bob & Co\nCid's"), ("how", &long)]),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(html.contains("<code>how</code>"), "{html}");
    // Bad values: named too.
    let html = w
        .refused(
            "x",
            &w.org,
            record.body(&[("score", "two-one")]),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert!(html.contains("<code>score</code>"), "{html}");
    let html = w
        .refused(
            "x",
            &w.org,
            record.body(&[("score", "1-0"), ("forfeit", "+:-")]),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(html.contains("<code>forfeit</code>"), "{html}");
    let deadline = form_for(&desk, "set-deadline", &[]);
    let html = w
        .refused(
            "x",
            &w.org,
            deadline.body(&[("round", "1"), ("deadline", "next friday")]),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(html.contains("<code>deadline</code>"), "{html}");
    let html = w
        .refused(
            "x",
            &w.org,
            deadline.body(&[("round", "99"), ("deadline", "2026-04-01")]),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert!(html.contains("<code>round</code>"), "{html}");
    // A whole form far past every field's size: the body limit.
    let huge = "y".repeat(3 * 1024 * 1024);
    let a = w.post("x", &w.org, record.body(&[("score", &huge)])).await;
    assert!(a.status.is_client_error(), "{}", a.status);
}

#[tokio::test]
async fn a_twenty_team_double_round_robin_keeps_one_usable_desk() {
    let w = world().await;
    let teams: Vec<String> = (1..=20).map(|i| format!("Team {i}")).collect();
    let names: Vec<&str> = teams.iter().map(String::as_str).collect();
    w.create(
        "league",
        "Twenty",
        "fifa-world-cup",
        "format = \"round-robin\"\npreset = \"fifa-world-cup\"\ncycles = 2\n",
        &names,
    )
    .await;
    let html = w.submit("league", &w.org, "start", &[], &[]).await;
    assert!(html.contains("0 of 380 games played"), "380 games");
    // Forms for rounds 1 and 2 only (10 games each); the other 360 games
    // through the one form that names the game.
    assert_eq!(result_cards(&html).len(), 20);
    assert!(html.contains("Record a game of a later round (360 to play)"));
    assert!(
        html.len() < 200_000,
        "the desk of 380 games is {} bytes",
        html.len()
    );
    // A game of round 30 recorded by naming its two teams, through the
    // form that names the game.
    let view = common::view(&w.app, "league").await;
    let game = view["rounds"][29]["games"][0].clone();
    let (home, away) = (
        game["home"].as_str().unwrap(),
        game["away"].as_str().unwrap(),
    );
    let any = forms(&html)
        .into_iter()
        .find(|f| {
            f.hidden("action") == Some("record-result") && f.fields.iter().any(|n| n == "game")
        })
        .unwrap();
    let a = w
        .post(
            "league",
            &w.org,
            any.body(&[("game", &format!("{home}-{away}")), ("score", "3-0")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    let html = w.desk("league", &w.org).await;
    assert!(html.contains("Round 30: 1 of 10 played"));
    let view = common::view(&w.app, "league").await;
    assert_eq!(view["rounds"][29]["games"][0]["score"], "3-0");
    // A game played early does not move the running round.
    assert_eq!(result_cards(&html).len(), 20);
    assert!(html.contains("Record a game of a later round (359 to play)"));

    // A deadline for round 3, shown with the games it is due for, then
    // cleared.
    assert!(html.contains("No round has a deadline yet."));
    let html = w
        .submit(
            "league",
            &w.org,
            "set-deadline",
            &[],
            &[("round", "3"), ("deadline", "2026-04-01")],
        )
        .await;
    assert!(html.contains("The deadlines set (1 of 38 rounds)"));
    assert!(html.contains("<li>Round 3: by 2026-04-01 23:59 UTC</li>"));
    let set = form_with(&html, "set-deadline", &["round", "deadline"], &[]);
    let a = w
        .post(
            "league",
            &w.org,
            set.body(&[("round", "1"), ("deadline", "2026-03-09T18:00:00Z")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    let html = w.desk("league", &w.org).await;
    assert!(html.contains("Due: round 1 by 2026-03-09 18:00 UTC."));
    let clear = form_with(&html, "set-deadline", &["round"], &["deadline"]);
    let a = w
        .post("league", &w.org, clear.body(&[("round", "3")]))
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    let html = w.page(a.location(), &w.org).await.text();
    assert!(html.contains("deadline was changed."));
    assert!(!html.contains("Round 3: by"));
    assert!(html.contains("The deadlines set (1 of 38 rounds)"));
    let view = common::view(&w.app, "league").await;
    assert!(view["rounds"][2].get("deadline").is_none());
    assert_eq!(view["rounds"][0]["deadline"], "2026-03-09T18:00:00+00:00");
}

#[tokio::test]
async fn a_tie_left_for_the_lots_is_drawn_from_the_committed_seed_or_entered() {
    let w = world().await;
    w.group_e("tie").await;
    // Every game 0-0: the four teams level on every criterion before lots.
    loop {
        let desk = w.desk("tie", &w.org).await;
        let Some((label, ..)) = result_cards(&desk).into_iter().next() else {
            break;
        };
        w.submit(
            "tie",
            &w.org,
            "record-result",
            &[("game", &label)],
            &[("score", "0-0")],
        )
        .await;
    }
    let desk = w.desk("tie", &w.org).await;
    assert!(desk.contains(
        "Level on every criterion before the drawing of lots: Germany, Japan, Spain and Costa Rica."
    ));
    let html = w.submit("tie", &w.org, "draw-lots", &[], &[]).await;
    assert!(html.contains("The lots were drawn."));
    assert!(html.contains("The table leaves no tie for the drawing of lots."));
    assert!(html.contains("drawn from the seed committed at the start"));
    let view = common::view(&w.app, "tie").await;
    let order: Vec<&str> = view["lots"][0]["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let table: Vec<&str> = view["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    assert_eq!(order, table, "the table follows the lot");
    // A lot drawn by hand, entered in the order given.
    let html = w
        .submit(
            "tie",
            &w.org,
            "enter-lots",
            &[],
            &[
                ("order", "Costa Rica\nSpain\nJapan\nGermany"),
                ("how", "drawn from a hat at the congress"),
            ],
        )
        .await;
    assert!(html.contains("The lot drawn by hand was recorded."));
    assert_eq!(
        desk_order(&html),
        ["Costa Rica", "Spain", "Japan", "Germany"]
    );
}
