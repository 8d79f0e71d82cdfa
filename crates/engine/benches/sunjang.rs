//! Benchmarks of the Sunjang league (written with the planner).

fn main() {
    divan::main();
}
