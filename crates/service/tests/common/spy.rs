//! A store that wraps a [`SqliteStore`] to watch the service and to race it:
//! it counts appends and kept secrets, and can make "another writer" append
//! prepared events just before the service's next append, deterministically
//! (the window between the service's load and its append).
//!
//! `async-trait` is not a dependency of this crate, so the trait is
//! implemented with the signatures the macro gives it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use arbiter_store::{Appended, EventStore, NewEvent, Seq, StoreError, StoredEvent};
use arbiter_store_sqlite::SqliteStore;

type Fut<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

#[derive(Debug)]
pub struct Spy {
    pub inner: SqliteStore,
    /// Events "another writer" appends (at the then current version, without
    /// key) right before the next append that goes through the spy.
    intruder: Mutex<Option<(String, Vec<NewEvent>)>>,
    /// Appends asked of the spy (the intruder's not counted).
    pub appends: AtomicUsize,
    /// `put_secret` calls.
    pub secrets_put: AtomicUsize,
}

impl Spy {
    pub fn new(inner: SqliteStore) -> Self {
        Self {
            inner,
            intruder: Mutex::new(None),
            appends: AtomicUsize::new(0),
            secrets_put: AtomicUsize::new(0),
        }
    }

    /// Arm the intruder: `events` go into `competition` just before the next
    /// append.
    pub fn intrude(&self, competition: &str, events: Vec<NewEvent>) {
        *self.intruder.lock().unwrap() = Some((competition.to_string(), events));
    }

    pub fn armed(&self) -> bool {
        self.intruder.lock().unwrap().is_some()
    }

    pub fn appends(&self) -> usize {
        self.appends.load(Ordering::SeqCst)
    }

    pub fn secrets_put(&self) -> usize {
        self.secrets_put.load(Ordering::SeqCst)
    }
}

impl EventStore for Spy {
    fn append<'life0, 'life1, 'life2, 'life3, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
        expected: Seq,
        events: &'life2 [NewEvent],
        idempotency_key: Option<&'life3 str>,
    ) -> Fut<'async_trait, Appended>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        'life3: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(async move {
            self.appends.fetch_add(1, Ordering::SeqCst);
            let intruder = self.intruder.lock().unwrap().take();
            if let Some((comp, intruding)) = intruder {
                let version = self.inner.version(&comp).await?;
                self.inner.append(&comp, version, &intruding, None).await?;
            }
            self.inner
                .append(competition, expected, events, idempotency_key)
                .await
        })
    }

    fn read<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
        from: Seq,
        to: Option<Seq>,
    ) -> Fut<'async_trait, Vec<StoredEvent>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.inner.read(competition, from, to)
    }

    fn version<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
    ) -> Fut<'async_trait, Seq>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.inner.version(competition)
    }

    fn competitions<'life0, 'async_trait>(&'life0 self) -> Fut<'async_trait, Vec<String>>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        self.inner.competitions()
    }

    fn idempotent<'life0, 'life1, 'life2, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
        key: &'life2 str,
    ) -> Fut<'async_trait, Option<Appended>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        Self: 'async_trait,
    {
        self.inner.idempotent(competition, key)
    }

    fn put_secret<'life0, 'life1, 'life2, 'life3, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
        name: &'life2 str,
        value: &'life3 str,
    ) -> Fut<'async_trait, ()>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        'life3: 'async_trait,
        Self: 'async_trait,
    {
        self.secrets_put.fetch_add(1, Ordering::SeqCst);
        self.inner.put_secret(competition, name, value)
    }

    fn secret<'life0, 'life1, 'life2, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
        name: &'life2 str,
    ) -> Fut<'async_trait, Option<String>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        Self: 'async_trait,
    {
        self.inner.secret(competition, name)
    }
}
