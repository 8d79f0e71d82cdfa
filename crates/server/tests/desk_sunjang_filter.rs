//! The Sunjang desk's corrections found by player or group (issue 17 §2:
//! "a season's 200 correction forms are behind a filter by group or
//! player"): a GET form on the desk (`?cor_player=&cor_group=`, no script)
//! lists only the recorded results it matches, open, with how many of all
//! it matched and a link back to every group; a player filter that matches
//! nothing says so with the close names; a filter the desk cannot read
//! (too long, a group without results) is answered 400 with the desk and
//! a sentence naming the field, and what is typed is never sent back as
//! markup. A correction form sent from the filtered desk comes back to it,
//! refused (its form open, the problem next to its field) or done. The
//! desk stays a moderator's (ARB-R45): the filter changes what is listed,
//! never who may see or act.
//!
//! On the demo of `arbiter serve --demo`, whose Sunjang season is under
//! way with many results recorded.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use arbiter_server::demo::{DEMO_PASSWORD, install_all};
use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::StatusCode;
use common::{Answer, enc, get_with_cookie, login_session, post_form};

const DESK: &str = "/c/sunjang-demo/manage";

struct Demo {
    app: Router,
    /// The session of jordan, a moderator of the demo's league.
    jordan: String,
    /// The demo's accounts: (username, role).
    accounts: Vec<(String, &'static str)>,
}

async fn served() -> Demo {
    let today = arbiter_demo::reference_today();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today));
    let (_, _, made) = install_all(&state.service, today).await.unwrap();
    let app = arbiter_server::app(state);
    let jordan = login_session(&app, "jordan", DEMO_PASSWORD).await;
    Demo {
        app,
        jordan,
        accounts: made.into_iter().map(|a| (a.username, a.role)).collect(),
    }
}

impl Demo {
    async fn get(&self, query: &str) -> Answer {
        let uri = if query.is_empty() {
            DESK.to_string()
        } else {
            format!("{DESK}?{query}")
        };
        get_with_cookie(&self.app, &uri, &self.jordan).await
    }

    /// The desk with `query`, which must answer 200.
    async fn desk(&self, query: &str) -> String {
        let a = self.get(query).await;
        assert_eq!(a.status, StatusCode::OK, "{query}: {}", a.text());
        a.text()
    }
}

