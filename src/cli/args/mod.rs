//! The command line's definitions: every subcommand and flag with the help text that teaches
//! it (clap derive), and the conversion of flags into the library objects that do the work
//! (ripgrep's shape: flags are defined once, with their docs, then turned into settings).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bench::export::Dest;
use crate::input::{InputFormat, PairFormat, PairOptions};
use crate::run::{output::Target, OutputFormat, Settings, Shard};

mod audit;
mod dataset;
mod export;
pub use audit::*;
pub use dataset::*;
pub use export::*;
mod sample;
pub use sample::*;

#[derive(Parser, Debug)]
#[command(
    name = "sudoku-batch",
    version,
    about = "Solve sudoku corpora of any size on every core, streaming, into an ordered CSV; rate, \
canonicalise, deduplicate, split, augment and generate puzzle datasets.",
    after_help = super::exit::HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve every puzzle of the inputs and write one row per puzzle, in input order.
    #[command(
        long_about = "Solve every puzzle of the inputs and write one row per puzzle, in input \
order.\n\n\
By default each puzzle's solutions are counted up to 2, so `solved` proves the solution is \
unique. Every non-blank, non-comment input line (or block, or CSV row) gives exactly one row; \
a line that is not a usable puzzle gets status `invalid` and a reason in `error`.\n\n\
Output columns: line,puzzle,status,solutions,solution,guesses,solve_ns,error \
(then `file` when there are several inputs).\n\
Statuses: solved (exactly one solution; with --first, at least one), multiple (two or more), \
unsolvable (none), invalid (not a puzzle, or givens that break a rule), gave-up (--max-guesses ran out first).",
        after_help = "Examples:\n  \
sudoku-batch solve corpus.txt -o solutions.csv\n  \
cat corpus.txt | sudoku-batch solve --first\n  \
sudoku-batch solve --input-format block exercises.txt\n  \
sudoku-batch solve kaggle.csv --column quizzes --format jsonl -j 2\n\n\
Exit status: 0 completed (also when stdout is closed early), 1 --strict found invalid or \
unsolvable puzzles, 2 usage or I/O error."
    )]
    Solve(SolveArgs),

    /// Time the engine on corpora loaded into memory: puzzles/s, µs/puzzle, solve-time
    /// percentiles, % solved without guessing, guesses per puzzle; exports, a histogram, thread
    /// scaling, and refereeing of other solvers (--external).
    #[command(
        long_about = "Time the engine on corpora loaded into memory, the way tdoku's \
run_benchmark does: each file is read first (lines that are not usable puzzles are skipped and \
counted), then solved in whole passes, first for --warmup seconds, then until --time seconds \
have passed. Reading and writing are not timed; `solve -o /dev/null` measures the whole \
pipeline.\n\n\
Columns: puzzles/s and µs/puzzle (wall time per puzzle; with -j N > 1 the aggregate over N \
threads), from passes with no clock inside; p50/p90/p99/max µs, the per-puzzle solve time \
percentiles, from separate sampling passes that time every solve (each puzzle keeps its fastest \
of up to 5 passes, within a quarter of --time); no-guess (% of puzzles solved by propagation \
alone); guesses (per puzzle). With -j 1,2,4 every file is timed at each count, and speed-up \
(against the first count) and efficiency (speed-up / thread ratio) are added.\n\n\
Exports go to a file or `-` (stdout; at most one output may use it, and the table then goes to \
stderr): --export-json (an object with `machine` and `results`), --export-csv (one row per file \
and thread count), --export-markdown (the table, for a README), --histogram (an SVG of the \
solve-time distributions, log time axis, one line per file).\n\n\
--external \"CMD\" runs CMD under `sh -c`, feeds it every usable puzzle of each file on stdin \
(81 chars, '.' blanks, one per line), reads one answer line per puzzle from its stdout, times \
the whole run and checks every answer: right (a valid solution keeping the givens; any \
solution of a puzzle with several; for a puzzle with no solution, anything but a complete \
grid), wrong, or missing. A solver still running after --timeout seconds is killed with its \
whole process group.",
        after_help = "Examples:\n  \
sudoku-batch bench ../shared/data/top1465.txt\n  \
sudoku-batch bench --mode first --time 0.5 a.txt b.txt\n  \
sudoku-batch bench -j 2 --json corpus.txt > result.jsonl\n  \
sudoku-batch bench -j 1,2 --export-json out.json --export-markdown - --histogram times.svg a.txt\n  \
sudoku-batch bench --external \"./my-solver\" --timeout 60 top95.txt\n\n\
Exit status: 0 done (with --external: every answer right and a clean exit), 1 --external found \
wrong or missing answers or the solver crashed or timed out, 2 usage or I/O error."
    )]
    Bench(BenchArgs),

    /// Check a reference-solution file: every row's solution must be the unique solution of its
    /// puzzle.
    #[command(
        long_about = "Check a file that pairs puzzles with claimed solutions. Each row's \
puzzle must be readable with no conflicting givens and have exactly one solution, and the \
claimed solution must be a complete grid that breaks no rule and keeps every given.\n\n\
Formats (told apart by the first line that is not blank or a # comment, or chosen with \
--input-format): lines `puzzle:solution` or `puzzle,solution` (any separator solve accepts; \
anything after the second field is ignored), or CSV with a header, where the columns are found \
by name: the puzzle in the first of quizzes, puzzle, puzzles, the solution in the first of \
solution, solutions (Kaggle's quizzes,solutions, Radcliffe's puzzle,solution,… and this tool's \
own solve output all work as they are); --puzzle-column/--solution-column choose others.\n\n\
Verdicts: right; wrong (the puzzle is unique but the solution is missing, unreadable, \
incomplete, breaks a rule or changes a given); not_unique (the puzzle has two or more \
solutions); unsolvable (none); invalid (the puzzle is unreadable or its givens conflict). \
Every row that is not right is reported as FILE:LINE: VERDICT: what is wrong, then a summary \
(on stdout; on stderr when -o -). It streams with bounded memory and checks on every core; \
rows are reported in input order.\n\n\
-o FILE writes one CSV row per input row: line,puzzle,solution,verdict,error,expected (the \
puzzle's unique solution, when the claim is wrong), then file with several inputs.",
        after_help = "Examples:\n  \
sudoku-batch verify kaggle.csv\n  \
sudoku-batch verify --solution-column answer -o verdicts.csv mine.csv\n  \
sudoku-batch solve corpus.txt -o out.csv && sudoku-batch verify out.csv\n\n\
Exit status: 0 every row is right, 1 some row is not, 2 usage or I/O error."
    )]
    Verify(VerifyArgs),

    /// Rate every puzzle: clues, guesses, a transform-averaged rating, whether singles solve it,
    /// and its technique class — one row per input record, in input order.
    #[command(
        long_about = "Rate every puzzle of the inputs, with the same inputs, options and row \
contract as solve (formats, -o, --resume, --shard, -j, --format, progress, exit codes).\n\n\
Columns: line,puzzle,status,solutions,clues,guesses,rating,singles,class,error (then file with \
several inputs). The rating fields are filled only for puzzles with exactly one solution.\n\n\
guesses: the engine's guesses counting to 2, as solve reports them. rating: the mean of guesses \
over --samples random equivalent copies of the puzzle (relabeled, transposed, bands, rows, \
stacks and columns permuted), drawn from --seed and the puzzle itself, so a row's rating never \
depends on -j, chunking or its place in the file. singles: naked and hidden singles alone solve \
it. class (QQWing's scale): simple (naked singles alone), easy (hidden singles needed), \
intermediate (locked candidates or naked/hidden pairs needed), expert (those do not suffice).",
        after_help = "Examples:\n  \
sudoku-batch rate corpus.txt -o rated.csv\n  \
sudoku-batch rate --samples 64 --seed 7 --format jsonl hard.txt\n\n\
Exit status: 0 completed, 1 --strict found invalid or unsolvable puzzles, 2 usage or I/O \
error, 130 interrupted."
    )]
    Rate(RateArgs),

    /// Rate every puzzle as Sudoku Explainer does (ER, EP, ED) and write its step path: one JSON
    /// object per puzzle, or SE's one-line descriptions with --format text.
    #[command(
        long_about = "Rate every puzzle as Sudoku Explainer 1.2.1 does (the ratings serate \
gives) and write the path of steps that produced the rating, one record per puzzle, in input \
order.\n\n\
er is the hardest step of the whole path, ep the hardest before the first cell is placed, ed \
the first step's rating; er_technique names the technique that set er. Each step of steps is \
{\"technique\", \"rating\", \"placements\": [[cell, digit], ...], \"eliminations\": [[cell, \
digit], ...]}, cells numbered 0 (r1c1) to 80 (r9c9) row by row, digits 1-9. A placement also \
takes its digit out of the cell's 20 peers. Replaying the steps from the givens reaches the \
solution.\n\n\
Columns: line,puzzle,status,er,ep,ed,er_technique,steps,error (then file with several inputs; \
jsonl by default, csv with steps as a JSON text field). SE rates only puzzles with exactly one \
solution: others get status multiple, unsolvable or invalid and empty ratings. A puzzle that \
needs more than --se-budget work gets status gave-up and the reason in error.",
        after_help = "Examples:\n  \
sudoku-batch explain hard.txt -o paths.jsonl\n  \
echo 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... | sudoku-batch explain --format text\n  \
sudoku-batch explain -j 8 --format csv corpus.txt -o paths.csv\n\n\
Exit status: 0 completed, 1 --strict found invalid, unsolvable, multiple-solution or given-up \
puzzles, 2 usage or I/O error, 130 interrupted."
    )]
    Explain(ExplainArgs),

    /// Write every puzzle's minlex canonical form and automorphism count: equivalent puzzles
    /// get the same form.
    #[command(
        long_about = "Write every puzzle's canonical form: its minlex form, the community's \
standard. Over all 3,359,232 geometric transforms (optional transposition, band permutation, \
row permutations within bands, stack permutation, column permutations within stacks), write \
the transformed grid row by row with blank = 0, relabel digits in order of first appearance, \
and take the lexicographically smallest 81-character string. Two puzzles are equivalent exactly \
when their canonical forms are equal, whatever their number of solutions.\n\n\
Columns: line,puzzle,status,canonical,automorphisms,error (then file with several inputs); \
with --transform a transform column comes before error. status is ok or invalid. automorphisms \
counts the geometric transforms (identity included) that map the puzzle to its canonical form \
together with their relabeling.\n\n\
The transform is written T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD: T is t (transpose first) or n; R names, \
for each output row, the input row it is taken from (1-9, after the transposition); C the same \
for columns; D the new label of digits 1..9. So output cell (r,c) = D[input'(R[r], C[c])].",
        after_help = "Examples:\n  \
sudoku-batch canon corpus.txt -o canon.csv\n  \
sudoku-batch canon --transform --format jsonl puzzles.txt\n\n\
Exit status: 0 completed, 1 --strict found invalid lines, 2 usage or I/O error, 130 interrupted."
    )]
    Canon(CanonArgs),

    /// Keep the first occurrence of each puzzle (exact, or up to equivalence) and write the kept
    /// input lines unchanged, in order.
    #[command(
        long_about = "Keep the first occurrence of each puzzle and write the kept input lines \
unchanged, in input order (line input: one puzzle per line, anything after the cells kept). \
--by exact: the same givens after normalising blanks; --by canon: the same minlex canonical \
form, so equivalent puzzles count as duplicates. A line that is not a puzzle is kept, reported \
on stderr with its file and line, and counted. --report FILE writes one CSV row per dropped line \
naming the line it duplicates. Memory: one small entry per distinct puzzle (see README).",
        after_help = "Examples:\n  \
sudoku-batch dedup --by canon corpus.txt -o unique.txt --report dropped.csv\n  \
cat a.txt b.txt | sudoku-batch dedup > merged.txt\n\n\
Exit status: 0 completed (also when stdout is closed early), 2 usage or I/O error."
    )]
    Dedup(DedupArgs),

    /// Split lines into train/valid/test by a hash of each puzzle's canonical form and a seed:
    /// equivalent puzzles always land on the same side.
    #[command(
        long_about = "Send every input line to train, valid or test by a hash of its key (its \
canonical form with --by canon, the default, or its exact givens) and --seed: equivalent \
puzzles always land on the same side, so no puzzle of the test set has an equivalent in train. \
The split needs no memory and no coordination: N machines splitting N shards of a corpus agree \
with one machine splitting it all. The input lines are written unchanged, in order, to \
PREFIX.train.txt, PREFIX.test.txt and (with --valid) PREFIX.valid.txt; or, with --label, every \
line once on stdout as a CSV row line,puzzle,split. A line that is not a puzzle goes to a side \
by a hash of its text, and is reported on stderr.",
        after_help = "Examples:\n  \
sudoku-batch split --test 0.1 --seed 1 --prefix out/hard hard.txt\n  \
sudoku-batch split --test 0.1 --valid 0.1 --seed 1 --label corpus.txt > labels.csv\n\n\
Exit status: 0 completed, 2 usage or I/O error."
    )]
    Split(SplitArgs),

    /// Find every pair of puzzles that leaks between (or repeats within) datasets: exact copies,
    /// equivalent puzzles, neighbours one clue apart, and puzzles with the same solution.
    #[command(
        long_about = "Find every pair of puzzles, within one input and across inputs, that is one of \
(up to equivalence: relabelling, transposition, band/row/stack/column permutations): exact (the \
same givens), equivalent (the same canonical form), neighbour (one clue added, removed or \
replaced), or same-solution (different puzzles whose unique solutions are equivalent grids). \
One row per pair, under the closest kind that holds: file_a,line_a,file_b,line_b,kind,\
transform,edit. transform maps the first puzzle onto the second (exact, equivalent), onto the \
second up to the edit (neighbour: +rXcY=D adds a clue, -rXcY=D removes one, A>B replaces A by \
B), or the first's solution onto the second's (same-solution); it reads like canon's. Records \
that are not puzzles are reported and counted, never paired; a puzzle without a unique \
solution takes part in every kind but same-solution. The summary on stderr counts pairs per \
kind and, with several inputs, those across inputs, and gives the verdict.",
        after_help = "Examples:\n  \
sudoku-batch audit train.txt test.txt\n  \
sudoku-batch audit --across --kinds exact,equivalent,neighbour train.txt test.txt -o leaks.csv\n  \
sudoku-batch audit --kinds equivalent corpus.txt | head\n\n\
Exit status: 0 no pair spans two inputs, 1 some pair spans two inputs (a leak: a pipeline can \
gate on it), 2 usage or I/O error."
    )]
    Audit(AuditArgs),

    /// Write K random equivalent copies of every puzzle (and of its unique solution), with the
    /// transform of each, for training-data augmentation.
    #[command(
        long_about = "Write --copies random equivalent copies of every puzzle: relabeled, \
transposed or not, bands, rows, stacks and columns permuted. Each row records its source line, \
the copy number, the copy, the copy's solution (when the puzzle has exactly one, proven by the \
engine) and the transform (T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD, as canon --transform writes it). The \
copies are drawn from --seed and the puzzle itself: the same with any -j, in any position.\n\n\
Columns: line,puzzle,status,copy,augmented,solution,transform,error (then file with several \
inputs). An unusable line gives one invalid row. --resume is not supported: rerun instead.",
        after_help = "Examples:\n  \
sudoku-batch augment --copies 8 --seed 1 train.txt -o train-aug.csv\n\n\
Exit status: 0 completed, 1 --strict found invalid lines, 2 usage or I/O error, 130 interrupted."
    )]
    Augment(AugmentArgs),

    /// Write train/test (and valid) files as a folder training code reads directly: a Hugging
    /// Face dataset (--to hf) or HRM's NumPy layout (--to hrm).
    #[command(
        long_about = "Write a train, a test and optionally a valid input as the folder a \
training program reads as it is. Inputs are puzzle files (any format solve reads), CSV rows or \
Parquet files (solve or rate output, or any table with a puzzle column: its other columns, \
ratings and sources, travel along with --to hf).\n\n\
Every exported puzzle has exactly one solution, proven by the solver, and that solution is its \
label. A record that is not a usable puzzle, has no solution or several, or whose solution \
column (--solution-column) disagrees is left out: reported on stderr with its file and line, \
counted per split and reason, and listed in DIR/left_out.csv.\n\n\
--to hf: DIR/train/, test/, valid/ hold Parquet files (train-00000-of-00001.parquet, …) with \
the columns puzzle, solution, source, line, then the input's other columns, typed (a column \
named puzzle, solution, source or line is carried as origin_NAME; status, solutions, error and \
solve_ns are dropped). DIR/README.md is the dataset card: its YAML header gives the splits \
(valid is named validation), files and features, so datasets.load_dataset(DIR) loads it; the \
text gives the counts, what was left out, clue and rating histograms, the inputs' provenance \
and the audit's verdict.\n\n\
--to hrm: HRM's build_sudoku_dataset.py layout (TRM reads it too): per split all__inputs.npy \
and all__labels.npy (uint8 [N, 81], blank 1, digit d d+1), all__puzzle_identifiers.npy, \
all__puzzle_indices.npy and all__group_indices.npy (int32, starting at 0, cumulative), \
dataset.json, and examples.csv (each example's group, copy, source, line and transform); \
identifiers.json at the top. --augment K adds K random equivalent copies of each training \
puzzle to its group, drawn from --seed and the puzzle: the same bytes with any -j.\n\n\
Both write DIR/export.json (counts, reasons, columns, provenance). DIR is written as \
DIR.partial and renamed when complete; an existing DIR is refused unless --force, which \
replaces only a folder holding an earlier export.",
        after_help = "Examples:\n  \
sudoku-batch split --test 0.1 --seed 1 --prefix hard top1465.txt\n  \
sudoku-batch export --to hf --train hard.train.txt --test hard.test.txt -o hard-hf\n  \
sudoku-batch rate hard.train.txt --format parquet -o train.parquet   # ratings travel along:\n  \
sudoku-batch export --to hf --train train.parquet --test hard.test.txt -o rated-hf\n  \
sudoku-batch export --to hrm --augment 1000 --seed 1 --train hard.train.txt --test hard.test.txt \
-o hrm\n\n\
Exit status: 0 done (left-out records are reported, not failures), 1 --strict and some record \
was left out, 2 usage or I/O error."
    )]
    Export(ExportArgs),

    /// Generate puzzles, each proven to have exactly one solution: seeded, reproducible on any
    /// machine with any -j, minimal by default, with symmetry and class/clue/rating targets.
    #[command(
        long_about = "Write N puzzles, each proven to have exactly one solution by the engine. \
Puzzle i (counted from --start) comes from its own seed, derived from --seed and i alone, so the \
output is a function of the arguments and the seed: the same on any machine, with any -j, in any \
run; --start and --shard K/N let many machines produce disjoint slices of one reproducible set; \
-o FILE is written as FILE.partial and resumed with --resume. Without --seed a random seed is \
drawn and printed on stderr so the run can be repeated.\n\n\
Output: one puzzle per line (81 characters, '.' blanks), or with --format csv|jsonl the columns \
index,puzzle,solution,clues,rating,singles,class,symmetry (the rating fields as rate defines \
them, with --samples and the same seed).\n\n\
--minimal (the default): no given can be removed without losing uniqueness; with a symmetry, \
no orbit of symmetric cells can be removed (minimal among symmetric removals: a single cell may \
still be removable). --no-minimal keeps the puzzle as soon as removing the next orbit would break \
uniqueness.\n\n\
Targets are filters over tries: --clues A..B, --class, --rating A..B. A target no unique puzzle \
can meet (fewer than 17 clues, more than 81, a minimal puzzle above 40) is a usage error. Each \
puzzle gets up to --max-tries tries; if one finds none, the run stops with exit 1 after writing \
the puzzles before it. The acceptance rate is shown on the progress line and in the summary.",
        after_help = "Examples:\n  \
sudoku-batch generate 1000 --seed 7 > puzzles.txt\n  \
sudoku-batch generate 100000 --seed 7 --format csv -o set.csv --resume\n  \
sudoku-batch generate 100 --seed 1 --symmetry rot180 --class expert\n  \
sudoku-batch generate 1000000 --seed 7 --shard 3/8 -o part3.txt   # machine 3 of 8\n\n\
Exit status: 0 done, 1 a puzzle found no try meeting the targets within --max-tries, 2 usage \
or I/O error, 130 interrupted."
    )]
    Generate(GenerateArgs),

    /// Draw a reproducible stratified sample: per band of a value (er, ep, ed, rating, clues,
    /// class), up to N rows, the same rows on any machine, with any -j, from shards or whole.
    #[command(
        long_about = "Draw a reproducible stratified sample of a rated dataset: the rows are \
split into bands of a value (--by) and each band keeps up to --per-band rows, written unchanged, \
in input order, with a band column.\n\n\
Inputs: rows as `rate` writes them (CSV, JSON lines or Parquet; any table with a puzzle column \
and the --by column), or plain puzzle files (and CSV files of puzzles without the --by column), \
whose values are computed as `rate` computes them (`rate --se` for er, ep, ed) and whose kept \
puzzles are written as `rate`'s rows. Only rows with status solved and a value are sampled; the \
others are counted by reason in the summary.\n\n\
Bands: --bands E1,E2,... gives <E1, [E1,E2), ..., >=En (lower edge included); --by class has one \
band per class. Each row's priority is a hash of --seed and its puzzle; a band keeps the rows of \
smallest priority (a uniform sample without replacement), so the sample depends on the rows and \
the seed alone: not on -j, input order or shards, and sampling the samples of shards gives the \
sample of the whole. Equal puzzles are kept or dropped together. Memory: per-band rows per \
band.\n\n\
The summary (stderr) gives per band the rows seen and kept, and says which bands are short.",
        after_help = "Examples:\n  \
sudoku-batch sample --by er --per-band 100 --seed 1 rated.csv -o eval.csv\n  \
sudoku-batch sample --by clues --bands 22,26,30 --per-band 500 puzzles.txt\n  \
sudoku-batch sample --by class --per-band 50 --format parquet -o eval.parquet rated.parquet\n  \
sudoku-batch sample --by er --per-band 100 --shard 2/8 rated.csv -o part2.csv   # then sample the parts\n\n\
Exit status: 0 written (also when a band is short), 1 --strict and a band has fewer rows than \
--per-band, 2 usage or I/O error, 130 interrupted (nothing written)."
    )]
    Sample(SampleArgs),

    /// Reduce every puzzle to a minimal puzzle with the same unique solution.
    #[command(
        long_about = "Reduce every puzzle of the inputs to a minimal puzzle with the same unique \
solution: givens are removed (never added or changed) in an order drawn from --seed and the \
puzzle itself, each removal kept only when the puzzle stays unique, until none can go. Same \
inputs, options and row contract as solve. Columns: line,puzzle,status,solutions,minimized,\
clues,error. Invalid, unsolvable and multiple-solution puzzles are reported with their status \
and left as they are.",
        after_help = "Examples:\n  \
sudoku-batch minimize --seed 1 puzzles.txt -o minimal.csv\n\n\
Exit status: 0 completed, 1 --strict found invalid or unsolvable puzzles, 2 usage or I/O \
error, 130 interrupted."
    )]
    Minimize(MinimizeArgs),

    /// Print the provenance recorded with an output file: a Parquet file's, or FILE's
    /// FILE.provenance.json (CSV and JSON lines).
    #[command(after_help = "Examples:\n  \
