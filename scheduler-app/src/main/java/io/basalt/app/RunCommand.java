package io.basalt.app;

import io.basalt.app.cli.DeviceProtocolConverter;
import io.basalt.app.cli.DurationConverter;
import io.basalt.app.cli.KubeClients;
import io.basalt.app.logging.LogOptions;
import io.basalt.cache.ClusterCache;
import io.basalt.config.ConfigException;
import io.basalt.framework.PluginRegistry;
import io.basalt.gpu.protocol.DeviceProtocols;
import io.basalt.kube.live.InformerSource;
import io.basalt.kube.live.KubeBinder;
import io.basalt.kube.live.PodGroupCreator;
import io.basalt.kube.live.StatusWriter;
import io.basalt.scheduler.Binder;
import io.basalt.scheduler.Scheduler;
import io.basalt.scheduler.VgpuSlotCheck;
import io.basalt.scheduler.SchedulingLoop;
import io.basalt.scheduler.StatusSink;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.OkHttpClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code basalt run}: joins a cluster as a secondary scheduler. Informers keep the cache current, the scheduling
 * loop runs every period (only on the leader with {@code --leader-elect}), bindings and status go out through the
 * API, and SIGTERM stops taking work, finishes in-flight binds and releases the lease.
 *
 * <p>{@code /metrics} serves Prometheus metrics ({@link SchedulerMetrics}) beside {@code /healthz} and
 * {@code /readyz}.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Schedule the pods of a Kubernetes cluster that name this scheduler.")
final class RunCommand implements Callable<Integer> {
  private static final System.Logger LOG = System.getLogger(RunCommand.class.getName());

  @picocli.CommandLine.Mixin
  LogOptions logging = new LogOptions();

  @picocli.CommandLine.Mixin
  LiveTopologyOptions topology = new LiveTopologyOptions();

  @Option(names = "--kubeconfig", description = "Default: in-cluster, else $KUBECONFIG, else ~/.kube/config.")
  Path kubeconfig;

  @Option(names = "--scheduler-name", split = ",", defaultValue = "basalt-scheduler",
      description = "Pods naming one of these are scheduled (repeatable or comma list; default: ${DEFAULT-VALUE}).")
  List<String> schedulerNames;

  @Option(names = "--config-map", paramLabel = "NS/NAME",
      description = "ConfigMap holding volcano-scheduler.conf; edits take effect without a restart.")
  String configMap;

  @Option(names = "--config", description = "A volcano-scheduler.conf file, re-read for edits (default: Volcano's "
      + "default tiers).")
  Path config;

  @Option(names = "--schedule-period", defaultValue = "1s", converter = DurationConverter.class,
      description = "Time between scheduling cycles (default: ${DEFAULT-VALUE}).")
  Duration schedulePeriod;

  @Option(names = "--leader-elect", description = "Schedule only while holding the Lease.")
  boolean leaderElect;

  @Option(names = "--lease-namespace", defaultValue = "kube-system",
      description = "Namespace of the leader-election Lease (default: ${DEFAULT-VALUE}).")
  String leaseNamespace;

  @Option(names = "--lease-name", defaultValue = "basalt-scheduler",
      description = "Name of the leader-election Lease (default: ${DEFAULT-VALUE}).")
  String leaseName;

  @Option(names = "--lease-duration", defaultValue = "15s", converter = DurationConverter.class,
      description = "How long a standby waits before taking over a silent leader (default: ${DEFAULT-VALUE}).")
  Duration leaseDuration;

  @Option(names = "--renew-deadline", defaultValue = "10s", converter = DurationConverter.class,
      description = "How long the leader keeps trying to renew before it gives up and exits "
          + "(default: ${DEFAULT-VALUE}; less than --lease-duration).")
  Duration renewDeadline;

  @Option(names = "--retry-period", defaultValue = "2s", converter = DurationConverter.class,
      description = "Time between tries to take or renew the Lease (default: ${DEFAULT-VALUE}).")
  Duration retryPeriod;