/// The section "Correct a result" of a desk.
fn corrections(html: &str) -> &str {
    let start = html
        .find(r#"<h3 id="corrections">"#)
        .unwrap_or_else(|| panic!("no corrections on {html}"));
    let rest = &html[start..];
    &rest[..rest.find(r#"<h3 id="close">"#).unwrap()]
}

/// A recorded result as the unfiltered desk lists it.
#[derive(Debug, Clone, PartialEq)]
struct Game {
    group: String,
    round: String,
    black: String,
    white: String,
}

/// The text of HTML `s` (the few entities Askama writes).
fn unescape(s: &str) -> String {
    s.replace("&#39;", "'")
        .replace("&#34;", "\"")
        .replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#38;", "&")
}

/// The games of a game's `<summary>` after its "Round " (or "Group G,
/// round "): "3: Black v White, result".
fn game_of(group: &str, summary: &str) -> Game {
    let (round, rest) = summary.split_once(": ").unwrap();
    let (black, rest) = rest.split_once(" v ").unwrap();
    let white = rest.split_once(", ").map_or(rest, |(w, _)| w);
    Game {
        group: group.to_string(),
        round: round.to_string(),
        black: unescape(black),
        white: unescape(white),
    }
}

/// Every game of the unfiltered corrections, with its group.
fn games_by_group(section: &str) -> Vec<Game> {
    let mut out = Vec::new();
    for g in section
        .split(r#"<details class="form group-corrections"><summary>Group "#)
        .skip(1)
    {
        let group = g.split_once(':').unwrap().0;
        for s in g.split(r#"<details class="form"><summary>Round "#).skip(1) {
            out.push(game_of(group, &s[..s.find("</summary>").unwrap()]));
        }
    }
    out
}

/// Every game of the filtered corrections (listed open, with its group).
fn games_listed(section: &str) -> Vec<Game> {
    section
        .split(r#"<details class="form" open><summary>Group "#)
        .skip(1)
        .map(|s| {
            let s = &s[..s.find("</summary>").unwrap()];
            let (group, rest) = s.split_once(", round ").unwrap();
            game_of(group, rest)
        })
        .collect()
}

/// The count of games the filtered section lists, folded or open.
fn listed(section: &str) -> usize {
    section.matches(r#"<details class="form"#).count()
        - section.matches("group-corrections").count()
}

fn plays(g: &Game, needle: &str) -> bool {
    let n = needle.to_lowercase();
    g.black.to_lowercase().contains(&n) || g.white.to_lowercase().contains(&n)
}

/// The demo's recorded results and the player in the most of them.
async fn season(d: &Demo) -> (Vec<Game>, String) {
    let html = d.desk("").await;
    let all = games_by_group(corrections(&html));
    assert!(all.len() > 20, "the demo's season has many results");
    let mut names: Vec<&String> = all.iter().flat_map(|g| [&g.black, &g.white]).collect();
    names.sort();
    let busiest = names
        .chunk_by(|a, b| a == b)
        .max_by_key(|c| c.len())
        .unwrap()[0]
        .clone();
    (all, busiest)
}

#[tokio::test]
async fn a_player_filter_lists_only_his_games_open() {
    let d = served().await;
    let (all, player) = season(&d).await;
    let total = all.len();
    let his: Vec<Game> = all.iter().filter(|g| plays(g, &player)).cloned().collect();
    assert!(his.len() > 1 && his.len() < total);
    // Case-insensitive, on his name.
    let typed = player.to_uppercase();
    let html = d.desk(&format!("cor_player={}", enc(&typed))).await;
    let section = corrections(&html);
    let listed_games = games_listed(section);
    let mut want = his.clone();
    let key = |g: &Game| (g.group.clone(), g.round.clone(), g.black.clone());
    want.sort_by_key(key);
    let mut got = listed_games.clone();
    got.sort_by_key(key);
    assert_eq!(got, want, "{section}");
    assert_eq!(listed(section), his.len(), "nothing else is listed");
    assert!(
        !section.contains("group-corrections"),
        "no folded group under a filter: {section}"
    );
    assert!(
        section.contains(&format!(
            "{} of {total} recorded results match “",
            his.len()
        )),
        "{section}"
    );
    assert!(
        section.contains(&format!(
            r#"<a href="{DESK}#corrections">Clear the filter</a>"#
        )),
        "{section}"
    );
    // The form keeps what was typed.
    assert!(
        section.contains(r#"name="cor_player""#) && section.contains("list=\"players\""),
        "{section}"
    );
    // Every form listed carries the filter back.
    let forms = section.matches(r#"value="correct-result""#).count();
    assert_eq!(section.matches(r#"name="_cor_player""#).count(), forms);

    // Part of a name is enough: his first name finds his games (and any
    // other name holding it).
    let first = player.split_whitespace().next().unwrap().to_lowercase();
    let html = d.desk(&format!("cor_player={}", enc(&first))).await;
    let section = corrections(&html);
    let holding = all.iter().filter(|g| plays(g, &first)).count();
    assert!(holding >= his.len());
    assert_eq!(listed(section), holding, "{section}");
    assert!(
        games_listed(section).iter().all(|g| plays(g, &first)),
        "{section}"
    );
}

#[tokio::test]
async fn a_group_filter_lists_its_games_and_combines_with_a_player() {
    let d = served().await;
    let (all, player) = season(&d).await;
    let total = all.len();
    let mut groups: Vec<String> = all.iter().map(|g| g.group.clone()).collect();
    groups.dedup();
    assert!(groups.len() > 1);
    let group = groups[1].clone();
    let its: Vec<Game> = all.iter().filter(|g| g.group == group).cloned().collect();
    // The group's id in lower case is read as the group.
    let html = d
        .desk(&format!("cor_group={}", enc(&group.to_lowercase())))
        .await;
    let section = corrections(&html);
    assert_eq!(games_listed(section), its, "{section}");
    assert!(
        section.contains(&format!(
            "{} of {total} recorded results are in group {group}.",
            its.len()
        )),
        "{section}"
    );
    assert!(
        section.contains(&format!(
            r#"<option value="{group}" selected>{group}</option>"#
        )),
        "the select shows the group chosen: {section}"
    );
    assert!(section.contains(r#"<option value="">All groups</option>"#));
    assert_eq!(
        section.matches(r#"name="_cor_group""#).count(),
        section.matches(r#"value="correct-result""#).count()
    );

    // The busiest player in his own group, and in another.
    let home = all
        .iter()
        .find(|g| plays(g, &player))
        .unwrap()
        .group
        .clone();
    let q = format!("cor_player={}&cor_group={}", enc(&player), enc(&home));
    let section_html = d.desk(&q).await;
    let section = corrections(&section_html);
    let both: Vec<Game> = all
        .iter()
        .filter(|g| g.group == home && plays(g, &player))
        .cloned()
        .collect();
    assert_eq!(listed(section), both.len(), "{section}");
    assert!(
        section.contains(&format!(
            "{} of {total} recorded results match “",
            both.len()
        )) && section.contains(&format!(" in group {home}")),
        "{section}"
    );
    let away = groups.iter().find(|g| **g != home).unwrap();
    let html = d
        .desk(&format!(
            "cor_player={}&cor_group={}",
            enc(&player),
            enc(away)
        ))
        .await;
    let section = corrections(&html);
    assert_eq!(listed(section), 0, "{section}");
    assert!(
        section.contains("No recorded result matches “")
            && section.contains(&format!("” in group {away}")),
        "{section}"
    );
    // Where he has results instead, one click away.
    assert!(
        section.contains(&format!(
            r#"<a href="{DESK}?cor_player={}&#38;cor_group={home}#corrections">{home}</a>."#,
            enc(&player)
        )),
        "{section}"
    );
}

#[tokio::test]
async fn a_player_filter_that_matches_nothing_suggests_the_closest_name() {
    let d = served().await;
    let (_, player) = season(&d).await;
    // His name with one letter dropped from its last word.
    let mut typo = player.clone();
    let at = typo.rfind(' ').unwrap() + 2;
    typo.remove(at);
    let html = d.desk(&format!("cor_player={}", enc(&typo))).await;
    let section = corrections(&html);
    assert_eq!(listed(section), 0, "{section}");
    let shown = player.replace('&', "&#38;").replace('\'', "&#39;");
    assert!(
        section.contains("No recorded result matches “") && section.contains("; did you mean <a"),
        "{section}"
    );
    assert!(section.contains(&format!(">{shown}</a>?")), "{section}");
    // The suggestion is the desk filtered by his name.
    let href = format!(r#"href="{DESK}?cor_player="#);
    assert!(section.contains(&href), "{section}");

    // A name close to no one: said so, nothing suggested.
    let html = d.desk("cor_player=Zzyzx%20Qwerty").await;
    let section = corrections(&html);
    assert!(
        section.contains("No recorded result matches “Zzyzx Qwerty”."),
        "{section}"
    );
    assert!(!section.contains("did you mean"), "{section}");
}

#[tokio::test]
async fn an_over_long_or_hostile_filter_is_refused_or_escaped_never_a_500() {
    let d = served().await;
    let (all, _) = season(&d).await;

    // As long as an address may be (an `http::Uri` holds less than 64 KiB;
    // the server refuses a longer one before the desk): 400 with the desk,
    // the field named, the value not sent back whole, every result still
    // listed.
    let long = "x".repeat(60_000);
    let a = d.get(&format!("cor_player={long}")).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let html = a.text();
    let section = corrections(&html);
    assert!(
        section.contains(
            "Field “cor_player” (Player): a name has at most 200 characters; this one has 60000."
        ),
        "{}",
        &section[..2000.min(section.len())]
    );
    assert!(section.contains(r#"aria-invalid="true" aria-describedby="cor-problem""#));
    assert!(!html.contains(&"x".repeat(201)), "the value is cut");
    assert_eq!(games_by_group(section).len(), all.len());

    let a = d.get(&format!("cor_group={long}")).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let html = a.text();
    assert!(
        html.contains("Field “cor_group” (Group): no group “xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…” has a recorded result this season; the groups that have are "),
        "{html}"
    );
    assert!(!html.contains(&"x".repeat(41)), "the value is cut");

    // Markup is text: escaped in the field and in the sentence.
    let script = "<script>alert(1)</script>";
    let html = d.desk(&format!("cor_player={}", enc(script))).await;
    assert!(!html.contains(script), "{html}");
    let section = corrections(&html);
    assert!(
        section.contains("No recorded result matches “&#60;script&#62;alert(1)&#60;/script&#62;”."),
        "{section}"
    );
    assert!(
        section.contains(r#"value="&#60;script&#62;alert(1)&#60;/script&#62;""#),
        "{section}"
    );
    let quote = r#""><img src=x onerror=alert(1)>"#;
    let html = d.desk(&format!("cor_player={}", enc(quote))).await;
    assert!(!html.contains("<img src=x"), "{html}");
    let a = d.get(&format!("cor_group={}", enc(script))).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(!a.text().contains(script));
    assert!(
        a.text()
            .contains("no group “&#60;script&#62;alert(1)&#60;/script&#62;”")
    );

    // An invisible character matches no one; bytes that are no UTF-8 are
    // read as U+FFFD (and match no one); a control character is not sent
    // back as it is.
    for q in ["cor_player=%E2%80%8B", "cor_player=%FF%FE", "cor_player=%"] {
        let html = d.desk(q).await;
        assert!(
            corrections(&html).contains("No recorded result matches “"),
            "{q}"
        );
    }
    let a = d.get("cor_group=%00").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.text().contains("no group “\u{FFFD}”"), "{}", a.text());
    assert!(!a.text().contains('\0'));
    let html = d.desk("cor_player=a%07b").await;
    assert!(!html.contains('\u{7}'));
    // A key twice: refused by the desk's query as any of its keys is, a
    // 400, never a 500.
    let a = d.get("cor_player=a&cor_player=b").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    // Blank filters are no filter.
    let html = d.desk("cor_player=%20%20&cor_group=").await;
    assert_eq!(games_by_group(corrections(&html)).len(), all.len());

    // 100,000 characters carried back by a correction form (`_cor_player`):
    // refused, the desk says both problems; done, the desk it goes back to
    // has no filter (none that long is carried).
    let long = "x".repeat(100_000);
    let plain = d.desk("").await;
    let section = corrections(&plain);
    let first = &section[section.find(r#"id="form-cor-"#).unwrap() + 9..];
    let name = &first[..first.find('"').unwrap()];
    let body = body_of(
        section,
        name,
        &[("_cor_player", &long), ("outcome", "jigo"), ("reason", "")],
    );
    let a = post_form(&d.app, "/c/sunjang-demo/act", &d.jordan, body).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let html = a.text();
    assert!(
        html.contains(
            "Field “cor_player” (Player): a name has at most 200 characters; this one has 100000."
        ),
        "{}",
        corrections(&html)
    );
    assert!(
        html.contains(&format!(r#"id="{name}-reason-error""#)),
        "{}",
        &html[html.find(r#"id="refused""#).unwrap_or(0)..][..1500]
    );
    assert!(!html.contains(&"x".repeat(201)));
    let body = body_of(
        section,
        name,
        &[
            ("_cor_player", &long),
            ("outcome", "jigo"),
            ("reason", "Checked with both players"),
        ],
    );
    let a = post_form(&d.app, "/c/sunjang-demo/act", &d.jordan, body).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert_eq!(a.location(), format!("{DESK}?done=correct-result#done"));
}

#[tokio::test]
async fn the_filtered_desk_stays_a_moderators() {
    let d = served().await;
    let (_, player) = season(&d).await;
    let q = format!("{DESK}?cor_player={}", enc(&player));
    // Anonymous: to the login, with nothing of the desk.
    let a = get_with_cookie(&d.app, &q, "").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    assert!(a.location().starts_with("/login?next="), "{}", a.location());
    assert!(!a.text().contains("Correct a result"));
    // A player of the league: his desk has no correction form, filtered or
    // not, and the filter asks nothing of it.
    let (username, _) = d
        .accounts
        .iter()
        .find(|(_, role)| *role == "Sunjang player")
        .expect("a Sunjang player account")
        .clone();
    let cookie = login_session(&d.app, &username, DEMO_PASSWORD).await;
    for query in [
        format!("cor_player={}", enc(&player)),
        format!("cor_player={}", "x".repeat(5000)),
        "cor_group=%3Cscript%3E".to_string(),
    ] {
        let a = get_with_cookie(&d.app, &format!("{DESK}?{query}"), &cookie).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        let html = a.text();
        assert!(!html.contains(r#"id="corrections""#), "{html}");
        assert!(!html.contains(r#"value="correct-result""#), "{html}");
        assert!(!html.contains("cor_player"), "{html}");
    }
}

/// The hidden fields and the action of the form `form-{name}` in `html`,
/// with `filled`.
fn body_of(html: &str, name: &str, filled: &[(&str, &str)]) -> String {
    let at = html
        .find(&format!(r#"id="form-{name}""#))
        .unwrap_or_else(|| panic!("no form {name}"));
    let end = at + html[at..].find("</form>").unwrap();
    let form = &html[at..end];
    let mut fields: Vec<(String, String)> = form
        .match_indices(r#"<input type="hidden" name=""#)
        .map(|(i, m)| {
            let rest = &form[i + m.len()..];
            let (k, rest) = rest.split_once('"').unwrap();
            let rest = &rest[rest.find("value=\"").unwrap() + 7..];
            (k.to_string(), unescape(&rest[..rest.find('"').unwrap()]))
        })
        .collect();
    fields.retain(|(k, _)| !filled.iter().any(|(f, _)| f == k));
    fields.extend(filled.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    fields
        .iter()
        .map(|(k, v)| format!("{k}={}", enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

#[tokio::test]
async fn a_correction_sent_from_the_filtered_desk_comes_back_to_it() {
    let d = served().await;
    let (all, player) = season(&d).await;
    let his = all.iter().filter(|g| plays(g, &player)).count();
    let html = d.desk(&format!("cor_player={}", enc(&player))).await;
    let section = corrections(&html);
    let first = &section[section.find(r#"id="form-cor-"#).unwrap() + 9..];
    let name = &first[..first.find('"').unwrap()];

    // Refused (no reason): the desk again under the same filter, this
    // form open with the problem next to its field.
    let body = body_of(section, name, &[("outcome", "jigo"), ("reason", "")]);
    let a = post_form(&d.app, "/c/sunjang-demo/act", &d.jordan, body).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    let html = a.text();
    let section = corrections(&html);
    assert_eq!(listed(section), his, "{section}");
    assert!(section.contains(" recorded results match “"), "{section}");
    assert!(
        section.contains(&format!(r#"id="{name}-reason-error""#)),
        "{section}"
    );
    assert!(section.contains(r#"<option value="jigo" selected>"#));

    // The same refusal sent from the desk without a filter: its group is
    // opened, and its form.
    let plain = d.desk("").await;
    let plain_section = corrections(&plain);
    let body = body_of(plain_section, name, &[("outcome", "jigo"), ("reason", "")]);
    let a = post_form(&d.app, "/c/sunjang-demo/act", &d.jordan, body).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let html = a.text();
    let section = corrections(&html);
    assert!(!section.contains(" recorded results match “"));
    assert_eq!(
        section
            .matches(r#"<details class="form group-corrections" open>"#)
            .count(),
        1,
        "{section}"
    );
    assert!(section.contains(&format!(r#"id="{name}-reason-error""#)));

    // Done: back to the filtered desk, with the sentence of what was done.
    let body = body_of(
        corrections(&d.desk(&format!("cor_player={}", enc(&player))).await),
        name,
        &[
            ("outcome", "jigo"),
            ("reason", "Misrecorded; the players agree"),
        ],
    );
    let a = post_form(&d.app, "/c/sunjang-demo/act", &d.jordan, body).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    let to = a.location().to_string();
    assert!(
        to.starts_with(&format!("{DESK}?done=correct-result&cor_player=")) && to.ends_with("#done"),
        "{to}"
    );
    let html = d
        .desk(to.split_once('?').unwrap().1.split('#').next().unwrap())
        .await;
    assert!(html.contains("The result was corrected."));
    assert_eq!(listed(corrections(&html)), his);
}
