//! What a moderator's desk opens with (issue 17 §2): one queue of what is
//! waiting for him, each item with its action in place — a form that does
//! it, or a link straight to the form on the desk. Each format's desk
//! fills the queue from its engine's state (the same predicates the
//! decider applies, never a guess); `desk_macros.html`'s `queue` renders
//! it, and says so in one sentence when nothing is waiting.
//!
//! The kinds, most urgent first: overdue games (past their round's
//! deadline without a result), reports waiting for a confirmation (ARB-R45,
//! ARB-R81), disputed reports (the game waits for a result again), players
//! waiting for approval, and what the competition waits for (a roll, a
//! round or season to close, plan or announce).

use arbiter_service::Format;
use arbiter_store::EventStore;

use crate::AppState;
use crate::pages::players::PendingReport;

/// What kind of thing waits, in the order the queue lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Waits {
    Overdue,
    Report,
    Dispute,
    Application,
    Due,
}

impl Waits {
    /// The tag the queue shows before the item.
    pub(crate) fn tag(self) -> &'static str {
        match self {
            Self::Overdue => "Overdue",
            Self::Report => "Report waiting",
            Self::Dispute => "Disputed",
            Self::Application => "To approve",
            Self::Due => "Due",
        }
    }
}

/// One form of an item, posted to the desk's `/c/{id}/act` with the desk's
/// tokens.
#[derive(Debug, Clone)]
pub(crate) struct QueueForm {
    /// Its name on the desk (`_form`, and `form-{name}` its id): the
    /// item's id and its place in the item.
    pub name: String,
    pub action: &'static str,
    /// The fields naming what it acts on.
    pub hidden: Vec<(String, String)>,
    pub button: String,
    /// A required text field: its name and label.
    pub field: Option<(&'static str, String)>,
    /// Behind a closed `<details>` with this summary.
    pub folded: Option<String>,
}

impl QueueForm {
    /// A form that is one button.
    pub(crate) fn button(action: &'static str, button: impl Into<String>) -> Self {
        Self {
            name: String::new(),
            action,
            hidden: Vec::new(),
            button: button.into(),
            field: None,
            folded: None,
        }
    }

    pub(crate) fn with(mut self, name: &str, value: impl Into<String>) -> Self {
        self.hidden.push((name.to_string(), value.into()));
        self
    }

    /// With a required text field, behind `summary`.
    pub(crate) fn asking(
        mut self,
        name: &'static str,
        label: impl Into<String>,
        summary: impl Into<String>,
    ) -> Self {
        self.field = Some((name, label.into()));
        self.folded = Some(summary.into());
        self
    }
}

/// One thing waiting.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub waits: Waits,
    /// Unique on the desk: the anchor of the item and the prefix of its
    /// forms' ids.
    pub id: String,
    pub text: String,
    /// Its forms, in place.
    pub forms: Vec<QueueForm>,
    /// A link straight to the form that does it: (href, words).
    pub link: Option<(String, String)>,
    /// Why the caller has nothing to do with it himself.
    pub note: Option<String>,
}

impl Item {
    pub(crate) fn new(waits: Waits, id: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            waits,
            id: id.into(),
            text: text.into(),
            forms: Vec::new(),
            link: None,
            note: None,
        }
    }

    pub(crate) fn form(mut self, mut form: QueueForm) -> Self {
        form.name = format!("{}-{}", self.id, self.forms.len() + 1);
        self.forms.push(form);
        self
    }

    pub(crate) fn link(mut self, href: impl Into<String>, words: impl Into<String>) -> Self {
        self.link = Some((href.into(), words.into()));
        self
    }

    pub(crate) fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// A report waiting for a confirmation (ARB-R45, ARB-R81): confirm it,
    /// or dispute it with a reason; a note instead when the caller plays
    /// in the game.
    pub(crate) fn report(p: &PendingReport) -> Self {
        let item = Self::new(Waits::Report, format!("q-rep-{}", p.id), p.text.clone());
        if p.mine {
            return item.note(
                "You play in this game: its other player or another moderator confirms or disputes the report (ARB-R45).",
            );
        }
        let mut confirm = QueueForm::button(p.confirm, "Confirm the report");
        let mut dispute = QueueForm::button(p.dispute, "Dispute").asking(
            "reason",
            "What is wrong with it",
            "Dispute the report",
        );
        confirm.hidden = p.hidden.clone();
        dispute.hidden = p.hidden.clone();
        item.form(confirm).form(dispute)
    }
}

/// The queue of a desk: what waits, most urgent first.
#[derive(Debug, Clone, Default)]
pub(crate) struct Queue {
    pub items: Vec<Item>,
}

impl Queue {
    pub(crate) fn push(&mut self, item: Item) {
        self.items.push(item);
    }

    /// The items in the order of their kind (stable within a kind).
    pub(crate) fn sorted(mut self) -> Self {
        self.items.sort_by_key(|i| i.waits);
        self
    }

    /// "3 things are waiting": the sentence above the list.
    pub(crate) fn count(&self) -> String {
        match self.items.len() {
            1 => "1 thing is waiting.".to_string(),
            n => format!("{n} things are waiting, the most urgent first."),
        }
    }
}

/// The decoded events of competition `id` of kinds `kinds` (disputes,
/// rejections: what the state forgets once it is done), oldest first. Only
/// the events of those kinds are decoded.
pub(crate) async fn events_of<F: Format>(
    state: &AppState,
    id: &str,
    kinds: &[&str],
) -> Vec<F::Event> {
    let Ok(stored) = state.service.store().read(id, 1, None).await else {
        return Vec::new();
    };
    stored
        .iter()
        .filter(|s| kinds.contains(&s.kind.as_str()))
        .filter_map(|s| F::decode(&s.payload).ok())
        .collect()
}
