//! `rate` bench: Algoku's human-style rater and generator-to-a-difficulty
//! against QQWing (Debian's `qqwing` 1.3.x, run as a subprocess).
//!
//! ```text
//! cargo bench -p algoku-bench --bench rate -- [options]
//!   --gen N       puzzles per level to generate, each side (default: 100)
//!   --agree K     our generated puzzles rated by both (default: 1000)
//!   --passes P    timings per level; the best counts (default: 2)
//!   --file PATH   also compare levels on the first K puzzles of a file
//!                 (one per line, '#' lines skipped), e.g. a tdoku data file
//!   --json        print JSON instead of text
//!   --serate CP   only the Sudoku Explainer comparison (4, below): CP is
//!                 the class path of a serate build (`java -cp CP
//!                 diuf.sudoku.test.serate`)
//!   --seed S      with --serate: the seed of the fresh puzzles (default:
//!                 the clock, printed so a run can be repeated)
//!   --se-gen N    with --serate: generated puzzles (default 200; a quarter
//!                 of them not minimal, for the easy end of the scale)
//!   --se-hard N   with --serate: puzzles drawn from each hard data file
//!                 (default 10)
//!   --se-qqwing N with --serate: fresh QQWing expert puzzles (`qqwing
//!                 --generate N --difficulty expert`; default 100; skipped
//!                 without qqwing on PATH)
//!   --data DIR    with --serate: tdoku's data files (puzzles3_magictour_
//!                 top1465, puzzles6_forum_hardest_1106, puzzles5_forum_
//!                 hardest_1905_11+, puzzles2_17_clue); without it only
//!                 generated puzzles
//! ```
//!
//! 1. Generation rate per level (puzzles/s): ours = `generate_puzzle` (default
//!    options: minimal, no symmetry) over seeds 0, 1, … with their
//!    `algoku_rate::level` until N puzzles of the level are found (what
//!    `algoku generate --difficulty L --count N` does); QQWing = `qqwing
//!    --generate N --difficulty L --symmetry none --one-line` (its wall time,
//!    process start included: a few ms). Both generators make minimal
//!    puzzles. Ratio = ours / QQWing (higher is better for us).
//! 2. Level agreement: K puzzles of our generator, plus the puzzles QQWing
//!    generated in (1), rated by both (QQWing: `qqwing --solve --stats
//!    --csv`); a matrix QQWing level × our level and examples of each
//!    disagreement.
//! 3. Rating rate: the K puzzles rated by ours (in process) and by `qqwing
//!    --solve --stats --csv` (one process for all K), best of the passes.
//!
//! Without `qqwing` on PATH the QQWing columns print SKIPPED.
//!
//! 4. With `--serate`: Sudoku Explainer agreement and speed. Fresh puzzles
//!    every run (generated from the seed; lines drawn from the data files
//!    with it; QQWing's expert puzzles), each set rated by serate (one
//!    process, `--threads=1`) and by `algoku_rate::rate` (one thread): ER
//!    exact, ER/EP/ED exact, ER within 0.1, and the time of both. CPU
//!    ratio = serate's CPU seconds (all JVM threads, start included) / ours;
//!    wall ratio the same in wall time (the JVM's compiler and collector
//!    threads run on other cores, so it is the lower of the two).

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use algoku_bench::{children_cpu, self_cpu};
use algoku_rate::{level, rate, Level};
use algoku_sudoku::generator::{generate_puzzle, PuzzleOptions};
use algoku_sudoku::Grid;

