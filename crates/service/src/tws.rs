//! The TWS ladder through the registry: its [`Format`] and the hooks the
//! service and the front ends call (the ladder's commands and views are the
//! service's original API, in `lib.rs`, `views.rs` and `insight.rs`).

use arbiter_engine::RuleError;
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::tws::{self, Ladder};
use arbiter_record::RecordError;

use crate::Format;
use crate::csv::{Export, Table};
use crate::format::{CompetitionFormat, Offers};
use crate::insight::{
    Progress, ProjectionRequest, ProjectionView, RatingScope, RatingSystem, RatingsView,
};

impl Format for Ladder {
    type Event = tws::Event;
    type Command = tws::Command;
    type WhatIf = crate::insight::WhatIfView;
    const NAME: &'static str = "a TWS ladder";
    const PLURAL: &'static str = "TWS ladders";
    const CREATED: &'static str = "created";

    fn decide(&self, command: tws::Command) -> Result<Vec<tws::Event>, RuleError> {
        Ladder::decide(self, command)
    }
    fn apply(&mut self, event: &tws::Event) {
        Ladder::apply(self, event);
    }
    fn try_apply(&mut self, event: &tws::Event) -> Result<(), RuleError> {
        Ladder::try_apply(self, event)
    }
    fn encode(event: &tws::Event) -> String {
        arbiter_record::encode(event)
    }
    fn decode(payload: &str) -> Result<tws::Event, RecordError> {
        arbiter_record::decode(payload)
    }
    fn kind(event: &tws::Event) -> &'static str {
        event.kind()
    }
    fn revert(seq: u64, summary: String) -> tws::Event {
        tws::Event::Reverted { seq, summary }
    }
    fn reverted(event: &tws::Event) -> Option<u64> {
        match event {
            tws::Event::Reverted { seq, .. } => Some(*seq),
            _ => None,
        }
    }
    fn request(command: &tws::Command) -> String {
        format!("{:?}", command.without_time())
    }

    const FORMAT: CompetitionFormat = CompetitionFormat::TwsLadder;
    const ID: &'static str = "tws-ladder";
    const OFFERS: Offers = Offers {
        clinch: false,
        projection: true,
        what_if: true,
        ratings: true,
        installation_ratings: true,
    };

    fn describe(&self, event: &tws::Event) -> String {
        crate::summary::summarize(self, event)
    }
    fn concerns(&self, event: &tws::Event) -> crate::history::Concerns {
        crate::summary::ladder_concerns(self, event)
    }
    const ROUND: &'static str = "round";
    fn title(&self) -> &str {
        &self.name
    }
    fn members(&self) -> usize {
        self.order.len()
    }
    fn rounds(&self) -> usize {
        self.rounds.len()
    }
    fn player_named(&self, name: &str) -> Option<PlayerId> {
        self.find(name)
    }
    fn link(player: PlayerId, account: String) -> tws::Command {
        tws::Command::LinkAccount { player, account }
    }
    fn unlink(player: PlayerId) -> tws::Command {
        tws::Command::UnlinkAccount { player }
    }
    fn import_players(
        _competition: &str,
        file: &str,
        bytes: &[u8],
    ) -> crate::Result<Vec<(u64, String, tws::Command)>> {
        Ok(crate::csv::parse_ladder_players(file, bytes)?
            .into_iter()
            .map(|p| {
                let name = p.name.clone();
                let join = tws::Command::Join {
                    name: p.name,
                    surname: p.surname,
                };
                (p.line, name, join)
            })
            .collect())
    }
    fn csv_table(&self, what: Export, competition: &str, version: u64, now: Time) -> Table {
        match what {
            Export::Standings => crate::csv::ladder_standings(self, competition, version),
            Export::Results => crate::csv::ladder_results(self, now),
        }
    }
    fn ratings(
        rated: &[(String, Ladder)],
        competition: &str,
        version: u64,
        system: RatingSystem,
        scope: RatingScope,
    ) -> crate::Result<RatingsView> {
        Ok(crate::insight::ratings_view(
            competition,
            version,
            system,
            scope,
            rated,
        ))
    }
    fn what_if(
        &self,
        competition: &str,
        version: u64,
        results: &[(String, String)],
        at: Time,
    ) -> crate::Result<Self::WhatIf> {
        crate::insight::ladder_what_if(self, competition, version, results, at)
    }
    fn project(
        &self,
        competition: &str,
        version: u64,
        request: &ProjectionRequest,
        progress: Progress<'_>,
    ) -> crate::Result<ProjectionView> {
        crate::insight::ladder_projection(self, competition, version, request, progress)
    }
}
