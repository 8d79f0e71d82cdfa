//! Accounts for the demo competitions, so that `arbiter serve --demo` and a
//! browser are enough to run a round as an organizer and report a result as
//! a player.

use arbiter_engine::model::Time;
use arbiter_store::{AccountStore, Grant, Role};

use crate::auth;
use crate::error::ApiError;

/// Every demo account's password (printed when the demo server starts).
pub const DEMO_PASSWORD: &str = "arbiter-demo";

/// A demo account: its username and the name it plays or moderates under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoAccount {
    pub username: String,
    pub name: String,
    pub role: &'static str,
}

/// A username from a name: its first word, lower-cased, accents dropped.
pub fn username_of(name: &str) -> String {
    let first = name.split_whitespace().next().unwrap_or(name);
    first
        .chars()
        .filter_map(|c| match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' | 'å' => Some('a'),
            'è' | 'é' | 'ê' | 'ë' => Some('e'),
            'ì' | 'í' | 'î' | 'ï' => Some('i'),
            'ò' | 'ó' | 'ô' | 'ö' | 'õ' => Some('o'),
            'ù' | 'ú' | 'û' | 'ü' => Some('u'),
            'ç' => Some('c'),
            'ñ' => Some('n'),
            c if c.is_ascii_alphanumeric() => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// Make the demo accounts: `moderators[0]` is an organizer who owns every
/// competition in `owned` and moderates the ladder with the other
/// moderators; each of `players` gets an account linked to his player in
/// the ladder. All share [`DEMO_PASSWORD`]. Hashing is done once.
pub async fn create_accounts(
    store: &(impl AccountStore + ?Sized),
    at: Time,
    ladder: &str,
    owned: &[&str],
    moderators: &[String],
    players: &[String],
) -> Result<Vec<DemoAccount>, ApiError> {
    let hash = tokio::task::spawn_blocking(|| auth::hash_password(DEMO_PASSWORD))
        .await
        .map_err(|e| ApiError::internal(format!("hashing failed: {e}")))??;
    let mut made = Vec::new();
    let grant = |username: &str, competition: &str, role: Role, player: Option<String>| Grant {
        competition: competition.to_string(),
        username: username.to_string(),
        role,
        player,
    };
    for (i, name) in moderators.iter().enumerate() {
        let username = username_of(name);
        store
            .create_account(&arbiter_store::Account {
                username: username.clone(),
                display_name: name.clone(),
                email: Some(format!("{username}@demo.invalid")),
                password_hash: hash.clone(),
                organizer: i == 0,
                created_at: at.to_rfc3339(),
            })
            .await
            .map_err(ApiError::from_store)?;
        store
            .grant(&grant(&username, ladder, Role::Moderator, None))
            .await
            .map_err(ApiError::from_store)?;
        if i == 0 {
            for c in owned {
                store
                    .grant(&grant(&username, c, Role::Owner, None))
                    .await
                    .map_err(ApiError::from_store)?;
            }
        }
        made.push(DemoAccount {
            username,
            name: name.clone(),
            role: if i == 0 {
                "organizer, owner"
            } else {
                "moderator"
            },
        });
    }
    for name in players {
        let username = username_of(name);
        if made.iter().any(|m| m.username == username) {
            continue;
        }
        store
            .create_account(&arbiter_store::Account {
                username: username.clone(),
                display_name: name.clone(),
                email: Some(format!("{username}@demo.invalid")),
                password_hash: hash.clone(),
                organizer: false,
                created_at: at.to_rfc3339(),
            })
            .await
            .map_err(ApiError::from_store)?;
        store
            .grant(&grant(&username, ladder, Role::Player, Some(name.clone())))
            .await
            .map_err(ApiError::from_store)?;
        made.push(DemoAccount {
            username,
            name: name.clone(),
            role: "player",
        });
    }
    Ok(made)
}

/// Link each demo player's account to his ladder player by the ladder's
/// own events (ARB-R50), as a moderator (`actor`) would at `at`.
pub async fn link_players(
    service: &crate::Svc,
    ladder: &str,
    at: Time,
    actor: &str,
    players: &[String],
) -> Result<(), ApiError> {
    let ctx = arbiter_service::Context {
        actor: actor.to_string(),
        at,
        idempotency_key: None,
        expected: None,
    };
    for name in players {
        service
            .link_account(ladder, name, &username_of(name), &ctx)
            .await?;
    }
    Ok(())
}

/// What `arbiter serve --demo` sets up: [`install_all`] without the
/// round robins' part of its answer (they are installed all the same).
pub async fn install(
    service: &crate::Svc,
    today: Time,
) -> Result<(arbiter_demo::Built, Vec<DemoAccount>), ApiError> {
    let (built, _, made) = install_all(service, today).await?;
    Ok((built, made))
}

/// The demo competitions told as of `today` (so the ladder's running round
/// is weeks from its deadline on any date, issue 15 §1), and beside them
/// the demo round robins (issue 16: `arbiter_demo::roundrobin`); an account
/// for each moderator and ladder player, each player's account linked to
/// him by the ladder's events (ARB-R50). The organizer owns every demo
/// competition; the ladder's moderators also moderate the round robins
/// (grants only, as their results are recorded by a moderator, ARB-R45).
pub async fn install_all(
    service: &crate::Svc,
    today: Time,
) -> Result<
    (
        arbiter_demo::Built,
        arbiter_demo::roundrobin::RoundRobins,
        Vec<DemoAccount>,
    ),
    ApiError,
> {
    let built = arbiter_demo::build_on(service.store(), "tws-demo", today)
        .await
        .map_err(ApiError::from)?;
    let round_robins = arbiter_demo::roundrobin::build_on(service.store(), today)
        .await
        .map_err(ApiError::from)?;
    let ladder = &built.ladder.1;
    let players: Vec<String> = ladder
        .players
        .iter()
        .map(|p| p.player.name.clone())
        .collect();
    let moderators: Vec<String> = ladder.moderators.iter().map(|m| m.name.clone()).collect();
    let made = create_accounts(
        service.store(),
        built.now,
        &built.ladder.0,
        &[
            &built.ladder.0,
            &built.league.0,
            &built.challengers.0,
            &built.sunjang.0,
            &round_robins.euro.0,
            &round_robins.chess.0,
        ],
        &moderators,
        &players,
    )
    .await?;
    for id in [&round_robins.euro.0, &round_robins.chess.0] {
        for m in made.iter().filter(|m| m.role != "player") {
            service
                .store()
                .grant(&Grant {
                    competition: id.clone(),
                    username: m.username.clone(),
                    role: Role::Moderator,
                    player: None,
                })
                .await
                .map_err(ApiError::from_store)?;
        }
    }
    let linked: Vec<String> = players
        .iter()
        .filter(|p| made.iter().any(|m| m.role == "player" && &m.name == *p))
        .cloned()
        .collect();
    let organizer = made
        .first()
        .map_or("demo", |m| m.username.as_str())
        .to_string();
    link_players(service, &built.ladder.0, built.now, &organizer, &linked).await?;
    let mut made = made;
    link_format_players(service, &built, &organizer, &mut made).await?;
    Ok((built, round_robins, made))
}

/// The demo XMadn league whose games wait for their players' reports
/// (ARB-R81): the demo's own league is over, so this one has its first
/// double round-robin's positions entered and nothing played.
pub const OPEN_LEAGUE_ID: &str = "xmadn-league-open-demo";
/// The demo Challengers event whose games wait for their players' reports:
/// Game 0 recorded, Game 1 to play.
pub const OPEN_CHALLENGERS_ID: &str = "xmadn-challengers-open-demo";
const OPEN_LEAGUE_PLAYERS: [&str; 3] = ["Greta Hahn", "Henrik Moll", "Ilse Vogt"];
const OPEN_CHALLENGERS_PLAYERS: [&str; 3] = ["Jana Berg", "Karl Stein", "Lotte Wolf"];

/// The two open XMadn competitions, owned by the organizer, as he would
/// set them up at `built.now`: the league's positions by dice rolled at
/// the table (ARB-R64, so the demo is the same every time), Game 0 of the
/// Challengers event recorded.
async fn open_competitions(
    service: &crate::Svc,
    built: &arbiter_demo::Built,
    organizer: &str,
) -> Result<(), ApiError> {
    use arbiter_engine::model::PlayerId;
    use arbiter_engine::xmadn::challengers::{self, Challengers};
    use arbiter_engine::xmadn::league::{self, League};
    let ctx = arbiter_service::Context {
        actor: organizer.to_string(),
        at: built.now,
        idempotency_key: None,
        expected: None,
    };
    let names = |n: [&str; 3]| n.map(str::to_string).to_vec();
    service
        .create_league(
            OPEN_LEAGUE_ID,
            "XMadn 2T League, open for reports (demo)",
            arbiter_engine::xmadn::LeagueRules::default(),
            &names(OPEN_LEAGUE_PLAYERS),
            &ctx,
        )
        .await?;
    let [a, b, c] = [PlayerId(1), PlayerId(2), PlayerId(3)];
    service
        .execute_as::<League>(
            OPEN_LEAGUE_ID,
            league::Command::EnterRoll {
                rounds: vec![vec![(a, 5), (b, 3), (c, 6)]],
                by: organizer.to_string(),
                at: built.now,
            },
            &ctx,
        )
        .await?;
    service
        .create_challengers(
            OPEN_CHALLENGERS_ID,
            "XMadn Challengers, open for reports (demo)",
            arbiter_engine::xmadn::ChallengersRules::default(),
            &names(OPEN_CHALLENGERS_PLAYERS),
            &ctx,
        )
        .await?;
    service
        .execute_as::<Challengers>(
            OPEN_CHALLENGERS_ID,
            challengers::Command::RecordQualifier {
                finishing: [a, b, c],
                colours: None,
                seconds: None,
                chosen: arbiter_engine::xmadn::Colours {
                    vanguard: "red".into(),
                    rearguard: "blue".into(),
                },
                at: built.now,
            },
            &ctx,
        )
        .await?;
    for id in [OPEN_LEAGUE_ID, OPEN_CHALLENGERS_ID] {
        service
            .store()
            .grant(&Grant {
                competition: id.to_string(),
                username: organizer.to_string(),
                role: Role::Owner,
                player: None,
            })
            .await
            .map_err(ApiError::from_store)?;
    }
    Ok(())
}

/// Accounts for the players of the open XMadn league and Challengers event
/// ([`open_competitions`]) and for the two players of the Sunjang league's
/// first group game without a result whose usernames are free, each linked
/// to his player by the competition's own events (ARB-R50), so that
/// reporting one's own result (ARB-R81) can be tried in every format.
async fn link_format_players(
    service: &crate::Svc,
    built: &arbiter_demo::Built,
    actor: &str,
    made: &mut Vec<DemoAccount>,
) -> Result<(), ApiError> {
    open_competitions(service, built, actor).await?;
    let sunjang = &built.sunjang.1;
    let free = |name: &String| !made.iter().any(|m| m.username == username_of(name));
    let open_game: Vec<String> = sunjang
        .current()
        .filter(|s| s.close.is_none())
        .and_then(|s| {
            s.divisions
                .iter()
                .flatten()
                .flat_map(|g| g.games.iter())
                .filter(|g| g.outcome.is_none())
                .map(|g| {
                    [
                        sunjang.name_of(g.pairing.black),
                        sunjang.name_of(g.pairing.white),
                    ]
                })
                .find(|[b, w]| free(b) && free(w) && username_of(b) != username_of(w))
        })
        .map(|g| g.to_vec())
        .unwrap_or_default();
    let names = |n: [&str; 3]| n.map(str::to_string).to_vec();
    let groups: [(&str, Vec<String>, &'static str); 3] = [
        (
            OPEN_LEAGUE_ID,
            names(OPEN_LEAGUE_PLAYERS),
            "XMadn league player",
        ),
        (
            OPEN_CHALLENGERS_ID,
            names(OPEN_CHALLENGERS_PLAYERS),
            "Challengers player",
        ),
        (&built.sunjang.0, open_game, "Sunjang player"),
    ];
    let hash = tokio::task::spawn_blocking(|| auth::hash_password(DEMO_PASSWORD))
        .await
        .map_err(|e| ApiError::internal(format!("hashing failed: {e}")))??;
    let ctx = arbiter_service::Context {
        actor: actor.to_string(),
        at: built.now,
        idempotency_key: None,
        expected: None,
    };
    for (competition, names, role) in groups {
        for name in names {
            let username = username_of(&name);
            if made.iter().any(|m| m.username == username) {
                continue;
            }
            let store = service.store();
            store
                .create_account(&arbiter_store::Account {
                    username: username.clone(),
                    display_name: name.clone(),
                    email: Some(format!("{username}@demo.invalid")),
                    password_hash: hash.clone(),
                    organizer: false,
                    created_at: built.now.to_rfc3339(),
                })
                .await
                .map_err(ApiError::from_store)?;
            service
                .link_account(competition, &name, &username, &ctx)
                .await?;
            store
                .grant(&Grant {
                    competition: competition.to_string(),
                    username: username.clone(),
                    role: Role::Player,
                    player: Some(name.clone()),
                })
                .await
                .map_err(ApiError::from_store)?;
            made.push(DemoAccount {
                username,
                name,
                role,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn usernames_from_names() {
        assert_eq!(username_of("Chloé Dubois"), "chloe");
        assert_eq!(username_of("Grace O'Neill"), "grace");
        assert_eq!(username_of("Jordan Reyes"), "jordan");
    }
}
