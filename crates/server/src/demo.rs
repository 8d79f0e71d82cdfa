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
    let organizer = made.first().map_or("demo", |m| m.username.as_str());
    link_players(service, &built.ladder.0, built.now, organizer, &linked).await?;
    Ok((built, round_robins, made))
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
