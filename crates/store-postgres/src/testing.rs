//! Fresh databases for tests that need PostgreSQL.
//!
//! Tests read the server's URL from `ARBITER_TEST_PG_URL` ([`server_url`]):
//! `bash scripts/test.sh` starts a throwaway cluster and sets it, and so does
//! `eval "$(bash scripts/pg.sh start)"` for a shell of one's own. Without it
//! a PostgreSQL test fails (it never passes silently or skips).
//!
//! Each test makes its own database ([`fresh_database`], `CREATE DATABASE`
//! with a random name), so tests never see each other's data and may run in
//! parallel; the database is dropped when the [`TestDatabase`] is (with
//! `WITH (FORCE)`, which ends the connections still open on it).
//!
//! ```no_run
//! # async fn demo() {
//! use arbiter_store_postgres::{PostgresStore, testing};
//! let db = testing::fresh_database(&testing::server_url()).await.unwrap();
//! let store = PostgresStore::open(db.url()).await.unwrap();
//! // … the test …
//! store.close().await;
//! drop(db); // DROP DATABASE
//! # }
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use arbiter_store::StoreError;
use sqlx::{Connection, PgConnection};

/// The environment variable holding the URL of the tests' PostgreSQL server.
pub const URL_VAR: &str = "ARBITER_TEST_PG_URL";

/// The URL of the tests' PostgreSQL server, from [`URL_VAR`].
///
/// # Panics
///
/// When it is not set, with a message saying how to start a server: a test
/// that needs PostgreSQL fails rather than passing without it.
#[allow(clippy::panic)]
pub fn server_url() -> String {
    match std::env::var(URL_VAR) {
        Ok(url) if !url.trim().is_empty() => url,
        _ => panic!(
            "{URL_VAR} is not set: this test needs a PostgreSQL server. Run the tests with \
             `bash scripts/test.sh` (which starts a throwaway cluster), or start one in your \
             shell with `eval \"$(bash scripts/pg.sh start)\"` and run cargo test again \
             (stop it afterwards with `bash scripts/pg.sh stop \"$ARBITER_TEST_PG_DIR\"`)"
        ),
    }
}

/// A database made for one test; dropped (`DROP DATABASE … WITH (FORCE)`)
/// when this is.
#[derive(Debug)]
pub struct TestDatabase {
    /// The server's URL, to connect to for the drop.
    server: String,
    name: String,
    url: String,
    dropped: bool,
}

impl TestDatabase {
    /// The URL of the new database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Drop the database now, ending the connections still open on it.
    pub async fn drop_database(mut self) -> Result<(), StoreError> {
        self.dropped = true;
        drop_named(&self.server, &self.name).await
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if self.dropped {
            return;
        }
        // Drop may run inside a runtime (which must not be blocked on) or
        // outside one: a thread with its own small runtime works in both.
        let (server, name) = (self.server.clone(), self.name.clone());
        let done = std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            if let Err(e) = runtime.block_on(drop_named(&server, &name)) {
                eprintln!("warning: {e}");
            }
        });
        let _ = done.join();
    }
}

async fn drop_named(server: &str, name: &str) -> Result<(), StoreError> {
    let mut conn = PgConnection::connect(server).await.map_err(|e| {
        StoreError::Backend(format!(
            "cannot connect to drop the test database {name}: {e}"
        ))
    })?;
    sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
        .execute(&mut conn)
        .await
        .map_err(|e| StoreError::Backend(format!("cannot drop the test database {name}: {e}")))?;
    let _ = conn.close().await;
    Ok(())
}

/// Make a new, empty database on the server at `server_url` (a user who may
/// `CREATE DATABASE`), named `arbiter_test_…` at random, and return it.
pub async fn fresh_database(server_url: &str) -> Result<TestDatabase, StoreError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let name = format!(
        "arbiter_test_{}_{:x}_{}",
        std::process::id(),
        nanos & 0xffff_ffff_ffff,
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let mut conn = PgConnection::connect(server_url).await.map_err(|e| {
        StoreError::Backend(format!(
            "cannot connect to the tests' PostgreSQL server ({URL_VAR}): {e}"
        ))
    })?;
    // template0: a clean copy, whatever was left in template1.
    sqlx::query(&format!(
        "CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'"
    ))
    .execute(&mut conn)
    .await
    .map_err(|e| StoreError::Backend(format!("cannot create the test database {name}: {e}")))?;
    let _ = conn.close().await;
    Ok(TestDatabase {
        url: database_url(server_url, &name),
        server: server_url.to_owned(),
        name,
        dropped: false,
    })
}

/// `server_url` with its database replaced by `name` (its query kept).
fn database_url(server_url: &str, name: &str) -> String {
    let (base, query) = match server_url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (server_url, None),
    };
    // After the scheme's "//", the authority runs to the next '/'.
    let authority_end = base
        .find("://")
        .map(|i| i + 3)
        .and_then(|start| base[start..].find('/').map(|j| start + j))
        .unwrap_or(base.len());
    let mut url = format!("{}/{name}", &base[..authority_end]);
    if let Some(query) = query {
        url.push('?');
        url.push_str(query);
    }
    url
}

#[cfg(test)]
mod tests {
    use super::database_url;

    #[test]
    fn the_database_of_a_url_is_replaced() {
        assert_eq!(
            database_url("postgres://a@127.0.0.1:5/postgres", "x"),
            "postgres://a@127.0.0.1:5/x"
        );
        assert_eq!(
            database_url("postgres://a:b@h:5/postgres?sslmode=disable", "x"),
            "postgres://a:b@h:5/x?sslmode=disable"
        );
        assert_eq!(database_url("postgresql://h", "x"), "postgresql://h/x");
        assert_eq!(
            database_url("postgres://h?sslmode=disable", "x"),
            "postgres://h/x?sslmode=disable"
        );
    }
}
