//! Webhook delivery (issue 18 §3): the worker that `serve` starts, which
//! claims due notifications from the store's outbox, POSTs them, signs
//! generic bodies with HMAC-SHA256, logs every attempt, retries with
//! exponential backoff and disables a webhook after repeated failures; and
//! the checks of a webhook's URL (also used when one is registered).
//!
//! Delivery is at least once: an outbox row is deleted only after its
//! receiver answered 2xx, so a crash between the POST and the delete sends
//! it again with the same `X-Arbiter-Delivery` id (docs/webhooks.md).
//!
//! Two notifications are made here rather than by the append's trigger
//! (`arbiter_service::notify`): handling an event's row that may move the
//! standings first writes its `standings` row (once, whatever the retries),
//! and every [`WebhookConfig::deadline_scan`] the worker makes a notice for
//! each game whose deadline is within [`WebhookConfig::deadline_lead`]
//! ([`enqueue_deadlines`]), once per competition, game and deadline.
//!
//! Server-side request forgery: a URL is http or https, at most
//! [`MAX_URL`] bytes, without user info; its host is resolved at each
//! delivery and the connection goes to an address that was checked, never
//! a loopback, private, link-local or otherwise internal one unless
//! [`WebhookConfig::allow_private`] (off by default; tests turn it on).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::model::Time;
use arbiter_store::{
    Delivery, OutboxItem, OutboxKey, StoreError, Webhook, WebhookKind, WebhookStore,
};
use axum::body::Bytes;
use axum::http::{Request, Uri};
use hmac::{Hmac, Mac};
use http_body_util::Full;
use hyper_util::rt::TokioIo;
use sha2::Sha256;

use crate::AppState;

/// Longest webhook URL, in bytes.
pub const MAX_URL: usize = 2048;
/// Attempts kept in a webhook's delivery log.
pub const LOG_KEPT: u32 = 50;

/// How webhooks are delivered.
#[derive(Debug, Clone, Copy)]
pub struct WebhookConfig {
    /// Deliver to loopback and private addresses (for tests and closed
    /// networks). Off by default: see docs/security.md.
    pub allow_private: bool,
    /// Failed deliveries in a row after which a webhook is disabled.
    pub max_failures: u32,
    /// The first retry's delay; each later one doubles, up to `max_backoff`.
    pub backoff: Duration,
    pub max_backoff: Duration,
    /// A receiver that has not answered by then has failed.
    pub timeout: Duration,
    /// How often the worker looks for due notifications.
    pub poll: Duration,
    /// How long before a game's deadline "deadline approaching" is sent
    /// (within [`MIN_DEADLINE_LEAD`] and [`MAX_DEADLINE_LEAD`]).
    pub deadline_lead: Duration,
    /// How often the worker looks for approaching deadlines.
    pub deadline_scan: Duration,
}

/// The shortest and longest lead time of "deadline approaching": an hour
/// (less would often reach players too late to play), a week (more would
/// notify a round's deadline as it is announced).
pub const MIN_DEADLINE_LEAD: Duration = Duration::from_secs(3600);
pub const MAX_DEADLINE_LEAD: Duration = Duration::from_secs(7 * 24 * 3600);
/// The lead time unless the server is told otherwise: a day.
pub const DEFAULT_DEADLINE_LEAD: Duration = Duration::from_secs(24 * 3600);

impl Default for WebhookConfig {
    fn default() -> Self {
        Self {
            allow_private: false,
            max_failures: 5,
            backoff: Duration::from_secs(30),
            max_backoff: Duration::from_secs(3600),
            timeout: Duration::from_secs(10),
            poll: Duration::from_secs(1),
            deadline_lead: DEFAULT_DEADLINE_LEAD,
            deadline_scan: Duration::from_secs(60),
        }
    }
}

/// The header carrying the signature: `t=<unix seconds>,v1=<hex>`.
pub const SIGNATURE_HEADER: &str = "x-arbiter-signature";
/// The header carrying the idempotency id.
pub const DELIVERY_HEADER: &str = "x-arbiter-delivery";

