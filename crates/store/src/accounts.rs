//! Accounts, roles, sessions and API tokens: who may do what on which
//! competition. Kept beside the event logs in the same database, but not in
//! them: a password hash or a session is not part of a competition's record.
//!
//! Secrets are never stored in the clear: a session id and an API token are
//! stored as the hex SHA-256 of the value the client holds (the caller
//! hashes), and passwords as argon2 PHC strings (the caller hashes).

use async_trait::async_trait;

use crate::StoreError;

/// A person who can log in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Unique, as typed at registration (compared case-insensitively by the
    /// caller, who stores it lower-cased).
    pub username: String,
    /// The name shown on pages; for a player, the name he plays under.
    pub display_name: String,
    pub email: Option<String>,
    /// An argon2 PHC string.
    pub password_hash: String,
    /// May create competitions (the first account of an installation, and
    /// those made with `arbiter account add --organizer`).
    pub organizer: bool,
    /// RFC 3339.
    pub created_at: String,
}

/// A role in one competition. "Public" is having none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Created the competition: everything a moderator may do, plus granting
    /// and revoking moderators and changing the rules.
    Owner,
    Moderator,
    /// Plays in the competition under [`Grant::player`].
    Player,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Moderator => "moderator",
            Role::Player => "player",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "owner" => Some(Role::Owner),
            "moderator" => Some(Role::Moderator),
            "player" => Some(Role::Player),
            _ => None,
        }
    }
}

/// One account's role in one competition. At most one grant per
/// (competition, username, role).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub competition: String,
    pub username: String,
    pub role: Role,
    /// For [`Role::Player`]: the player's name in the competition.
    pub player: Option<String>,
}

/// A logged-in browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// Hex SHA-256 of the cookie's value.
    pub id_hash: String,
    pub username: String,
    /// The session's CSRF token (random, sent in forms and compared).
    pub csrf: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds; a session past it is not returned by [`AccountStore::session`].
    pub expires_at: i64,
}

/// A token for the JSON API, acting as its account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiToken {
    /// Hex SHA-256 of the token.
    pub hash: String,
    pub username: String,
    pub label: String,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339; from then on the token is refused (the caller compares,
    /// issue 14 item 2: "a token can carry an expiry"). `None`: never.
    pub expires_at: Option<String>,
    /// RFC 3339: when it last authenticated a request, as the caller last
    /// recorded it ([`AccountStore::touch_token`]). `None`: never used.
    pub last_used: Option<String>,
}

/// How many hex digits of the hash name a token in lists and in
/// `DELETE /api/tokens/{id}`.
pub const TOKEN_ID_LEN: usize = 16;

impl ApiToken {
    /// The token's public name: the first [`TOKEN_ID_LEN`] hex digits of
    /// its hash. Safe to show: the hash of a 256-bit random token does not
    /// give the token back, and only the owner's list shows it. Unique
    /// within one account's tokens except with probability about 2^-64 per
    /// pair; revoking by id resolves it among the owner's tokens only.
    pub fn id(&self) -> &str {
        self.hash.get(..TOKEN_ID_LEN).unwrap_or(&self.hash)
    }
}

/// Whose calendar a feed is (issue 18 §4): an account's (the games of the
/// players it is linked to, in every competition) or a competition's (its
/// rounds and deadlines).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeedOwner {
    /// The username.
    Account(String),
    /// The competition's id.
    Competition(String),
}

/// A private calendar feed URL: whoever holds its token reads the calendar
/// without logging in (a calendar application cannot), until it is
/// revoked. Only the hash of the token is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalendarFeed {
    /// Hex SHA-256 of the token in the URL.
    pub hash: String,
    pub owner: FeedOwner,
    /// What its maker called it ("phone", "club calendar").
    pub label: String,
    /// The account that made it.
    pub created_by: String,
    /// RFC 3339.
    pub created_at: String,
}

impl CalendarFeed {
    /// The feed's public name, as [`ApiToken::id`]: the first
    /// [`TOKEN_ID_LEN`] hex digits of its hash.
    pub fn id(&self) -> &str {
        self.hash.get(..TOKEN_ID_LEN).unwrap_or(&self.hash)
    }
}

