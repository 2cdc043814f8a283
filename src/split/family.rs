//! `split --by family`: the side of a puzzle is its family's, where a family is everything
//! `audit` links to it — equivalent puzzles, puzzles with an equivalent solution, neighbours one
//! clue apart — followed transitively (union–find over the audit's pairs). So no link of those
//! kinds can cross sides, which is what `audit --across` of the sides then certifies.
//!
//! Not streaming: the audit holds its keys (about 100 bytes a puzzle plus 13 a clue, see
//! `crate::audit`), and the inputs are read a second time to write the lines out, so stdin is
//! refused. A family's key is the smallest canonical key among its puzzles: the same whatever
//! the order of the inputs or the thread count.

use crate::audit::{self, Kind, Options};
use crate::input::{Input, InputFormat};
use crate::run;

/// Each puzzle's family key, in the audit's puzzle order, with where each puzzle is.
pub struct Families {
    /// Input index and line of each puzzle, in input order.
    pub place: Vec<(u32, u64)>,
    /// The family key of each puzzle.
    pub key: Vec<u64>,
    /// How many families, and the size of the largest.
    pub count: u64,
    pub largest: u64,
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let p = parent[x as usize];
        parent[x as usize] = parent[p as usize];
        x = p;
    }
    x
}

/// Audits `inputs` (line format) for the links a family follows and groups the puzzles.
pub fn families(inputs: &[Input], threads: usize, quiet: bool) -> Result<Families, run::Error> {
    if let Some(i) = inputs.iter().find(|i| i.path.is_none()) {
        return Err(run::Error::OutputFile(format!(
            "split --by family reads its inputs twice (to find the families, then to write the \
             lines): {} is stdin; give files",
            i.name
        )));
    }
    let req = audit::Request {
        options: Options {
            kinds: Kind::Equivalent.bit() | Kind::Neighbour.bit() | Kind::SameSolution.bit(),
            across: false,
            passes: 1,
        },
        input_format: Some(InputFormat::Line),
        column: None,
        output: None,
        format: run::OutputFormat::Csv,
        provenance: None,
        threads,
        quiet,
    };
    // Records that are not puzzles are reported by the split's own pass.
    let (store, pairs) = audit::find(inputs, &req, &mut |_, _, _| {})?;
    let n = store.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for p in &pairs {
        let (a, b) = (find(&mut parent, p.a), find(&mut parent, p.b));
        if a != b {
            parent[a.max(b) as usize] = a.min(b);
        }
    }
    let mut smallest = vec![u64::MAX; n];
    let mut size = vec![0u64; n];
    for k in &store.canon {
        let r = find(&mut parent, k.id) as usize;
        smallest[r] = smallest[r].min(k.key);
        size[r] += 1;
    }
    let key = (0..n as u32)
        .map(|i| smallest[find(&mut parent, i) as usize])
        .collect();
    Ok(Families {
        place: store
            .file
            .iter()
            .zip(&store.line)
            .map(|(&f, &l)| (f, l))
            .collect(),
        key,
        count: size.iter().filter(|&&s| s > 0).count() as u64,
        largest: size.iter().copied().max().unwrap_or(0),
    })
}