struct Options {
    serate: Option<String>,
    seed: Option<u64>,
    se_gen: usize,
    se_hard: usize,
    se_qqwing: usize,
    data: Option<String>,
    gen: usize,
    agree: u64,
    passes: usize,
    json: bool,
    file: Option<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        serate: None,
        seed: None,
        se_gen: 200,
        se_hard: 10,
        se_qqwing: 100,
        data: None,
        gen: 100,
        agree: 1000,
        passes: 2,
        json: false,
        file: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> Result<u64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match a.as_str() {
            "--gen" => o.gen = num("--gen")? as usize,
            "--agree" => o.agree = num("--agree")?,
            "--passes" => o.passes = num("--passes")?.max(1) as usize,
            "--json" => o.json = true,
            "--file" => o.file = Some(args.next().ok_or("--file needs a path")?),
            "--serate" => o.serate = Some(args.next().ok_or("--serate needs a class path")?),
            "--seed" => o.seed = Some(num("--seed")?),
            "--se-gen" => o.se_gen = num("--se-gen")? as usize,
            "--se-hard" => o.se_hard = num("--se-hard")? as usize,
            "--se-qqwing" => o.se_qqwing = num("--se-qqwing")? as usize,
            "--data" => o.data = Some(args.next().ok_or("--data needs a directory")?),
            "--bench" => {}
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(o)
}

fn has_qqwing() -> bool {
    Command::new("qqwing")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Ours: seconds to find `n` puzzles of `level`, and the seeds tried.
fn ours_generate(level_want: Level, n: usize) -> (f64, u64) {
    let start = Instant::now();
    let (mut found, mut seed) = (0, 0u64);
    while found < n {
        let p = generate_puzzle(&PuzzleOptions {
            seed,
            ..Default::default()
        });
        seed += 1;
        // What `generate --difficulty LEVEL` does: the level alone.
        if level(&p.puzzle) == level_want {
            found += 1;
        }
    }
    (start.elapsed().as_secs_f64(), seed)
}

/// QQWing: seconds to generate `n` puzzles of `level`, and the puzzles.
fn qqwing_generate(level: Level, n: usize) -> Result<(f64, Vec<String>), String> {
    let start = Instant::now();
    let out = Command::new("qqwing")
        .args(["--generate", &n.to_string(), "--difficulty", level.name()])
        .args(["--symmetry", "none", "--one-line"])
        .output()
        .map_err(|e| format!("qqwing: {e}"))?;
    let secs = start.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&out.stdout);
    let puzzles: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.len() == 81)
        .map(String::from)
        .collect();
    if puzzles.len() != n {
        return Err(format!("qqwing gave {} puzzles, not {n}", puzzles.len()));
    }
    Ok((secs, puzzles))
}

