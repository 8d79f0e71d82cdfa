//! What the golden-case harnesses (`golden.rs`, `golden_league.rs`,
//! `golden_challengers.rs`) share: reading the `*.case` files of a suite,
//! the line tokenizer and its `key=value` options, the header check (the
//! quoted clause must stand word for word in the copy of the rule document)
//! and the report of failures as `tests/<dir>/<file>.case:<line>: what
//! differs`. The commands and expectations are each harness's own.

use std::path::{Path, PathBuf};

use arbiter_engine::RuleError;
use arbiter_engine::model::Time;
use chrono::{NaiveDate, TimeZone, Utc};

/// The outcome of one line (or check) of a case.
pub type Step = Result<(), String>;

/// Where a case failed: the line (counted from 1; 0 for the case as a
/// whole) and what differs.
pub type Failure = (usize, String);

/// A date `YYYY-MM-DD` as UTC midnight.
pub fn date(s: &str) -> Result<Time, String> {
    let d = NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|e| format!("bad date `{s}`: {e}"))?;
    let naive = d.and_hms_opt(0, 0, 0).ok_or("bad time")?;
    Ok(Utc.from_utc_datetime(&naive))
}

/// Split a line into tokens: spaces separate, `"..."` quotes (also after
/// `key=`), `#` at the start of a token begins a comment.
pub fn tokenize(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_token = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                in_token = true;
                let mut closed = false;
                for q in chars.by_ref() {
                    if q == '"' {
                        closed = true;
                        break;
                    }
                    cur.push(q);
                }
                if !closed {
                    return Err("unclosed quote".into());
                }
            }
            '#' if !in_token => break,
            c if c.is_whitespace() => {
                if in_token {
                    out.push(std::mem::take(&mut cur));
                    in_token = false;
                }
            }
            c => {
                in_token = true;
                cur.push(c);
            }
        }
    }
    if in_token {
        out.push(cur);
    }
    Ok(out)
}

/// Positional tokens and `key=value` options of a line.
pub struct Args {
    pub pos: Vec<String>,
    pub opts: Vec<(String, String)>,
}

impl Args {
    pub fn parse(tokens: &[String]) -> Args {
        let mut pos = Vec::new();
        let mut opts = Vec::new();
        for t in tokens {
            match t.split_once('=') {
                Some((k, v))
                    if !k.is_empty()
                        && k.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
                {
                    opts.push((k.to_string(), v.to_string()));
                }
                _ => pos.push(t.clone()),
            }
        }
        Args { pos, opts }
    }

    pub fn opt(&self, key: &str) -> Option<&str> {
        self.opts
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn req(&self, key: &str) -> Result<&str, String> {
        self.opt(key)
            .ok_or_else(|| format!("missing option {key}=..."))
    }

    pub fn at(&self, i: usize) -> Result<&str, String> {
        self.pos
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| format!("missing argument {}", i + 1))
    }

    pub fn only(&self, allowed: &[&str]) -> Step {
        for (k, _) in &self.opts {
            if !allowed.contains(&k.as_str()) {
                return Err(format!(
                    "unknown option `{k}` (allowed: {})",
                    allowed.join(", ")
                ));
            }
        }
        Ok(())
    }
}

pub fn parse_num<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("not a number: `{s}`"))
}

/// One line of a case.
pub enum Line {
    /// A blank line or a comment.
    Blank,
    /// `expect WHAT ...`: an expectation.
    Expect(String, Args),
    /// `VERB ...`: a command.
    Command(String, Args),
}

impl Line {
    pub fn parse(text: &str) -> Result<Line, String> {
        let tokens = tokenize(text)?;
        let Some((verb, rest)) = tokens.split_first() else {
            return Ok(Line::Blank);
        };
        if verb == "expect" {
            let (what, rest) = rest.split_first().ok_or("expect what?")?;
            return Ok(Line::Expect(what.clone(), Args::parse(rest)));
        }
        Ok(Line::Command(verb.clone(), Args::parse(rest)))
    }
}

/// A refused command whose `expect error` has not been seen yet, with the
/// state `before` it (`S`: the state the harness drives).
pub struct Pending<S> {
    pub line: usize,
    pub error: RuleError,
    pub before: Box<S>,
}

impl<S> Pending<S> {
    /// Only its `expect error` may follow a refused command (blank lines
    /// and comments aside): whether `line` may.
    pub fn check_follows(&self, line: &Line) -> Step {
        match line {
            Line::Blank => Ok(()),
            Line::Expect(what, _) if what == "error" => Ok(()),
            Line::Expect(..) => Err(format!(
                "the command of line {} was refused: {}",
                self.line, self.error
            )),
            Line::Command(..) => Err(format!(
                "the command of line {} was refused (no `expect error` followed): {}",
                self.line, self.error
            )),
        }
    }

    /// The failure of a case that ends before the refused command's
    /// `expect error`.
    pub fn unanswered(&self) -> Failure {
        (
            self.line,
            format!(
                "the command was refused (no `expect error` followed): {}",
                self.error
            ),
        )
    }
}

/// `expect error "text" [clause="text"]`: takes the refusal the line
/// expects and checks that its message contains the text and its clause
/// the clause. Whether the state is unchanged is left to the harness.
pub fn expect_refusal<S>(
    pending: &mut Option<Pending<S>>,
    args: &Args,
) -> Result<Pending<S>, String> {
    let Some(p) = pending.take() else {
        return Err("expected the previous command to be refused, but it was accepted".into());
    };
    let shown = p.error.to_string();
    if !p.error.message.contains(args.at(0)?) {
        return Err(format!(
            "expected a refusal containing {:?}, got: {shown}",
            args.at(0)?
        ));
    }
    if let Some(c) = args.opt("clause")
        && !p.error.clause.contains(c)
    {
        return Err(format!("expected the refusal to cite {c:?}, got: {shown}"));
    }
    Ok(p)
}

