//! The mapping from the service's errors to the API's one error shape:
//! status, code, and the fields each code carries. (The read routes reach
//! only 404, 400 and 500; the writes will reach 409 and 422 through the same
//! mapping.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::RuleError;
use arbiter_record::RecordError;
use arbiter_server::ApiError;
use arbiter_service::ServiceError;
use arbiter_store::StoreError;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use http_body_util::BodyExt;
use serde_json::{Value, json};

async fn answer(e: ServiceError) -> (StatusCode, Value) {
    let response = ApiError::from(e).into_response();
    let status = response.status();
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "{status}"
    );
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&body).unwrap())
}

#[tokio::test]
async fn a_rule_refusal_is_422_refused_with_its_clause_and_field() {
    let rule = RuleError::new(
        "TWS-R5",
        "the deadline of G12 has passed; record it as agreed",
    )
    .field("agreed");
    let (status, body) = answer(rule.into()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body,
        json!({"error": {
            "code": "refused",
            "message": "the deadline of G12 has passed; record it as agreed",
            "clause": "TWS-R5",
            "field": "agreed",
        }})
    );
    // Without a field, no `field`.
    let (_, body) = answer(RuleError::new("ARB-R11", "round 3 is closed").into()).await;
    assert_eq!(
        body,
        json!({"error": {"code": "refused", "message": "round 3 is closed", "clause": "ARB-R11"}})
    );
}

#[tokio::test]
async fn a_version_conflict_is_409_with_the_current_version() {
    let (status, body) = answer(
        StoreError::Conflict {
            competition: "tws-demo".into(),
            expected: 41,
            actual: 42,
        }
        .into(),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"]["code"], "conflict");
    assert_eq!(body["error"]["current_version"], 42);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("version 42"),
        "{body}"
    );
}

#[tokio::test]
async fn an_existing_competition_is_409_without_a_version() {
    let (status, body) = answer(ServiceError::Exists("tws-demo".into())).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body,
        json!({"error": {"code": "conflict", "message": "competition \"tws-demo\" already exists"}})
    );
}

#[tokio::test]
async fn a_reused_idempotency_key_is_422_naming_the_header() {
    let (status, body) = answer(StoreError::KeyReused { key: "k1".into() }.into()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["error"]["code"], "refused");
    assert_eq!(body["error"]["field"], "Idempotency-Key");
    assert!(body["error"].get("clause").is_none());
    // In words: what happened and what to do (issue 17 §2).
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("nothing was changed"), "{message}");
    assert!(
        message.contains("a new request needs a new key"),
        "{message}"
    );
}

#[tokio::test]
async fn not_found_and_bad_input_are_404_and_400() {
    let (status, body) = answer(ServiceError::NotFound("nope".into())).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        body,
        json!({"error": {"code": "not-found", "message": "there is no competition \"nope\""}})
    );
    let (status, body) = answer(ServiceError::Input("there is nothing to undo".into())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body,
        json!({"error": {"code": "bad-request", "message": "there is nothing to undo"}})
    );
}

#[tokio::test]
async fn storage_failures_are_500_and_keep_their_details_in_the_log() {
    let generic = "the database could not be read or written; the server log has the details";
    for e in [
        ServiceError::Store(StoreError::Backend(
            "unable to open database file /secret/path/arbiter.db".into(),
        )),
        ServiceError::Record {
            competition: "tws-demo".into(),
            seq: 7,
            source: RecordError::Version {
                found: 9,
                supported: 1,
            },
        },
        ServiceError::Input(
            "event 7 of tws-demo does not fit the events before it (x); the log is damaged".into(),
        ),
    ] {
        let (status, body) = answer(e).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            body,
            json!({"error": {"code": "storage", "message": generic}})
        );
    }
}
