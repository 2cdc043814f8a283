//! The ordered parallel map that `solve` and `verify` share: a reader thread cuts a stream into
//! chunks, a rayon pool works on them in any order, and the calling thread consumes the results
//! in the order the chunks were cut.
//!
//! **Bounded memory.** The reader must take a token before it hands a chunk over, and a token
//! comes back only when the consumer has taken that chunk's result, so at most `4 × threads`
//! chunks exist at any time, however fast the input arrives and however slowly the output drains.
//!
//! **Ordering.** Chunks carry sequence numbers; a small map holds results that finish early. A
//! reader error takes a sequence number too, so everything read before it is consumed before the
//! error is reported.
//!
//! **Stopping.** When the consumer returns an error (a closed pipe, an input error), the run ends
//! at once without waiting for the reader, which may be blocked on a terminal or a pipe: it finds
//! no more tokens and stops by itself. A raised stop flag ([`run_until`]: SIGINT, SIGTERM) ends the
//! run once every chunk handed over has been consumed, or at the latest [`STOP_GRACE`] later:
//! neither a reader waiting on a terminal nor workers deep in thousands of puzzles (`-j 1024`)
//! can hold it up. What was consumed is a prefix of the input, in order, with no gap.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How often a run with a stop flag looks at it while waiting for results.
const STOP_POLL: Duration = Duration::from_millis(50);

/// How long a stopped run still waits for chunks in flight (whose workers end them early) before
/// it ends without them.
pub const STOP_GRACE: Duration = Duration::from_millis(400);

/// The threads could not be started; the message says why.
#[derive(Debug)]
pub struct StartError(pub String);

/// What the consumer is handed, in order.
pub enum Event<R, E> {
    /// The result of the next chunk.
    Done(R),
    /// The reader failed after the chunks before it.
    Failed(E),
    /// Nothing is ready yet: a good moment to flush.
    Idle,
}

/// The reader thread's end: hands chunks to the pool, or reports a failure.
pub struct Feeder<C, R, E> {
    pool: Arc<rayon::ThreadPool>,
    tokens: Receiver<()>,
    results: Sender<(u64, Result<R, E>)>,
    work: Arc<dyn Fn(C) -> R + Send + Sync>,
    seq: u64,
    /// How many sequence numbers were handed out (seen by the consumer).
    sent: Arc<AtomicU64>,
}

impl<C: Send + 'static, R: Send + 'static, E: Send + 'static> Feeder<C, R, E> {
    /// Hands a chunk over to be worked on, once a token allows it. `false` when the consumer has
    /// stopped: then stop reading.
    pub fn send(&mut self, chunk: C) -> bool {
        if self.tokens.recv().is_err() {
            return false;
        }
        let seq = self.seq;
        self.seq += 1;
        self.sent.store(self.seq, Ordering::SeqCst);
        let work = Arc::clone(&self.work);
        let results = self.results.clone();
        self.pool.spawn(move || {
            let r = work(chunk);
            // The consumer may have stopped (closed pipe): then nobody needs the result.
            let _ = results.send((seq, Ok(r)));
        });
        true
    }

    /// Reports a failure, to be consumed after every chunk sent before it.
    pub fn fail(&mut self, error: E) {
        let _ = self.results.send((self.seq, Err(error)));
        self.seq += 1;
        self.sent.store(self.seq, Ordering::SeqCst);
    }
}

/// Runs `read` on a reader thread, `work` on a pool of `threads` threads, and `consume` on the
/// calling thread, in chunk order. Returns the consumer's first error, if any.
pub fn run<C, R, E, X>(
    threads: usize,
    name: &str,
    read: impl FnOnce(&mut Feeder<C, R, E>) + Send + 'static,
    work: impl Fn(C) -> R + Send + Sync + 'static,
    consume: impl FnMut(Event<R, E>) -> Result<(), X>,
) -> Result<(), X>
where
    C: Send + 'static,
    R: Send + 'static,
    E: Send + 'static,
    X: From<StartError>,
{
    run_until(None, threads, name, read, work, consume)
}

