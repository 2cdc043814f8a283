//! Development aid: prints the explainer's path in serate's `@S/@A/@F` layout, for diffing.
use std::io::BufRead;
fn main() {
    let stdin = std::io::stdin();
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line.unwrap();
        let g: sudoku_batch::Grid = match line.trim().parse() {
            Ok(g) => g,
            Err(_) => continue,
        };
        let t0 = std::time::Instant::now();
        let e = sudoku_batch::explain::explain(&g);
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        println!("@S\t{}\t{}", i + 1, line.trim());
        for s in &e.steps {
            if std::env::var("SE_DEBUG").is_ok() {
                let el: Vec<String> = s
                    .eliminations
                    .iter()
                    .map(|&(c, v)| format!("r{}c{}-{}", c / 9 + 1, c % 9 + 1, v))
                    .collect();
                println!(
                    "@A\t{}.{}\t{}\t[{}]",
                    s.rating / 10,
                    s.rating % 10,
                    s.text,
                    el.join(" ")
                );
            } else {
                println!("@A\t{}.{}\t{}", s.rating / 10, s.rating % 10, s.text);
            }
        }
        println!(
            "@F\t{}\t{}\t{}.{}\t{}.{}\t{}.{}\t{}\t{}\t{}\t{:.3}",
            i + 1,
            line.trim(),
            e.er / 10,
            e.er % 10,
            e.ep / 10,
            e.ep % 10,
            e.ed / 10,
            e.ed % 10,
            e.er_technique,
            e.ep_technique,
            e.ed_technique,
            ms
        );
    }
}