/// QQWing's level of each puzzle, and the seconds it took.
fn qqwing_levels(puzzles: &[String]) -> Result<(f64, Vec<String>), String> {
    let start = Instant::now();
    let mut child = Command::new("qqwing")
        .args(["--solve", "--stats", "--csv"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("qqwing: {e}"))?;
    let input = puzzles.join("\n") + "\n";
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    writer.join().unwrap().map_err(|e| e.to_string())?;
    let secs = start.elapsed().as_secs_f64();
    let levels: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .map(|l| {
            l.trim_end_matches(',')
                .rsplit(',')
                .next()
                .unwrap_or("")
                .to_lowercase()
        })
        .collect();
    if levels.len() != puzzles.len() {
        return Err(format!(
            "qqwing rated {} of {} puzzles",
            levels.len(),
            puzzles.len()
        ));
    }
    Ok((secs, levels))
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match &o.serate {
        Some(cp) => run_serate(&o, cp),
        None => run(&o),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(o: &Options) -> Result<(), String> {
    let peer = has_qqwing();
    let mut report = serde_json::Map::new();
    let mut text = String::new();
    // 1. Generation per level.
    let mut qq_puzzles = Vec::new();
    let mut gen_rows = Vec::new();
    text.push_str(&format!(
        "generate {} puzzles per level (best of {} passes)\nlevel          ours/s   seeds/puzzle   qqwing/s   ratio\n",
        o.gen, o.passes
    ));
    for l in Level::ALL {
        let mut ours = f64::INFINITY;
        let mut theirs = f64::INFINITY;
        let mut seeds = 0;
        for _ in 0..o.passes {
            let (s, n) = ours_generate(l, o.gen);
            ours = ours.min(s);
            seeds = n;
            if peer {
                let (s, p) = qqwing_generate(l, o.gen)?;
                theirs = theirs.min(s);
                if qq_puzzles.len() < (Level::ALL.iter().position(|x| *x == l).unwrap() + 1) * o.gen
                {
                    qq_puzzles.extend(p.into_iter().map(|p| (l, p)));
                }
            }
        }
        let ours_rate = o.gen as f64 / ours;
        let qq_rate = peer.then(|| o.gen as f64 / theirs);
        text.push_str(&format!(
            "{:<12} {:>8.1} {:>14.1} {:>10} {:>7}\n",
            l.name(),
            ours_rate,
            seeds as f64 / o.gen as f64,
            qq_rate.map_or("SKIPPED".into(), |r| format!("{r:.1}")),
            qq_rate.map_or("-".into(), |r| format!("{:.2}", ours_rate / r)),
        ));
        gen_rows.push(serde_json::json!({
            "level": l.name(), "ours_per_s": ours_rate, "seeds_per_puzzle": seeds as f64 / o.gen as f64,
            "qqwing_per_s": qq_rate, "ratio": qq_rate.map(|r| ours_rate / r),
        }));
    }
    report.insert("generate".into(), gen_rows.into());

    // 2. Agreement on our puzzles, and 3. rating rate.
    let ours_puzzles: Vec<Grid> = (0..o.agree)
        .map(|seed| {
            generate_puzzle(&PuzzleOptions {
                seed,
                ..Default::default()
            })
            .puzzle
        })
        .collect();
    let mut ours_secs = f64::INFINITY;
    let mut ratings = Vec::new();
    for _ in 0..o.passes {
        let start = Instant::now();
        ratings = ours_puzzles.iter().map(rate).collect();
        ours_secs = ours_secs.min(start.elapsed().as_secs_f64());
    }
    let needs_more = ratings
        .iter()
        .filter(|r| r.score_tenths().is_none())
        .count();
    text.push_str(&format!(
        "\nrate {} generated puzzles: ours {:.0}/s ({} need more than implemented)",
        o.agree,
        o.agree as f64 / ours_secs,
        needs_more
    ));
    report.insert(
        "rate_ours_per_s".into(),
        (o.agree as f64 / ours_secs).into(),
    );
    report.insert("needs_more".into(), needs_more.into());
    if !peer {
        text.push_str(", qqwing SKIPPED\n");
    } else {
        let strings: Vec<String> = ours_puzzles.iter().map(Grid::to_string).collect();
        let (mut qs, ql) = qqwing_levels(&strings)?;
        for _ in 1..o.passes {
            qs = qs.min(qqwing_levels(&strings)?.0);
        }
        text.push_str(&format!(
            ", qqwing {:.0}/s, ratio {:.2}\n",
            o.agree as f64 / qs,
            qs / ours_secs
        ));
        report.insert("rate_qqwing_per_s".into(), (o.agree as f64 / qs).into());
        let mut sets = vec![("our generator", strings, ql)];
        let qq: Vec<String> = qq_puzzles.iter().map(|(_, p)| p.clone()).collect();
        let (_, qql) = qqwing_levels(&qq)?;
        sets.push(("qqwing's generator", qq, qql));
        if let Some(path) = &o.file {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let puzzles: Vec<String> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(|l| l.chars().take(81).collect())
                .take(o.agree as usize)
                .collect();
            let (_, levels) = qqwing_levels(&puzzles)?;
            sets.push(("the file", puzzles, levels));
        }
        for (name, puzzles, theirs) in sets {
            let mut matrix: BTreeMap<(String, &str), usize> = BTreeMap::new();
            let mut examples: BTreeMap<(String, &str), String> = BTreeMap::new();
            let mut agree = 0;
            for (p, q) in puzzles.iter().zip(&theirs) {
                let g: Grid = p.parse().map_err(|e| format!("{p}: {e}"))?;
                let ours = level(&g).name();
                agree += usize::from(ours == q);
                *matrix.entry((q.clone(), ours)).or_default() += 1;
                if ours != q {
                    examples
                        .entry((q.clone(), ours))
                        .or_insert_with(|| p.clone());
                }
            }
            text.push_str(&format!(
                "\nagreement on {} puzzles of {name}: {agree} ({:.1} %)\nqqwing \\ ours   simple   easy  intermediate  expert\n",
                puzzles.len(),
                100.0 * agree as f64 / puzzles.len().max(1) as f64
            ));
            for q in Level::ALL {
                text.push_str(&format!("{:<14}", q.name()));
                for l in Level::ALL {
                    let n = matrix
                        .get(&(q.name().to_string(), l.name()))
                        .copied()
                        .unwrap_or(0);
                    text.push_str(&format!(" {n:>7}"));
                }
                text.push('\n');
            }
            for ((q, l), p) in &examples {
                text.push_str(&format!("  differ: qqwing {q}, ours {l}: {p}\n"));
            }
            let m: Vec<_> = matrix
                .iter()
                .map(|((q, l), n)| serde_json::json!({"qqwing": q, "ours": l, "count": n}))
                .collect();
            report.insert(
                format!("agreement_{}", name.replace(['\'', ' '], "_")),
                serde_json::json!({"puzzles": puzzles.len(), "agree": agree, "matrix": m, "examples": examples.iter().map(|((q, l), p)| serde_json::json!({"qqwing": q, "ours": l, "puzzle": p})).collect::<Vec<_>>()}),
            );
        }
    }
    if o.json {
        println!("{}", serde_json::Value::Object(report));
    } else {
        print!("{text}");
    }
    Ok(())
}

/// A tiny deterministic generator (xorshift64*) for drawing lines.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// `n` puzzles drawn (without repeats) from a data file.
fn draw_lines(path: &str, n: usize, draw: &mut Draw) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.is_empty() && !l.starts_with('#') && l.len() >= 81)
        .map(|l| l[..81].to_string())
        .collect();
    let mut picked = std::collections::BTreeSet::new();
    while picked.len() < n.min(lines.len()) {
        picked.insert((draw.next() % lines.len() as u64) as usize);
    }
    Ok(picked.into_iter().map(|i| lines[i].clone()).collect())
}

/// serate's `ER/EP/ED` for each puzzle, its wall time and its CPU time
/// (every JVM thread: the rating thread, the JIT compilers, the collector).
fn serate_ratings(cp: &str, puzzles: &[String]) -> Result<(f64, f64, Vec<String>), String> {
    let dir = std::env::temp_dir();
    let tag = std::process::id();
    let input = dir.join(format!("algoku-serate-{tag}.in"));
    let output = dir.join(format!("algoku-serate-{tag}.out"));
    std::fs::write(&input, puzzles.join("\n") + "\n").map_err(|e| e.to_string())?;
    let t = Instant::now();
    let cpu = children_cpu();
    let status = Command::new("java")
        .args([
            "-cp",
            cp,
            "diuf.sudoku.test.serate",
            "--threads=1",
            "--format=%r/%p/%d",
        ])
        .arg(format!("--input={}", input.display()))
        .arg(format!("--output={}", output.display()))
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("java: {e}"))?;
    let secs = t.elapsed().as_secs_f64();
    let cpu = children_cpu() - cpu;
    if !status.success() {
        return Err(format!("serate failed: {status}"));
    }
    let text = std::fs::read_to_string(&output).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
    let out: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
    if out.len() != puzzles.len() {
        return Err(format!(
            "serate rated {} of {} puzzles",
            out.len(),
            puzzles.len()
        ));
    }
    Ok((secs, cpu, out))
}

