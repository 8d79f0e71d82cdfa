//! The stylesheet and the vendored htmx, compiled into the binary: the
//! pages work with no network and no files beside the executable. Their
//! URLs carry a hash of the content, so they can be cached for a year and a
//! new build is still fetched.

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// One served file.
#[derive(Debug)]
struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

const ASSETS: [Asset; 4] = [
    Asset {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../assets/style.css"),
    },
    // htmx 2 from the npm registry (htmx.org, dist/htmx.min.js), with its
    // 0BSD license beside it; no CDN.
    Asset {
        name: "htmx.min.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../assets/htmx.min.js"),
    },
    Asset {
        name: "htmx.LICENSE.txt",
        content_type: "text/plain; charset=utf-8",
        body: include_bytes!("../../assets/htmx.LICENSE.txt"),
    },
    // Times in the reader's own zone beside the competition's (issue 17 §3).
    Asset {
        name: "time.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../assets/time.js"),
    },
];

/// FNV-1a, 64 bits: a fingerprint of a file for its URL (not security).
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

const STYLE_HASH: u64 = fnv1a(ASSETS[0].body);
const HTMX_HASH: u64 = fnv1a(ASSETS[1].body);
const TIME_HASH: u64 = fnv1a(ASSETS[3].body);

/// The stylesheet's URL, with its content hash.
pub fn style_url() -> String {
    format!("/assets/style.css?v={STYLE_HASH:016x}")
}

/// htmx's URL, with its content hash.
pub fn htmx_url() -> String {
    format!("/assets/htmx.min.js?v={HTMX_HASH:016x}")
}

/// The reader's-zone script's URL, with its content hash.
pub fn time_url() -> String {
    format!("/assets/time.js?v={TIME_HASH:016x}")
}

/// `GET /assets/{file}`.
pub async fn asset(Path(file): Path<String>) -> Response {
    let Some(asset) = ASSETS.iter().find(|a| a.name == file) else {
        return super::not_found_page().into_response();
    };
    (
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            ),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        asset.body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_differ_and_urls_name_the_files() {
        assert_ne!(STYLE_HASH, HTMX_HASH);
        assert!(style_url().starts_with("/assets/style.css?v="));
        assert!(htmx_url().starts_with("/assets/htmx.min.js?v="));
    }

    #[test]
    fn htmx_keeps_its_license_header() {
        let head = std::str::from_utf8(&ASSETS[1].body[..120]).unwrap_or("");
        assert!(head.starts_with("/*! htmx 2."), "{head}");
        assert!(head.contains("Zero-Clause BSD"), "{head}");
    }
}
