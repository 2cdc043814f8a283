//! `bench --histogram FILE.svg`: the distribution of per-puzzle solve times, one line per corpus
//! (per corpus and thread count with `-j 1,2,…`), on a log-scaled time axis.
//!
//! Times are put in 10 bins per decade; each line shows the share of its own corpus's puzzles
//! per bin, so a corpus of 11 puzzles and one of 49,158 fit on the same axes. Drawn with
//! plotters' SVG backend only: the text is left to whatever displays the SVG, so no system font
//! or C library is needed to draw it.

use plotters::prelude::*;

/// Bins per decade of time.
pub const BINS_PER_DECADE: u32 = 10;

/// One line of the picture.
pub struct Series<'a> {
    /// The legend entry.
    pub label: String,
    /// Solve times in ns (any order).
    pub times_ns: &'a [u64],
}

/// The bins a set of series share: `(low, high)` in µs, both powers of ten.
fn range_us(series: &[Series]) -> (f64, f64) {
    let all = series.iter().flat_map(|s| s.times_ns.iter().copied());
    let (min, max) = all.fold((u64::MAX, 0u64), |(lo, hi), t| (lo.min(t), hi.max(t)));
    if min > max {
        return (1.0, 10.0);
    }
    // Clocks have ns resolution: 10 ns is the smallest time worth an axis.
    let lo = (min as f64 / 1000.0).max(0.01).log10().floor();
    let hi = (max as f64 / 1000.0).max(0.01).log10().ceil().max(lo + 1.0);
    (10f64.powf(lo), 10f64.powf(hi))
}

/// The share (%) of `times_ns` in each bin of `[lo, hi)` µs, as `(bin centre µs, %)` points,
/// with a zero at each end so the line starts and ends on the axis.
pub fn bin_points(times_ns: &[u64], lo: f64, hi: f64) -> Vec<(f64, f64)> {
    let decades = (hi / lo).log10().round().max(1.0) as u32;
    let bins = (decades * BINS_PER_DECADE) as usize;
    let mut counts = vec![0u64; bins];
    for &t in times_ns {
        let us = (t as f64 / 1000.0).max(lo);
        let i = ((us / lo).log10() * f64::from(BINS_PER_DECADE)).floor();
        counts[(i.max(0.0) as usize).min(bins - 1)] += 1;
    }
    let n = times_ns.len().max(1) as f64;
    let edge = |i: usize| lo * 10f64.powf(i as f64 / f64::from(BINS_PER_DECADE));
    let mut pts = Vec::with_capacity(bins + 2);
    pts.push((lo, 0.0));
    for (i, &c) in counts.iter().enumerate() {
        let centre = (edge(i) * edge(i + 1)).sqrt();
        pts.push((centre, c as f64 * 100.0 / n));
    }
    pts.push((hi, 0.0));
    pts
}

/// Draws the series into an SVG document.
pub fn render_svg(series: &[Series]) -> Result<String, String> {
    let (lo, hi) = range_us(series);
    let lines: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|s| bin_points(s.times_ns, lo, hi))
        .collect();
    let top = lines
        .iter()
        .flatten()
        .map(|&(_, y)| y)
        .fold(0.0f64, f64::max);
    let top = (top * 1.1).clamp(1.0, 100.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Solve time per puzzle", ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d((lo..hi).log_scale(), 0f64..top)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("solve time per puzzle, µs (log scale)")
            .y_desc("share of the corpus's puzzles, %")
            .x_label_formatter(&|x| {
                if *x >= 1.0 {
                    format!("{x:.0}")
                } else {
                    format!("{x}")
                }
            })
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, (s, pts)) in series.iter().zip(&lines).enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(format!("{} ({} puzzles)", s.label, s.times_ns.len()))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_every_time() {
        let times = [1_000u64, 1_500, 9_000, 10_000, 99_000, 5];
        let pts = bin_points(&times, 0.01, 100.0);
        assert_eq!(pts.len(), 4 * BINS_PER_DECADE as usize + 2);
        let total: f64 = pts.iter().map(|p| p.1).sum();
        assert!((total - 100.0).abs() < 1e-9, "{total}");
        assert!(pts.windows(2).all(|w| w[0].0 < w[1].0), "x increases");
        // 10 µs is the first bin of the last decade.
        let ten = pts[1 + 3 * BINS_PER_DECADE as usize];
        assert!(ten.0 > 10.0 && ten.0 < 12.6 && ten.1 > 0.0, "{ten:?}");
    }

    #[test]
    fn range_is_whole_decades() {
        let a = [1_200u64, 35_000];
        let s = [Series {
            label: "a".into(),
            times_ns: &a,
        }];
        assert_eq!(range_us(&s), (1.0, 100.0));
        assert_eq!(range_us(&[]), (1.0, 10.0));
    }

    #[test]
    fn svg_has_one_line_per_series() {
        let a = [1_000u64, 2_000, 3_000];
        let b = [100_000u64; 4];
        let svg = render_svg(&[
            Series {
                label: "easy.txt".into(),
                times_ns: &a,
            },
            Series {
                label: "hard.txt".into(),
                times_ns: &b,
            },
        ])
        .unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("easy.txt (3 puzzles)") && svg.contains("hard.txt (4 puzzles)"));
        assert!(svg.matches("<polyline").count() >= 2);
    }
}
