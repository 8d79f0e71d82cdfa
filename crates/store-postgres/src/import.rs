//! Imports on PostgreSQL: whole competitions ([`EventStore::import`]) and
//! accounts ([`AccountStore::import_accounts`]), each in one transaction.
//!
//! A competition import first locks the `streams` rows of its competitions
//! (made if missing, in id order so that two imports cannot deadlock), so an
//! append to one of them waits for the import and then sees its version;
//! then it checks that none has events and no key is claimed, claims the keys
//! and writes every table with `INSERT … SELECT FROM unnest(…)`: a few
//! statements per competition whatever its size. A unique violation (an
//! append or another import claimed a key meanwhile) rolls everything back,
//! and the checks, run again, say what is in the way.
//!
//! [`EventStore::import`]: arbiter_store::EventStore::import
//! [`AccountStore::import_accounts`]: arbiter_store::AccountStore::import_accounts

use std::collections::{HashMap, HashSet};

use arbiter_store::{Account, ApiToken, CompetitionDump, Grant, StoreError};
use sqlx::PgConnection;

use crate::{PostgresStore, is_unique_violation, seq_to_db};

/// Most events written by one statement (their arrays travel in one message).
const EVENTS_CHUNK: usize = 4096;

/// Why an import stopped.
enum Stop {
    /// Refused, with nothing written.
    Refused(StoreError),
    Sql(&'static str, sqlx::Error),
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Self {
        Stop::Refused(e)
    }
}

fn sql(what: &'static str) -> impl FnOnce(sqlx::Error) -> Stop {
    move |e| Stop::Sql(what, e)
}

/// Import `competitions`, already checked by `check_import` and not empty.
pub(crate) async fn competitions(
    store: &PostgresStore,
    competitions: &[CompetitionDump],
) -> Result<(), StoreError> {
    let stop = match write_competitions(store, competitions).await {
        Ok(()) => return Ok(()),
        Err(stop) => stop,
    };
    match stop {
        Stop::Refused(e) => Err(e),
        Stop::Sql(what, e) if is_unique_violation(&e) => {
            // Rolled back (the transaction was dropped): what is in the way now?
            let mut conn = store
                .pool
                .acquire()
                .await
                .map_err(store.backend("cannot check the import again"))?;
            match competitions_refusal(&mut conn, competitions).await {
                Ok(Some(refusal)) => Err(refusal),
                Ok(None) => Err(store.backend(what)(e)),
                Err(again) => Err(store.backend("cannot check the import again")(again)),
            }
        }
        Stop::Sql(what, e) => Err(store.backend(what)(e)),
    }
}

/// What already exists of `competitions`: the first of them (in the order
/// given) that has events, else the first of their keys (in key order)
/// already used.
async fn competitions_refusal(
    conn: &mut PgConnection,
    competitions: &[CompetitionDump],
) -> Result<Option<StoreError>, sqlx::Error> {
    let ids: Vec<&str> = competitions.iter().map(|d| d.id.as_str()).collect();
    let versions: HashMap<String, i64> = sqlx::query_as::<_, (String, i64)>(
        "SELECT competition, version FROM streams WHERE competition = ANY($1) AND version > 0",
    )
    .bind(&ids)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .collect();
    for id in &ids {
        if let Some(n) = versions.get(*id) {
            return Ok(Some(StoreError::Exists(format!(
                "competition {id:?} (it has {n} events)"
            ))));
        }
    }
    let keys: Vec<&str> = competitions
        .iter()
        .flat_map(|d| d.keys.iter().map(|k| k.key.as_str()))
        .collect();
    if keys.is_empty() {
        return Ok(None);
    }
    let used: Option<(String, String)> = sqlx::query_as(
        "SELECT key, competition FROM idempotency_keys WHERE key = ANY($1) ORDER BY key LIMIT 1",
    )
    .bind(&keys)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(used.map(|(key, competition)| {
        StoreError::Exists(format!(
            "idempotency key {key:?} (used in competition {competition:?})"
        ))
    }))
}

async fn write_competitions(
    store: &PostgresStore,
    competitions: &[CompetitionDump],
) -> Result<(), Stop> {
    let mut tx = store
        .pool
        .begin()
        .await
        .map_err(sql("cannot begin the import"))?;

    // Lock the streams, in id order.
    let mut ids: Vec<&str> = competitions.iter().map(|d| d.id.as_str()).collect();
    ids.sort_unstable();
    sqlx::query(
        "INSERT INTO streams (competition, version) \
         SELECT c, 0 FROM unnest($1::text[]) AS t(c) ORDER BY c ON CONFLICT DO NOTHING",
    )
    .bind(&ids)
    .execute(&mut *tx)
    .await
    .map_err(sql("cannot lock the competitions"))?;
    sqlx::query(
        "SELECT competition FROM streams WHERE competition = ANY($1) \
         ORDER BY competition FOR UPDATE",
    )
    .bind(&ids)
    .execute(&mut *tx)
    .await
    .map_err(sql("cannot lock the competitions"))?;

    if let Some(refusal) = competitions_refusal(&mut tx, competitions)
        .await
        .map_err(sql("cannot check whether the competitions exist"))?
    {
        // Dropping the transaction rolls it back.
        return Err(Stop::Refused(refusal));
    }

    // Claim the keys, in key order.
    let mut claims: Vec<(&str, &str)> = competitions
        .iter()
        .flat_map(|d| d.keys.iter().map(|k| (k.key.as_str(), d.id.as_str())))
        .collect();
    claims.sort_unstable();
    if !claims.is_empty() {
        let (keys, owners): (Vec<&str>, Vec<&str>) = claims.into_iter().unzip();
        sqlx::query(
            "INSERT INTO idempotency_keys (key, competition) \
             SELECT * FROM unnest($1::text[], $2::text[])",
        )
        .bind(&keys)
        .bind(&owners)
        .execute(&mut *tx)
        .await
        .map_err(sql("cannot claim the idempotency keys"))?;
    }

    for dump in competitions {
        for chunk in dump.events.chunks(EVENTS_CHUNK) {
            let seqs = chunk
                .iter()
                .map(|e| seq_to_db(e.seq))
                .collect::<Result<Vec<i64>, StoreError>>()?;
            let kinds: Vec<&str> = chunk.iter().map(|e| e.kind.as_str()).collect();
            let payloads: Vec<&str> = chunk.iter().map(|e| e.payload.as_str()).collect();
            let actors: Vec<&str> = chunk.iter().map(|e| e.actor.as_str()).collect();
            let times: Vec<&str> = chunk.iter().map(|e| e.recorded_at.as_str()).collect();
            let keys: Vec<Option<&str>> =
                chunk.iter().map(|e| e.idempotency_key.as_deref()).collect();
            sqlx::query(
                "INSERT INTO events \
                 (competition, seq, kind, payload, actor, recorded_at, idempotency_key) \
                 SELECT $1, t.seq, t.kind, t.payload, t.actor, t.recorded_at, t.key \
                 FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) \
                 AS t(seq, kind, payload, actor, recorded_at, key) ORDER BY t.seq",
            )
            .bind(&dump.id)
            .bind(&seqs)
            .bind(&kinds)
            .bind(&payloads)
            .bind(&actors)
            .bind(&times)
            .bind(&keys)
            .execute(&mut *tx)
            .await
            .map_err(sql("cannot import the events"))?;
        }
        if !dump.keys.is_empty() {
            let keys: Vec<&str> = dump.keys.iter().map(|k| k.key.as_str()).collect();
            let firsts = dump
                .keys
                .iter()
                .map(|k| seq_to_db(k.first))
                .collect::<Result<Vec<i64>, StoreError>>()?;
            let lasts = dump
                .keys
                .iter()
                .map(|k| seq_to_db(k.last))
                .collect::<Result<Vec<i64>, StoreError>>()?;
            let fingerprints: Vec<&str> =
                dump.keys.iter().map(|k| k.fingerprint.as_str()).collect();
            sqlx::query(
                "INSERT INTO idempotency (competition, key, first_seq, last_seq, fingerprint) \
                 SELECT $1, t.* FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::text[]) \
                 AS t(key, first_seq, last_seq, fingerprint)",
            )
            .bind(&dump.id)
            .bind(&keys)
            .bind(&firsts)
            .bind(&lasts)
            .bind(&fingerprints)
            .execute(&mut *tx)
            .await
            .map_err(sql("cannot import the idempotency keys"))?;
        }
        if !dump.secrets.is_empty() {
            let names: Vec<&str> = dump.secrets.iter().map(|(n, _)| n.as_str()).collect();
            let values: Vec<&str> = dump.secrets.iter().map(|(_, v)| v.as_str()).collect();
            // A secret left by a failed creation of the competition is
            // replaced, as `put_secret` would.
            sqlx::query(
                "INSERT INTO secrets (competition, name, value) \
                 SELECT $1, t.* FROM unnest($2::text[], $3::text[]) AS t(name, value) \
                 ON CONFLICT (competition, name) DO UPDATE SET value = excluded.value",
            )
            .bind(&dump.id)
            .bind(&names)
            .bind(&values)
            .execute(&mut *tx)
            .await
            .map_err(sql("cannot import the secrets"))?;
        }
    }

    let versions = competitions
        .iter()
        .map(|d| {
            i64::try_from(d.events.len())
                .map_err(|_| StoreError::Backend("too many events".to_owned()))
        })
        .collect::<Result<Vec<i64>, StoreError>>()?;
    let all: Vec<&str> = competitions.iter().map(|d| d.id.as_str()).collect();
    sqlx::query(
        "UPDATE streams SET version = t.n FROM unnest($1::text[], $2::bigint[]) AS t(c, n) \
         WHERE streams.competition = t.c",
    )
    .bind(&all)
    .bind(&versions)
    .execute(&mut *tx)
    .await
    .map_err(sql("cannot import the versions"))?;

    tx.commit().await.map_err(sql("cannot commit the import"))
}

/// Import accounts with their grants and tokens, already checked by
/// `check_account_import` and not all empty.
pub(crate) async fn accounts(
    store: &PostgresStore,
    accounts: &[Account],
    grants: &[Grant],
    tokens: &[ApiToken],
) -> Result<(), StoreError> {
    let stop = match write_accounts(store, accounts, grants, tokens).await {
        Ok(()) => return Ok(()),
        Err(stop) => stop,
    };
    match stop {
        Stop::Refused(e) => Err(e),
        Stop::Sql(what, e) if is_unique_violation(&e) => {
            let mut conn = store
                .pool
                .acquire()
                .await
                .map_err(store.backend("cannot check the import again"))?;
            match accounts_refusal(&mut conn, accounts, tokens).await {
                Ok(Some(refusal)) => Err(refusal),
                Ok(None) => Err(store.backend(what)(e)),
                Err(again) => Err(store.backend("cannot check the import again")(again)),
            }
        }
        Stop::Sql(what, e) => Err(store.backend(what)(e)),
    }
}

/// The first of `accounts` (in the order given) whose username is taken,
/// else the first of `tokens` whose hash is kept.
async fn accounts_refusal(
    conn: &mut PgConnection,
    accounts: &[Account],
    tokens: &[ApiToken],
) -> Result<Option<StoreError>, sqlx::Error> {
    let usernames: Vec<&str> = accounts.iter().map(|a| a.username.as_str()).collect();
    let taken: HashSet<String> =
        sqlx::query_scalar::<_, String>("SELECT username FROM accounts WHERE username = ANY($1)")
            .bind(&usernames)
            .fetch_all(&mut *conn)
            .await?
            .into_iter()
            .collect();
    if let Some(account) = accounts.iter().find(|a| taken.contains(&a.username)) {
        return Ok(Some(StoreError::AccountExists(account.username.clone())));
    }
    let hashes: Vec<&str> = tokens.iter().map(|t| t.hash.as_str()).collect();
    let kept: HashSet<String> =
        sqlx::query_scalar::<_, String>("SELECT hash FROM api_tokens WHERE hash = ANY($1)")
            .bind(&hashes)
            .fetch_all(&mut *conn)
            .await?
            .into_iter()
            .collect();
    Ok(tokens
        .iter()
        .find(|t| kept.contains(&t.hash))
        .map(|t| StoreError::Exists(format!("API token {:?} of {:?}", t.label, t.username))))
}

async fn write_accounts(
    store: &PostgresStore,
    accounts: &[Account],
    grants: &[Grant],
    tokens: &[ApiToken],
) -> Result<(), Stop> {
    let mut tx = store
        .pool
        .begin()
        .await
        .map_err(sql("cannot begin the import"))?;
    if let Some(refusal) = accounts_refusal(&mut tx, accounts, tokens)
        .await
        .map_err(sql("cannot check whether the accounts exist"))?
    {
        return Err(Stop::Refused(refusal));
    }
    if !accounts.is_empty() {
        let usernames: Vec<&str> = accounts.iter().map(|a| a.username.as_str()).collect();
        let names: Vec<&str> = accounts.iter().map(|a| a.display_name.as_str()).collect();
        let emails: Vec<Option<&str>> = accounts.iter().map(|a| a.email.as_deref()).collect();
        let hashes: Vec<&str> = accounts.iter().map(|a| a.password_hash.as_str()).collect();
        let organizers: Vec<bool> = accounts.iter().map(|a| a.organizer).collect();
        let created: Vec<&str> = accounts.iter().map(|a| a.created_at.as_str()).collect();
        sqlx::query(
            "INSERT INTO accounts \
             (username, display_name, email, password_hash, organizer, created_at) \
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bool[], $6::text[])",
        )
        .bind(&usernames)
        .bind(&names)
        .bind(&emails)
        .bind(&hashes)
        .bind(&organizers)
        .bind(&created)
        .execute(&mut *tx)
        .await
        .map_err(sql("cannot import the accounts"))?;
    }
    if !grants.is_empty() {
        let competitions: Vec<&str> = grants.iter().map(|g| g.competition.as_str()).collect();
        let usernames: Vec<&str> = grants.iter().map(|g| g.username.as_str()).collect();
        let roles: Vec<&str> = grants.iter().map(|g| g.role.as_str()).collect();
        let players: Vec<Option<&str>> = grants.iter().map(|g| g.player.as_deref()).collect();
        sqlx::query(
            "INSERT INTO grants (competition, username, role, player) \
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])",
        )
        .bind(&competitions)
        .bind(&usernames)
        .bind(&roles)
        .bind(&players)
        .execute(&mut *tx)
        .await
        .map_err(sql("cannot import the grants"))?;
    }
    if !tokens.is_empty() {
        let hashes: Vec<&str> = tokens.iter().map(|t| t.hash.as_str()).collect();
        let usernames: Vec<&str> = tokens.iter().map(|t| t.username.as_str()).collect();
        let labels: Vec<&str> = tokens.iter().map(|t| t.label.as_str()).collect();
        let created: Vec<&str> = tokens.iter().map(|t| t.created_at.as_str()).collect();
        let expires: Vec<Option<&str>> = tokens.iter().map(|t| t.expires_at.as_deref()).collect();
        let used: Vec<Option<&str>> = tokens.iter().map(|t| t.last_used.as_deref()).collect();
        sqlx::query(
            "INSERT INTO api_tokens (hash, username, label, created_at, expires_at, last_used) \
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], \
             $5::text[], $6::text[])",
        )
        .bind(&hashes)
        .bind(&usernames)
        .bind(&labels)
        .bind(&created)
        .bind(&expires)
        .bind(&used)
        .execute(&mut *tx)
        .await
        .map_err(sql("cannot import the API tokens"))?;
    }
    tx.commit().await.map_err(sql("cannot commit the import"))
}