sudoku-batch solve corpus.txt --format parquet -o solved.parquet\n  \
sudoku-batch provenance solved.parquet\n\n\
Exit status: 0 printed, 2 no provenance found or the file cannot be read.")]
    Provenance {
        /// The output file (Parquet, or a CSV / JSON lines file with its .provenance.json).
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },

    /// Print a shell completion script (install: see the README, "Install").
    #[command(after_help = "Examples:\n  \
sudoku-batch completions bash > ~/.local/share/bash-completion/completions/sudoku-batch\n  \
sudoku-batch completions zsh > ~/.zfunc/_sudoku-batch\n  \
sudoku-batch completions fish > ~/.config/fish/completions/sudoku-batch.fish")]
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },

    /// Print a man page (roff): `sudoku-batch manpage solve | man -l -`; or write them all into
    /// a folder with --dir.
    #[command(after_help = "Examples:\n  \
sudoku-batch manpage | man -l -\n  \
sudoku-batch manpage solve | man -l -\n  \
sudoku-batch manpage --dir ~/.local/share/man/man1   # then: man sudoku-batch-solve")]
    Manpage {
        /// The command whose page to print (solve, rate, …); none: the main page.
        #[arg(value_name = "COMMAND")]
        command: Option<String>,

        /// Write every page into DIR (created if missing): sudoku-batch.1 and one
        /// sudoku-batch-COMMAND.1 per command, each with every option.
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<PathBuf>,
    },
}

