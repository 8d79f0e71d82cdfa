//! `arbiter serve`: the JSON API (`/api`, described by `/api/openapi.json`)
//! and the server-rendered pages, over the same store and service as the
//! CLI. Handlers only parse, call the service, and render a view: every
//! rule lives in the engine, every read model in `arbiter_service`.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::model::Time;
use arbiter_service::Service;
use arbiter_store_any::AnyStore;
use arbiter_store_postgres::PostgresStore;
use arbiter_store_sqlite::SqliteStore;

pub mod actions;
pub mod api;
mod app;
pub mod auth;
pub mod calendar;
pub mod demo;
pub mod error;
pub mod formats;
pub mod heavy;
pub mod mail;
pub mod pages;
pub mod webhooks;

pub use app::{CONTENT_SECURITY_POLICY, app};
pub use error::{ApiError, ErrorCode};

/// The service every handler shares: the CLI's, over the same database (a
/// SQLite file or PostgreSQL, [`AnyStore`]). It checks the store's version
/// on each read, so another process (the CLI, another server) may write to
/// the database while the server runs.
pub type Svc = Service<AnyStore>;

/// A service over any store the server can run on, made a [`Svc`] (the same
/// store and seeds; the cache of folded states starts empty).
pub trait IntoSvc {
    fn into_svc(self) -> Svc;
}

impl IntoSvc for Svc {
    fn into_svc(self) -> Svc {
        self
    }
}

impl IntoSvc for Service<SqliteStore> {
    fn into_svc(self) -> Svc {
        Service::new(AnyStore::Sqlite(self.store().clone())).with_seeds(self.seeds().clone())
    }
}

impl IntoSvc for Service<PostgresStore> {
    fn into_svc(self) -> Svc {
        Service::new(AnyStore::Postgres(self.store().clone())).with_seeds(self.seeds().clone())
    }
}

/// Where "now" comes from: the system clock, or a fixed time for tests and
/// examples (overdue games and deadlines depend on it).
#[derive(Debug, Clone, Copy, Default)]
pub enum Clock {
    #[default]
    System,
    Fixed(Time),
}

impl Clock {
    pub fn now(&self) -> Time {
        match self {
            Clock::System => chrono::Utc::now(),
            Clock::Fixed(t) => *t,
        }
    }
}

/// The limits the server applies to every request.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// A request that takes longer is answered 503 (`timeout`).
    pub timeout: Duration,
    /// A larger request body is refused with 413 (`payload-too-large`).
    pub body_limit: usize,
    /// Simulated seasons of a projection page that asks for none (the API's
    /// default is the service's, 10,000, or the caller's cap if lower).
    pub page_seasons: u32,
    /// Projections, clinch analyses and what-if previews are open to
    /// everyone and cost CPU: caps per caller, concurrency, queue and rate
    /// (issue 14, item 3; the CLI may ask for more).
    pub heavy: heavy::HeavyLimits,
    /// Webhook delivery (issue 18 §3).
    pub webhooks: webhooks::WebhookConfig,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(10),
            body_limit: 1024 * 1024,
            page_seasons: 2_000,
            heavy: heavy::HeavyLimits::default(),
            webhooks: webhooks::WebhookConfig::default(),
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub service: Arc<Svc>,
    pub clock: Clock,
    pub config: Config,
    /// Serialized competition views at the version they were built at.
    pub views: Arc<api::competitions::ViewCache>,
    /// Rendered public pages at the version and minute they were rendered
    /// in (issue 17 §4).
    pub pages: Arc<pages::cache::PageCache>,
    /// Projections already run, by competition version and request.
    pub projections: Arc<api::insight::ProjectionCache>,
    /// Clinch analyses already made, by competition, version and group.
    pub clinches: Arc<api::insight::Kept<arbiter_service::clinch::ClinchView>>,
    /// What-if previews already made, by competition, version, results and
    /// minute.
    pub what_ifs: Arc<api::insight::Kept<arbiter_service::what_if::AnyWhatIfView>>,
    /// The limiter every projection, analysis and preview goes through.
    pub heavy: Arc<heavy::Heavy>,
    pub auth: auth::AuthConfig,
    /// Failed logins, per username and per address.
    pub throttle: Arc<auth::Throttle>,
    /// Where e-mail goes out, when configured.
    pub mailer: Option<Arc<mail::Mailer>>,
    /// The address the pages link to in e-mail (`http://host:port`).
    pub base_url: String,
}

impl AppState {
    pub fn new(service: impl IntoSvc) -> Self {
        Self {
            service: Arc::new(service.into_svc()),
            clock: Clock::System,
            config: Config::default(),
            views: Arc::default(),
            pages: Arc::default(),
            projections: Arc::default(),
            clinches: Arc::default(),
            what_ifs: Arc::default(),
            heavy: Arc::new(heavy::Heavy::new(Config::default().heavy)),
            auth: auth::AuthConfig::default(),
            throttle: Arc::default(),
            mailer: None,
            base_url: "http://localhost:8080".into(),
        }
    }

    #[must_use]
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    #[must_use]
    pub fn with_auth(mut self, auth: auth::AuthConfig) -> Self {
        self.auth = auth;
        self
    }

    #[must_use]
    pub fn with_mailer(
        mut self,
        mailer: Option<mail::Mailer>,
        base_url: impl Into<String>,
    ) -> Self {
        self.mailer = mailer.map(Arc::new);
        self.base_url = base_url.into();
        self
    }

    #[must_use]
    pub fn with_config(mut self, config: Config) -> Self {
        self.config = config;
        self.heavy = Arc::new(heavy::Heavy::new(config.heavy));
        self
    }

    /// The time the server shows competitions at.
    pub fn now(&self) -> Time {
        self.clock.now()
    }
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("clock", &self.clock)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// Serve `state` on `listener` until `shutdown` completes, then finish the
/// requests in flight (graceful shutdown).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Webhook notifications go out while the server runs (issue 18 §3).
    let worker = webhooks::spawn(state.clone());
    // The client's address reaches the handlers (login throttling).
    let served = axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await;
    worker.abort();
    served
}

/// Completes on Ctrl-C (and on SIGTERM on Unix): the signal to stop
/// serving.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            // No handler could be installed: never complete from here.
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

/// Log requests to stderr: `RUST_LOG` if set, else one line per request
/// and warnings. Does nothing if a subscriber is already installed.
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,tower_http=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
