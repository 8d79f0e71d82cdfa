//! [`AccountStore`] on SQLite: the tables of `migrations/0003_accounts.sql`.
//!
//! Writes go through the writer connection, like the event store's (one
//! statement each, so no transaction is left in doubt); reads through the
//! reader slots.

use arbiter_store::{
    Account, AccountStore, ApiToken, CalendarFeed, FeedOwner, Grant, Role, Session, StoreError,
};
use async_trait::async_trait;
use std::sync::Arc;

use crate::{SqliteStore, WriterGuard, backend};
use arbiter_store::accounts::rows::{
    AccountRow, FeedRow, GrantRow, SessionRow, TokenRow, account_from_row, feed_from_row,
    feed_owner_columns, grant_from_row, session_from_row, token_from_row,
};

#[async_trait]
impl AccountStore for SqliteStore {
    async fn create_account(&self, account: &Account) -> Result<(), StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let result = sqlx::query(
            "INSERT INTO accounts \
             (username, display_name, email, password_hash, organizer, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .bind(&account.username)
        .bind(&account.display_name)
        .bind(&account.email)
        .bind(&account.password_hash)
        .bind(account.organizer)
        .bind(&account.created_at)
        .execute(conn)
        .await;
        match result {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(StoreError::AccountExists(account.username.clone()))
            }
            Err(e) => Err(backend("cannot create the account")(e)),
        }
    }

    async fn account(&self, username: &str) -> Result<Option<Account>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let row: Option<AccountRow> = sqlx::query_as(
            "SELECT username, display_name, email, password_hash, organizer, created_at \
             FROM accounts WHERE username = ?1",
        )
        .bind(username)
        .fetch_optional(conn)
        .await
        .map_err(backend("cannot read the account"))?;
        Ok(row.map(account_from_row))
    }

    async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        // BINARY collation compares UTF-8 bytes: the order of Rust's `String`.
        let rows: Vec<AccountRow> = sqlx::query_as(
            "SELECT username, display_name, email, password_hash, organizer, created_at \
             FROM accounts ORDER BY username",
        )
        .fetch_all(conn)
        .await
        .map_err(backend("cannot list the accounts"))?;
        Ok(rows.into_iter().map(account_from_row).collect())
    }

    async fn set_password(&self, username: &str, password_hash: &str) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query("UPDATE accounts SET password_hash = ?2 WHERE username = ?1")
            .bind(username)
            .bind(password_hash)
            .execute(conn)
            .await
            .map_err(backend("cannot change the password"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn grant(&self, grant: &Grant) -> Result<(), StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        sqlx::query(
            "INSERT INTO grants (competition, username, role, player) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (competition, username, role) DO UPDATE SET player = excluded.player",
        )
        .bind(&grant.competition)
        .bind(&grant.username)
        .bind(grant.role.as_str())
        .bind(&grant.player)
        .execute(conn)
        .await
        .map_err(backend("cannot grant the role"))?;
        Ok(())
    }

    async fn revoke(
        &self,
        competition: &str,
        username: &str,
        role: Role,
    ) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query(
            "DELETE FROM grants WHERE competition = ?1 AND username = ?2 AND role = ?3",
        )
        .bind(competition)
        .bind(username)
        .bind(role.as_str())
        .execute(conn)
        .await
        .map_err(backend("cannot revoke the role"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn grants_in(&self, competition: &str) -> Result<Vec<Grant>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        // Roles in the order of `Role` (owner, moderator, player), which is
        // not the alphabetical order of their names.
        let rows: Vec<GrantRow> = sqlx::query_as(
            "SELECT competition, username, role, player FROM grants \
             WHERE competition = ?1 ORDER BY username, \
             CASE role WHEN 'owner' THEN 0 WHEN 'moderator' THEN 1 ELSE 2 END",
        )
        .bind(competition)
        .fetch_all(conn)
        .await
        .map_err(backend("cannot list the grants of the competition"))?;
        drop(slot);
        rows.into_iter().map(grant_from_row).collect()
    }

    async fn grants_of(&self, username: &str) -> Result<Vec<Grant>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let rows: Vec<GrantRow> = sqlx::query_as(
            "SELECT competition, username, role, player FROM grants \
             WHERE username = ?1 ORDER BY competition, \
             CASE role WHEN 'owner' THEN 0 WHEN 'moderator' THEN 1 ELSE 2 END",
        )
        .bind(username)
        .fetch_all(conn)
        .await
        .map_err(backend("cannot list the grants of the account"))?;
        drop(slot);
        rows.into_iter().map(grant_from_row).collect()
    }

    async fn put_session(&self, session: &Session) -> Result<(), StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        sqlx::query(
            "INSERT INTO sessions (id_hash, username, csrf, created_at, expires_at) \
             VALUES (?1, ?2, ?3, ?4, ?5) \
             ON CONFLICT (id_hash) DO UPDATE SET username = excluded.username, \
             csrf = excluded.csrf, created_at = excluded.created_at, \
             expires_at = excluded.expires_at",
        )
        .bind(&session.id_hash)
        .bind(&session.username)
        .bind(&session.csrf)
        .bind(session.created_at)
        .bind(session.expires_at)
        .execute(conn)
        .await
        .map_err(backend("cannot keep the session"))?;
        Ok(())
    }

    async fn session(&self, id_hash: &str, now: i64) -> Result<Option<Session>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let row: Option<SessionRow> = sqlx::query_as(
            "SELECT id_hash, username, csrf, created_at, expires_at FROM sessions \
             WHERE id_hash = ?1 AND ?2 < expires_at",
        )
        .bind(id_hash)
        .bind(now)
        .fetch_optional(conn)
        .await
        .map_err(backend("cannot read the session"))?;
        Ok(row.map(session_from_row))
    }

    async fn delete_session(&self, id_hash: &str) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query("DELETE FROM sessions WHERE id_hash = ?1")
            .bind(id_hash)
            .execute(conn)
            .await
            .map_err(backend("cannot delete the session"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn delete_sessions_of(&self, username: &str) -> Result<u64, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query("DELETE FROM sessions WHERE username = ?1")
            .bind(username)
            .execute(conn)
            .await
            .map_err(backend("cannot delete the sessions of the account"))?;
        Ok(done.rows_affected())
    }

    async fn purge_sessions(&self, now: i64) -> Result<u64, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        // Expired at `now`: exactly those `session` no longer returns.
        let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= ?1")
            .bind(now)
            .execute(conn)
            .await
            .map_err(backend("cannot purge the expired sessions"))?;
        Ok(done.rows_affected())
    }

    async fn put_token(&self, token: &ApiToken) -> Result<(), StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        sqlx::query(
            "INSERT INTO api_tokens \
             (hash, username, label, created_at, expires_at, last_used) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (hash) DO UPDATE SET username = excluded.username, \
             label = excluded.label, created_at = excluded.created_at, \
             expires_at = excluded.expires_at, last_used = excluded.last_used",
        )
        .bind(&token.hash)
        .bind(&token.username)
        .bind(&token.label)
        .bind(&token.created_at)
        .bind(&token.expires_at)
        .bind(&token.last_used)
        .execute(conn)
        .await
        .map_err(backend("cannot keep the API token"))?;
        Ok(())
    }

    async fn token(&self, hash: &str) -> Result<Option<ApiToken>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let row: Option<TokenRow> = sqlx::query_as(
            "SELECT hash, username, label, created_at, expires_at, last_used \
             FROM api_tokens WHERE hash = ?1",
        )
        .bind(hash)
        .fetch_optional(conn)
        .await
        .map_err(backend("cannot read the API token"))?;
        Ok(row.map(token_from_row))
    }

    async fn tokens_of(&self, username: &str) -> Result<Vec<ApiToken>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        // The hash last only makes the order total.
        let rows: Vec<TokenRow> = sqlx::query_as(
            "SELECT hash, username, label, created_at, expires_at, last_used \
             FROM api_tokens WHERE username = ?1 ORDER BY created_at, label, hash",
        )
        .bind(username)
        .fetch_all(conn)
        .await
        .map_err(backend("cannot list the API tokens"))?;
        Ok(rows.into_iter().map(token_from_row).collect())
    }

    async fn delete_token(&self, hash: &str) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query("DELETE FROM api_tokens WHERE hash = ?1")
            .bind(hash)
            .execute(conn)
            .await
            .map_err(backend("cannot delete the API token"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn touch_token(&self, hash: &str, at: &str) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query("UPDATE api_tokens SET last_used = ?2 WHERE hash = ?1")
            .bind(hash)
            .bind(at)
            .execute(conn)
            .await
            .map_err(backend("cannot record the API token's use"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn delete_tokens_of(&self, username: &str) -> Result<u64, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query("DELETE FROM api_tokens WHERE username = ?1")
            .bind(username)
            .execute(conn)
            .await
            .map_err(backend("cannot delete the API tokens of the account"))?;
        Ok(done.rows_affected())
    }

    async fn delete_account(&self, username: &str) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        // One statement each, in the trait's order: what acts for the
        // account goes before the account.
        for (sql, what) in [
            (
                "DELETE FROM api_tokens WHERE username = ?1",
                "cannot delete the API tokens of the account",
            ),
            (
                "DELETE FROM calendar_feeds WHERE owner_kind = 'account' AND owner = ?1",
                "cannot delete the calendar feeds of the account",
            ),
            (
                "DELETE FROM sessions WHERE username = ?1",
                "cannot delete the sessions of the account",
            ),
            (
                "DELETE FROM grants WHERE username = ?1",
                "cannot delete the grants of the account",
            ),
        ] {
            sqlx::query(sql)
                .bind(username)
                .execute(&mut *conn)
                .await
                .map_err(backend(what))?;
        }
        let done = sqlx::query("DELETE FROM accounts WHERE username = ?1")
            .bind(username)
            .execute(conn)
            .await
            .map_err(backend("cannot delete the account"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn put_feed(&self, feed: &CalendarFeed) -> Result<(), StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let (kind, owner) = feed_owner_columns(&feed.owner);
        sqlx::query(
            "INSERT INTO calendar_feeds \
             (hash, owner_kind, owner, label, created_by, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (hash) DO UPDATE SET owner_kind = excluded.owner_kind, \
             owner = excluded.owner, label = excluded.label, \
             created_by = excluded.created_by, created_at = excluded.created_at",
        )
        .bind(&feed.hash)
        .bind(kind)
        .bind(owner)
        .bind(&feed.label)
        .bind(&feed.created_by)
        .bind(&feed.created_at)
        .execute(conn)
        .await
        .map_err(backend("cannot keep the calendar feed"))?;
        Ok(())
    }

    async fn feed(&self, hash: &str) -> Result<Option<CalendarFeed>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let row: Option<FeedRow> = sqlx::query_as(
            "SELECT hash, owner_kind, owner, label, created_by, created_at \
             FROM calendar_feeds WHERE hash = ?1",
        )
        .bind(hash)
        .fetch_optional(conn)
        .await
        .map_err(backend("cannot read the calendar feed"))?;
        row.map(feed_from_row).transpose()
    }

    async fn feeds_of(&self, owner: &FeedOwner) -> Result<Vec<CalendarFeed>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let (kind, owner) = feed_owner_columns(owner);
        let rows: Vec<FeedRow> = sqlx::query_as(
            "SELECT hash, owner_kind, owner, label, created_by, created_at \
             FROM calendar_feeds WHERE owner_kind = ?1 AND owner = ?2 \
             ORDER BY created_at, label, hash",
        )
        .bind(kind)
        .bind(owner)
        .fetch_all(conn)
        .await
        .map_err(backend("cannot list the calendar feeds"))?;
        rows.into_iter().map(feed_from_row).collect()
    }

    async fn delete_feed(&self, hash: &str) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query("DELETE FROM calendar_feeds WHERE hash = ?1")
            .bind(hash)
            .execute(conn)
            .await
            .map_err(backend("cannot revoke the calendar feed"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn import_accounts(
        &self,
        accounts: &[Account],
        grants: &[Grant],
        tokens: &[ApiToken],
    ) -> Result<(), StoreError> {
        arbiter_store::check_account_import(accounts, grants, tokens)?;
        if accounts.is_empty() && grants.is_empty() && tokens.is_empty() {
            return Ok(());
        }
        let mut slot = WriterGuard(Arc::clone(&self.inner.writer).lock_owned().await);
        let result =
            crate::import::accounts(&mut slot.0, &self.inner.name, accounts, grants, tokens).await;
        if result.is_err() {
            slot.0.settle().await;
        }
        result
    }
}
