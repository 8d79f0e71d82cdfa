//! The hottest read, a competition's version, answered on the caller's
//! thread.
//!
//! Every statement sent through sqlx is a round trip to its connection's
//! worker thread: a wake-up there and one back, which under load cost more
//! than the query itself. The version is asked on every request a server
//! answers from what it keeps (a rendered page, a serialized view: the
//! version says whether what it kept is current), so those requests read
//! it here instead, on a few connections of their own that the calling
//! thread steps itself: an index seek of a few microseconds, which never
//! waits. A connection in use, a lock held by a checkpoint (the busy
//! timeout is zero) or any other error answers `None`, and the version is
//! then read through sqlx as before, with its waiting and its error
//! messages. The read is a transaction of its own begun after the call,
//! so it sees every append committed before it, by this process or
//! another, as the sqlx read does (WAL: readers never wait for writers).
//!
//! rusqlite and sqlx link the same `libsqlite3-sys` (Cargo allows one crate
//! that links `sqlite3`), so the process has one SQLite library: its
//! connections share the bookkeeping of the file's POSIX locks, which two
//! copies of SQLite in one process would not (closing one copy's file
//! would drop the other's locks).

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// The query, the same as the sqlx read's.
pub(crate) const VERSION: &str = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE competition = ?1";

/// Connections stepped on the callers' threads (none for an in-memory
/// database, whose only connection is the writer).
#[derive(Debug, Default)]
pub(crate) struct QuickReaders {
    conns: Vec<Mutex<Option<Connection>>>,
    next: AtomicUsize,
}

impl QuickReaders {
    /// Up to one connection per core to the database file at `path`, which
    /// exists; those that cannot be opened are left out (with none, every
    /// read goes through sqlx).
    pub(crate) fn open(path: &Path) -> Self {
        let n = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 8));
        let conns = (0..n)
            .filter_map(|_| connect(path).ok())
            .map(|c| Mutex::new(Some(c)))
            .collect();
        Self {
            conns,
            next: AtomicUsize::new(0),
        }
    }

    /// The version of `competition`, if a connection was free and read it
    /// at once.
    pub(crate) fn version(&self, competition: &str) -> Option<i64> {
        let n = self.conns.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        (0..n).find_map(|i| {
            let slot = self.conns[(start + i) % n].try_lock().ok()?;
            let conn = slot.as_ref()?;
            conn.prepare_cached(VERSION)
                .and_then(|mut s| s.query_row([competition], |row| row.get(0)))
                .ok()
        })
    }

    /// Close every connection; later reads go through sqlx.
    pub(crate) fn close(&self) {
        for slot in &self.conns {
            if let Ok(mut slot) = slot.lock() {
                slot.take();
            }
        }
    }
}

fn connect(path: &Path) -> rusqlite::Result<Connection> {
    // Read-write as SQLite opens a WAL database's shared memory, but only
    // ever reading; the file is never created here.
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::ZERO)?;
    conn.pragma_update(None, "query_only", true)?;
    Ok(conn)
}