/// [`run`], which also ends once `stop` is raised and every chunk the reader handed over has
/// been consumed, without waiting for the reader (which may be blocked on its input).
pub fn run_until<C, R, E, X>(
    stop: Option<Arc<AtomicBool>>,
    threads: usize,
    name: &str,
    read: impl FnOnce(&mut Feeder<C, R, E>) + Send + 'static,
    work: impl Fn(C) -> R + Send + Sync + 'static,
    mut consume: impl FnMut(Event<R, E>) -> Result<(), X>,
) -> Result<(), X>
where
    C: Send + 'static,
    R: Send + 'static,
    E: Send + 'static,
    X: From<StartError>,
{
    let threads = threads.max(1);
    let worker = name.to_string();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("{worker}-worker-{i}"))
        .build()
        .map_err(|e| StartError(e.to_string()))?;
    let in_flight = 4 * threads;
    let (token_tx, token_rx): (SyncSender<()>, Receiver<()>) = mpsc::sync_channel(in_flight);
    for _ in 0..in_flight {
        // The channel has exactly this capacity and its receiver is alive: cannot fail.
        let _ = token_tx.send(());
    }
    let (results_tx, results) = mpsc::channel();
    let sent = Arc::new(AtomicU64::new(0));
    let mut feeder = Feeder {
        pool: Arc::new(pool),
        tokens: token_rx,
        results: results_tx,
        work: Arc::new(work),
        seq: 0,
        sent: Arc::clone(&sent),
    };
    let reader = thread::Builder::new()
        .name(format!("{name}-reader"))
        .spawn(move || read(&mut feeder))
        .map_err(|e| StartError(e.to_string()))?;

    let mut pending: BTreeMap<u64, Result<R, E>> = BTreeMap::new();
    let mut next = 0u64;
    let mut deadline: Option<Instant> = None;
    loop {
        if let Some(flag) = &stop {
            if deadline.is_none() && flag.load(Ordering::SeqCst) {
                deadline = Some(Instant::now() + STOP_GRACE);
            }
            if let Some(d) = deadline {
                if next >= sent.load(Ordering::SeqCst) || Instant::now() >= d {
                    // Stopped: what was consumed is a clean prefix. The reader (maybe blocked
                    // on its input) and any worker still busy are left behind, not waited for.
                    return Ok(());
                }
            }
        }
        let (seq, result) = match results.try_recv() {
            Ok(m) => m,
            Err(TryRecvError::Empty) => {
                consume(Event::Idle)?;
                if stop.is_some() {
                    match results.recv_timeout(STOP_POLL) {
                        Ok(m) => m,
                        Err(RecvTimeoutError::Timeout) => continue,
                        Err(RecvTimeoutError::Disconnected) => break,
                    }
                } else {
                    match results.recv() {
                        Ok(m) => m,
                        Err(_) => break,
                    }
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        pending.insert(seq, result);
        while let Some(result) = pending.remove(&next) {
            next += 1;
            match result {
                Ok(r) => consume(Event::Done(r))?,
                Err(e) => consume(Event::Failed(e))?,
            }
            // The reader may already be gone (it stops after its last chunk).
            let _ = token_tx.try_send(());
        }
    }
    // Every sender is gone, so the reader has returned; joining only collects it.
    let _ = reader.join();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    enum Stop {
        Start,
        Input(String),
        Full,
    }

    impl From<StartError> for Stop {
        fn from(_: StartError) -> Stop {
            Stop::Start
        }
    }

    #[test]
    fn results_come_in_order_and_errors_after_what_preceded_them() {
        for threads in [1, 2, 3] {
            let mut got = Vec::new();
            let r = run(
                threads,
                "t",
                |f: &mut Feeder<u64, u64, String>| {
                    for i in 0..200u64 {
                        if !f.send(i) {
                            return;
                        }
                    }
                    f.fail("boom".into());
                },
                // Later chunks finish first.
                |i| {
                    std::thread::sleep(std::time::Duration::from_micros(200 - i));
                    i * 10
                },
                |ev| match ev {
                    Event::Done(v) => {
                        got.push(v);
                        Ok(())
                    }
                    Event::Failed(e) => Err(Stop::Input(e)),
                    Event::Idle => Ok(()),
                },
            );
            assert_eq!(r, Err(Stop::Input("boom".into())));
            assert_eq!(got, (0..200).map(|i| i * 10).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_stopping_consumer_stops_the_reader() {
        let r = run(
            2,
            "t",
            |f: &mut Feeder<u64, u64, ()>| {
                // An endless input: only the consumer's stop ends it.
                let mut i = 0;
                while f.send(i) {
                    i += 1;
                }
            },
            |i| i,
            |ev| match ev {
                Event::Done(v) if v >= 50 => Err(Stop::Full),
                _ => Ok(()),
            },
        );
        assert_eq!(r, Err(Stop::Full));
    }
}