  @Option(names = "--kube-api-qps", defaultValue = "500",
      description = "Requests per second to the API server, per client (default: ${DEFAULT-VALUE}).")
  double qps;

  @Option(names = "--kube-api-burst", defaultValue = "1000",
      description = "Requests allowed at once above --kube-api-qps (default: ${DEFAULT-VALUE}).")
  int burst;

  @Option(names = "--metrics-addr", defaultValue = ":8080",
      description = "Address of /metrics, /healthz and /readyz (default: ${DEFAULT-VALUE}).")
  String metricsAddr;

  /** Who reads the probes' detail: loopback callers, or every caller. */
  enum HealthDetail { local, all }

  @Option(names = "--health-detail", defaultValue = "local",
      description = "Who reads why /readyz and /healthz fail and which config is in force: local (loopback callers, "
          + "as kubectl exec) or all; others read only ok / not ready (default: ${DEFAULT-VALUE}).")
  HealthDetail healthDetail;

  @Option(names = "--default-queue", defaultValue = "default",
      description = "Queue of PodGroups and pods that name none (default: ${DEFAULT-VALUE}).")
  String defaultQueue;

  @Option(names = "--bind-workers", defaultValue = "64",
      description = "Binding and eviction calls in flight at once (default: ${DEFAULT-VALUE}).")
  int bindWorkers;

  @Option(names = "--device-protocol", defaultValue = "auto", converter = DeviceProtocolConverter.class,
      description = "How nodes are told the GPUs chosen: hami (HAMi's device-plugin annotations and node lock), "
          + "basalt (basalt.io/gpu-devices only) or auto: hami on nodes with HAMi's inventory (default: "
          + "${DEFAULT-VALUE}; per resource in the config's deviceProtocol configuration).")
  DeviceProtocols deviceProtocol;

  @Option(names = "--create-podgroups",
      description = "Write a Volcano PodGroup object for each gang inferred from a Job, JobSet, Kubeflow job, "
          + "LeaderWorkerSet or Kueue pod group (owned by the workload); default: inferred gangs are reported on "
          + "their pods only.")
  boolean createPodGroups;

  @Option(names = "--informer-sync-timeout", defaultValue = "60s", converter = DurationConverter.class,
      description = "How long start-up waits for the informers' first LISTs before it gives up and exits; a large "
          + "cluster needs longer (default: ${DEFAULT-VALUE}).")
  Duration informerSyncTimeout;

  @Option(names = "--list-page-size", defaultValue = "500",
      description = "Objects per page of the informers' LISTs; 0 asks for each kind in one response "
          + "(default: ${DEFAULT-VALUE}).")
  int listPageSize;

  @Option(names = "--kueue", defaultValue = "alongside", paramLabel = "MODE",
      description = "Kueue's ClusterQueues and Kueue-labelled Jobs: alongside (Kueue admits and unsuspends; Basalt "
          + "starts each admitted Job whole and never touches Jobs) or instead (no Kueue runs: Basalt admits each "
          + "suspended Job whose LocalQueue maps to a ClusterQueue by its quota and flavors, and unsuspends it; "
          + "needs patch on Jobs) (default: ${DEFAULT-VALUE}; see docs/KUEUE.md).")
  String kueue;

