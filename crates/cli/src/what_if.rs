//! `arbiter what-if` for every format: hypothetical results entered, the
//! ladder after the close, an XMadn league's table, or a Sunjang season's
//! groups and the next season's plan, a round-robin league's table, computed on a copy: nothing is stored
//! (see `arbiter_service::what_if`).

use anyhow::Result;

use crate::args::WhatIfArgs;
use crate::formats::CliFormat;
use crate::run::{Globals, Svc, Usage, competition, print_json};

pub async fn run(svc: &Svc, g: &Globals, a: &WhatIfArgs) -> Result<()> {
    let id = competition(svc, g).await?;
    let format = svc.format_of(&id).await?;
    arbiter_service::with_format!(format, |F| <F as CliFormat>::what_if_command(svc, g, a)
        .await)
}

/// `arbiter what-if` as every format but the ladder answers it: the
/// results as `KEY=VALUE`, the list of them as recorded on the copy, then
/// the format's own [`CliFormat::what_if`].
pub(crate) async fn generic(svc: &Svc, g: &Globals, id: &str, a: &WhatIfArgs) -> Result<()> {
    let mut results = Vec::new();
    for r in &a.results {
        let Some((key, value)) = r.split_once('=') else {
            return Err(Usage(format!(
                "--result {r:?}: use KEY=VALUE, e.g. Ames-Baker=4-2@20:10 (XMadn), Kim-Lee=black (Sunjang) or Spain-Germany=1-1 (round robin)"
            ))
            .into());
        };
        results.push((key.to_string(), value.to_string()));
    }
    let v = svc.what_if_any(id, &results, g.now()).await?;
    if g.json {
        return print_json(&v);
    }
    let done = |results: &[String]| {
        let mut s = String::from("What if (nothing is stored):\n");
        for r in results {
            s.push_str(&format!("  {r}\n"));
        }
        s
    };
    out!("{}", done(v.results()));
    let format = v.format();
    let text =
        arbiter_service::with_format!(format, |F| v.view::<F>().map(<F as CliFormat>::what_if));
    out!("{}", text.unwrap_or_default());
    Ok(())
}
