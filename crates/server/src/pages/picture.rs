//! The format's picture, first on a competition's front page (issue 17
//! §3): the ladder's top rungs, a league's leaders, drawn as a podium in
//! HTML (`picture_macros.html`), so that every name stays a link, every
//! figure stays text a screen reader reads in order, and a phone lays it
//! out without scrolling sideways. The Sunjang pyramid, the XMadn playoff
//! bracket and the Challengers' race are drawn by their own templates from
//! the views; this module holds what the podium shows, and the road to an
//! XMadn league's title before its first game (its field, the playoff's
//! empty bracket as its rules fix it, the title still open).

/// One player on the podium or just below it.
#[derive(Debug, Clone)]
pub(crate) struct Placed {
    /// His place, rung or position.
    pub place: usize,
    pub name: String,
    /// His page.
    pub href: Option<String>,
    /// The figure that put him there ("8-2-1", "7½ points").
    pub figure: String,
}

/// The top of a table or a ladder: up to three players on the steps, the
/// next few in a line below.
#[derive(Debug, Clone)]
pub(crate) struct Podium {
    /// Unique in the page, for the caption's id.
    pub id: &'static str,
    /// What a place is called ("Rung", "Place").
    pub place_word: &'static str,
    /// The figure's caption, what the picture shows.
    pub caption: String,
    pub top: Vec<Placed>,
    pub next: Vec<Placed>,
    /// Where the whole table is on the page ("#ladder").
    pub whole: &'static str,
    /// Its words ("The whole ladder").
    pub whole_words: &'static str,
}

impl Podium {
    /// The podium of `placed` (in order): the first three on the steps,
    /// up to `next` more below them.
    pub(crate) fn of(
        id: &'static str,
        place_word: &'static str,
        caption: String,
        placed: impl IntoIterator<Item = Placed>,
        next: usize,
    ) -> Self {
        let mut all = placed.into_iter();
        let top: Vec<Placed> = all.by_ref().take(3).collect();
        let next: Vec<Placed> = all.take(next).collect();
        Podium {
            id,
            place_word,
            caption,
            top,
            next,
            whole: "",
            whole_words: "",
        }
    }

    /// With a link to the whole table.
    pub(crate) fn linking(mut self, whole: &'static str, words: &'static str) -> Self {
        self.whole = whole;
        self.whole_words = words;
        self
    }
}

/// An entrant of a competition that has not started: his name and page.
#[derive(Debug, Clone)]
pub(crate) struct Entrant {
    pub name: String,
    pub href: Option<String>,
}

/// A seat of a series whose players are not known yet: the place that
/// will fill it ("2nd of the table", "the winner of QG").
#[derive(Debug, Clone)]
pub(crate) struct Seat {
    /// The table's place that takes the seat, when one does.
    pub place: Option<usize>,
    pub words: String,
}

/// A round of a bracket still empty, as the rules fix it.
#[derive(Debug, Clone)]
pub(crate) struct EmptyRound {
    /// "Qualifying", "Final".
    pub title: &'static str,
    /// "QG", "FS3".
    pub code: String,
    pub wins_needed: u32,
    /// The rules allow the higher seed a one-win head start.
    pub head_start: bool,
    /// The higher seed's seat first.
    pub seats: [Seat; 2],
}

/// The road to the title before the first game: the field that starts,
/// how many games it plays, the rounds that follow, and who takes the
/// title.
#[derive(Debug, Clone)]
pub(crate) struct Road {
    pub field: Vec<Entrant>,
    /// What the field plays ("2 double round-robins, 12 games").
    pub field_words: String,
    pub rounds: Vec<EmptyRound>,
    /// Who will be champion ("the winner of FS3").
    pub champion_words: String,
    pub caption: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(n: usize) -> Vec<Placed> {
        (1..=n)
            .map(|i| Placed {
                place: i,
                name: format!("P{i}"),
                href: None,
                figure: String::new(),
            })
            .collect()
    }

    #[test]
    fn three_on_the_steps_and_the_next_below() {
        let p = Podium::of("t", "Rung", "c".into(), placed(9), 4);
        assert_eq!(p.top.len(), 3);
        assert_eq!(
            p.next.iter().map(|s| s.place).collect::<Vec<_>>(),
            [4, 5, 6, 7]
        );
        let p = Podium::of("t", "Rung", "c".into(), placed(2), 4);
        assert_eq!((p.top.len(), p.next.len()), (2, 0));
    }
}