/// The signature header's value of `body` sent at `t` with `secret`: the
/// hex HMAC-SHA256 of `"{t}.{body}"`.
pub fn sign(secret: &str, t: i64, body: &str) -> String {
    // HMAC takes a key of any length: `new_from_slice` cannot fail.
    let mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes())
        .map(|mut mac| {
            mac.update(format!("{t}.{body}").as_bytes());
            hex::encode(mac.finalize().into_bytes())
        })
        .unwrap_or_default();
    format!("t={t},v1={mac}")
}

/// Whether `ip` is an address a webhook may not reach unless private
/// targets are allowed: loopback, private, link-local, shared (CGNAT),
/// unspecified, broadcast, multicast, documentation, unique-local, and the
/// IPv4 forms of those inside IPv6.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (o[1] & 0xc0) == 64)
                || (o[0] == 192 && o[1] == 0 && o[2] == 0)
                || o[0] >= 240
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_internal(IpAddr::V4(v4));
            }
            let s = v6.segments();
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || (s[0] == 0x2001 && s[1] == 0x0db8)
                || (s[0] == 0 && s[1] == 0 && s[2] == 0 && s[3] == 0 && s[4] == 0)
        }
    }
}

/// A URL a webhook may be registered with: scheme, host, port, path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub https: bool,
    pub host: String,
    pub port: u16,
    pub path: String,
}

/// Check a webhook URL, answering what is wrong in words (the field is
/// `url`). Names that resolve to internal addresses are caught at delivery.
pub fn check_url(url: &str, allow_private: bool) -> Result<Target, String> {
    if url.is_empty() {
        return Err("the URL is empty".to_owned());
    }
    if url.len() > MAX_URL {
        return Err(format!(
            "a URL has at most {MAX_URL} bytes; this one has {}",
            url.len()
        ));
    }
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err("a URL has no spaces or control characters".to_owned());
    }
    match url.split_once("://") {
        None => return Err("a URL starts with http:// or https://".to_owned()),
        Some((scheme, _)) if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") => {
            let scheme: String = scheme.chars().take(20).collect();
            return Err(format!(
                "the scheme is {scheme:?}: only http and https are allowed"
            ));
        }
        Some(_) => {}
    }
    let uri: Uri = url
        .parse()
        .map_err(|e| format!("this is not a URL ({e})"))?;
    let https = match uri.scheme_str() {
        Some("https") => true,
        Some("http") => false,
        Some(other) => {
            return Err(format!(
                "the scheme is {other:?}: only http and https are allowed"
            ));
        }
        None => return Err("a URL starts with http:// or https://".to_owned()),
    };
    let Some(authority) = uri.authority() else {
        return Err("the URL names no host".to_owned());
    };
    if authority.as_str().contains('@') {
        return Err("a URL with a user name or password is refused".to_owned());
    }
    let host = authority
        .host()
        .trim_start_matches('[')
        .trim_end_matches(']');
    if host.is_empty() {
        return Err("the URL names no host".to_owned());
    }
    let lower = host.to_ascii_lowercase();
    if !allow_private {
        let internal = match lower.parse::<IpAddr>() {
            Ok(ip) => is_internal(ip),
            Err(_) => lower == "localhost" || lower.ends_with(".localhost") || !lower.contains('.'),
        };
        if internal {
            return Err(format!(
                "{host} is a loopback, private or internal address: webhooks go to public hosts"
            ));
        }
    }
    let port = authority.port_u16().unwrap_or(if https { 443 } else { 80 });
    let path = uri
        .path_and_query()
        .map_or("/".to_owned(), |p| p.as_str().to_owned());
    Ok(Target {
        https,
        host: lower,
        port,
        path,
    })
}

/// Why a delivery failed, in words, with the receiver's status if it
/// answered.
#[derive(Debug, Clone)]
pub struct Failed {
    pub status: Option<u16>,
    pub detail: String,
}

fn failed(detail: impl Into<String>) -> Failed {
    Failed {
        status: None,
        detail: detail.into(),
    }
}

/// The TLS client configuration (Mozilla's roots, ring), made once.
fn tls() -> Result<Arc<tokio_rustls::rustls::ClientConfig>, String> {
    use std::sync::OnceLock;
    use tokio_rustls::rustls;
    static CONFIG: OnceLock<Result<Arc<rustls::ClientConfig>, String>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let roots = rustls::RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            };
            rustls::ClientConfig::builder_with_provider(Arc::new(
                rustls::crypto::ring::default_provider(),
            ))
            .with_safe_default_protocol_versions()
            .map(|b| Arc::new(b.with_root_certificates(roots).with_no_client_auth()))
            .map_err(|e| format!("cannot set up TLS: {e}"))
        })
        .clone()
}

