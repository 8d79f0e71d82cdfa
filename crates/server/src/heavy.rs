//! Heavy reads: projections, clinch analyses and what-if previews cost CPU
//! and are open to everyone, so they cannot be used to tie up the server
//! (issue 14, item 3). Each one
//!
//! - asks no more than its caller's [`Caps`] (lower for anonymous callers);
//!   a request above them is answered 400 naming the field and its limit
//!   (checked by the handlers, before anything runs);
//! - is found in the handler's cache when the same request was answered at
//!   the same competition version (the caches count nothing here);
//! - counts against its address's rate ([`HeavyLimits::per_address_per_minute`]);
//! - runs on a blocking thread once one of [`HeavyLimits::concurrent`] slots
//!   is free, after waiting at most [`HeavyLimits::wait`] among at most
//!   [`HeavyLimits::queue`] callers; past that it is answered 429 with
//!   `Retry-After`, never left to the request timeout's 503;
//! - is cancelled when its caller goes away: dropping the request's future
//!   cancels the token the computation checks ([`Heavy::run`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::auth::Caller;
use crate::error::{ApiError, ErrorCode};

/// The most one request may ask of a projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Simulated seasons.
    pub seasons: u32,
    /// A ladder's rounds after the running one.
    pub rounds: u32,
}

/// How much heavy work the server takes on.
#[derive(Debug, Clone, Copy)]
pub struct HeavyLimits {
    /// Heavy computations running at once.
    pub concurrent: usize,
    /// Callers waiting for a free slot at most; one more is answered 429.
    pub queue: usize,
    /// The longest a caller waits for a slot before it is answered 429.
    pub wait: Duration,
    /// Heavy computations one client address may start per minute: a
    /// bucket of this many, refilled evenly over the minute.
    pub per_address_per_minute: u32,
    /// What a caller without an account may ask.
    pub anonymous: Caps,
    /// What a logged-in caller may ask.
    pub logged_in: Caps,
}

impl Default for HeavyLimits {
    fn default() -> Self {
        // One computation per core: more would only share the same CPUs.
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Self {
            concurrent: cores,
            queue: 2 * cores,
            // Short enough that a caller who waited the whole time and then
            // ran a computation at the anonymous caps still has his answer
            // within 2 s (the bar), on an unoptimised build too.
            wait: Duration::from_millis(500),
            per_address_per_minute: 30,
            // 2,000 seasons (the page's default) of 3 rounds after the
            // running one: about 10 ms optimised on the demo ladder, half a
            // second unoptimised on a loaded 2-core machine.
            anonymous: Caps {
                seasons: 2_000,
                rounds: 3,
            },
            logged_in: Caps {
                seasons: 20_000,
                rounds: arbiter_service::insight::MAX_ROUNDS,
            },
        }
    }
}

impl HeavyLimits {
    /// The caps of `caller`.
    pub fn caps(&self, caller: &Caller) -> Caps {
        if caller.account.is_some() {
            self.logged_in
        } else {
            self.anonymous
        }
    }
}

/// The limiter every heavy read goes through (see the module's text).
#[derive(Debug)]
pub struct Heavy {
    limits: HeavyLimits,
    slots: Arc<Semaphore>,
    waiting: AtomicUsize,
    rates: Mutex<HashMap<Option<IpAddr>, Bucket>>,
}

/// An address's tokens, as of `at`.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Addresses remembered at most; past this, full buckets are forgotten.
const ADDRESSES: usize = 10_000;

/// Counts a caller in the queue while it waits.
struct InQueue<'a>(&'a AtomicUsize);

impl Drop for InQueue<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Heavy {
    pub fn new(limits: HeavyLimits) -> Self {
        Self {
            limits,
            slots: Arc::new(Semaphore::new(limits.concurrent.max(1))),
            waiting: AtomicUsize::new(0),
            rates: Mutex::new(HashMap::new()),
        }
    }

    pub fn limits(&self) -> &HeavyLimits {
        &self.limits
    }

    /// Heavy computations running now (a cancelled one counts until its
    /// thread has stopped).
    pub fn running(&self) -> usize {
        self.limits.concurrent.max(1) - self.slots.available_permits()
    }

    /// Run `work` on a blocking thread within the limits, for a caller at
    /// `address`. `work` gets a token that is cancelled when the returned
    /// future is dropped (its caller went away): it should check it and
    /// stop. The slot stays taken until `work` returns, so a cancelled
    /// computation still counts while it winds down.
    pub async fn run<T, F>(&self, address: Option<IpAddr>, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&CancellationToken) -> T + Send + 'static,
    {
        self.admit(address)?;
        let permit = self.slot().await?;
        let token = CancellationToken::new();
        let guard = token.clone().drop_guard();
        let out = tokio::task::spawn_blocking(move || {
            let _slot: OwnedSemaphorePermit = permit;
            work(&token)
        })
        .await
        .map_err(|e| ApiError::internal(format!("a heavy computation failed: {e}")))?;
        guard.disarm();
        Ok(out)
    }

    /// A free slot, after waiting in the queue if there is room in it.
    async fn slot(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        if let Ok(p) = self.slots.clone().try_acquire_owned() {
            return Ok(p);
        }
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.limits.queue {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(self.busy());
        }
        let _in_queue = InQueue(&self.waiting);
        match tokio::time::timeout(self.limits.wait, self.slots.clone().acquire_owned()).await {
            Ok(Ok(p)) => Ok(p),
            _ => Err(self.busy()),
        }
    }

