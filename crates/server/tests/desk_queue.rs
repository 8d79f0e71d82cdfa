//! Every moderator desk opens with one queue of what is waiting, each item
//! with its action in place, finished games folded away; and a desk form
//! refused for what it held is shown again on the desk, the problem next
//! to its field with the "did you mean" of a misspelled name and what was
//! typed kept (issue 17 §2). On the demo of `arbiter serve --demo`, told
//! as of its day or later, and on competitions made through the API.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use arbiter_engine::model::Time;
use arbiter_server::demo::{DEMO_PASSWORD, install_all, username_of};
use arbiter_server::{AppState, Clock, auth};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::StatusCode;
use common::{Answer, PASSWORD, enc, get_with_cookie, login_session, post_form};

struct Demo {
    app: Router,
    state: AppState,
    ladder: String,
    sunjang: String,
    chess: String,
    built_at: Time,
}

/// `serve --demo` on an in-memory database, built as of the demo's day and
/// told as of `days` later.
async fn served(days: i64) -> Demo {
    let today = arbiter_demo::reference_today();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store))
        .with_clock(Clock::Fixed(today + chrono::Duration::days(days)));
    let (built, rr, _) = install_all(&state.service, today).await.unwrap();
    Demo {
        app: arbiter_server::app(state.clone()),
        state,
        ladder: built.ladder.0,
        sunjang: built.sunjang.0,
        chess: rr.chess.0,
        built_at: built.now,
    }
}

impl Demo {
    async fn desk(&self, id: &str, cookie: &str) -> String {
        let a = get_with_cookie(&self.app, &format!("/c/{id}/manage"), cookie).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        a.text()
    }

    /// Send the form `form-{name}` of `page` with `filled` beside (or
    /// instead of) its fields.
    async fn send(
        &self,
        id: &str,
        cookie: &str,
        page: &str,
        name: &str,
        filled: &[(&str, &str)],
    ) -> Answer {
        post_form(
            &self.app,
            &format!("/c/{id}/act"),
            cookie,
            body(form(page, name), filled),
        )
        .await
    }
}

