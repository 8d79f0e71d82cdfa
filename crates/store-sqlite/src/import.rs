//! Imports on SQLite: whole competitions ([`EventStore::import`]) and
//! accounts ([`AccountStore::import_accounts`]), each in one `BEGIN
//! IMMEDIATE` transaction on the writer connection.
//!
//! The existence checks run inside the transaction, so no other writer (of
//! this process or another) can slip in between check and insert. Rows go in
//! by multi-row inserts of [`IMPORT_CHUNK`] rows: 10,000 events take 40
//! statements. The gapless trigger of `events` still checks every row.
//!
//! [`EventStore::import`]: arbiter_store::EventStore::import
//! [`AccountStore::import_accounts`]: arbiter_store::AccountStore::import_accounts

use std::fmt::Write as _;

use arbiter_store::{Account, ApiToken, CompetitionDump, Grant, StoreError};
use sqlx::sqlite::SqliteConnection;

use crate::{Slot, backend, seq_from_db, seq_to_db};

/// Most rows inserted by one statement of an import (at 7 columns, 1,792
/// bound parameters, far below SQLite's limit of 32,766).
pub const IMPORT_CHUNK: usize = 256;

/// Most keys looked up by one statement.
const LOOKUP_CHUNK: usize = 500;

/// `{head} VALUES (?, …), … {tail}` for `rows` rows of `columns` parameters.
fn insert_sql(head: &str, columns: usize, rows: usize, tail: &str) -> String {
    let mut sql = String::with_capacity(head.len() + tail.len() + rows * (columns * 3 + 4));
    sql.push_str(head);
    sql.push_str(" VALUES ");
    for row in 0..rows {
        sql.push_str(if row == 0 { "(" } else { ", (" });
        for column in 0..columns {
            sql.push_str(if column == 0 { "?" } else { ", ?" });
        }
        sql.push(')');
    }
    sql.push(' ');
    sql.push_str(tail);
    sql
}

/// Begin the import's transaction on the writer: from here until commit the
/// transaction is in doubt, and an error leaves it to be rolled back (the
/// caller settles the slot).
async fn begin<'a>(slot: &'a mut Slot, name: &str) -> Result<&'a mut SqliteConnection, StoreError> {
    // Rolls back what an earlier write left in doubt.
    slot.conn(name).await?;
    slot.in_doubt = true;
    let Some(conn) = slot.conn.as_mut() else {
        return Err(StoreError::Backend(format!("the store {name} is closed")));
    };
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut *conn)
        .await
        .map_err(backend("cannot begin the import"))?;
    Ok(conn)
}

async fn commit(slot: &mut Slot, name: &str) -> Result<(), StoreError> {
    let Some(conn) = slot.conn.as_mut() else {
        return Err(StoreError::Backend(format!("the store {name} is closed")));
    };
    sqlx::query("COMMIT")
        .execute(&mut *conn)
        .await
        .map_err(backend("cannot commit the import"))?;
    slot.in_doubt = false;
    Ok(())
}

/// Import `competitions`, already checked by `check_import` and not empty.
pub(crate) async fn competitions(
    slot: &mut Slot,
    name: &str,
    competitions: &[CompetitionDump],
) -> Result<(), StoreError> {
    let conn = begin(slot, name).await?;

    for dump in competitions {
        let version: i64 =
            sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events WHERE competition = ?1")
                .bind(&dump.id)
                .fetch_one(&mut *conn)
                .await
                .map_err(backend("cannot check whether a competition exists"))?;
        if version > 0 {
            return Err(StoreError::Exists(format!(
                "competition {:?} (it has {} events)",
                dump.id,
                seq_from_db(version)?
            )));
        }
    }
    let keys: Vec<&str> = competitions
        .iter()
        .flat_map(|d| d.keys.iter().map(|k| k.key.as_str()))
        .collect();
    for chunk in keys.chunks(LOOKUP_CHUNK) {
        let mut sql = String::from("SELECT key, competition FROM idempotency WHERE key IN (");
        for i in 0..chunk.len() {
            let _ = write!(sql, "{}?", if i == 0 { "" } else { ", " });
        }
        sql.push_str(") ORDER BY key LIMIT 1");
        let mut query =
            sqlx::query_as::<_, (String, String)>(&sql).persistent(chunk.len() == LOOKUP_CHUNK);
        for key in chunk {
            query = query.bind(*key);
        }
        let used = query.fetch_optional(&mut *conn).await.map_err(backend(
            "cannot check whether the idempotency keys are used",
        ))?;
        if let Some((key, competition)) = used {
            return Err(StoreError::Exists(format!(
                "idempotency key {key:?} (used in competition {competition:?})"
            )));
        }
    }

    for dump in competitions {
        for chunk in dump.events.chunks(IMPORT_CHUNK) {
            let sql = insert_sql(
                "INSERT INTO events \
                 (competition, seq, kind, payload, actor, recorded_at, idempotency_key)",
                7,
                chunk.len(),
                "",
            );
            let mut query = sqlx::query(&sql).persistent(chunk.len() == IMPORT_CHUNK);
            for event in chunk {
                query = query
                    .bind(&dump.id)
                    .bind(seq_to_db(event.seq)?)
                    .bind(&event.kind)
                    .bind(&event.payload)
                    .bind(&event.actor)
                    .bind(&event.recorded_at)
                    .bind(&event.idempotency_key);
            }
            query
                .execute(&mut *conn)
                .await
                .map_err(backend("cannot import the events"))?;
        }
        for chunk in dump.keys.chunks(IMPORT_CHUNK) {
            let sql = insert_sql(
                "INSERT INTO idempotency (key, competition, first_seq, last_seq, fingerprint)",
                5,
                chunk.len(),
                "",
            );
            let mut query = sqlx::query(&sql).persistent(chunk.len() == IMPORT_CHUNK);
            for key in chunk {
                query = query
                    .bind(&key.key)
                    .bind(&dump.id)
                    .bind(seq_to_db(key.first)?)
                    .bind(seq_to_db(key.last)?)
                    .bind(&key.fingerprint);
            }
            query
                .execute(&mut *conn)
                .await
                .map_err(backend("cannot import the idempotency keys"))?;
        }
        for chunk in dump.secrets.chunks(IMPORT_CHUNK) {
            // A secret left by a failed creation of the competition is
            // replaced, as `put_secret` would.
            let sql = insert_sql(
                "INSERT INTO secrets (competition, name, value)",
                3,
                chunk.len(),
                "ON CONFLICT (competition, name) DO UPDATE SET value = excluded.value",
            );
            let mut query = sqlx::query(&sql).persistent(false);
            for (secret, value) in chunk {
                query = query.bind(&dump.id).bind(secret).bind(value);
            }
            query
                .execute(&mut *conn)
                .await
                .map_err(backend("cannot import the secrets"))?;
        }
    }
    commit(slot, name).await
}

