//! Standard output that a closed pipe (`arbiter ... | head`) ends quietly
//! instead of panicking like `println!`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static QUIET: AtomicBool = AtomicBool::new(false);

/// Print nothing until `quiet(false)` (a script's rehearsal).
pub fn quiet(on: bool) {
    QUIET.store(on, Ordering::Relaxed);
}

pub fn write(args: std::fmt::Arguments<'_>) {
    if QUIET.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            // The reader has gone: like other Unix tools, stop quietly.
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(4);
    }
}

/// `print!` that survives a closed pipe.
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => { $crate::out::write(format_args!($($t)*)) };
}

/// `println!` that survives a closed pipe.
#[macro_export]
macro_rules! outln {
    () => { $crate::out::write(format_args!("\n")) };
    ($($t:tt)*) => { $crate::out::write(format_args!("{}\n", format_args!($($t)*))) };
}
