//! arbiter-record