/// Import accounts with their grants and tokens, already checked by
/// `check_account_import` and not all empty.
pub(crate) async fn accounts(
    slot: &mut Slot,
    name: &str,
    accounts: &[Account],
    grants: &[Grant],
    tokens: &[ApiToken],
) -> Result<(), StoreError> {
    let conn = begin(slot, name).await?;
    for account in accounts {
        let taken: Option<i64> = sqlx::query_scalar("SELECT 1 FROM accounts WHERE username = ?1")
            .bind(&account.username)
            .fetch_optional(&mut *conn)
            .await
            .map_err(backend("cannot check whether an account exists"))?;
        if taken.is_some() {
            return Err(StoreError::AccountExists(account.username.clone()));
        }
    }
    for token in tokens {
        let kept: Option<i64> = sqlx::query_scalar("SELECT 1 FROM api_tokens WHERE hash = ?1")
            .bind(&token.hash)
            .fetch_optional(&mut *conn)
            .await
            .map_err(backend("cannot check whether an API token exists"))?;
        if kept.is_some() {
            return Err(StoreError::Exists(format!(
                "API token {:?} of {:?}",
                token.label, token.username
            )));
        }
    }
    for chunk in accounts.chunks(IMPORT_CHUNK) {
        let sql = insert_sql(
            "INSERT INTO accounts \
             (username, display_name, email, password_hash, organizer, created_at)",
            6,
            chunk.len(),
            "",
        );
        let mut query = sqlx::query(&sql).persistent(false);
        for a in chunk {
            query = query
                .bind(&a.username)
                .bind(&a.display_name)
                .bind(&a.email)
                .bind(&a.password_hash)
                .bind(a.organizer)
                .bind(&a.created_at);
        }
        query
            .execute(&mut *conn)
            .await
            .map_err(backend("cannot import the accounts"))?;
    }
    for chunk in grants.chunks(IMPORT_CHUNK) {
        let sql = insert_sql(
            "INSERT INTO grants (competition, username, role, player)",
            4,
            chunk.len(),
            "",
        );
        let mut query = sqlx::query(&sql).persistent(false);
        for g in chunk {
            query = query
                .bind(&g.competition)
                .bind(&g.username)
                .bind(g.role.as_str())
                .bind(&g.player);
        }
        query
            .execute(&mut *conn)
            .await
            .map_err(backend("cannot import the grants"))?;
    }
    for chunk in tokens.chunks(IMPORT_CHUNK) {
        let sql = insert_sql(
            "INSERT INTO api_tokens (hash, username, label, created_at, expires_at, last_used)",
            6,
            chunk.len(),
            "",
        );
        let mut query = sqlx::query(&sql).persistent(false);
        for t in chunk {
            query = query
                .bind(&t.hash)
                .bind(&t.username)
                .bind(&t.label)
                .bind(&t.created_at)
                .bind(&t.expires_at)
                .bind(&t.last_used);
        }
        query
            .execute(&mut *conn)
            .await
            .map_err(backend("cannot import the API tokens"))?;
    }
    commit(slot, name).await
}

#[cfg(test)]
mod tests {
    use super::insert_sql;

    #[test]
    fn insert_sql_shapes() {
        assert_eq!(
            insert_sql("INSERT INTO t (a, b)", 2, 3, "ON CONFLICT DO NOTHING"),
            "INSERT INTO t (a, b) VALUES (?, ?), (?, ?), (?, ?) ON CONFLICT DO NOTHING"
        );
    }
}