/// POST `body` to `url` with `headers`; Ok with the 2xx status.
pub async fn post(
    url: &str,
    body: String,
    headers: &[(&str, String)],
    config: &WebhookConfig,
) -> Result<u16, Failed> {
    let target = check_url(url, config.allow_private).map_err(failed)?;
    tokio::time::timeout(config.timeout, post_to(&target, body, headers, config))
        .await
        .unwrap_or_else(|_| {
            Err(failed(format!(
                "no answer within {} s",
                config.timeout.as_secs()
            )))
        })
}

async fn post_to(
    target: &Target,
    body: String,
    headers: &[(&str, String)],
    config: &WebhookConfig,
) -> Result<u16, Failed> {
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((target.host.as_str(), target.port))
        .await
        .map_err(|e| failed(format!("cannot resolve {}: {e}", target.host)))?
        .collect();
    let Some(addr) = addrs
        .iter()
        .find(|a| config.allow_private || !is_internal(a.ip()))
        .copied()
    else {
        return Err(failed(format!(
            "{} resolves to no public address ({})",
            target.host,
            addrs
                .iter()
                .map(|a| a.ip().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| failed(format!("cannot connect to {addr}: {e}")))?;
    let host_header =
        if (target.https && target.port == 443) || (!target.https && target.port == 80) {
            target.host.clone()
        } else {
            format!("{}:{}", target.host, target.port)
        };
    let mut request = Request::post(target.path.as_str())
        .header("host", host_header)
        .header("content-type", "application/json")
        .header("user-agent", "Arbiter-Webhooks/1");
    for (name, value) in headers {
        request = request.header(*name, value.as_str());
    }
    let request = request
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| failed(format!("cannot make the request: {e}")))?;
    if target.https {
        let name = tokio_rustls::rustls::pki_types::ServerName::try_from(target.host.clone())
            .map_err(|e| failed(format!("bad host name {}: {e}", target.host)))?;
        let stream = tokio_rustls::TlsConnector::from(tls().map_err(failed)?)
            .connect(name, tcp)
            .await
            .map_err(|e| failed(format!("TLS with {} failed: {e}", target.host)))?;
        send(TokioIo::new(stream), request).await
    } else {
        send(TokioIo::new(tcp), request).await
    }
}

async fn send<T>(io: T, request: Request<Full<Bytes>>) -> Result<u16, Failed>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| failed(format!("HTTP handshake failed: {e}")))?;
    let driver = tokio::spawn(connection);
    let answer = sender
        .send_request(request)
        .await
        .map_err(|e| failed(format!("the request failed: {e}")));
    driver.abort();
    let status = answer?.status();
    if status.is_success() {
        Ok(status.as_u16())
    } else {
        Err(Failed {
            status: Some(status.as_u16()),
            detail: format!("HTTP {status}"),
        })
    }
}

/// The body and headers of notification `body` for `hook` at time `t`.
fn headers_for(hook: &Webhook, id: &str, body: &str, t: i64) -> Vec<(&'static str, String)> {
    let mut headers = vec![(DELIVERY_HEADER, id.to_owned())];
    if hook.kind == WebhookKind::Generic {
        headers.push((SIGNATURE_HEADER, sign(&hook.secret, t, body)));
    }
    headers
}

fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// How long a claimed row is held by this worker before another may claim
/// it: longer than any delivery takes.
fn lease(config: &WebhookConfig) -> i64 {
    i64::try_from(config.timeout.as_secs()).unwrap_or(60) * 2 + 5
}

fn backoff(config: &WebhookConfig, attempts: u32) -> i64 {
    let base = config.backoff.as_secs();
    let delay = base
        .saturating_mul(1u64 << attempts.saturating_sub(1).min(30))
        .min(config.max_backoff.as_secs());
    i64::try_from(delay).unwrap_or(i64::MAX)
}

/// Deliver what is due now (at most 32 notifications); the number of rows
/// handled. Rows are claimed one at a time, each just before its delivery,
/// so that a lease never runs out while its row waits behind others.
pub async fn deliver_due(state: &AppState) -> Result<usize, StoreError> {
    let store = state.service.store();
    let config = state.config.webhooks;
    let mut n = 0;
    while n < 32 {
        let now = unix_now();
        let Some(item) = store
            .claim_outbox(now, now + lease(&config), 1)
            .await?
            .into_iter()
            .next()
        else {
            break;
        };
        deliver_one(state, item).await?;
        n += 1;
    }
    Ok(n)
}

/// Make a "deadline approaching" notice for every game of a competition
/// with an active webhook whose deadline is after `now` and within the
/// lead time; the number of notices made (a notice already made, by this
/// worker or another, before a restart or not, is not made again).
pub async fn enqueue_deadlines(state: &AppState, now: Time) -> Result<usize, StoreError> {
    let store = state.service.store();
    let lead = chrono::Duration::from_std(
        state
            .config
            .webhooks
            .deadline_lead
            .clamp(MIN_DEADLINE_LEAD, MAX_DEADLINE_LEAD),
    )
    .unwrap_or(chrono::Duration::days(1));
    let competitions = match state.service.competitions().await {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(error = %e, "webhook deadlines: cannot list the competitions");
            return Ok(0);
        }
    };
    let mut made = 0;
    for competition in competitions {
        if !store
            .webhooks(&competition)
            .await?
            .iter()
            .any(|w| w.disabled.is_none())
        {
            continue;
        }
        let (version, topics) = match state
            .service
            .approaching_deadlines(&competition, now, lead)
            .await
        {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(competition, error = %e, "webhook deadlines: cannot read");
                continue;
            }
        };
        for topic in topics {
            if store.enqueue_notice(&competition, version, &topic).await? {
                made += 1;
            }
        }
    }
    Ok(made)
}