/// Whitespace collapsed and typographic quotes (“ ” „ ″, ‘ ’ ‚ ′) made
/// plain, so that a quote is compared word for word.
pub fn normalize(s: &str) -> String {
    let plain: String = s
        .chars()
        .map(|c| match c {
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2033}' => '"',
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{2032}' => '\'',
            c => c,
        })
        .collect();
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One case file: a script of commands and expectations.
pub struct CaseFile {
    pub path: PathBuf,
    pub text: String,
}

impl CaseFile {
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    }
}

/// A suite of golden cases: where its files are and what their header
/// must say.
pub struct Suite {
    /// The folder below `tests/` holding the cases and the rule document.
    pub dir: &'static str,
    /// How the names of the suite's case files start (`""`: every `*.case`).
    pub prefix: &'static str,
    /// The copy of the rule document (in `dir`) the clauses are quoted from.
    pub document: &'static str,
    /// How the section after the quote starts, e.g. `(TWS `.
    pub section: &'static str,
    /// The section of the header as the messages show it, e.g. `(TWS <Section>)`.
    pub header_section: &'static str,
    /// What the section must be, as the messages show it, e.g. `` `(TWS ...)` ``.
    pub section_help: &'static str,
    /// The prefixes of the ruling ids, e.g. `TWS-R`.
    pub rulings: &'static [&'static str],
    /// How many words the quote must have at least.
    pub min_words: usize,
}

impl Suite {
    pub fn dir(&self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(self.dir)
    }

    /// The suite's case files, by name.
    pub fn cases(&self) -> Vec<CaseFile> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(self.dir())
            .unwrap_or_else(|e| panic!("tests/{} exists: {e}", self.dir))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|x| x == "case")
                    && p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with(self.prefix))
            })
            .collect();
        paths.sort();
        paths
            .into_iter()
            .map(|path| {
                let text = std::fs::read_to_string(&path).expect("readable case");
                CaseFile { path, text }
            })
            .collect()
    }

    /// The copy of the rule document.
    pub fn document(&self) -> String {
        std::fs::read_to_string(self.dir().join(self.document)).expect("the rule document")
    }

    /// The header: a quoted clause found in the rule document and a ruling
    /// line. The quote may elide with `...` between fragments.
    pub fn check_header(&self, case: &CaseFile, rules_doc: &str) -> Result<(), Failure> {
        let mut lines = case.text.lines();
        let first = lines.next().ok_or((1, "empty case".to_string()))?;
        let clause = first.strip_prefix("# clause: \"").ok_or_else(|| {
            (
                1,
                format!(
                    "the first line must be `# clause: \"<quote>\" {}`",
                    self.header_section
                ),
            )
        })?;
        let (quote, section) = clause
            .rsplit_once('"')
            .ok_or((1, "unclosed clause quote".to_string()))?;
        let section = section.trim();
        if !(section.starts_with(self.section) && section.ends_with(')')) {
            return Err((
                1,
                format!(
                    "name the section after the quote: {}, not `{section}`",
                    self.section_help
                ),
            ));
        }
        let doc = normalize(rules_doc);
        let mut words = 0;
        for fragment in quote.split("...") {
            let f = normalize(fragment);
            words += f.split_whitespace().count();
            if !f.is_empty() && !doc.contains(&f) {
                return Err((
                    1,
                    format!("the quoted clause is not in {}: {f:?}", self.document),
                ));
            }
        }
        if words < self.min_words {
            return Err((1, "quote at least a few words of the document".to_string()));
        }
        let second = lines
            .next()
            .ok_or((2, "missing `# ruling:` line".to_string()))?;
        let rulings = second.strip_prefix("# ruling: ").ok_or((
            2,
            "the second line must be `# ruling: <ids>` (or `none`)".to_string(),
        ))?;
        for r in rulings.split(',').map(str::trim) {
            let ok = r == "none"
                || self.rulings.iter().any(|p| {
                    r.strip_prefix(p)
                        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                });
            if !ok {
                return Err((2, format!("not a ruling id: `{r}`")));
            }
        }
        Ok(())
    }

    /// The failures of `cases`, one a line naming file and line: a header
    /// that does not check, a `run` that fails and, with `twice`, a second
    /// run that gives another result (the same case must give the same
    /// events and state).
    pub fn failures<T: PartialEq>(
        &self,
        cases: &[CaseFile],
        twice: bool,
        run: impl Fn(&CaseFile) -> Result<T, Failure>,
    ) -> Vec<String> {
        let rules_doc = self.document();
        let mut failures = Vec::new();
        for case in cases {
            match self.check_header(case, &rules_doc).and_then(|()| run(case)) {
                Err((line, msg)) => {
                    failures.push(format!("tests/{}/{}:{line}: {msg}", self.dir, case.name()));
                }
                Ok(first) => {
                    if twice && run(case).ok().as_ref() != Some(&first) {
                        failures.push(format!(
                            "tests/{}/{}: a second run gave different events",
                            self.dir,
                            case.name()
                        ));
                    }
                }
            }
        }
        failures
    }
}

/// Fails, listing them, if there are failures (`what`: the kind of case).
#[track_caller]
pub fn assert_passed(failures: &[String], cases: usize, what: &str) {
    assert!(
        failures.is_empty(),
        "{} of {cases} {what} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