/// The queue of a desk: from its section to the next section's heading.
fn queue_of(desk: &str) -> &str {
    let start = desk
        .find(r#"<section id="waiting""#)
        .unwrap_or_else(|| panic!("no queue on {desk}"));
    let rest = &desk[start..];
    let end = rest[4..]
        .find(r#"<h2 id=""#)
        .and_then(|first| rest[first + 8..].find(r#"<h2 id=""#).map(|j| first + 8 + j))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The form `form-{name}` of `html`.
fn form<'a>(html: &'a str, name: &str) -> &'a str {
    let at = html
        .find(&format!(r#"id="form-{name}""#))
        .unwrap_or_else(|| panic!("no form {name} in {html}"));
    let start = html[..at].rfind("<form ").unwrap();
    let end = at + html[at..].find("</form>").unwrap();
    &html[start..end]
}

/// How many buttons of `html` begin with `words`.
fn buttons(html: &str, words: &str) -> usize {
    html.matches(&format!(r#"<button type="submit">{words}"#))
        .count()
}

/// The hidden fields of a form.
fn hiddens(form: &str) -> Vec<(String, String)> {
    form.match_indices(r#"<input type="hidden""#)
        .map(|(i, _)| {
            let el = &form[i..i + form[i..].find('>').unwrap()];
            let attr = |name: &str| {
                let key = format!(" {name}=\"");
                let at = el.find(&key).unwrap() + key.len();
                el[at..at + el[at..].find('"').unwrap()].to_string()
            };
            (attr("name"), attr("value"))
        })
        .collect()
}

/// A form's hidden fields with `filled`, which replace those of the same
/// name.
fn body(form: &str, filled: &[(&str, &str)]) -> String {
    let mut fields: Vec<(String, String)> = hiddens(form)
        .into_iter()
        .filter(|(k, _)| !filled.iter().any(|(f, _)| f == k))
        .collect();
    fields.extend(filled.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    fields
        .iter()
        .map(|(k, v)| format!("{k}={}", enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The games of the ladder's running round, `(id, ussr, us)`, from the
/// moderator's game cards.
fn ladder_games(desk: &str) -> Vec<(String, String, String)> {
    desk.split(r#"<h3 id="g-"#)
        .skip(1)
        .map(|s| {
            let line = &s[s.find('>').unwrap() + 1..s.find("</h3>").unwrap()];
            let (id, rest) = line.split_once(": ").unwrap();
            let (ussr, us) = rest.split_once(" (USSR) v. ").unwrap();
            (
                id.to_string(),
                ussr.to_string(),
                us.trim_end_matches(" (US)").to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn an_overdue_game_is_queued_with_its_forms_and_finished_games_fold_away() {
    // 100 days after the demo's day: round 4's deadline has passed.
    let d = served(100).await;
    let jordan = login_session(&d.app, "jordan", DEMO_PASSWORD).await;
    let desk = d.desk(&d.ladder, &jordan).await;
    let queue = queue_of(&desk);
    assert!(!queue.contains("Nothing is waiting."), "{queue}");
    let games = ladder_games(&desk);
    let open: Vec<&(String, String, String)> = games
        .iter()
        .filter(|(g, ..)| desk.contains(&format!(r#"id="form-rec-{g}""#)))
        .collect();
    assert!(!open.is_empty(), "the demo's round 4 has open games");
    for (g, ussr, us) in &open {
        // Each open game is overdue: queued, with a link straight to its
        // card, whose forms record, forfeit, adjudicate it.
        assert!(
            queue.contains(&format!(
                "<strong>Overdue:</strong> {g}: {ussr} (USSR) v. {us} (US), past its deadline"
            )),
            "{g}: {queue}"
        );
        assert!(
            queue.contains(&format!(r##"<a href="#g-{g}">"##)),
            "{queue}"
        );
        let card = &desk[desk.find(&format!(r#"<h3 id="g-{g}">"#)).unwrap()..];
        let card = &card[..card.find("</section>").unwrap()];
        for action in ["record-result", "forfeit", "adjudicate"] {
            assert!(
                card.contains(&format!(r#"value="{action}""#)),
                "{g}: {card}"
            );
        }
    }
    // The finished games of the round are behind one closed fold with
    // their count, after the open ones.
    let finished = games.len() - open.len();
    assert!(finished > 0, "the demo's round 4 has results");
    let fold = format!(
        r#"<details class="form" id="finished"><summary>Finished games ({finished})</summary>"#
    );
    let at = desk.find(&fold).unwrap_or_else(|| panic!("{desk}"));
    for (g, ..) in &games {
        let card = desk.find(&format!(r#"<h3 id="g-{g}">"#)).unwrap();
        let is_open = open.iter().any(|(o, ..)| o == g);
        assert_eq!(card < at, is_open, "{g}");
    }
    // The round cannot close with its overdue games: no close is queued.
    assert!(!queue.contains("Preview the close"), "{queue}");
    // The round robin's games past their round's deadline are queued too.
    let desk = d.desk(&d.chess, &jordan).await;
    let queue = queue_of(&desk);
    let late = queue.matches("<strong>Overdue:</strong>").count();
    assert!(late > 0, "{queue}");
    assert!(
        queue.contains(r##"<a href="#rec-G"##) || queue.contains("#form-any"),
        "{queue}"
    );
}

#[tokio::test]
async fn reports_disputes_and_applications_are_queued_with_their_forms() {
    let d = served(0).await;
    let jordan = login_session(&d.app, "jordan", DEMO_PASSWORD).await;
    let desk = d.desk(&d.ladder, &jordan).await;
    assert!(
        queue_of(&desk).contains("<p>Nothing is waiting.</p>"),
        "{}",
        queue_of(&desk)
    );
    // A player reports his game from his desk.
    let (g, ussr, us) = ladder_games(&desk)
        .into_iter()
        .find(|(g, ..)| desk.contains(&format!(r#"id="form-rec-{g}""#)))
        .unwrap();
    let player = login_session(&d.app, &username_of(&ussr), DEMO_PASSWORD).await;
    let mine = d.desk(&d.ladder, &player).await;
    let sent = d
        .send(
            &d.ladder,
            &player,
            &mine,
            &format!("report-{g}"),
            &[("winner", &ussr), ("ended_by", "vp"), ("vp", "-20")],
        )
        .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text());
    // The moderator's queue holds it, with its confirm and dispute forms.
    let desk = d.desk(&d.ladder, &jordan).await;
    let queue = queue_of(&desk);
    assert!(
        queue.contains(&format!(
            "<strong>Report waiting:</strong> {ussr} reported {g}: {ussr} (USSR) v. {us} (US): {ussr} won"
        )),
        "{queue}"
    );
    let confirm = form(queue, &format!("q-rep-{g}-1"));
    assert!(confirm.contains(r#"value="confirm-result""#), "{confirm}");
    assert!(confirm.contains(&format!(r#"name="game" value="{g}""#)));
    // Disputed from the queue with an empty reason: refused next to the
    // reason, the dispute's fold open.
    let refused = d
        .send(
            &d.ladder,
            &jordan,
            queue,
            &format!("q-rep-{g}-2"),
            &[("reason", " ")],
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::BAD_REQUEST,
        "{}",
        refused.text()
    );
    let page = refused.text();
    assert!(page.contains("<h1>Desk of"), "{page}");
    assert!(
        page.contains(&format!(r#"id="q-rep-{g}-2-reason-error""#)),
        "{page}"
    );
    assert!(page.contains(r#"<details class="form" open><summary>Dispute the report</summary>"#));
    // Disputed with a reason: the queue says so until the game is decided.
    let sent = d
        .send(
            &d.ladder,
            &jordan,
            queue,
            &format!("q-rep-{g}-2"),
            &[("reason", "the VP track says otherwise")],
        )
        .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text());
    let desk = d.desk(&d.ladder, &jordan).await;
    let queue = queue_of(&desk);
    assert!(!queue.contains("Report waiting"), "{queue}");
    assert!(
        queue.contains(&format!(
            "<strong>Disputed:</strong> {g}: {ussr} (USSR) v. {us} (US): Jordan Reyes disputed its report: “the VP track says otherwise”"
        )),
        "{queue}"
    );
    assert!(
        queue.contains(&format!(r##"<a href="#g-{g}">"##)),
        "{queue}"
    );

    // An application waits for approval, approved from the queue.
    auth::create_account(
        d.state.service.store(),
        d.built_at,
        "newcomer",
        "Wanda Newcomer",
        None,
        PASSWORD,
        false,
    )
    .await
    .unwrap();
    let zoe = login_session(&d.app, "newcomer", PASSWORD).await;
    let hers = d.desk(&d.ladder, &zoe).await;
    let join = hers
        .split("<form ")
        .find(|f| f.contains(r#"value="join""#))
        .unwrap();
    let sent = post_form(
        &d.app,
        &format!("/c/{}/act", d.ladder),
        &zoe,
        body(join, &[]),
    )
    .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text());
    let desk = d.desk(&d.ladder, &jordan).await;
    let queue = queue_of(&desk);
    assert!(
        queue.contains("<strong>To approve:</strong> Wanda Newcomer asked to join"),
        "{queue}"
    );
    let approve = queue
        .split("<form ")
        .find(|f| f.contains(r#"value="approve""#))
        .unwrap();
    let sent = post_form(
        &d.app,
        &format!("/c/{}/act", d.ladder),
        &jordan,
        body(approve, &[]),
    )
    .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text());
    let desk = d.desk(&d.ladder, &jordan).await;
    assert!(
        !queue_of(&desk).contains("To approve"),
        "{}",
        queue_of(&desk)
    );
}

#[tokio::test]
async fn a_misspelled_name_is_refused_next_to_its_field_with_the_input_kept() {
    let d = served(0).await;
    let jordan = login_session(&d.app, "jordan", DEMO_PASSWORD).await;
    // The ladder: link an account to "Ana Morale".
    let desk = d.desk(&d.ladder, &jordan).await;
    let before = common::version(&d.app, &d.ladder).await;
    let a = d
        .send(
            &d.ladder,
            &jordan,
            &desk,
            "link",
            &[("player", "Ana Morale"), ("account", "someone")],
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    assert_eq!(
        common::version(&d.app, &d.ladder).await,
        before,
        "nothing stored"
    );
    let page = a.text();
    // The desk again, not a problem page: the field marked, the problem
    // with its suggestion right after it, both values kept.
    assert!(page.contains("<h1>Desk of"), "{page}");
    let field = &page[page.find(r#"<input id="link-player""#).unwrap()..];
    let field = &field[..field.find("<label").unwrap()];
    assert!(field.contains(r#"value="Ana Morale""#), "{field}");
    assert!(
        field.contains(r#"aria-invalid="true" aria-describedby="link-player-error""#),
        "{field}"
    );
    assert!(
        field.contains(r#"<span class="field-error" id="link-player-error" role="alert">"#)
            && field.contains("did you mean Ana Morales?"),
        "{field}"
    );
    assert!(
        page.contains(
            r#"id="link-account" name="account" required maxlength="64" value="someone""#
        ),
        "{page}"
    );
    // Above the desk: nothing changed, and the way to the form.
    assert!(
        page.contains(r##"<a href="#form-link">To the form</a>"##),
        "{page}"
    );
    // Only that form holds the values: the other forms are as shown.
    assert!(page.contains(r#"id="wd-player" name="player" list="players" required value="""#));

    // The Sunjang league: update "Kim Min-jum".
    let desk = d.desk(&d.sunjang, &jordan).await;
    let a = d
        .send(
            &d.sunjang,
            &jordan,
            &desk,
            "up",
            &[
                ("player", "Kim Min-jum"),
                ("rank", "3k"),
                ("rating", "1900"),
            ],
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    let page = a.text();
    let field = &page[page.find(r#"<input id="up-player""#).unwrap()..];
    let field = &field[..field.find("<label").unwrap()];
    assert!(field.contains(r#"value="Kim Min-jum""#), "{field}");
    assert!(field.contains("did you mean Kim Min-jun"), "{field}");
    assert!(
        page.contains(r#"value="1900""#) && page.contains(r#"value="3k""#),
        "{page}"
    );
}

#[tokio::test]
async fn a_result_form_refused_keeps_what_was_typed_next_to_its_field() {
    let d = served(0).await;
    let jordan = login_session(&d.app, "jordan", DEMO_PASSWORD).await;
    // The ladder: a VP that is not a number.
    let desk = d.desk(&d.ladder, &jordan).await;
    let (g, _, us) = ladder_games(&desk)
        .into_iter()
        .find(|(g, ..)| desk.contains(&format!(r#"id="form-rec-{g}""#)))
        .unwrap();
    let a = d
        .send(
            &d.ladder,
            &jordan,
            &desk,
            &format!("rec-{g}"),
            &[
                ("winner", &us),
                ("ended_by", "final-scoring"),
                ("vp", "twelve"),
                ("note", "long game"),
            ],
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    let page = a.text();
    let f = form(&page, &format!("rec-{g}"));
    assert!(
        f.contains(r#"value="twelve""#) && f.contains(r#"value="long game""#),
        "{f}"
    );
    assert!(f.contains(&format!(r#"id="rec-{g}-vp-error""#)), "{f}");
    assert!(
        f.contains(&format!(r#"<option value="{us}" selected>"#)),
        "{f}"
    );
    assert!(
        f.contains(r#"<option value="final-scoring" selected>"#),
        "{f}"
    );
    // Its fold is open.
    let at = page.find(&format!(r#"id="form-rec-{g}""#)).unwrap();
    let fold = &page[page[..at].rfind("<details").unwrap()..at];
    assert!(fold.starts_with(r#"<details class="form" open>"#), "{fold}");

    // The round robin: a result that is not one of the choices.
    let desk = d.desk(&d.chess, &jordan).await;
    let label = desk
        .split(r#"id="form-rec-"#)
        .nth(1)
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .unwrap();
    let a = d
        .send(
            &d.chess,
            &jordan,
            &desk,
            &format!("rec-{label}"),
            &[("score", "7-0")],
        )
        .await;
    assert!(a.status.is_client_error(), "{}", a.text());
    let page = a.text();
    assert!(page.contains("<h1>Desk of"), "{page}");
    let f = form(&page, &format!("rec-{label}"));
    assert!(
        f.contains(&format!(r#"id="rec-{label}-score-error""#)),
        "{f}"
    );
    // Any game by its two names, one misspelled: the suggestion next to
    // the game, what was typed kept, the form's fold open.
    let heading = desk
        .split(r#"<h3 id="rec-G"#)
        .nth(1)
        .map(|s| s[s.find('>').unwrap() + 1..s.find("</h3>").unwrap()].to_string())
        .unwrap();
    let (home, away) = heading
        .split_once(": ")
        .unwrap()
        .1
        .split_once(" v ")
        .unwrap();
    let typed = format!("{home}-{}", &away[..away.len() - 1]);
    let a = d
        .send(
            &d.chess,
            &jordan,
            &desk,
            "any",
            &[("game", &typed), ("score", "1-0")],
        )
        .await;
    assert!(a.status.is_client_error(), "{}", a.text());
    let page = a.text();
    let f = form(&page, "any");
    assert!(f.contains(&format!(r#"value="{typed}""#)), "{f}");
    assert!(
        f.contains(r#"id="any-game-error""#) && f.contains(&format!("did you mean {home}-{away}?")),
        "{f}"
    );
    assert!(page.contains(r#"<details class="form" open><summary>Record a game of a later round"#));
}

#[tokio::test]
async fn rolls_next_games_and_plans_are_queued_and_xmadn_forms_keep_their_input() {
    let d = served(0).await;
    let token = auth::create_token(&d.state, "jordan", "test")
        .await
        .unwrap();
    for body in [
        serde_json::json!({"format": "xmadn-league", "id": "xl", "name": "XL", "players": ["Ann", "Ben", "Cat"]}),
        serde_json::json!({"format": "xmadn-challengers", "id": "xc", "name": "XC", "players": ["Ann", "Ben", "Cat"]}),
        serde_json::json!({"format": "sunjang-league", "id": "sj", "name": "SJ"}),
    ] {
        let a = common::send(
            &d.app,
            axum::http::Method::POST,
            "/api/competitions",
            common::As::Token(&token),
            &[],
            Some(&body),
        )
        .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    }
    let jordan = login_session(&d.app, "jordan", DEMO_PASSWORD).await;

    // The league waits for DRR 1's positions (XM-R1): rolled from the queue.
    let desk = d.desk("xl", &jordan).await;
    let queue = queue_of(&desk);
    assert!(
        queue.contains("<strong>Due:</strong> Double round-robin 1 waits for its positions to be rolled (XMadn League: Double-round robins; ties roll again, XM-R1).")
            && queue.contains("<button type=\"submit\">Roll the positions of DRR 1</button>"),
        "{queue}"
    );
    let sent = d.send("xl", &jordan, queue, "q-roll-1", &[]).await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text());
    let desk = d.desk("xl", &jordan).await;
    assert!(
        queue_of(&desk).contains("<p>Nothing is waiting.</p>"),
        "{}",
        queue_of(&desk)
    );
    // A result with impossible pawns: refused next to the pawns, the time
    // kept.
    let rec = desk
        .split(r#"id="form-rec-"#)
        .nth(1)
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .unwrap();
    let a = d
        .send(
            "xl",
            &jordan,
            &desk,
            &format!("rec-{rec}"),
            &[("pawns", "9-9"), ("time", "21:30")],
        )
        .await;
    assert!(a.status.is_client_error(), "{}", a.text());
    let page = a.text();
    let f = form(&page, &format!("rec-{rec}"));
    assert!(
        f.contains(r#"value="9-9""#) && f.contains(r#"value="21:30""#),
        "{f}"
    );
    assert!(f.contains(r#"class="field-error""#), "{page}");

    // Challengers: Game 0 waits, the queue links to its form; a misspelled
    // finisher is refused next to the finishing order with a suggestion.
    let desk = d.desk("xc", &jordan).await;
    let queue = queue_of(&desk);
    assert!(
        queue.contains("Game 0, the three-player qualifier, waits for its result.")
            && queue.contains(r##"<a href="#qualifier">To its form</a>"##),
        "{queue}"
    );
    let a = d
        .send(
            "xc",
            &jordan,
            &desk,
            "q",
            &[
                ("first", "Annn"),
                ("second", "Ben"),
                ("third", "Cat"),
                ("chosen", "red/blue"),
            ],
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    let page = a.text();
    let f = form(&page, "q");
    assert!(
        f.contains(r#"value="Annn""#) && f.contains(r#"value="red/blue""#),
        "{f}"
    );
    assert!(
        f.contains(r#"id="q-finishing-error""#) && f.contains("did you mean Ann?"),
        "{f}"
    );

    // An empty Sunjang league: nothing waits; a rating that is not a
    // number is refused next to it, the name kept; with players, the first
    // season is due, the queue linking to the one button that previews it.
    let desk = d.desk("sj", &jordan).await;
    assert!(queue_of(&desk).contains("<p>Nothing is waiting.</p>"));
    let a = d
        .send(
            "sj",
            &jordan,
            &desk,
            "add",
            &[("name", "Ann Lee"), ("rank", "3k"), ("rating", "high")],
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    let page = a.text();
    let f = form(&page, "add");
    assert!(
        f.contains(r#"value="Ann Lee""#) && f.contains(r#"value="high""#),
        "{f}"
    );
    assert!(f.contains(r#"id="add-rating-error""#), "{f}");
    let sent = d
        .send(
            "sj",
            &jordan,
            &page,
            "add",
            &[("name", "Ann Lee"), ("rank", "3k"), ("rating", "1900")],
        )
        .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text());
    let desk = d.desk("sj", &jordan).await;
    let queue = queue_of(&desk);
    assert!(
        queue.contains("<strong>Due:</strong> Season 1 can be planned"),
        "{queue}"
    );
    assert!(
        queue.contains(r##"<a href="#form-plan">Preview season 1 below</a>"##),
        "{queue}"
    );
    assert_eq!(buttons(&desk, "Preview season"), 1, "{desk}");
    let preview = d.send("sj", &jordan, &desk, "plan", &[]).await;
    assert!(
        preview.status == StatusCode::OK || preview.status.is_client_error(),
        "{}",
        preview.text()
    );
}

/// Record every game still open on desk `id` through its forms named
/// `rec-…`, each with `filled`, reading the desk again after each.
async fn record_all(
    d: &Demo,
    id: &str,
    cookie: &str,
    filled: &dyn Fn(&str) -> Vec<(String, String)>,
) {
    for _ in 0..500 {
        let desk = d.desk(id, cookie).await;
        let Some(name) = desk
            .split(r#"id="form-rec-"#)
            .nth(1)
            .map(|s| format!("rec-{}", &s[..s.find('"').unwrap()]))
        else {
            return;
        };
        let fields = filled(form(&desk, &name));
        let fields: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let sent = d.send(id, cookie, &desk, &name, &fields).await;
        assert_eq!(
            sent.status,
            StatusCode::SEE_OTHER,
            "{name}: {}",
            sent.text()
        );
    }
    panic!("more than 500 games to record on {id}");
}

#[tokio::test]
async fn a_round_or_season_whose_games_are_decided_is_queued_to_close() {
    let d = served(0).await;
    let jordan = login_session(&d.app, "jordan", DEMO_PASSWORD).await;
    // The ladder: once every game of round 4 is decided, its close is due
    // (TWS Change of Ladder Standings), previewed from the round's own form,
    // which the queue links to.
    let desk = d.desk(&d.ladder, &jordan).await;
    assert!(!queue_of(&desk).contains("Preview the close"));
    record_all(&d, &d.ladder, &jordan, &|f| {
        // The first option of the winner's select: the USSR player.
        let at = f.find(r#"name="winner""#).unwrap();
        let v = &f[at..];
        let v = &v[v.find(r#"<option value=""#).unwrap() + 15..];
        vec![
            ("winner".into(), v[..v.find('"').unwrap()].to_string()),
            ("ended_by".into(), "final-scoring".into()),
        ]
    })
    .await;
    let desk = d.desk(&d.ladder, &jordan).await;
    let queue = queue_of(&desk);
    assert!(
        queue.contains(
            "<strong>Due:</strong> Round 4: every game is decided; close it to re-sort the ladder (TWS Change of Ladder Standings)."
        ),
        "{queue}"
    );
    // The queue links to the round's own close, the one button of the
    // desk that previews it.
    assert!(
        queue.contains(r##"<a href="#form-close">Preview the close of round 4 below</a>"##),
        "{queue}"
    );
    let item = &queue[queue.find(r#"id="q-close""#).unwrap()..];
    let item = &item[..item.find("</section>").unwrap()];
    assert!(!item.contains("<button"), "{item}");
    // One button previews the close, one the next round (issue 17 §2).
    assert_eq!(buttons(&desk, "Preview the close"), 1, "{desk}");
    assert_eq!(buttons(&desk, "Preview round"), 1, "{desk}");
    assert_eq!(buttons(&desk, "Preview round 5</button>"), 1, "{desk}");
    let preview = d.send(&d.ladder, &jordan, &desk, "close", &[]).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
    assert!(
        preview.text().contains("Preview of the close of round 4"),
        "{}",
        preview.text()
    );

    // The Sunjang league: once every group game of season 3 is recorded,
    // its close is due (SJ-R5), done from the queue; then the final round.
    let desk = d.desk(&d.sunjang, &jordan).await;
    assert!(!queue_of(&desk).contains("Close season"));
    record_all(&d, &d.sunjang, &jordan, &|_| {
        vec![("outcome".into(), "black".into())]
    })
    .await;
    let desk = d.desk(&d.sunjang, &jordan).await;
    let queue = queue_of(&desk);
    assert!(
        queue.contains("every group game is decided; close it to record each division&#39;s merged ranking (SJ-R5)."),
        "{queue}"
    );
    let sent = d.send(&d.sunjang, &jordan, queue, "q-close-1", &[]).await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text());
    let desk = d.desk(&d.sunjang, &jordan).await;
    let queue = queue_of(&desk);
    assert!(
        queue.contains("its final round can be qualified (SJ-R7)")
            || queue.contains("The final round waits for a tiebreak record"),
        "{queue}"
    );
}

/// A new ladder's desk: the queue says what is due and its rule, and links
/// to the round's own form, so that round 1 has exactly one button to
/// preview it (issue 17 §2); the demo ladder's, its round running, has
/// none. Once a round is decided: `a_round_or_season_whose_games_are_decided_is_queued_to_close`.
#[tokio::test]
async fn the_desk_has_one_preview_button_per_round() {
    let d = served(0).await;
    let token = auth::create_token(&d.state, "jordan", "test")
        .await
        .unwrap();
    let a = common::send(
        &d.app,
        axum::http::Method::POST,
        "/api/competitions",
        common::As::Token(&token),
        &[],
        Some(&serde_json::json!({"format": "tws-ladder", "id": "tl", "name": "TL"})),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let jordan = login_session(&d.app, "jordan", DEMO_PASSWORD).await;

    for name in ["Ann Ames", "Ben Bell", "Cat Cole", "Dan Dunn"] {
        let desk = d.desk("tl", &jordan).await;
        let added = d.send("tl", &jordan, &desk, "add", &[("name", name)]).await;
        assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text());
    }

    let desk = d.desk("tl", &jordan).await;
    let queue = queue_of(&desk);
    assert!(
        queue.contains("<strong>Due:</strong> No round is running: round 1 can be announced (TWS Conduct of Games:"),
        "{queue}"
    );
    assert!(
        queue.contains(r##"<a href="#form-announce">Preview round 1 below, with its deadline, eliminator or pairings</a>"##),
        "{queue}"
    );
    assert!(!queue.contains("<button"), "{queue}");
    assert_eq!(buttons(&desk, "Preview round"), 1, "{desk}");
    assert_eq!(buttons(&desk, "Preview round 1</button>"), 1, "{desk}");
    // The link's target is the form with that button.
    assert!(
        form(&desk, "announce").contains(r#"<button type="submit">Preview round 1</button>"#),
        "{desk}"
    );
    let preview = d.send("tl", &jordan, &desk, "announce", &[]).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
    assert!(
        preview.text().contains("Preview: nothing is stored yet"),
        "{}",
        preview.text()
    );

    // The demo ladder, round 4 running with games overdue: no round 5 to
    // preview, and no close queued; the round's own section offers its
    // one close (early, with a reason, ARB-R21).
    let desk = d.desk(&d.ladder, &jordan).await;
    assert_eq!(buttons(&desk, "Preview round"), 0, "{desk}");
    assert_eq!(buttons(&desk, "Preview the close"), 1, "{desk}");
    assert!(!queue_of(&desk).contains("Preview the close"));
}