async fn deliver_one(state: &AppState, item: OutboxItem) -> Result<(), StoreError> {
    let store = state.service.store();
    let config = state.config.webhooks;
    let Some(hook) = store.webhook(&item.key.webhook).await? else {
        store.finish_outbox(&item.key).await?;
        return Ok(());
    };
    let id = item.key.id();
    if item.key.topic.is_empty() {
        // The rows this event adds are written before its own is finished:
        // a crash in between writes them again, which writes nothing.
        match state
            .service
            .follow_ups(&item.key.competition, item.key.seq)
            .await
        {
            Ok(topics) => {
                for topic in topics {
                    let key = OutboxKey {
                        topic: topic.to_owned(),
                        ..item.key.clone()
                    };
                    store.enqueue_outbox(&key).await?;
                }
            }
            Err(e) => {
                tracing::warn!(id, error = %e, "cannot read a webhook notification's event");
                let attempts = item.attempts.saturating_add(1);
                store
                    .retry_outbox(&item.key, attempts, unix_now() + backoff(&config, attempts))
                    .await?;
                return Ok(());
            }
        }
    }
    let notification = match state
        .service
        .notification(
            &item.key.competition,
            item.key.seq,
            &item.key.topic,
            &id,
            &state.base_url,
        )
        .await
    {
        Ok(Some(n)) => n,
        // Not an event that notifies (or no longer there): nothing to send.
        Ok(None) => {
            store.finish_outbox(&item.key).await?;
            return Ok(());
        }
        Err(e) => {
            // Our side failed (the log could not be read): try again later,
            // without counting it against the receiver.
            tracing::warn!(id, error = %e, "cannot make a webhook notification");
            let attempts = item.attempts.saturating_add(1);
            store
                .retry_outbox(&item.key, attempts, unix_now() + backoff(&config, attempts))
                .await?;
            return Ok(());
        }
    };
    let body = match hook.kind {
        WebhookKind::Generic => notification.generic_body(),
        WebhookKind::Discord => notification.discord_body(),
    };
    let t = unix_now();
    let headers = headers_for(&hook, &id, &body, t);
    let outcome = post(&hook.url, body, &headers, &config).await;
    let attempt = item.attempts.saturating_add(1);
    let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let (status, ok, detail) = match &outcome {
        Ok(status) => (Some(*status), true, format!("HTTP {status}")),
        Err(f) => (f.status, false, f.detail.clone()),
    };
    store
        .log_delivery(
            &Delivery {
                webhook: hook.id.clone(),
                competition: item.key.competition.clone(),
                seq: item.key.seq,
                attempt,
                at: at.clone(),
                status,
                ok,
                detail: detail.clone(),
                topic: item.key.topic.clone(),
            },
            LOG_KEPT,
        )
        .await?;
    if ok {
        store.finish_outbox(&item.key).await?;
        if hook.failures > 0 {
            store.set_webhook_state(&hook.id, 0, None).await?;
        }
        return Ok(());
    }
    let failures = hook.failures.saturating_add(1);
    let disabled = (failures >= config.max_failures).then(|| {
        format!("disabled at {at} after {failures} failed deliveries in a row; the last: {detail}")
    });
    store
        .set_webhook_state(&hook.id, failures, disabled.as_deref())
        .await?;
    store
        .retry_outbox(&item.key, attempt, unix_now() + backoff(&config, attempt))
        .await?;
    Ok(())
}