/// The checks of [`AccountStore::import_accounts`] that need no store:
/// every backend calls it first, so that they refuse the same imports with
/// the same messages ([`StoreError::Invalid`], nothing written). Consistent
/// when no username appears twice and none is empty, every grant and token
/// belongs to one of the imported accounts, no grant appears twice for one
/// (competition, username, role), and no token hash appears twice.
pub fn check_account_import(
    accounts: &[Account],
    grants: &[Grant],
    tokens: &[ApiToken],
) -> Result<(), StoreError> {
    use std::collections::HashSet;
    let invalid = |message: String| Err(StoreError::Invalid(message));
    let mut usernames = HashSet::new();
    for account in accounts {
        if account.username.is_empty() {
            return invalid("an account has an empty username".to_owned());
        }
        if !usernames.insert(account.username.as_str()) {
            return invalid(format!("account {:?} appears twice", account.username));
        }
    }
    let mut seen = HashSet::new();
    for grant in grants {
        if !usernames.contains(grant.username.as_str()) {
            return invalid(format!(
                "the {} grant in competition {:?} is for {:?}, which is not one of the imported accounts",
                grant.role.as_str(),
                grant.competition,
                grant.username
            ));
        }
        if !seen.insert((
            grant.competition.as_str(),
            grant.username.as_str(),
            grant.role,
        )) {
            return invalid(format!(
                "the {} grant of {:?} in competition {:?} appears twice",
                grant.role.as_str(),
                grant.username,
                grant.competition
            ));
        }
    }
    let mut hashes = HashSet::new();
    for token in tokens {
        if !usernames.contains(token.username.as_str()) {
            return invalid(format!(
                "the API token {:?} is for {:?}, which is not one of the imported accounts",
                token.label, token.username
            ));
        }
        if !hashes.insert(token.hash.as_str()) {
            return invalid(format!("the API token hash {:?} appears twice", token.hash));
        }
    }
    Ok(())
}

/// Storage of accounts, grants, sessions and tokens. Every backend
/// implements it beside [`crate::EventStore`] and runs
/// [`crate::conformance::accounts`].
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Create an account; [`StoreError::AccountExists`] when the username is
    /// taken (nothing is written).
    async fn create_account(&self, account: &Account) -> Result<(), StoreError>;
    async fn account(&self, username: &str) -> Result<Option<Account>, StoreError>;
    /// Every account, sorted by username.
    async fn accounts(&self) -> Result<Vec<Account>, StoreError>;
    /// Replace an account's password hash; false when there is no such account.
    async fn set_password(&self, username: &str, password_hash: &str) -> Result<bool, StoreError>;

    /// Add a grant, replacing the `player` of an existing one with the same
    /// (competition, username, role).
    async fn grant(&self, grant: &Grant) -> Result<(), StoreError>;
    /// Remove a grant; false when there was none.
    async fn revoke(
        &self,
        competition: &str,
        username: &str,
        role: Role,
    ) -> Result<bool, StoreError>;
    /// Grants in a competition, sorted by (username, role).
    async fn grants_in(&self, competition: &str) -> Result<Vec<Grant>, StoreError>;
    /// Grants of an account, sorted by (competition, role).
    async fn grants_of(&self, username: &str) -> Result<Vec<Grant>, StoreError>;

    async fn put_session(&self, session: &Session) -> Result<(), StoreError>;
    /// The session with this id hash, if it exists and `now` (Unix seconds) is
    /// before its expiry.
    async fn session(&self, id_hash: &str, now: i64) -> Result<Option<Session>, StoreError>;
    /// Delete one session (logout); false when there was none.
    async fn delete_session(&self, id_hash: &str) -> Result<bool, StoreError>;
    /// Delete every session of an account (password change); how many.
    async fn delete_sessions_of(&self, username: &str) -> Result<u64, StoreError>;
    /// Delete sessions expired at `now`; how many.
    async fn purge_sessions(&self, now: i64) -> Result<u64, StoreError>;

    async fn put_token(&self, token: &ApiToken) -> Result<(), StoreError>;
    async fn token(&self, hash: &str) -> Result<Option<ApiToken>, StoreError>;
    /// An account's tokens, sorted by creation then label.
    async fn tokens_of(&self, username: &str) -> Result<Vec<ApiToken>, StoreError>;
    async fn delete_token(&self, hash: &str) -> Result<bool, StoreError>;
    /// Record that the token with this hash authenticated a request at `at`
    /// (RFC 3339); false when there is no such token.
    async fn touch_token(&self, hash: &str, at: &str) -> Result<bool, StoreError>;
    /// Delete every token of an account (password change, removal); how
    /// many.
    async fn delete_tokens_of(&self, username: &str) -> Result<u64, StoreError>;
    /// Remove an account with everything that acts for it or as it: its
    /// API tokens, calendar feeds, sessions and grants, then the account itself (in that
    /// order, so that a failure half way leaves an account that can do less,
    /// never a token or session that outlives its account; calling it again
    /// finishes). False when there was no such account (the rest is deleted
    /// all the same).
    async fn delete_account(&self, username: &str) -> Result<bool, StoreError>;

    /// Keep a calendar feed (replacing one with the same hash).
    async fn put_feed(&self, feed: &CalendarFeed) -> Result<(), StoreError>;
    /// The feed whose token has this hash.
    async fn feed(&self, hash: &str) -> Result<Option<CalendarFeed>, StoreError>;
    /// The feeds of an account or a competition, sorted by creation, label
    /// and hash.
    async fn feeds_of(&self, owner: &FeedOwner) -> Result<Vec<CalendarFeed>, StoreError>;
    /// Revoke a feed; false when there was none.
    async fn delete_feed(&self, hash: &str) -> Result<bool, StoreError>;

    /// Write accounts with their grants and API tokens (an export of this or
    /// another store; sessions are never exported), in one transaction: all
    /// or nothing. Refused, with nothing written:
    /// - [`StoreError::Invalid`] when [`check_account_import`] refuses them
    ///   (called first, before the store is looked at);
    /// - [`StoreError::AccountExists`] naming the first of `accounts` (in
    ///   the order given) whose username is taken;
    /// - [`StoreError::Exists`] when a token's hash is already kept
    ///   (`API token "label" of "username"`).
    ///
    /// The grants' competitions need not exist (as with [`Self::grant`]).
    /// Empty slices write nothing and succeed.
    async fn import_accounts(
        &self,
        accounts: &[Account],
        grants: &[Grant],
        tokens: &[ApiToken],
    ) -> Result<(), StoreError>;
}

