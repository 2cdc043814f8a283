//! Development aid: prints the explainer's path in serate's `@S/@A/@F` layout, for diffing
//! against `serate --start=@S%t%n%t%g --after=@A%t%r%t%s --format=@F%t%n%t%g%t%r%t%p%t%d%t%R%t%P%t%D%t%e`.
//! With `SE_DEBUG` set, each step also lists its eliminations. The time printed last on each
//! `@F` line is that of `rate` on the puzzle (see `benches/se_speed.py`), in ms to 0.1 µs: the
//! easiest puzzles take about 5 µs, where steps of 1 µs moved a band's median by 20 %. With `SE_RATE_ONLY`
//! set, only `rate` runs and each puzzle prints `@R line er/ep/ed ms` (for profiling the rater
//! alone, e.g. under callgrind).
use std::io::BufRead;

fn main() {
    let stdin = std::io::stdin();
    let debug = std::env::var_os("SE_DEBUG").is_some();
    let rate_only = std::env::var_os("SE_RATE_ONLY").is_some();
    for (i, line) in stdin.lock().lines().enumerate() {
        let Ok(line) = line else { break };
        let Ok(g) = line.trim().parse::<sudoku_batch::Grid>() else {
            continue;
        };
        // Timed: the rating alone (`rate`), the job serate's `--format=%r/%p/%d` does; the
        // path printed below comes from a second, untimed run of `explain`.
        let t0 = std::time::Instant::now();
        let rated = sudoku_batch::explain::rate(&g, sudoku_batch::explain::DEFAULT_BUDGET);
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        if rate_only {
            match rated {
                Ok(r) => println!("@R\t{}\t{}/{}/{}\t{ms:.4}", i + 1, r.er, r.ep, r.ed),
                Err(_) => println!("@R\t{}\tgave up\t{ms:.4}", i + 1),
            }
            continue;
        }
        let e = sudoku_batch::explain::explain(&g, sudoku_batch::explain::DEFAULT_BUDGET);
        debug_assert_eq!(rated.is_ok(), e.is_ok());
        println!("@S\t{}\t{}", i + 1, line.trim());
        let Ok(e) = e else {
            println!("@F\t{}\t{}\tgave up", i + 1, line.trim());
            continue;
        };
        for s in &e.steps {
            if debug {
                let el: Vec<String> = s
                    .eliminations
                    .iter()
                    .map(|&(c, v)| format!("r{}c{}-{}", c / 9 + 1, c % 9 + 1, v))
                    .collect();
                println!("@A\t{}\t{}\t[{}]", s.rating, s.text, el.join(" "));
            } else {
                println!("@A\t{}\t{}", s.rating, s.text);
            }
        }
        let r = &e.rating;
        println!(
            "@F\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.4}",
            i + 1,
            line.trim(),
            r.er,
            r.ep,
            r.ed,
            r.er_technique,
            r.ep_technique,
            r.ed_technique,
            ms
        );
    }
}