/// Start the worker: it delivers what is due every
/// [`WebhookConfig::poll`], and makes the notices of approaching deadlines
/// every [`WebhookConfig::deadline_scan`] (and when it starts), until the
/// task is aborted.
pub fn spawn(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut scanned: Option<tokio::time::Instant> = None;
        loop {
            if scanned.is_none_or(|t| t.elapsed() >= state.config.webhooks.deadline_scan) {
                scanned = Some(tokio::time::Instant::now());
                if let Err(e) = enqueue_deadlines(&state, state.clock.now()).await {
                    tracing::warn!(error = %e, "webhook deadlines: the store failed");
                }
            }
            match deliver_due(&state).await {
                // More may be due: go on at once.
                Ok(n) if n > 0 => continue,
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "webhook delivery: the store failed"),
            }
            tokio::time::sleep(state.config.webhooks.poll).await;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked() {
        assert!(check_url("https://discord.com/api/webhooks/1/abc", false).is_ok());
        for (url, word) in [
            ("", "empty"),
            ("ftp://example.org/x", "scheme"),
            ("example.org/x", "http"),
            ("https://user:pw@example.org/", "user name"),
            ("http://127.0.0.1:8080/", "loopback"),
            ("http://10.1.2.3/", "private"),
            ("http://[::1]/", "loopback"),
            ("http://169.254.169.254/latest/meta-data", "internal"),
            ("http://localhost/", "loopback"),
            ("http://intranet/", "internal"),
            ("http://[::ffff:192.168.0.1]/", "private"),
            ("http://100.64.0.1/", "private"),
            ("https://example.org/a b", "spaces"),
        ] {
            let e = check_url(url, false).err().unwrap_or_default();
            assert!(e.contains(word), "{url:?}: {e:?} should say {word:?}");
        }
        let long = format!("https://example.org/{}", "a".repeat(MAX_URL));
        assert!(
            check_url(&long, false)
                .err()
                .unwrap_or_default()
                .contains("at most")
        );
        assert!(check_url("http://127.0.0.1:9/x?y=1", true).is_ok());
        assert_eq!(
            check_url("http://127.0.0.1:9/x?y=1", true)
                .ok()
                .map(|t| t.path),
            Some("/x?y=1".to_owned())
        );
    }

    #[test]
    fn the_signature_is_the_hmac_of_time_dot_body() {
        // RFC 4231 test case 2's key and data, as "t.body" = "what do ya want for nothing?".
        let s = sign("Jefe", 0, "");
        assert!(s.starts_with("t=0,v1="));
        let mac = Hmac::<Sha256>::new_from_slice(b"Jefe")
            .map(|mut m| {
                m.update(b"what do ya want for nothing?");
                hex::encode(m.finalize().into_bytes())
            })
            .unwrap_or_default();
        assert_eq!(
            mac,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(sign("k", 17, "{}"), sign("k", 17, "{}"));
        assert_ne!(sign("k", 17, "{}"), sign("k", 18, "{}"));
    }

    #[test]
    fn backoff_doubles_up_to_its_cap() {
        let c = WebhookConfig::default();
        assert_eq!(backoff(&c, 1), 30);
        assert_eq!(backoff(&c, 2), 60);
        assert_eq!(backoff(&c, 3), 120);
        assert_eq!(backoff(&c, 40), 3600);
    }
}
