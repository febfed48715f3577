package io.basalt.kube.live;

import io.basalt.cache.ClusterCache;
import io.basalt.kube.Kinds;
import io.basalt.kube.gang.InferredGroups;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.core.PodKind;
import io.basalt.scheduler.ClusterSource;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.options.ListOptions;
import java.lang.System.Logger.Level;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * Live mode's {@link ClusterSource}: shared informers keep a {@link ClusterCache} current with the cluster, so each
 * cycle's snapshot is incremental and nothing is re-listed per cycle. One informer per kind of its {@link Kinds}
 * registry that live mode watches ({@link KindAdapter#watch}): every non-terminal pod (pods of other schedulers count
 * as used on their nodes), nodes, PriorityClasses, Volcano PodGroups and Queues, for gangs without a PodGroup
 * ({@link InferredGroups}) batch/v1 Jobs, coscheduling PodGroups, Kubeflow jobs and JobSets, and Volcano HyperNodes
 * unless the {@link TopologyFeed} reads the network fabric elsewhere. Each event goes through its kind's adapter to
 * {@link CacheRecords}. An object that does not convert is logged once and skipped; a custom kind whose CRD is not
 * installed (404 when {@link #start} probes it) is logged once and treated as empty, so the scheduler still runs.
 */
public final class InformerSource implements ClusterSource, AutoCloseable {
  /** Non-terminal pods only: Succeeded and Failed pods hold no resources. Same selector as kube-scheduler. */
  public static final String NON_TERMINAL_PODS = PodKind.NON_TERMINAL;
  /** How long {@link #start(ClusterCache)} waits for the initial lists. */
  public static final Duration DEFAULT_SYNC_TIMEOUT = Duration.ofSeconds(60);

  private static final System.Logger LOG = System.getLogger(InformerSource.class.getName());

  private final ApiClient client;
  private final long resyncMillis;
  private final Kinds kinds;
  private final InformerProblems problems = new InformerProblems();
  private final Relists relists = new Relists();
  private int pageSize = ListWatch.DEFAULT_PAGE_SIZE;
  private LeanObjects lean = LeanObjects.lean();
  private final Map<String, Watched<?>> informers = new LinkedHashMap<>();
  private final Map<String, String> lastListError = new ConcurrentHashMap<>();
  private SharedInformerFactory factory;
  private TopologyFeed topology = TopologyFeed.hyperNodes();
  private io.basalt.kube.kueue.KueueLive kueue = new io.basalt.kube.kueue.KueueLive();
  private volatile boolean started;
  /** Every informer registered: until then {@link #hasSynced} is false whatever the informers say. */
  private volatile boolean registered;
  private volatile boolean stopped;

  /** A source without periodic resync (the informers' watches keep the cache current). */
  public InformerSource(ApiClient client) {
    this(client, Duration.ZERO);
  }

  /** @param resyncPeriod how often informers replay their store as updates; zero for never */
  public InformerSource(ApiClient client, Duration resyncPeriod) {
    this(client, resyncPeriod, Kinds.builtin());
  }

  /** @param kinds the kinds to watch (those whose {@link KindAdapter#watch} is not NEVER) */
  public InformerSource(ApiClient client, Duration resyncPeriod, Kinds kinds) {
    if (resyncPeriod.isNegative()) {
      throw new IllegalArgumentException("resync period must not be negative: " + resyncPeriod);
    }
    this.client = client;
    this.resyncMillis = resyncPeriod.toMillis();
    this.kinds = kinds;
  }

  /** Where the network fabric comes from (default: HyperNodes); before {@link #start}. Stopped with this source. */
  public synchronized InformerSource topology(TopologyFeed feed) {
    if (started) {
      throw new IllegalStateException("topology must be set before start");
    }
    topology = feed;
    return this;
  }

  /**
   * Where Kueue's objects and Kueue-labelled Jobs go, for {@code --kueue instead}'s admission; before {@link #start}.
   */
  public synchronized InformerSource kueue(io.basalt.kube.kueue.KueueLive state) {
    if (started) {
      throw new IllegalStateException("the Kueue state must be set before start");
    }
    kueue = state;
    return this;
  }

  /**
   * Objects per LIST page (default {@value ListWatch#DEFAULT_PAGE_SIZE}); 0 asks for everything at once. Before
   * {@link #start}.
   */
  public synchronized InformerSource listPageSize(int objects) {
    if (started) {
      throw new IllegalStateException("the page size must be set before start");
    }
    if (objects < 0) {
      throw new IllegalArgumentException("page size must not be negative: " + objects);
    }
    pageSize = objects;
    return this;
  }

  /** Keeps every object whole instead of {@link LeanObjects lean}; for comparisons. Before {@link #start}. */
  synchronized InformerSource wholeObjects() {
    lean = LeanObjects.whole();
    return this;
  }

  /** One kind's full re-reads after its first LIST for one cause, as {@code basalt_informer_relists_total}. */
  public record Relist(String kind, String cause, long count) {}

  /** Every relist so far, by informer and cause. */
  public List<Relist> relists() {
    return relists.all();
  }

  /** {@link #start(ClusterCache, Duration)} with {@link #DEFAULT_SYNC_TIMEOUT}. */
  @Override
  public void start(ClusterCache cache) throws TimeoutException, InterruptedException {
    start(cache, DEFAULT_SYNC_TIMEOUT);
  }

  /**
   * Starts the informers and returns once every initial list is in {@code cache}.
   *
   * @throws TimeoutException naming the informers not synced after {@code syncTimeout}; they keep running (and
   *     {@link #hasSynced} may become true later), so the caller decides whether to wait on or {@link #stop}
   */
  public synchronized void start(ClusterCache cache, Duration syncTimeout)
      throws TimeoutException, InterruptedException {
    if (started) {
      throw new IllegalStateException("InformerSource already started");
    }
    started = true;
    factory = new SharedInformerFactory(client);
    // Every kind is probed before any informer starts: a group of an awaited owner kind waits for its owner, so
    // only owner kinds found served are awaited.
    List<KindAdapter<?>> watched = new ArrayList<>();
    Set<String> awaited = new HashSet<>();
    for (KindAdapter<?> kind : kinds.all()) {
      if (kind.watch() == KindAdapter.Watch.NEVER || kind.fabric() && !topology.watchesHyperNodes()) {
        continue;
      }
      if (served(kind)) {
        watched.add(kind);
        if (kind.awaitedOwner()) {
          awaited.add(kind.kind());
        }
      }
    }
    InferredGroups inferred = new InferredGroups(cache, cache.defaultQueue(), awaited,
        w -> LOG.log(Level.WARNING, w));
    CacheRecords records = new CacheRecords(cache, inferred, topology, kueue);
    for (KindAdapter<?> kind : watched) {
      watch(kind, records);
    }
    registered = true;

    factory.startAllRegisteredInformers();
    awaitSynced(syncTimeout);
    topology.start(cache);
  }

  /** True once every informer has listed; false before {@link #start} and after {@link #stop}. For readiness. */
  public boolean hasSynced() {
    if (!registered || stopped) {
      return false;
    }
    synchronized (informers) {
      return informers.values().stream().allMatch(Watched::synced);
    }
  }

  /** Stops every informer and its threads; the cache keeps what it has. Idempotent. */
  public synchronized void stop() {
    if (started && !stopped) {
      stopped = true;
      topology.close();
      factory.stopAllRegisteredInformers(true);
    }
  }

  @Override
  public void close() {
    stop();
  }

  /** Kinds not served, objects currently skipped and the network fabric's problems, one line each. */
  @Override
  public List<String> warnings() {
    List<String> all = problems.all();
    all.addAll(topology.problems());
    return all;
  }

  /** One kind's informer, listing and watching through {@link ListWatch}. */
  private <T extends KubernetesObject> void watch(KindAdapter<T> kind, CacheRecords records) {
    String name = kind.informerName();
    ListWatch<T> calls = ListWatch.of(client, kind, pageSize, lean, relists, problems);
    SharedIndexInformer<T> informer = factory.sharedIndexInformerFor(calls, kind.type(), resyncMillis,
        (cls, error) -> listWatchFailed(name, error));
    add(name, informer, new InformerHandler<>(kind, records, problems));
  }

  private <T extends KubernetesObject, L extends KubernetesListObject> GenericKubernetesApi<T, L> api(
      KindAdapter<T> kind, Class<L> listType) {
    return new GenericKubernetesApi<>(kind.type(), listType, kind.group(), kind.version(), kind.plural(), client);
  }

  private <T extends KubernetesObject> void add(String name, SharedIndexInformer<T> informer,
      InformerHandler<T> handler) {
    informer.addEventHandler(handler);
    synchronized (informers) {
      informers.put(name, new Watched<>(informer, handler));
    }
  }

  /** One kind's informer and the handler feeding the cache from it. */
  private record Watched<T extends KubernetesObject>(SharedIndexInformer<T> informer, InformerHandler<T> handler) {
    /** Listed, and the list delivered to the cache. */
    boolean synced() {
      return handler.caughtUp() || informer.hasSynced() && handler.caughtUp(informer.getIndexer().listKeys());
    }
  }

  /**
   * Whether live mode can watch {@code kind}. A custom resource is not served when listing it answers 404: its CRD is
   * not installed (Volcano, or the kind's project, absent). A built-in kind Basalt can do without is not when listing
   * answers 403 (RBAC does not grant it, e.g. an older chart) or 404. Either is logged once; any other failure counts
   * as served, the informer then retries its list and {@link #start} reports it if it never syncs. Installing the CRD
   * or granting the kind later needs a restart to be seen.
   */
  private boolean served(KindAdapter<?> kind) {
    if (kind.watch() == KindAdapter.Watch.ALWAYS) {
      return true;
    }
    String name = kind.informerName();
    ListOptions one = new ListOptions();
    one.setLimit(1);
    try {
      KubernetesApiResponse<?> r = api(kind, kind.listType()).list(one);
      int code = r.getHttpStatusCode();
      if (kind.watch() == KindAdapter.Watch.IF_SERVED && code == HttpURLConnection.HTTP_NOT_FOUND) {
        problems.note(name, kind.project() + " " + name + " not served (404): CRD not installed? Treating " + name
            + " as empty; restart after installing the CRD.");
        return false;
      }
      if (kind.watch() == KindAdapter.Watch.IF_LISTABLE
          && (code == HttpURLConnection.HTTP_FORBIDDEN || code == HttpURLConnection.HTTP_NOT_FOUND)) {
        problems.note(name, "cannot list " + name + " (HTTP " + code + "): "
            + (kind.awaitedOwner() ? "gangs are inferred without reading " : "running without ") + name
            + "; grant list/watch on " + name + " (see the Helm chart's ClusterRole)");
        return false;
      }
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "Probing " + name + " failed; starting its informer anyway", e);
    }
    return true;
  }

  /** List/watch failures (the reflector retries on its own); logged when they change, not at every retry. */
  private void listWatchFailed(String name, Throwable error) {
    if (stopped) {
      return;
    }
    String message = String.valueOf(error);
    if (!message.equals(lastListError.put(name, message))) {
      LOG.log(Level.WARNING, "List/watch of " + name + " failed (will retry): " + message);
    } else {
      LOG.log(Level.DEBUG, "List/watch of " + name + " failed again: {0}", message);
    }
  }

  private void awaitSynced(Duration timeout) throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<String> pending = new ArrayList<>();
      synchronized (informers) {
        informers.forEach((name, watched) -> {
          if (!watched.synced()) {
            pending.add(name);
          }
        });
      }
      if (pending.isEmpty()) {
        LOG.log(Level.INFO, "Informers synced: {0}", informers.keySet());
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new TimeoutException("informers not synced after " + timeout.toMillis() + " ms: " + pending
            + lastErrors(pending));
      }
      Thread.sleep(20);
    }
  }

  private String lastErrors(List<String> names) {
    StringBuilder sb = new StringBuilder();
    for (String n : names) {
      String e = lastListError.get(n);
      if (e != null) {
        sb.append("; ").append(n).append(": ").append(e);
      }
    }
    return sb.toString();
  }
}
