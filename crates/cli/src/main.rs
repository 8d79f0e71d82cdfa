//! `arbiter`: a thin binary. Parse the command line, call the library, print,
//! and map errors to exit codes (1: refused by a rule or bad input, 3: someone
//! else changed the competition first, 4: storage failure).

#[macro_use]
mod out;

mod account;
mod args;
mod calendar;
mod carry_over;
mod clinch;
mod csv;
mod demo;
mod formats;
mod input;
mod insight;
mod installation;
mod render;
mod roundrobin;
mod run;
mod script;
#[cfg(test)]
mod script_proptest;
mod serve;
mod sunjang;
mod transfer;
mod what_if;
mod xmadn;

use std::process::ExitCode;

// mimalloc reuses the large blocks a big round allocates (tens of megabytes
// for a million players) instead of returning them to the kernel and
// faulting them in again: it halves the time to close such a round
// (`cargo bench -p arbiter-engine --bench ladder`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    // The server answers requests on every core; a command needs one.
    let mut builder = if matches!(cli.command, args::Noun::Serve(_)) {
        tokio::runtime::Builder::new_multi_thread()
    } else {
        tokio::runtime::Builder::new_current_thread()
    };
    let runtime = match builder.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start: {e}");
            return ExitCode::from(4);
        }
    };
    match runtime.block_on(run::main(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(run::exit_code(&e))
        }
    }
}