impl Command {
    /// `-o -` names stdout, as `-` names stdin among the inputs: the output option is dropped,
    /// so the rows go to stdout as without `-o` (`verify` reads its `-o -` the same way).
    pub fn dash_output_is_stdout(&mut self) {
        let output = match self {
            Command::Solve(SolveArgs { batch, .. })
            | Command::Rate(RateArgs { batch, .. })
            | Command::Explain(ExplainArgs { batch, .. })
            | Command::Canon(CanonArgs { batch, .. })
            | Command::Augment(AugmentArgs { batch, .. })
            | Command::Minimize(MinimizeArgs { batch, .. }) => &mut batch.output,
            Command::Dedup(a) => &mut a.output,
            Command::Split(a) => &mut a.output,
            Command::Audit(a) => &mut a.output,
            Command::Generate(a) => &mut a.output,
            Command::Sample(a) => &mut a.output,
            Command::Bench(_)
            | Command::Export(_)
            | Command::Verify(_)
            | Command::Provenance { .. }
            | Command::Completions { .. }
            | Command::Manpage { .. } => return,
        };
        if output.as_deref() == Some(std::path::Path::new("-")) {
            *output = None;
        }
    }
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Corpora to time (line format, or CSV for .csv files).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,

    /// `first` stops at the first solution; `unique` counts to two, proving uniqueness.
    #[arg(long, value_enum, default_value = "unique")]
    pub mode: ModeArg,