    fn busy(&self) -> ApiError {
        let seconds = self.limits.wait.as_secs().max(1);
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Throttled,
            format!(
                "the server is busy with other projections, analyses and previews; try again in {seconds} s"
            ),
        )
        .with_retry_after(seconds)
    }

    /// Take one of `address`'s tokens, or say when the next one comes.
    fn admit(&self, address: Option<IpAddr>) -> Result<(), ApiError> {
        let per_minute = self.limits.per_address_per_minute;
        let capacity = f64::from(per_minute.max(1));
        let per_second = capacity / 60.0;
        let now = Instant::now();
        let Ok(mut rates) = self.rates.lock() else {
            return Ok(());
        };
        if rates.len() >= ADDRESSES && !rates.contains_key(&address) {
            rates.retain(|_, b| {
                b.tokens + now.duration_since(b.at).as_secs_f64() * per_second < capacity
            });
        }
        let b = rates.entry(address).or_insert(Bucket {
            tokens: capacity,
            at: now,
        });
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * per_second).min(capacity);
        b.at = now;
        if per_minute > 0 && b.tokens >= 1.0 {
            b.tokens -= 1.0;
            return Ok(());
        }
        let seconds = if per_minute == 0 {
            60
        } else {
            ((1.0 - b.tokens) / per_second).ceil().max(1.0) as u64
        };
        Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Throttled,
            format!(
                "this address has asked for more than {per_minute} projections, analyses and previews in a minute; try again in {seconds} s"
            ),
        )
        .with_retry_after(seconds))
    }
}

/// Refuse `asked` above `cap` for `field`: 400 naming the field and its
/// limit, and whether logging in raises it.
pub fn check_cap(field: &str, asked: u32, cap: u32, anonymous: bool) -> Result<(), ApiError> {
    if asked <= cap {
        return Ok(());
    }
    let more = if anonymous {
        " without an account; logged-in callers may ask for more"
    } else {
        ""
    };
    Err(
        ApiError::bad_request(format!("{field} must be at most {cap}{more}, not {asked}"))
            .with_field(field),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn limits(concurrent: usize, queue: usize, per_minute: u32) -> HeavyLimits {
        HeavyLimits {
            concurrent,
            queue,
            wait: Duration::from_millis(100),
            per_address_per_minute: per_minute,
            ..HeavyLimits::default()
        }
    }

    #[tokio::test]
    async fn an_address_past_its_rate_is_told_when_to_come_back_and_others_are_not() {
        let heavy = Heavy::new(limits(2, 2, 2));
        let a = Some(IpAddr::from([192, 0, 2, 1]));
        let b = Some(IpAddr::from([192, 0, 2, 2]));
        heavy.run(a, |_| ()).await.unwrap();
        heavy.run(a, |_| ()).await.unwrap();
        let e = heavy.run(a, |_| ()).await.unwrap_err();
        assert_eq!(e.status, StatusCode::TOO_MANY_REQUESTS);
        // Two a minute: the next token comes within 30 s.
        assert!(matches!(e.retry_after, Some(1..=30)), "{:?}", e.retry_after);
        heavy.run(b, |_| ()).await.unwrap();
    }

    #[tokio::test]
    async fn past_the_slots_and_the_queue_the_answer_is_429_at_once() {
        let heavy = Arc::new(Heavy::new(limits(1, 1, 1000)));
        let (started, wait_started) = tokio::sync::oneshot::channel::<()>();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let h = heavy.clone();
        let first = tokio::spawn(async move {
            h.run(None, move |_| {
                started.send(()).unwrap();
                released.recv().unwrap();
            })
            .await
        });
        wait_started.await.unwrap();
        assert_eq!(heavy.running(), 1);
        // One waits in the queue; the next finds it full and is answered
        // at once; the one in the queue gives up after `wait`.
        let h = heavy.clone();
        let queued = tokio::spawn(async move { h.run(None, |_| ()).await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        let t = Instant::now();
        let full = heavy.run(None, |_| ()).await.unwrap_err();
        assert_eq!(full.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(full.retry_after, Some(1));
        assert!(t.elapsed() < Duration::from_millis(50));
        let e = queued.await.unwrap().unwrap_err();
        assert_eq!(e.status, StatusCode::TOO_MANY_REQUESTS);
        release.send(()).unwrap();
        first.await.unwrap().unwrap();
        assert_eq!(heavy.running(), 0);
    }

    #[tokio::test]
    async fn dropping_the_caller_cancels_the_computation_and_frees_its_slot() {
        let heavy = Arc::new(Heavy::new(limits(1, 0, 1000)));
        let (started, wait_started) = tokio::sync::oneshot::channel::<()>();
        let h = heavy.clone();
        let caller = tokio::spawn(async move {
            h.run(None, move |token| {
                started.send(()).unwrap();
                // Work until cancelled (at most 10 s, so a broken test ends).
                let t = Instant::now();
                while !token.is_cancelled() && t.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                token.is_cancelled()
            })
            .await
        });
        wait_started.await.unwrap();
        caller.abort();
        let t = Instant::now();
        while heavy.running() > 0 {
            assert!(t.elapsed() < Duration::from_secs(2), "still running");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // The next computation gets a fresh token.
        assert!(!heavy.run(None, |t| t.is_cancelled()).await.unwrap());
    }

    #[test]
    fn a_cap_names_its_field_and_limit() {
        assert!(check_cap("seasons", 2_000, 2_000, true).is_ok());
        let e = check_cap("seasons", 2_001, 2_000, true).unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(e.detail.field.as_deref(), Some("seasons"));
        assert!(
            e.detail.message.contains("at most 2000"),
            "{}",
            e.detail.message
        );
        assert!(e.detail.message.contains("logged-in"));
        let e = check_cap("rounds", 21, 20, false).unwrap_err();
        assert!(!e.detail.message.contains("logged-in"));
    }
}
