//! `GET /api/stats`: the statistics of every TWS ladder of the installation
//! together (STATISTICS, "for all of them"), players matched by name.

use arbiter_service::installation::InstallationStatsView;
use axum::Json;
use axum::extract::State;

use crate::AppState;
use crate::error::{ApiError, ErrorBody};

#[utoipa::path(
    get,
    path = "/api/stats",
    tag = "competitions",
    responses(
        (status = 200, description = "Results by side, by bid, by how games ended and by game \
length (turns), and every player's record, over every Twilight Struggle ladder of the \
installation. Players are matched across ladders by name, ignoring case and surrounding \
spaces.", body = InstallationStatsView),
        (status = 500, description = "The database does not answer", body = ErrorBody),
    )
)]
pub async fn stats(State(state): State<AppState>) -> Result<Json<InstallationStatsView>, ApiError> {
    Ok(Json(state.service.installation_stats().await?))
}