    /// Threads solving the in-memory set, at most 1024 (0: one per core); the rate reported is
    /// the aggregate. A list (1,2,4) times every file at each count and adds speed-up and
    /// efficiency.
    #[arg(short = 'j', long, value_name = "N[,N...]", default_value = "1",
          value_delimiter = ',', value_parser = thread_count)]
    pub threads: Vec<usize>,

    /// Seconds of warm-up passes before timing (fractions allowed).
    #[arg(long, value_name = "SECS", default_value_t = 1.0, value_parser = seconds)]
    pub warmup: f64,

    /// Seconds to time at least; whole passes are run until this is reached.
    #[arg(long, value_name = "SECS", default_value_t = 3.0, value_parser = seconds)]
    pub time: f64,

    /// One JSON object per result per line on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Write a JSON object with `machine` and `results` to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<String>,

    /// Write the results as CSV, one row per file and thread count, to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<String>,

    /// Write the results as a markdown table to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<String>,

    /// Draw the per-puzzle solve-time distributions (log time axis, one line per file) as SVG.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "external")]
    pub histogram: Option<String>,

    /// Print only the requested outputs: no table, no notes.
    #[arg(short, long)]
    pub quiet: bool,

    /// Referee another solver: run CMD under `sh -c`, feed it the puzzles on stdin, check its
    /// answer lines.
    #[arg(long, value_name = "CMD")]
    pub external: Option<String>,

    /// With --external: kill the solver after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 600.0, value_parser = seconds,
          requires = "external")]
    pub timeout: f64,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Files of puzzle/solution pairs; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// `pairs` (puzzle:solution or puzzle,solution lines) or `csv` (with a header)
    /// [default: told from the first line].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<PairFormatArg>,

    /// The CSV column holding the puzzles [default: the first of quizzes, puzzle, puzzles].
    #[arg(long, value_name = "NAME")]
    pub puzzle_column: Option<String>,

    /// The CSV column holding the solutions [default: the first of solution, solutions].
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,

    /// Write every row's verdict as CSV to FILE (`-`: stdout, and the report goes to stderr).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,

    /// The format of the -o rows: csv, or parquet (with -o FILE).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "csv")]
    pub format: RowsFormatArg,

    #[command(flatten)]
    pub file: OutputFileArgs,

    #[command(flatten)]
    pub workers: Workers,

    /// No report and no summary: only the exit code (and -o).
    #[arg(short, long)]
    pub quiet: bool,

    /// Rows per chunk (the unit of parallel work and of ordering).
    #[arg(long, default_value_t = 1024, hide = true,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub chunk_size: u64,
}

