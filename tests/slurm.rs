//! The guide's Slurm job array recipe (docs/guide.md), `docs/slurm-array.sh`, run for real on a single-node
//! Slurm cluster that the test starts on this machine (loopback only, its own munged, ports,
//! state and spool directories) and stops again, also when it fails.
//!
//! The array has 4 tasks over a small gzipped corpus; one task finds the `.partial` file a
//! preempted run would have left and must continue it. The union of the parts must be a local
//! run's rows, each exactly once, every part complete (renamed from `.partial`).
//!
//! Slurm comes from Debian's `slurm-wlm` and `munge` packages, installed with apt-get when
//! missing. Without Slurm and without a way to install it (root and apt-get) the test is
//! compiled as ignored; otherwise a failed install, daemons that do not come up and any wrong
//! result are failures.

#![cfg(target_os = "linux")]

use crate::common::cli::{run, tmp, EMPTY, LEET, UNSOLVABLE};

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The array the test submits (the script's own `--array=1-100` is overridden).
const TASKS: usize = 4;
/// The name the job is submitted under, for `scancel --name` when a run goes wrong.
const JOB_NAME: &str = "sudoku-batch-slurm-test";

fn s(p: &Path) -> &str {
    p.to_str().expect("temporary paths are UTF-8")
}

fn secs(since: Instant) -> f64 {
    since.elapsed().as_secs_f64()
}

/// The last `n` lines of a file, for messages.
fn tail(p: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(p).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A command with no Slurm settings from the environment it runs in (the test may itself run
/// inside a Slurm job), pointed at `conf` when given.
fn command(program: &Path, conf: Option<&Path>) -> Command {
    let mut cmd = Command::new(program);
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        if ["SLURM_", "SBATCH_", "SINFO_", "SQUEUE_", "SCANCEL_"]
            .iter()
            .any(|p| k.starts_with(p))
        {
            cmd.env_remove(&key);
        }
    }
    if let Some(conf) = conf {
        cmd.env("SLURM_CONF", conf);
    }
    cmd.stdin(Stdio::null());
    cmd
}

/// Runs `cmd` with its stdout and stderr going to the file `log` (a file, not a pipe, so that
/// a daemon it leaves behind cannot hold the test up), for at most `limit`. Returns the exit
/// status and the output, or why it did not finish.
fn run_for(cmd: &mut Command, limit: Duration, log: &Path) -> Result<(ExitStatus, String), String> {
    let out = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let what = format!("{:?}", cmd.get_program());
    let mut child = cmd
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            return Ok((status, text));
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{what} did not finish in {} s: {}",
                limit.as_secs(),
                tail(log, 5)
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The Slurm and MUNGE programs the test uses.
struct Tools {
    munged: PathBuf,
    slurmctld: PathBuf,
    slurmd: PathBuf,
    sbatch: PathBuf,
    sinfo: PathBuf,
    scancel: PathBuf,
}

fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin", "/bin"].map(PathBuf::from))
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

fn find_tools() -> Option<Tools> {
    Some(Tools {
        munged: find("munged")?,
        slurmctld: find("slurmctld")?,
        slurmd: find("slurmd")?,
        sbatch: find("sbatch")?,
        sinfo: find("sinfo")?,
        scancel: find("scancel")?,
    })
}

/// The tools, installed with apt-get (`slurm-wlm` and `munge`) if they are missing.
fn slurm_tools(dir: &Path) -> Result<Tools, String> {
    if let Some(t) = find_tools() {
        return Ok(t);
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Err("Slurm is not installed and installing it needs root".into());
    }
    let apt = find("apt-get").ok_or("Slurm is not installed and there is no apt-get")?;
    let started = Instant::now();
    let install = |log: &str| {
        let mut cmd = Command::new(&apt);
        cmd.args(["install", "-y", "-q", "slurm-wlm", "munge"])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdin(Stdio::null());
        run_for(&mut cmd, Duration::from_secs(900), &dir.join(log))
    };
    println!("installing slurm-wlm and munge with apt-get");
    let mut result = install("apt-install.log")?;
    if !result.0.success() {
        // The package lists may be missing or stale.
        let mut update = Command::new(&apt);
        update.args(["update", "-q"]).stdin(Stdio::null());
        run_for(
            &mut update,
            Duration::from_secs(600),
            &dir.join("apt-update.log"),
        )?;
        result = install("apt-install-2.log")?;
    }
    if !result.0.success() {
        let last = result.1.lines().last().unwrap_or("").to_string();
        return Err(format!("apt-get install slurm-wlm munge failed: {last}"));
    }
    println!("installed Slurm in {:.1} s", secs(started));
    find_tools().ok_or_else(|| "apt-get installed slurm-wlm but its programs are missing".into())
}

/// Two TCP ports free on loopback right now (the daemons take them a moment later).
fn free_ports() -> Result<(u16, u16), String> {
    let a = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let b = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let port = |l: &std::net::TcpListener| l.local_addr().map(|a| a.port());
    Ok((
        port(&a).map_err(|e| e.to_string())?,
        port(&b).map_err(|e| e.to_string())?,
    ))
}

/// A running single-node cluster: munged, slurmctld and slurmd, children of the test, with
/// their files in the test's directory. Dropping it cancels the test's job, stops the daemons
/// (SIGTERM, then SIGKILL after 10 s) and removes the directory, unless the test is failing.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    tools: Tools,
    daemons: Vec<(&'static str, Child)>,
}

impl Cluster {
    /// Starts the daemons in `dir` and waits (at most a minute) for the node to be idle.
    fn start(dir: &Path, tools: Tools) -> Result<Cluster, String> {
        let mut c = Cluster {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
            tools,
            daemons: Vec::new(),
        };
        for sub in ["munge", "state", "spool", "log"] {
            std::fs::create_dir_all(dir.join(sub)).map_err(|e| e.to_string())?;
        }
        // A MUNGE key of our own (128 random bytes, like `mungekey`'s default), readable only
        // by the owner, and a socket nobody else uses.
        let key = dir.join("munge/munge.key");
        let mut bytes = [0u8; 128];
        File::open("/dev/urandom")
            .and_then(|mut f| f.read_exact(&mut bytes))
            .map_err(|e| format!("/dev/urandom: {e}"))?;
        {
            use std::os::unix::fs::OpenOptionsExt;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&key)
                .map_err(|e| format!("{}: {e}", key.display()))?;
            f.write_all(&bytes).map_err(|e| e.to_string())?;
        }
        let socket = dir.join("munge/munge.socket");
        let mut munged = command(&c.tools.munged, None);
        munged
            .arg("--foreground")
            // Start even where munged's permission checks on the directories above the key and
            // the socket would refuse (a temporary directory someone else can write to, say).
            .arg("--force")
            .arg(format!("--socket={}", s(&socket)))
            .arg(format!("--key-file={}", s(&key)))
            .arg(format!("--pid-file={}", s(&dir.join("munge/munged.pid"))))
            .arg(format!("--log-file={}", s(&dir.join("log/munged.log"))))
            .arg(format!("--seed-file={}", s(&dir.join("munge/munged.seed"))));
        c.spawn("munged", munged)?;
        c.wait_for("munged's socket", Duration::from_secs(10), |_| {
            Ok(socket.exists())
        })?;

        let (ctld_port, slurmd_port) = free_ports()?;
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let conf = format!(
            "\
ClusterName=sudokutest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={socket}
StateSaveLocation={dir}/state
SlurmdSpoolDir={dir}/spool
SlurmctldPidFile={dir}/slurmctld.pid
SlurmdPidFile={dir}/slurmd.pid
SlurmctldLogFile={dir}/log/slurmctld.log
SlurmdLogFile={dir}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MailProg=/bin/true
NodeName=localhost NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=256 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=10 State=UP
",
            socket = s(&socket),
            dir = s(dir),
        );
        std::fs::write(&c.conf, conf).map_err(|e| e.to_string())?;

        let mut ctld = command(&c.tools.slurmctld, Some(&c.conf));
        // -D: stay in the foreground (a child of the test); -i: ignore any saved state.
        ctld.args(["-D", "-i", "-f", s(&c.conf)]);
        c.spawn("slurmctld", ctld)?;
        let mut slurmd = command(&c.tools.slurmd, Some(&c.conf));
        slurmd.args(["-D", "-N", "localhost", "-f", s(&c.conf)]);
        c.spawn("slurmd", slurmd)?;

        let sinfo = c.tools.sinfo.clone();
        let conf = c.conf.clone();
        let log = dir.join("log/sinfo.out");
        let mut last = String::new();
        c.wait_for("the node to be idle", Duration::from_secs(60), |_| {
            let mut cmd = command(&sinfo, Some(&conf));
            cmd.args(["-h", "-N", "-o", "%t"]);
            let (status, out) = run_for(&mut cmd, Duration::from_secs(10), &log)?;
            last = out.trim().to_string();
            Ok(status.success() && last == "idle")
        })
        .map_err(|e| format!("{e} (sinfo said {last:?})"))?;
        Ok(c)
    }

    /// Starts a daemon with its output in `log/NAME.out`.
    fn spawn(&mut self, name: &'static str, mut cmd: Command) -> Result<(), String> {
        let out =
            File::create(self.dir.join(format!("log/{name}.out"))).map_err(|e| e.to_string())?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = cmd
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e}"))?;
        self.daemons.push((name, child));
        Ok(())
    }

    /// Polls `ready` until it says yes, failing after `limit` or as soon as a daemon exits.
    fn wait_for(
        &mut self,
        what: &str,
        limit: Duration,
        mut ready: impl FnMut(&mut Self) -> Result<bool, String>,
    ) -> Result<(), String> {
        let deadline = Instant::now() + limit;
        loop {
            for (name, child) in &mut self.daemons {
                if let Ok(Some(status)) = child.try_wait() {
                    let log = self.dir.join(format!("log/{name}.out"));
                    eprintln!("{name} output:\n{}", tail(&log, 20));
                    return Err(format!("{name} exited ({status}) while waiting for {what}"));
                }
            }
            if ready(self)? {
                return Ok(());
            }
            if Instant::now() > deadline {
                for (name, _) in &self.daemons {
                    let log = self.dir.join(format!("log/{name}.out"));
                    eprintln!("{name} output:\n{}", tail(&log, 20));
                }
                return Err(format!("no {what} after {} s", limit.as_secs()));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// A Slurm client command (sbatch, scancel, ...) aimed at this cluster.
    fn client(&self, program: &Path) -> Command {
        command(program, Some(&self.conf))
    }

    /// The daemons' logs and the tasks' outputs, for a failure message.
    fn logs(&self, task_logs: &Path) -> String {
        let mut out = String::new();
        let mut files: Vec<PathBuf> = std::fs::read_dir(task_logs)
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        for name in ["slurmctld.log", "slurmd.log"] {
            files.push(self.dir.join("log").join(name));
        }
        for f in files {
            out.push_str(&format!("--- {}\n{}\n", f.display(), tail(&f, 30)));
        }
        out
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Jobs of ours still running would outlive slurmd (slurmstepd is its own process).
        let scancel = self.tools.scancel.clone();
        if self.daemons.len() == 3 {
            let mut cmd = self.client(&scancel);
            cmd.args(["--name", JOB_NAME]);
            let _ = run_for(
                &mut cmd,
                Duration::from_secs(10),
                &self.dir.join("log/scancel.out"),
            );
        }
        for (name, child) in self.daemons.iter_mut().rev() {
            if let Ok(Some(_)) = child.try_wait() {
                continue;
            }
            // SAFETY: kill with the id of our own child, which has not been reaped yet.
            unsafe {
                libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
            }
            let deadline = Instant::now() + Duration::from_secs(10);
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            if matches!(child.try_wait(), Ok(None)) {
                eprintln!("{name} ignored SIGTERM for 10 s: killing it");
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        if std::thread::panicking() {
            eprintln!("the cluster's files are kept in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// A few hundred lines with every status: LeetCode's puzzle (solved), the empty grid
/// (multiple), an unsolvable grid, lines that are not puzzles, and blank and comment lines
/// (which give no row).
fn corpus() -> String {
    let mut out = String::from("# corpus for the Slurm test\n");
    for i in 0..300 {
        match i % 7 {
            0 | 3 => out.push_str(LEET),
            1 => out.push_str(EMPTY),
            2 => out.push_str(&format!("not a puzzle {i}")),
            4 => out.push_str(UNSOLVABLE),
            5 => out.push_str(if i % 2 == 0 { "" } else { "# a comment" }),
            _ => out.push_str(&LEET[..80]),
        }
        out.push('\n');
    }
    out
}

/// The fields of each row (no header), with `solve_ns` (column 7), which differs from run to
/// run, set to 0.
fn rows(text: &str) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    r.records()
        .map(|rec| {
            let rec = rec.expect("a CSV row");
            assert_eq!(rec.len(), 8, "{rec:?}");
            let mut v: Vec<String> = rec.iter().map(str::to_string).collect();
            v[6] = "0".into();
            v
        })
        .collect()
}

fn line_no(row: &[String]) -> usize {
    row[0].parse().expect("a line number")
}

#[test]
#[cfg_attr(
    not(has_slurm),
    ignore = "needs Slurm, or root and apt-get to install it"
)]
fn slurm_array_recipe_solves_every_line_once() {
    let dir = tmp("slurm");
    let started = Instant::now();
    let tools = match slurm_tools(&dir) {
        Ok(t) => t,
        Err(why) => panic!("cannot install Slurm: {why}"),
    };
    let cluster = match Cluster::start(&dir, tools) {
        Ok(c) => c,
        Err(why) => panic!("the Slurm daemons did not come up: {why}"),
    };
    println!("slurm setup took {:.1} s", secs(started));

    // The submit directory: the corpus, gzipped as in the recipe.
    let work = dir.join("work");
    std::fs::create_dir_all(work.join("out")).unwrap();
    let text = corpus();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let corpus_gz = work.join("corpus.txt.gz");
    std::fs::write(&corpus_gz, gz.finish().unwrap()).unwrap();

    let local = run(&["solve", "--no-header", "-q", s(&corpus_gz)]);
    assert_eq!(local.code, 0, "{}", local.stderr);
    let want = rows(&local.stdout);
    let puzzles = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    assert_eq!(want.len(), puzzles);

    // Task 2 was preempted: it left a .partial with its first rows and half a row. Its kept
    // rows carry solve_ns 7, so they can be told apart from rows the job writes.
    let shard2 = run(&[
        "solve",
        "--no-header",
        "-q",
        "--shard",
        "2/4",
        s(&corpus_gz),
    ]);
    assert_eq!(shard2.code, 0, "{}", shard2.stderr);
    let kept: String = rows(&shard2.stdout)[..20]
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r[6] = "7".into();
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(&r).unwrap();
            String::from_utf8(w.into_inner().unwrap()).unwrap()
        })
        .collect();
    let cut_row = shard2.stdout.lines().nth(20).unwrap();
    std::fs::write(
        work.join("out/part-2.csv.partial"),
        format!("{kept}{}", &cut_row[..cut_row.len() / 2]),
    )
    .unwrap();

    // The recipe's own script, with the array cut to 4 tasks of 1 CPU each.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/slurm-array.sh");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let task_logs = dir.join("task-logs");
    std::fs::create_dir_all(&task_logs).unwrap();
    let mut sbatch = cluster.client(&cluster.tools.sbatch);
    sbatch
        .current_dir(&work)
        .env("PATH", path)
        .arg("--wait")
        .arg(format!("--array=1-{TASKS}"))
        .args(["--cpus-per-task=1", "--time=5", "--job-name", JOB_NAME])
        .arg(format!("--output={}/%A_%a.out", s(&task_logs)))
        .arg(&script);
    let job_started = Instant::now();
    let submitted = run_for(
        &mut sbatch,
        Duration::from_secs(180),
        &dir.join("sbatch.out"),
    );
    let (status, out) = match submitted {
        Ok(r) => r,
        Err(why) => panic!("{why}\n{}", cluster.logs(&task_logs)),
    };
    assert!(
        status.success(),
        "sbatch --wait: {status}\n{out}\n{}",
        cluster.logs(&task_logs)
    );
    println!("slurm job ({TASKS} tasks) took {:.1} s", secs(job_started));

    // Every part is complete: renamed from .partial, with its provenance beside it, nothing
    // else left in out/.
    let mut names: Vec<String> = std::fs::read_dir(work.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = (1..=TASKS)
        .flat_map(|k| {
            [
                format!("part-{k}.csv"),
                format!("part-{k}.csv.provenance.json"),
            ]
        })
        .collect();
    expected.sort();
    assert_eq!(names, expected, "{}", cluster.logs(&task_logs));

    // The union of the parts is the local run, each row exactly once, each in its own shard.
    let mut got: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for k in 1..=TASKS {
        let part = std::fs::read_to_string(work.join(format!("out/part-{k}.csv"))).unwrap();
        if k == 2 {
            assert!(
                part.starts_with(&kept),
                "part 2 does not continue the .partial it was given"
            );
        }
        for row in rows(&part) {
            let l = line_no(&row);
            assert_eq!((l - 1) % TASKS, k - 1, "line {l} in part {k}");
            if let Some(old) = got.insert(l, row) {
                panic!("line {l} twice: {old:?}");
            }
        }
    }
    let want: BTreeMap<usize, Vec<String>> = want.into_iter().map(|r| (line_no(&r), r)).collect();
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);

    // Task 2 said it resumed.
    let log2 = std::fs::read_dir(&task_logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| s(p).ends_with("_2.out"))
        .expect("task 2's output");
    let log2 = std::fs::read_to_string(log2).unwrap();
    assert!(
        log2.contains("resuming") && log2.contains("20 complete rows kept"),
        "{log2}"
    );

    drop(cluster);
    println!("slurm test took {:.1} s in all", secs(started));
}

/// The guide shows the script the test runs: `docs/slurm-array.sh` without its comment lines.
#[test]
fn the_guide_shows_the_tested_script() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = std::fs::read_to_string(root.join("docs/slurm-array.sh")).unwrap();
    let script: String = script
        .lines()
        .filter(|l| !l.starts_with("# "))
        .map(|l| format!("{l}\n"))
        .collect();
    let guide = std::fs::read_to_string(root.join("docs/guide.md")).unwrap();
    let section = &guide[guide.find("**Slurm job array**").expect("the Slurm recipe")..];
    let start = section.find("```sh\n").expect("a sh block") + "```sh\n".len();
    let block = &section[start..start + section[start..].find("```").unwrap()];
    assert_eq!(block, script);
}
