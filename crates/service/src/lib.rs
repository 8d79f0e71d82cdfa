//! arbiter-service