fn run_serate(o: &Options, cp: &str) -> Result<(), String> {
    let seed = o.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs())
    });
    let mut draw = Draw(seed | 1);
    let mut sets: Vec<(String, Vec<String>)> = Vec::new();
    let base = draw.next() % 1_000_000_000;
    let minimal = o.se_gen - o.se_gen / 4;
    let gen = |k: usize, minimal: bool| {
        generate_puzzle(&PuzzleOptions {
            seed: base + k as u64,
            minimal,
            ..Default::default()
        })
        .puzzle
        .to_string()
    };
    sets.push((
        "generated (minimal)".into(),
        (0..minimal).map(|k| gen(k, true)).collect(),
    ));
    sets.push((
        "generated (not minimal)".into(),
        (minimal..o.se_gen).map(|k| gen(k, false)).collect(),
    ));
    let mut skipped: Vec<&str> = Vec::new();
    if o.se_qqwing > 0 {
        if has_qqwing() {
            let (_, expert) = qqwing_generate(Level::Expert, o.se_qqwing)?;
            sets.push(("QQWing expert".into(), expert));
        } else {
            skipped.push("QQWing expert (qqwing is not on PATH)");
        }
    }
    if let Some(dir) = &o.data {
        for (name, file, n) in [
            ("17-clue", "puzzles2_17_clue", o.se_hard * 2),
            ("magictour top1465", "puzzles3_magictour_top1465", o.se_hard),
            (
                "forum hardest 1106",
                "puzzles6_forum_hardest_1106",
                o.se_hard,
            ),
            (
                "forum hardest 11+",
                "puzzles5_forum_hardest_1905_11+",
                o.se_hard,
            ),
        ] {
            let lines = draw_lines(&format!("{dir}/{file}"), n, &mut draw)?;
            sets.push((name.into(), lines));
        }
    }
    let mut report = serde_json::Map::new();
    report.insert("seed".into(), seed.into());
    let mut text = format!(
        "Sudoku Explainer agreement and speed (seed {seed}; serate --threads=1, ours one thread)\n\
         set                      puzzles  ER exact  ER/EP/ED  ER±0.1  serate CPU-s  ours CPU-s  CPU ratio  wall ratio\n"
    );
    for set in &skipped {
        text.push_str(&format!("(left out: {set})\n"));
    }
    report.insert("left_out".into(), skipped.clone().into());
    let mut total = (0usize, 0usize, 0usize, 0.0f64, 0.0f64);
    let mut examples = Vec::new();
    for (name, puzzles) in &sets {
        if puzzles.is_empty() {
            continue;
        }
        let (their_secs, their_cpu, theirs) = serate_ratings(cp, puzzles)?;
        let t = Instant::now();
        let cpu = self_cpu();
        let ours: Vec<String> = puzzles
            .iter()
            .map(|p| {
                let g: Grid = p.parse().expect("puzzles parse");
                rate(&g).se.map_or_else(|| "-".to_string(), |s| s.text())
            })
            .collect();
        let our_secs = t.elapsed().as_secs_f64();
        let our_cpu = self_cpu() - cpu;
        let er = |s: &str| s.split('/').next().and_then(|x| x.parse::<f64>().ok());
        let (mut exact, mut all, mut near) = (0, 0, 0);
        for ((p, a), b) in puzzles.iter().zip(&theirs).zip(&ours) {
            all += usize::from(a == b);
            exact += usize::from(er(a) == er(b));
            near +=
                usize::from(matches!((er(a), er(b)), (Some(x), Some(y)) if (x - y).abs() < 0.15));
            if er(a) != er(b) && examples.len() < 20 {
                examples.push(format!("  {name}: {p} serate {a} ours {b}"));
            }
        }
        let wall_ratio = their_secs / our_secs;
        let cpu_ratio = their_cpu / our_cpu.max(1e-6);
        text.push_str(&format!(
            "{name:<24} {:>7} {:>9} {:>9} {:>7} {:>13.2} {:>11.3} {:>10.0} {:>11.0}\n",
            puzzles.len(),
            exact,
            all,
            near,
            their_cpu,
            our_cpu,
            cpu_ratio,
            wall_ratio
        ));
        total.0 += puzzles.len();
        total.1 += exact;
        total.2 += all;
        total.3 += their_cpu;
        total.4 += our_cpu;
        report.insert(
            name.clone(),
            serde_json::json!({"puzzles": puzzles.len(), "er_exact": exact, "all_exact": all,
                "er_within_0_1": near, "serate_wall_s": their_secs, "serate_cpu_s": their_cpu,
                "ours_wall_s": our_secs, "ours_cpu_s": our_cpu, "cpu_ratio": cpu_ratio,
                "wall_ratio": wall_ratio}),
        );
    }
    text.push_str(&format!(
        "{:<24} {:>7} {:>9} {:>9} {:>7} {:>13.2} {:>11.3} {:>10.0}\n",
        "all",
        total.0,
        total.1,
        total.2,
        "",
        total.3,
        total.4,
        total.3 / total.4.max(1e-6)
    ));
    report.insert(
        "all".into(),
        serde_json::json!({"puzzles": total.0, "er_exact": total.1, "all_exact": total.2,
            "serate_cpu_s": total.3, "ours_cpu_s": total.4}),
    );
    if !examples.is_empty() {
        text.push_str("ER differs:\n");
        text.push_str(&examples.join("\n"));
        text.push('\n');
    }
    if o.json {
        println!("{}", serde_json::Value::Object(report));
    } else {
        print!("{text}");
    }
    Ok(())
}
