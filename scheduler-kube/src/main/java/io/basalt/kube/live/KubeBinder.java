package io.basalt.kube.live;

import io.basalt.kube.devices.DeviceSteps;
import io.basalt.kube.prebind.ApiReply;
import io.basalt.kube.prebind.PreBindSteps;

import io.basalt.model.Pod;
import io.basalt.scheduler.BindOutcomes;
import io.basalt.scheduler.Binder;
import io.basalt.session.SessionResult;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Carries out a session's bindings and evictions against the Kubernetes API without holding up the cycle.
 *
 * <p>The cycle has already assumed each placement in the cache (the pod shows on its node, with its new annotations),
 * so the next cycle does not place it again; {@link #bind} hands the API work to a bounded worker pool and reports
 * each outcome to the cycle's {@link BindOutcomes}, which settles the assumption: one POST to
 * {@code pods/{name}/binding} carrying the annotations (e.g. {@code basalt.io/gpu-devices}), after the pre-bind steps
 * ({@link PreBindSteps}: a pod given devices in HAMi's protocol first takes HAMi's node lock and gets its bind-time
 * annotations), which are undone if the bind fails. Transient
 * failures (no answer, timeouts, 408, 429, 5xx) are retried with doubling backoff. A 409 means the pod is already bound: on the
 * node we chose it counts as success, elsewhere as a lost race (not retried). Attempts that run out after a 5xx or no
 * answer are read back the same way, until a read-back is answered: a server may apply a binding and fail the reply.
 * On final failure or a lost race it reports the pod not bound: the assumption is rolled back (the pod is pending in
 * the cache again, unless the informer has meanwhile reported it bound, updated or deleted, whose word wins); after a
 * final failure (not a lost race) the pod is nominated to the node it was meant for, so that room stays held for it.
 * A pod uid is never bound twice: a request for a uid whose bind is in flight is reported not bound (without a hold)
 * and not sent. {@link #evict} posts policy/v1 Evictions the same way (404: already gone, fine; 429: blocked by a
 * PodDisruptionBudget, retried), the victim marked terminating in the cache by the cycle meanwhile.
 *
 * <p><b>Gang guarantee.</b> Members of one gang (same PodGroup name and namespace) placed in the same cycle are bound
 * concurrently, each on its own. Binding is not transactional: Kubernetes cannot unbind a pod, so when a member fails
 * for good, the members that did bind stay bound and keep running, and only the failed member returns to pending,
 * nominated to its node: the next cycle holds that room for it (no other pod, even a higher-priority one, takes it),
 * counts the bound members towards minMember, and binds the member there again. A gang is never torn down because
 * one bind failed; it runs short of members only while the API keeps failing for that member, or when another
 * scheduler took the member (then it is bound, elsewhere).
 */
public final class KubeBinder implements Binder, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(KubeBinder.class.getName());

  /**
   * Tuning.
   *
   * @param bindWorkers concurrent API calls (default 64: a bind is one round trip, so throughput is workers over
   *     latency; 16 held 5,000 pods to ~300/s against a 50 ms server)
   * @param maxAttempts attempts per API call before giving up (default 5)
   * @param initialBackoff wait after the first failure, doubling after each further one (default 200ms)
   * @param maxBackoff cap on that wait (default 5s)
   * @param callTimeout whole-call timeout for binding and eviction requests (default 30s)
   * @param closeTimeout how long {@link #close} lets in-flight work finish (default 30s)
   * @param lockWait how long a bind waits on a pre-bind step (another pod's HAMi node lock) before it fails and its
   *     pod returns to pending, nominated to the node (default 30s, as hami-scheduler's node-lock-retry-timeout)
   */
  public record Options(int bindWorkers, int maxAttempts, Duration initialBackoff, Duration maxBackoff,
      Duration callTimeout, Duration closeTimeout, Duration lockWait) {
    public Options {
      if (bindWorkers < 1 || maxAttempts < 1) {
        throw new IllegalArgumentException("bindWorkers and maxAttempts must be at least 1");
      }
    }

    public static Options defaults() {
      return new Options(64, 5, Duration.ofMillis(200), Duration.ofSeconds(5), Duration.ofSeconds(30),
          Duration.ofSeconds(30), Duration.ofSeconds(30));
    }

    public Options withBindWorkers(int n) {
      return new Options(n, maxAttempts, initialBackoff, maxBackoff, callTimeout, closeTimeout, lockWait);
    }

    public Options withRetries(int attempts, Duration initial, Duration max) {
      return new Options(bindWorkers, attempts, initial, max, callTimeout, closeTimeout, lockWait);
    }

    public Options withTimeouts(Duration call, Duration close) {
      return new Options(bindWorkers, maxAttempts, initialBackoff, maxBackoff, call, close, lockWait);
    }

    public Options withLockWait(Duration wait) {
      return new Options(bindWorkers, maxAttempts, initialBackoff, maxBackoff, callTimeout, closeTimeout, wait);
    }
  }

  /** Totals since start, for metrics. {@code bindFailures} includes {@code lostRaces}. */
  public record Counters(long bindsOk, long bindFailures, long lostRaces, long evictionsOk, long evictionsFailed,
      long retries) {}

  private final BindCalls calls;
  private final BindRetry retry;
  private final PreBindSteps steps;
  private final Duration lockWait;
  private final Duration closeTimeout;
  private final ScheduledThreadPoolExecutor pool;
  private final Set<String> binding = ConcurrentHashMap.newKeySet();
  private final Set<String> evicting = ConcurrentHashMap.newKeySet();
  private final AtomicLong bindsOk = new AtomicLong();
  private final AtomicLong bindFailures = new AtomicLong();
  private final AtomicLong lostRaces = new AtomicLong();
  private final AtomicLong evictionsOk = new AtomicLong();
  private final AtomicLong evictionsFailed = new AtomicLong();
  private final AtomicLong retries = new AtomicLong();
  private final Object idle = new Object();
  private int outstanding;
  private volatile boolean closed;
  private volatile boolean aborted;

  public KubeBinder(ApiClient client) {
    this(client, Options.defaults());
  }

  public KubeBinder(ApiClient client, Options options) {
    this(client, options, DeviceSteps.all(Instant::now));
  }

  /** @param steps what runs before each bind and is undone when it fails (the device protocols' by default) */
  public KubeBinder(ApiClient client, Options options, PreBindSteps steps) {
    this.calls = new BindCalls(client, options.callTimeout());
    this.retry = new BindRetry(options.maxAttempts(), options.initialBackoff(), options.maxBackoff());
    this.steps = steps;
    this.lockWait = options.lockWait();
    this.closeTimeout = options.closeTimeout();
    AtomicInteger seq = new AtomicInteger();
    this.pool = new ScheduledThreadPoolExecutor(options.bindWorkers(), r -> {
      Thread t = new Thread(r, "basalt-bind-" + seq.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  @Override
  public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
    if (closed) {
      LOG.log(System.Logger.Level.WARNING, "binder closed: " + bindings.size() + " binding(s) dropped");
      bindings.forEach(b -> outcomes.notBound(b.pod().uid(), false));
      return;
    }
    List<BindTask> tasks = new ArrayList<>();
    for (SessionResult.Binding b : bindings) {
      String uid = b.pod().uid();
      if (b.pod().isGated()) {
        // Sessions never place a gated pod and gates are never added back; the API server would answer 409.
        LOG.log(System.Logger.Level.WARNING, "pod " + b.pod().key() + ": has scheduling gates, not bound");
        outcomes.notBound(uid, false);
        continue;
      }
      if (!binding.add(uid)) {
        LOG.log(System.Logger.Level.DEBUG, "pod " + b.pod().key() + ": bind already in flight, ignored");
        outcomes.notBound(uid, false);
        continue;
      }
      tasks.add(new BindTask(this, b, outcomes));
    }
    Map<String, BindGang> gangs = gangs(tasks);
    // a gang reserves its claims before any member binds
    steps.batch(bindings, tasks.stream().map(BindTask::uid).collect(java.util.stream.Collectors.toSet()));
    for (BindTask t : tasks) {
      String group = t.pod().groupName();
      t.gang(group == null ? BindGang.NONE : gangs.get(gangKey(t.pod())));
      submit(t);
    }
  }

  @Override
  public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {
    if (closed) {
      LOG.log(System.Logger.Level.WARNING, "binder closed: " + evictions.size() + " eviction(s) dropped");
      evictions.forEach(e -> outcomes.notEvicted(e.pod().uid()));
      return;
    }
    for (SessionResult.Eviction e : evictions) {
      String uid = e.pod().uid();
      if (!evicting.add(uid)) {
        outcomes.notEvicted(uid);
        continue;
      }
      submit(new EvictTask(this, e, outcomes));
    }
  }

  /** Waits until no bind or eviction is in flight; false on timeout. */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (idle) {
      while (outstanding > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(idle, left);
      }
      return true;
    }
  }

  /** Whether a bind for pod {@code uid} is in flight (its cache entry is our assumption, not yet confirmed). */
  public boolean bindInFlight(String uid) {
    return binding.contains(uid);
  }

  public Counters counters() {
    return new Counters(bindsOk.get(), bindFailures.get(), lostRaces.get(), evictionsOk.get(), evictionsFailed.get(),
        retries.get());
  }

  /**
   * Stops at once: no new work, queued calls and waiting retries dropped (a call already on the wire still lands).
   * For a leader that lost its Lease: from now on the new leader decides, and binds it cannot see must not follow.
   */
  public void abort() {
    closed = true;
    aborted = true;
    int dropped = pool.shutdownNow().size();
    LOG.log(System.Logger.Level.WARNING, "binder aborted: " + dropped + " queued bind/evict call(s) dropped");
  }

  /**
   * Stops taking work, lets in-flight calls (and their retries) finish within the close timeout, then stops the
   * pool. Work still unfinished then is abandoned: its cache assumptions stay, which no longer matters on shutdown.
   */
  @Override
  public void close() throws InterruptedException {
    if (aborted) {
      return;
    }
    closed = true;
    boolean finished = awaitIdle(closeTimeout);
    pool.shutdownNow();
    pool.awaitTermination(5, TimeUnit.SECONDS);
    if (!finished) {
      synchronized (idle) {
        LOG.log(System.Logger.Level.WARNING, "binder closed with " + outstanding + " call(s) unfinished");
      }
    }
  }

  // ---- for the ops ------------------------------------------------------------------------------------------------

  BindCalls calls() {
    return calls;
  }

  BindRetry retry() {
    return retry;
  }

  /** The pre-bind steps each bind runs (the device protocols' writes, e.g. HAMi's node lock). */
  PreBindSteps steps() {
    return steps;
  }

  Duration lockWait() {
    return lockWait;
  }

  /** Runs {@code op} again after {@code delay}; if the pool is gone, the op fails for good. */
  void later(BindOp op, Duration delay, int code) {
    retries.incrementAndGet();
    LOG.log(System.Logger.Level.DEBUG, () -> "pod uid " + op.uid() + ": HTTP " + code + ", retry in " + delay);
    try {
      pool.schedule(op, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      op.failed("binder shut down");
    }
  }

  void finished(BindOp op) {
    (op instanceof BindTask ? binding : evicting).remove(op.uid());
    synchronized (idle) {
      if (--outstanding == 0) {
        idle.notifyAll();
      }
    }
  }

  private volatile BiConsumer<Pod, String> onBound = (pod, node) -> { };

  /** Told of every pod that is bound for sure (after the API answered), e.g. to record a Scheduled event. */
  public void onBound(BiConsumer<Pod, String> listener) {
    this.onBound = listener;
  }

  void notifyBound(Pod pod, String node) {
    try {
      onBound.accept(pod, node);
    } catch (RuntimeException e) {
      System.getLogger(KubeBinder.class.getName()).log(System.Logger.Level.WARNING, "bound-listener failed", e);
    }
  }

  /** Told when a bind starts waiting on a pre-bind step (another pod holds HAMi's node lock): who, where, why. */
  @FunctionalInterface
  public interface WaitListener {
    void waiting(Pod pod, String node, String why);
  }

  private volatile WaitListener onWaiting = (pod, node, why) -> { };

  /** Told once per bind that starts waiting on a pre-bind step, e.g. to give the pod a condition and an event. */
  public void onWaiting(WaitListener listener) {
    this.onWaiting = listener;
  }

  void notifyWaiting(Pod pod, String node, String why) {
    try {
      onWaiting.waiting(pod, node, why);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "wait-listener failed", e);
    }
  }

  /** A duration as people write it in a log line ("30s", "1.5s"), not ISO-8601's "PT30S". */
  static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros()
        .toPlainString() + "s";
  }

  void countBind(boolean ok) {
    (ok ? bindsOk : bindFailures).incrementAndGet();
  }

  void countLostRace() {
    lostRaces.incrementAndGet();
  }

  void countEviction(boolean ok) {
    (ok ? evictionsOk : evictionsFailed).incrementAndGet();
  }

  /** A reply for a log line: the code and the start of the body. */
  static String brief(ApiReply r) {
    String body = r.body() == null ? "" : r.body().replaceAll("\\s+", " ");
    return (r.code() == 0 ? "no answer" : "HTTP " + r.code()) + (body.isEmpty() ? ""
        : ": " + (body.length() > 300 ? body.substring(0, 300) + "..." : body));
  }

  private void submit(BindOp op) {
    synchronized (idle) {
      outstanding++;
    }
    try {
      pool.execute(op);
    } catch (RejectedExecutionException e) {
      op.failed("binder shut down");
    }
  }

  private static String gangKey(Pod pod) {
    return pod.namespace() + "/" + pod.groupName();
  }

  /** The gangs among the pods actually sent, with their member counts. */
  private static Map<String, BindGang> gangs(List<BindTask> tasks) {
    Map<String, Integer> members = new HashMap<>();
    for (BindTask t : tasks) {
      if (t.pod().groupName() != null) {
        members.merge(gangKey(t.pod()), 1, Integer::sum);
      }
    }
    Map<String, BindGang> gangs = new HashMap<>();
    members.forEach((k, n) -> gangs.put(k, new BindGang(k, n)));
    return gangs;
  }
}