/// The format of the rows of `verify -o` and `split --label`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RowsFormatArg {
    Csv,
    /// With -o FILE.
    Parquet,
}

impl RowsFormatArg {
    fn format(self, file: &OutputFileArgs) -> OutputFormat {
        match self {
            RowsFormatArg::Csv => OutputFormat::Csv,
            RowsFormatArg::Parquet => file.parquet(),
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PairFormatArg {
    Pairs,
    Csv,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ModeArg {
    First,
    Unique,
}

fn seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if v.is_finite() && (0.0..=86_400.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("'{s}' must be between 0 and 86400 seconds"))
    }
}

/// The most worker threads any command starts: past this a machine is only thrashed.
pub const MAX_THREADS: usize = 1024;

/// The worker-thread option every command shares.
#[derive(Args, Debug, Clone)]
pub struct Workers {
    /// Worker threads, at most 1024; 0 (the default) means one per core.
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        default_value_t = 0,
        hide_default_value = true,
        value_parser = thread_count
    )]
    pub threads: usize,
}

/// `-j N`: 0 (one per core) to [`MAX_THREADS`].
fn thread_count(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        Ok(_) => Err(format!(
            "{s} threads is more than {MAX_THREADS}; 0 means one per core"
        )),
        Err(_) => Err(format!("'{s}' is not a number of threads")),
    }
}

