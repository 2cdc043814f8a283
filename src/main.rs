//! The `sudoku-batch` binary: parse the command line, run, exit with the code the run chose.
//! Everything else lives in the library (see `sudoku_batch::cli`).

fn main() {
    std::process::exit(sudoku_batch::cli::main());
}
