//! Rebuild when a migration is added: `sqlx::migrate!` embeds the files of
//! `migrations/` but cannot tell Cargo to watch the directory itself.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