/// The options of an output file that every row-writing command shares: Parquet's compression
/// and the provenance record.
#[derive(Args, Debug, Clone)]
pub struct OutputFileArgs {
    /// With --format parquet: how pages are compressed. none (the default) writes fastest, about
    /// the size of the CSV; zstd (level 1) writes files about a third of that, at about twice the
    /// run time on easy puzzles; lz4 and snappy lie between (see docs/speed.md).
    #[arg(long, value_enum, value_name = "CODEC", default_value = "none")]
    pub compression: CompressionArg,

    /// Record no provenance (with -o FILE a run records the tool's version, the command line,
    /// the seeds and each input's size and SHA-256: in a Parquet file's metadata, else in
    /// FILE.provenance.json).
    #[arg(long)]
    pub no_provenance: bool,
}

/// A Parquet compression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompressionArg {
    None,
    Snappy,
    Lz4,
    Zstd,
}

impl OutputFileArgs {
    /// The Parquet output format with this compression.
    pub fn parquet(&self) -> OutputFormat {
        use crate::run::parquet::Compression;
        OutputFormat::Parquet(match self.compression {
            CompressionArg::None => Compression::None,
            CompressionArg::Snappy => Compression::Snappy,
            CompressionArg::Lz4 => Compression::Lz4,
            CompressionArg::Zstd => Compression::Zstd,
        })
    }
}