/// Rows of the accounts tables as SQL backends read them (tuples in the
/// tables' column order), and the records they make: one reading for every
/// backend, so they agree on what a stored row means.
pub mod rows {
    use super::{Account, ApiToken, CalendarFeed, FeedOwner, Grant, Role, Session};
    use crate::StoreError;

    /// username, display_name, email, password_hash, organizer, created_at.
    pub type AccountRow = (String, String, Option<String>, String, bool, String);

    /// competition, username, role, player.
    pub type GrantRow = (String, String, String, Option<String>);

    /// id_hash, username, csrf, created_at, expires_at.
    pub type SessionRow = (String, String, String, i64, i64);

    /// hash, username, label, created_at, expires_at, last_used.
    pub type TokenRow = (
        String,
        String,
        String,
        String,
        Option<String>,
        Option<String>,
    );

    /// hash, owner kind (`account` or `competition`), owner, label,
    /// created_by, created_at.
    pub type FeedRow = (String, String, String, String, String, String);

    /// The owner as its two columns: kind and name.
    pub fn feed_owner_columns(owner: &FeedOwner) -> (&'static str, &str) {
        match owner {
            FeedOwner::Account(username) => ("account", username),
            FeedOwner::Competition(id) => ("competition", id),
        }
    }

    pub fn feed_from_row(
        (hash, kind, owner, label, created_by, created_at): FeedRow,
    ) -> Result<CalendarFeed, StoreError> {
        let owner = match kind.as_str() {
            "account" => FeedOwner::Account(owner),
            "competition" => FeedOwner::Competition(owner),
            _ => {
                return Err(StoreError::Backend(format!(
                    "unknown owner kind {kind:?} of a calendar feed"
                )));
            }
        };
        Ok(CalendarFeed {
            hash,
            owner,
            label,
            created_by,
            created_at,
        })
    }

    pub fn account_from_row(
        (username, display_name, email, password_hash, organizer, created_at): AccountRow,
    ) -> Account {
        Account {
            username,
            display_name,
            email,
            password_hash,
            organizer,
            created_at,
        }
    }

    pub fn grant_from_row(
        (competition, username, role, player): GrantRow,
    ) -> Result<Grant, StoreError> {
        let role = Role::parse(&role).ok_or_else(|| {
            StoreError::Backend(format!(
                "unknown role {role:?} granted to {username:?} in {competition:?}"
            ))
        })?;
        Ok(Grant {
            competition,
            username,
            role,
            player,
        })
    }

    pub fn session_from_row(
        (id_hash, username, csrf, created_at, expires_at): SessionRow,
    ) -> Session {
        Session {
            id_hash,
            username,
            csrf,
            created_at,
            expires_at,
        }
    }

    pub fn token_from_row(
        (hash, username, label, created_at, expires_at, last_used): TokenRow,
    ) -> ApiToken {
        ApiToken {
            hash,
            username,
            label,
            created_at,
            expires_at,
            last_used,
        }
    }
}
