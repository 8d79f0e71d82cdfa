//! A store that wraps a [`SqliteStore`] to watch the service and to race it:
//! it counts appends and kept secrets, and can make "another writer" append
//! prepared events just before the service's next append, deterministically
//! (the window between the service's load and its append).
//!
//! `async-trait` is not a dependency of this crate, so the trait is
//! implemented with the signatures the macro gives it.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use arbiter_store::{
    Appended, EventStore, Idempotency, KeyUse, NewEvent, Seq, StoreError, StoredEvent,
};
use arbiter_store_sqlite::SqliteStore;

type Fut<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

#[derive(Debug)]
pub struct Spy {
    pub inner: SqliteStore,
    /// Events "other writers" append (at the then current version, without
    /// key): one batch right before each of the next appends that go
    /// through the spy.
    intruders: Mutex<VecDeque<(String, Vec<NewEvent>)>>,
    /// Appends asked of the spy (the intruder's not counted).
    pub appends: AtomicUsize,
    /// `put_secret` calls.
    pub secrets_put: AtomicUsize,
}

impl Spy {
    pub fn new(inner: SqliteStore) -> Self {
        Self {
            inner,
            intruders: Mutex::new(VecDeque::new()),
            appends: AtomicUsize::new(0),
            secrets_put: AtomicUsize::new(0),
        }
    }

    /// Arm an intruder: `events` go into `competition` just before the
    /// first append not yet raced by an earlier intruder.
    pub fn intrude(&self, competition: &str, events: Vec<NewEvent>) {
        self.intruders
            .lock()
            .unwrap()
            .push_back((competition.to_string(), events));
    }

    /// Intruders still waiting for an append.
    pub fn armed(&self) -> usize {
        self.intruders.lock().unwrap().len()
    }

    pub fn disarm(&self) {
        self.intruders.lock().unwrap().clear();
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
        idempotency: Option<Idempotency<'life3>>,
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
            let intruder = self.intruders.lock().unwrap().pop_front();
            if let Some((comp, intruding)) = intruder {
                let version = self.inner.version(&comp).await?;
                self.inner.append(&comp, version, &intruding, None).await?;
            }
            self.inner
                .append(competition, expected, events, idempotency)
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
    ) -> Fut<'async_trait, Option<KeyUse>>
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

    fn keys<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
    ) -> Fut<'async_trait, Vec<arbiter_store::KeyRecord>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.inner.keys(competition)
    }

    fn secrets<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
    ) -> Fut<'async_trait, Vec<(String, String)>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.inner.secrets(competition)
    }

    fn import<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competitions: &'life1 [arbiter_store::CompetitionDump],
    ) -> Fut<'async_trait, ()>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.inner.import(competitions)
    }
}