/// What every per-puzzle command (solve, rate, canon, minimize) shares: inputs, output, formats,
/// threads, shards and resuming.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// Input files, read in order; `-` or no file at all reads stdin. Files ending in .csv are
    /// read as CSV unless --input-format says otherwise.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// Write the rows to FILE instead of stdout (`-`: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// How puzzles are written in the inputs: `line` (81 cells per line, `.`/`0`/`*`/`_` for
    /// blanks, anything after a separator ignored; a 729-character first field is read as
    /// pencilmarks), `block` (9 rows of 9 cells separated by spaces), `json` (LeetCode boards
    /// `[["5","3",".",...],...]`: one per line, pretty-printed, or arrays of boards), `csv` (a
    /// header row and a puzzle column), `pencilmark` (tdoku's 729 characters: 81 cells × 9
    /// candidate positions, the digit or `.`; solve, bench and verify read them). Default: csv
    /// for .csv files; otherwise told from the first line that is not blank or a # comment: `[`
    /// starts json, a row of 9 cells starts blocks, anything else is lines.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<InputFormatArg>,

    /// The CSV column holding the puzzles [default: the first of quizzes, puzzle, puzzles].
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,

    /// Output format: `csv` (a header, then one row per puzzle), `jsonl` (one JSON object per
    /// line, the same fields, empty ones null), `parquet` (with -o FILE: the same columns,
    /// typed, empty ones null); for solve also `grid` (each solution as 9 lines
    /// of 9 digits) and `json` (each solution as a LeetCode board); for explain also `text`
    /// (Sudoku Explainer's one-line description of each step). Default: csv (explain: jsonl).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<OutputFormatArg>,

    #[command(flatten)]
    pub workers: Workers,

    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    /// Exit with status 1 when any puzzle is invalid, unsolvable or given up.
    #[arg(long)]
    pub strict: bool,

    /// Process only shard K of N (1-based): the puzzles on lines l with (l-1) mod N = K-1.
    /// N machines or array tasks running 1/N … N/N cover the input exactly once.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,

    /// Write no CSV header: for use as a line filter (Spark's pipe, Hadoop Streaming, GNU
    /// parallel), where every piece of the input would otherwise bring its own header.
    #[arg(long)]
    pub no_header: bool,

    /// With -o FILE: continue the FILE.partial that an interrupted or killed run left, keeping
    /// its complete rows and skipping the input lines they cover. Give the same inputs and
    /// options as the first run.
    #[arg(long)]
    pub resume: bool,

    /// Records per chunk (the unit of parallel work and of ordering): 1,024, or
    /// `explain::command::SE_CHUNK` for `rate --se` and `explain`.
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub chunk_size: Option<u64>,

    #[command(flatten)]
    pub file: OutputFileArgs,
}

#[derive(Args, Debug)]
pub struct RateArgs {
    #[command(flatten)]
    pub batch: BatchArgs,

    /// Random equivalent copies the rating averages the guesses over.
    #[arg(long, value_name = "K", default_value_t = crate::rate::DEFAULT_SAMPLES,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub samples: u32,

    /// Seed of the rating's transforms (with the puzzle itself): the same seed gives the same
    /// ratings on any machine, with any -j.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// Add Sudoku Explainer's rating (SE 1.2.1, as its serate gives it): columns er, ep, ed and
    /// er_technique, for puzzles with exactly one solution.
    #[arg(long)]
    pub se: bool,

    /// With --se: the most work a puzzle may take, in potentials derived by SE's chains; one
    /// that needs more gets status gave-up and the reason in error.
    #[arg(long, value_name = "N", default_value_t = crate::explain::DEFAULT_BUDGET,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub se_budget: u64,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub batch: BatchArgs,

    /// The most work a puzzle may take, in potentials derived by SE's chains; one that needs
    /// more gets status gave-up and the reason in error.
    #[arg(long, value_name = "N", default_value_t = crate::explain::DEFAULT_BUDGET,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub se_budget: u64,
}

#[derive(Args, Debug)]
pub struct CanonArgs {
    #[command(flatten)]
    pub batch: BatchArgs,

    /// Also write the transform that maps each input to its canonical form (a `transform`
    /// column, before `error`), so solutions can be mapped back.
    #[arg(long)]
    pub transform: bool,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub batch: BatchArgs,

    /// Stop at the first solution (faster; `solved` then means "at least one").
    #[arg(long, conflicts_with = "limit")]
    pub first: bool,

    /// Count solutions up to N; 2 (the default) proves uniqueness.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,

    /// Give a puzzle up after N guesses: its row gets status `gave-up` (with the solutions
    /// found so far) instead of holding the batch up. Default: no limit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_guesses: Option<u64>,