  @Override
  public Integer call() throws Exception {
    List<String> problems = flagProblems();
    if (!problems.isEmpty()) {
      problems.forEach(p -> System.err.println("basalt run: " + p));
      return 2;
    }
    logging.install();
    // Watches stay open (no read timeout); every other call has one, so a half-open connection cannot hang a
    // writer; events get a client and a rate limit of their own, as in kube-scheduler.
    ApiClient client;
    ApiClient calls;
    ApiClient eventCalls;
    try {
      client = client(Duration.ZERO);
      calls = client(CALL_TIMEOUT);
      eventCalls = client(CALL_TIMEOUT);
    } catch (IOException e) {
      System.err.println("basalt run: " + e.getMessage());
      return 2;
    }
    // The elector bounds its own calls (--renew-deadline); a call timeout here would interrupt a renewal the server
    // already applied, and the release that follows would then fail on a stale resourceVersion.
    LeaderElection elector = leaderElect ? new LeaderElection(client, leaseNamespace, leaseName, leaseDuration,
        renewDeadline, retryPeriod, fenceClock) : null;
    if (elector != null) {
      // Every write but events is fenced where it is sent, before anything uses this client.
      calls.setHttpClient(calls.getHttpClient().newBuilder().addInterceptor(new FencedWrites(elector.fence()))
          .build());
    }
    PluginRegistry plugins = PluginRegistry.load();
    RunConfig profile;
    try {
      profile = RunConfig.open(configMap, config, client, calls, plugins);
    } catch (ConfigException e) {
      e.problems().forEach(System.err::println);
      return 2;
    }
    ClusterCache cache = this.cache = new ClusterCache(new LinkedHashSet<>(schedulerNames), defaultQueue);
    cache.setDeviceProtocol(deviceProtocol);
    io.basalt.kube.kueue.KueueLive kueueState = new io.basalt.kube.kueue.KueueLive();
    InformerSource source = new InformerSource(client).topology(topology.feed()).listPageSize(listPageSize)
        .kueue(kueueState);
    SchedulerMetrics metrics = new SchedulerMetrics();
    // Liveness: a cycle running, or cycles failing, far longer than any cycle should take; a standby never runs
    // cycles and stays healthy.
    Duration stuck = Duration.ofMinutes(2).compareTo(schedulePeriod.multipliedBy(20)) > 0 ? Duration.ofMinutes(2)
        : schedulePeriod.multipliedBy(20);
    metrics.watchConfig(() -> profile.state().valid());
    metrics.watchInformers(source::relists);
    SchedulerProbes probes = new SchedulerProbes(source::hasSynced, () -> profile.state().describe(),
        () -> SchedulerProbes.LoopState.of(this.loop), stuck);
    HealthServer health = new HealthServer(metricsAddr, probes, metrics,
        healthDetail == HealthDetail.all ? HealthServer.EVERYONE : HealthServer.LOCAL);
    healthServer = health;
    KubeBinder binder = new KubeBinder(calls, KubeBinder.Options.defaults().withBindWorkers(bindWorkers),
        io.basalt.kube.devices.DeviceSteps.all(java.time.Instant::now)
            .after(io.basalt.kube.volumes.VolumeBindStep.live(cache)));
    source.start(cache, informerSyncTimeout);
    // --kueue instead: admission runs beside the loop, and like it only on the leader.
    io.basalt.kube.kueue.KueueController kueueAdmission =
        io.basalt.kube.kueue.KueueMode.parse(kueue) == io.basalt.kube.kueue.KueueMode.INSTEAD
        ? io.basalt.kube.kueue.KueueController.live(kueueState, cache, calls) : null;
    // Status goes only onto PodGroup objects the cache holds: a deleted Job's group has none while its pods terminate.
    StatusWriter status = new StatusWriter(calls, eventCalls).podGroupObjects(key -> {
      io.basalt.model.PodGroup pg = cache.podGroup(key);
      return pg == null || pg.inferred() ? null : pg;
    });
    binder.onWaiting(status::waitingToBind);
    metrics.watchBinder(binder::counters);
    metrics.watchEvents(status::eventsDropped);
    binder.onBound((pod, node) -> {
      status.bound(pod, node);
      metrics.bound(pod);
    });
    PodGroupCreator creator = createPodGroups ? new PodGroupCreator(calls, cache::podGroup) : null;
    StatusSink sink = creator == null ? status : result -> {
      status.update(result);
      creator.update(result);
    };
    // A leader binds only while its last Lease renewal is recent: one paused past its Lease never binds.
    Binder binds = bindTap.apply(elector == null ? binder : new FencedBinder(binder, elector.fence()));
    SchedulingLoop loop = this.loop = new SchedulingLoop(
        new Scheduler(cache, VgpuSlotCheck.watching(profile, cache, LOG), binds, sink).observedBy(metrics),
        schedulePeriod);
    CountDownLatch stopped = new CountDownLatch(1);
    CountDownLatch loopDone = new CountDownLatch(1);
    AtomicBoolean loopStarted = new AtomicBoolean();
    AtomicBoolean crashed = new AtomicBoolean();
    Runnable schedule = () -> {
      loopStarted.set(true);
      if (kueueAdmission != null) {
        kueueAdmission.start(schedulePeriod);
      }
      try {
        loop.run();
      } catch (Throwable t) {
        // An Error (a plugin's StackOverflowError, OOM) ends the loop: exit so Kubernetes restarts the process and a
        // standby takes the Lease, rather than hold it while scheduling nothing.
        LOG.log(System.Logger.Level.ERROR, "scheduling loop died; shutting down", t);
        crashed.set(true);
        new Thread(this::stop, "basalt-crash-stop").start();
      } finally {
        if (kueueAdmission != null) {
          kueueAdmission.close();
        }
        loopDone.countDown();
      }
    };
    boolean[] lostLease = {false};
    // SIGTERM: finish the cycle, then the binds and status writes it started, and only then give up the Lease, so a
    // standby never decides about nodes while binds it cannot see are still landing.
    shutdown = () -> {
      LOG.log(System.Logger.Level.INFO, "stopping: finishing the cycle and in-flight binds, then releasing the lease");
      loop.stop();
      try {
        if (loopStarted.get()) {
          loopDone.await(30, TimeUnit.SECONDS);
        }
        binder.close();
        status.close();
        if (creator != null) {
          creator.close();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (elector != null) {
        elector.close();
        if (!loopStarted.get()) {
          // A standby waits for the Lease on the thread that called run(); closing the elector does not wake it.
          Thread waiting = electorThread;
          if (waiting != null) {
            waiting.interrupt();
          }
        }
      }
      try {
        stopped.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      source.close();
      profile.close();
      health.close();
      LOG.log(System.Logger.Level.INFO, "stopped");
    };
    // Until the stop has said its last line ("Lease released"), the JDK's shutdown hook leaves the handlers alone.
    logHold = io.basalt.app.logging.ShutdownLogManager.holdReset();
    Thread hook = new Thread(this::stop, "basalt-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    running.countDown();
    try {
      if (elector == null) {
        schedule.run();
      } else {
        // Like kube-scheduler: a leader that loses its lease stops and exits, and Kubernetes restarts it as a
        // standby; nothing it half-decided is bound after that.
        // Releasing the lease on SIGTERM also ends leadership: that is a clean stop, not a lost lease.
        electorThread = Thread.currentThread();
        elector.run(schedule, () -> {
          lostLease[0] = !stopping.get();
          if (lostLease[0]) {
            LOG.log(System.Logger.Level.ERROR, elector.lostMessage());
          }
          loop.stop();
          if (lostLease[0]) {
            binder.abort();
          }
        });
      }
    } finally {
      stopped.countDown();
    }
    return lostLease[0] || crashed.get() ? 1 : 0;
  }

  /** Flag values that cannot work, each named; checked before anything connects. */
  List<String> flagProblems() {
    List<String> problems = new ArrayList<>();
    if (!(qps > 0)) {
      problems.add("--kube-api-qps must be above 0, got " + qps);
    }
    if (burst < 1) {
      problems.add("--kube-api-burst must be at least 1, got " + burst);
    }
    if (bindWorkers < 1) {
      problems.add("--bind-workers must be at least 1, got " + bindWorkers);
    }
    if (informerSyncTimeout.isNegative() || informerSyncTimeout.isZero()) {
      problems.add("--informer-sync-timeout must be positive, got " + informerSyncTimeout);
    }
    if (listPageSize < 0) {
      problems.add("--list-page-size must not be negative, got " + listPageSize);
    }
    if (schedulePeriod.isNegative() || schedulePeriod.isZero()) {
      problems.add("--schedule-period must be positive, got " + schedulePeriod);
    }
    if (!HealthServer.validAddress(metricsAddr)) {
      problems.add("--metrics-addr must be [HOST]:PORT, got '" + metricsAddr + "'");
    }
    problems.addAll(topology.problems());
    try {
      io.basalt.kube.kueue.KueueMode.parse(kueue);
    } catch (IllegalArgumentException e) {
      problems.add("--kueue: " + e.getMessage());
    }
    if (configMap != null && config != null) {
      problems.add("--config-map and --config both given: use one");
    }
    if (leaderElect && !(leaseDuration.compareTo(renewDeadline) > 0 && renewDeadline.compareTo(retryPeriod) > 0
        && !retryPeriod.isNegative() && !retryPeriod.isZero())) {
      problems.add("leader election needs --lease-duration > --renew-deadline > --retry-period > 0, got "
          + leaseDuration + " / " + renewDeadline + " / " + retryPeriod);
    }
    return problems;
  }

  private volatile Runnable shutdown;
  private final CountDownLatch running = new CountDownLatch(1);
  private final AtomicBoolean stopping = new AtomicBoolean();

  /**
   * What SIGTERM does: stop taking work, finish in-flight binds, release the lease. Safe to call twice: a second
   * caller (the JVM's shutdown hook after a crash stop began) waits for the first to finish rather than let the JVM
   * halt halfway.
   */
  void stop() {
    Runnable s = shutdown;
    if (s == null) {
      releaseLogs();
      return;
    }
    if (stopping.compareAndSet(false, true)) {
      try {
        s.run();
      } finally {
        stopDone.countDown();
        releaseLogs();
      }
    } else {
      try {
        stopDone.await(90, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private final CountDownLatch stopDone = new CountDownLatch(1);
  /** Holds the JDK's logging reset back at JVM shutdown until the stop has logged; null before the run starts. */
  private volatile AutoCloseable logHold;

  private void releaseLogs() {
    AutoCloseable hold = logHold;
    if (hold != null) {
      try {
        hold.close();
      } catch (Exception e) {
        // nothing to undo: closing a hold only counts it down
      }
    }
  }
  private volatile Thread electorThread;

  /** Waits until the command has started its loop (for tests). */
  boolean awaitRunning(Duration timeout) throws InterruptedException {
    return running.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The port /healthz and /readyz listen on. */
  int healthPort() {
    HealthServer h = healthServer;
    return h == null ? -1 : h.port();
  }

  /** The cache the informers fill, for tests; null before the run starts. */
  ClusterCache cache() {
    return cache;
  }

  private volatile ClusterCache cache;
  private volatile HealthServer healthServer;
  /** For the probes; null until the loop exists. */
  private volatile SchedulingLoop loop;

  /** The clock the bind fence reads; tests move it on to play a paused process (LeaderPauseSoakTest). */
  java.util.function.LongSupplier fenceClock = System::nanoTime;
  /** Wraps the binder the loop hands its batches to; tests pause there, between a decision and its binds. */
  java.util.function.UnaryOperator<Binder> bindTap = java.util.function.UnaryOperator.identity();

  /** Per-call limit for everything but watches. */
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  /**
   * A client for the cluster, throttled as client-go would (each client on its own), with HTTP/2 pings so a dead
   * connection is noticed; {@code timeout} zero for watches, which stay open.
   */
  private ApiClient client(Duration timeout) throws IOException {
    ApiClient client = KubeClients.connect(kubeconfig);
    OkHttpClient.Builder http = client.getHttpClient().newBuilder()
        .pingInterval(Duration.ofSeconds(30))
        .readTimeout(timeout)
        .addInterceptor(new ApiThrottle(qps, burst));
    if (!timeout.isZero()) {
      http.callTimeout(timeout);
    }
    client.setHttpClient(http.build());
    return client;
  }
}