    /// Write 0 in solve_ns, so that two runs give byte-identical output.
    #[arg(long)]
    pub no_timing: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum InputFormatArg {
    Line,
    Block,
    Csv,
    Pencilmark,
    Json,
}

impl InputFormatArg {
    pub fn format(self) -> InputFormat {
        match self {
            InputFormatArg::Line => InputFormat::Line,
            InputFormatArg::Block => InputFormat::Block,
            InputFormatArg::Csv => InputFormat::Csv,
            InputFormatArg::Pencilmark => InputFormat::Pencilmark,
            InputFormatArg::Json => InputFormat::Json,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormatArg {
    /// CSV with a header row.
    Csv,
    /// One JSON object per line, the same fields (empty ones null).
    Jsonl,
    /// With -o FILE: a Parquet file, the same columns typed (empty ones null).
    Parquet,
    /// solve only: each solution as 9 lines of 9 digits, a blank line between puzzles; a
    /// puzzle without a unique solution gives a `# line N: status (why)` line instead.
    Grid,
    /// solve only: each solution as a LeetCode JSON board on one line; a puzzle without a
    /// unique solution gives `{"line":N,"status":…,"reason":…}` instead.
    Json,
    /// explain only: per puzzle a `# line N: puzzle  ER … EP … ED …` line, then one line per
    /// step, its rating and Sudoku Explainer's description; a blank line between puzzles.
    Text,
}

impl BatchArgs {
    /// The shared settings of a per-puzzle run; `stop` is the flag SIGINT and SIGTERM raise.
    pub fn settings(&self, stop: Arc<AtomicBool>) -> Settings {
        Settings {
            output: match self.format() {
                OutputFormatArg::Jsonl => OutputFormat::Jsonl,
                OutputFormatArg::Parquet => self.file.parquet(),
                // grid, json and text write their own bytes through the CSV writer, with no
                // header.
                _ => OutputFormat::Csv,
            },
            input_format: self.input_format.map(InputFormatArg::format),
            column: self.column.clone(),
            threads: self.workers.threads,
            chunk_size: self
                .chunk_size
                .map_or(1024, |n| usize::try_from(n).unwrap_or(1024)),
            progress: !self.quiet,
            shard: self.shard,
            resume_after: None,
            header: !self.no_header && !self.readable(),
            stop: Some(stop),
            // Set by the run's output, which owns the Parquet sink.
            parquet_rows: None,
        }
    }

    /// The output format asked for, csv by default.
    pub fn format(&self) -> OutputFormatArg {
        self.format.unwrap_or(OutputFormatArg::Csv)
    }

    /// `--format grid`, `json` or `text`: for reading, not rows.
    pub fn readable(&self) -> bool {
        matches!(
            self.format(),
            OutputFormatArg::Grid | OutputFormatArg::Json | OutputFormatArg::Text
        )
    }

    /// Refuses what these options cannot do for `command` (`grid` and `json` are `solve`'s, and
    /// have no rows to resume from).
    pub fn check(&self, command: &str) -> Result<(), String> {
        if self.readable() {
            let (name, owner) = match self.format() {
                OutputFormatArg::Grid => ("grid", "solve"),
                OutputFormatArg::Json => ("json", "solve"),
                _ => ("text", "explain"),
            };
            if command != owner {
                let also = if command == "explain" {
                    ", jsonl or text"
                } else {
                    " or jsonl"
                };
                return Err(format!(
                    "--format {name} is {owner}'s; {command} writes csv{also}"
                ));
            }
            if self.resume {
                return Err(format!(
                    "--format {name} cannot be resumed (its output has no row keys): use csv \
                     or jsonl with --resume"
                ));
            }
        }
        Ok(())
    }

    /// Where the rows go.
    pub fn target(&self) -> Target<'_> {
        Target {
            path: self.output.as_deref(),
            resume: self.resume,
            quiet: self.quiet,
            id: None,
            provenance: None,
        }
    }
}

impl SolveArgs {
    pub fn options(&self) -> crate::solve::Options {
        crate::solve::Options {
            limit: if self.first { 1 } else { self.limit },
            max_guesses: self.max_guesses,
            timing: !self.no_timing,
            layout: match self.batch.format() {
                OutputFormatArg::Grid => crate::solve::Layout::Grid,
                OutputFormatArg::Json => crate::solve::Layout::Json,
                _ => crate::solve::Layout::Rows,
            },
        }
    }
}

impl VerifyArgs {
    pub fn request(&self) -> crate::verify::Request {
        crate::verify::Request {
            pairs: PairOptions {
                format: self.input_format.map(|f| match f {
                    PairFormatArg::Pairs => PairFormat::Lines,
                    PairFormatArg::Csv => PairFormat::Csv,
                }),
                puzzle_column: self.puzzle_column.clone(),
                solution_column: self.solution_column.clone(),
            },
            output: self
                .output
                .as_deref()
                .map(|o| (o != "-").then(|| PathBuf::from(o))),
            threads: self.workers.threads,
            chunk_size: usize::try_from(self.chunk_size).unwrap_or(1024),
            quiet: self.quiet,
            format: self.format.format(&self.file),
            provenance: None,
        }
    }
}

impl BenchArgs {
    pub fn request(&self) -> crate::bench::run::Request {
        crate::bench::run::Request {
            files: self.files.clone(),
            mode: match self.mode {
                ModeArg::First => crate::bench::Mode::First,
                ModeArg::Unique => crate::bench::Mode::Unique,
            },
            threads: self
                .threads
                .iter()
                .map(|&t| crate::run::threads(t))
                .collect(),
            warmup: Duration::from_secs_f64(self.warmup),
            time: Duration::from_secs_f64(self.time),
            json: self.json,
            export_json: self.export_json.as_deref().map(Dest::from_arg),
            export_csv: self.export_csv.as_deref().map(Dest::from_arg),
            export_markdown: self.export_markdown.as_deref().map(Dest::from_arg),
            histogram: self.histogram.as_deref().map(Dest::from_arg),
            quiet: self.quiet,
            external: self.external.clone(),
            timeout: Duration::from_secs_f64(self.timeout),
        }
    }
}
