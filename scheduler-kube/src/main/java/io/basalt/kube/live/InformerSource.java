package io.basalt.kube.live;

import io.basalt.cache.ClusterCache;
import io.basalt.kube.KubeConverter;
import io.basalt.kube.gang.InferredGroups;
import io.basalt.kube.kinds.coscheduling.CoschedulingPodGroup;
import io.basalt.kube.kinds.volcano.HyperNode;
import io.basalt.kube.kinds.workload.OwnerWorkload;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1PodGroupList;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.basalt.kube.kinds.volcano.V1beta1QueueList;
import io.basalt.kube.kinds.CustomObjectList;
import io.basalt.model.Node;
import io.basalt.scheduler.ClusterSource;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.SchedulingV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobList;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1PriorityClassList;
import io.kubernetes.client.util.CallGenerator;
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
import java.util.function.Consumer;

/**
 * Live mode's {@link ClusterSource}: shared informers keep a {@link ClusterCache} current with the cluster, so each
 * cycle's snapshot is incremental and nothing is re-listed per cycle. Watched: every non-terminal pod (pods of other
 * schedulers count as used on their nodes; kube-scheduler's field selector), nodes, PriorityClasses, Volcano PodGroups
 * and Queues, for gangs without a PodGroup ({@link InferredGroups}) batch/v1 Jobs, coscheduling PodGroups and the owner
 * kinds of {@link OwnerKind#CUSTOM} (Kubeflow jobs, JobSets), and Volcano HyperNodes unless the {@link TopologyFeed}
 * reads the network fabric elsewhere. An object that does not convert is logged once and skipped; a custom kind whose
 * CRD is not installed (404 when {@link #start} probes it) is logged once and treated as empty, so the scheduler still
 * runs.
 */
public final class InformerSource implements ClusterSource, AutoCloseable {
  /** Non-terminal pods only: Succeeded and Failed pods hold no resources. Same selector as kube-scheduler. */
  public static final String NON_TERMINAL_PODS = "status.phase!=Succeeded,status.phase!=Failed";
  /** How long {@link #start(ClusterCache)} waits for the initial lists. */
  public static final Duration DEFAULT_SYNC_TIMEOUT = Duration.ofSeconds(60);

  private static final System.Logger LOG = System.getLogger(InformerSource.class.getName());

  private final ApiClient client;
  private final long resyncMillis;
  private final InformerProblems problems = new InformerProblems();
  private final Map<String, Watched<?>> informers = new LinkedHashMap<>();
  private final Map<String, String> lastListError = new ConcurrentHashMap<>();
  private SharedInformerFactory factory;
  private TopologyFeed topology = TopologyFeed.hyperNodes();
  private volatile boolean started;
  private volatile boolean stopped;

  /** A source without periodic resync (the informers' watches keep the cache current). */
  public InformerSource(ApiClient client) {
    this(client, Duration.ZERO);
  }

  /** @param resyncPeriod how often informers replay their store as updates; zero for never */
  public InformerSource(ApiClient client, Duration resyncPeriod) {
    if (resyncPeriod.isNegative()) {
      throw new IllegalArgumentException("resync period must not be negative: " + resyncPeriod);
    }
    this.client = client;
    this.resyncMillis = resyncPeriod.toMillis();
  }

  /** Where the network fabric comes from (default: HyperNodes); before {@link #start}. Stopped with this source. */
  public synchronized InformerSource topology(TopologyFeed feed) {
    if (started) {
      throw new IllegalStateException("topology must be set before start");
    }
    topology = feed;
    return this;
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
    CoreV1Api core = new CoreV1Api(client);
    SchedulingV1Api scheduling = new SchedulingV1Api(client);

    BatchV1Api batch = new BatchV1Api(client);
    boolean jobsServed = served("jobs", () -> batch.listJobForAllNamespaces().limit(1).execute());
    // Owners are probed first: a group of a watched owner kind waits for its owner, so only kinds served count.
    Set<String> awaited = new HashSet<>(jobsServed ? Set.of("Job") : Set.of());
    List<OwnerKind<?, ?>> owners = new ArrayList<>();
    for (OwnerKind<?, ?> k : OwnerKind.CUSTOM) {
      if (served(k.plural(), k.project(), k.api(client))) {
        owners.add(k);
        awaited.add(k.kind());
      }
    }
    InferredGroups inferred = new InferredGroups(cache, cache.defaultQueue(), awaited,
        w -> LOG.log(Level.WARNING, w));
    register("pods", V1Pod.class, V1PodList.class, p -> core.listPodForAllNamespaces()
        .fieldSelector(NON_TERMINAL_PODS).resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null),
        new InformerHandler<>("Pod", true, new InformerPodSink(cache, inferred), problems));
    if (jobsServed) {
      register("jobs", V1Job.class, V1JobList.class, p -> batch.listJobForAllNamespaces()
          .resourceVersion(p.resourceVersion).watch(p.watch).timeoutSeconds(p.timeoutSeconds)
          .allowWatchBookmarks(p.watch).buildCall(null),
          new InformerHandler<>("Job", true, new OwnerSink<>(KubeConverter::toOwner, inferred), problems));
    }
    owners.forEach(k -> watchOwner(k, inferred));
    register("nodes", V1Node.class, V1NodeList.class, p -> core.listNode().resourceVersion(p.resourceVersion)
        .watch(p.watch).timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null),
        new InformerHandler<>("Node", false, sink(o -> {
          Node n = KubeConverter.toNode(o);
          cache.putNode(n);
          topology.putNode(n);
        }, name -> {
          cache.removeNode(name);
          topology.removeNode(name);
        }), problems));
    register("priorityclasses", V1PriorityClass.class, V1PriorityClassList.class, p -> scheduling
        .listPriorityClass().resourceVersion(p.resourceVersion).watch(p.watch).timeoutSeconds(p.timeoutSeconds)
        .allowWatchBookmarks(p.watch).buildCall(null),
        new InformerHandler<>("PriorityClass", false, sink(o -> cache.putPriorityClass(
            KubeConverter.toPriorityClass(o)), cache::removePriorityClass), problems));
    registerCustom("podgroups", new GenericKubernetesApi<>(V1beta1PodGroup.class, V1beta1PodGroupList.class,
        V1beta1PodGroup.GROUP, V1beta1PodGroup.VERSION, V1beta1PodGroup.PLURAL, client), V1beta1PodGroup.class,
        new InformerHandler<>("PodGroup", true, sink(o -> cache.putPodGroup(KubeConverter.toPodGroup(o)),
            cache::removePodGroup), problems));
    registerCustom("queues", new GenericKubernetesApi<>(V1beta1Queue.class, V1beta1QueueList.class,
        V1beta1Queue.GROUP, V1beta1Queue.VERSION, V1beta1Queue.PLURAL, client), V1beta1Queue.class,
        new InformerHandler<>("Queue", false, sink(o -> {
          cache.putQueue(KubeConverter.toQueue(o));
          inferred.queuesChanged();
        }, name -> {
          cache.removeQueue(name);
          inferred.queuesChanged();
        }), problems));
    registerCustom("coscheduling podgroups", new GenericKubernetesApi<>(CoschedulingPodGroup.class,
        CoschedulingPodGroup.List.class, CoschedulingPodGroup.GROUP, CoschedulingPodGroup.VERSION,
        CoschedulingPodGroup.PLURAL, client), CoschedulingPodGroup.class,
        new InformerHandler<>("PodGroup", true, sink(o -> inferred.putCoscheduling(
            KubeConverter.toCoschedulingGroup(o)), inferred::removeCoscheduling), problems));
    if (topology.watchesHyperNodes()) {
      registerCustom("hypernodes", new GenericKubernetesApi<>(HyperNode.class, HyperNode.List.class, HyperNode.GROUP,
          HyperNode.VERSION, HyperNode.PLURAL, client), HyperNode.class,
          new InformerHandler<>("HyperNode", false, sink(topology::putHyperNode, topology::removeHyperNode), problems));
    }

    factory.startAllRegisteredInformers();
    awaitSynced(syncTimeout);
    topology.start(cache);
  }

  /** True once every informer has listed; false before {@link #start} and after {@link #stop}. For readiness. */
  public boolean hasSynced() {
    if (!started || stopped) {
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

  private <T extends KubernetesObject, L extends KubernetesListObject> void register(String name, Class<T> type,
      Class<L> listType, CallGenerator calls, InformerHandler<T> handler) {
    SharedIndexInformer<T> informer = factory.sharedIndexInformerFor(calls, type, listType, resyncMillis,
        (cls, error) -> listWatchFailed(name, error));
    add(name, informer, handler);
  }

  private <T extends KubernetesObject, L extends KubernetesListObject> void registerCustom(String name,
      GenericKubernetesApi<T, L> api, Class<T> type, InformerHandler<T> handler) {
    if (!served(name, name.startsWith("coscheduling") ? "scheduler-plugins'" : "Volcano", api)) {
      return;
    }
    SharedIndexInformer<T> informer = factory.sharedIndexInformerFor(api, type, resyncMillis, "",
        (cls, error) -> listWatchFailed(name, error));
    add(name, informer, handler);
  }

  /** One owner kind, already found served, into gang inference. */
  private <T extends OwnerWorkload<T>, L extends CustomObjectList<T>> void watchOwner(OwnerKind<T, L> kind,
      InferredGroups inferred) {
    add(kind.plural(), factory.sharedIndexInformerFor(kind.api(client), kind.type(), resyncMillis, "",
        (cls, error) -> listWatchFailed(kind.plural(), error)), new InformerHandler<>(kind.kind(), true,
        new OwnerSink<T>(o -> KubeConverter.toOwner(kind.kind(), o.getMetadata()), inferred), problems));
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
   * False when listing the custom resource answers 404: its CRD is not installed (Volcano, or {@code project}, absent).
   * Any other failure counts as served; the informer then retries its list and {@link #start} reports it if it never
   * syncs. Installing the CRD later needs a restart to be seen.
   */
  private boolean served(String name, String project, GenericKubernetesApi<?, ?> api) {
    ListOptions one = new ListOptions();
    one.setLimit(1);
    try {
      KubernetesApiResponse<?> r = api.list(one);
      if (r.getHttpStatusCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        problems.note(name, project + " " + name + " not served (404): CRD not installed? Treating " + name
            + " as empty; restart after installing the CRD.");
        return false;
      }
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "Probing " + name + " failed; starting its informer anyway", e);
    }
    return true;
  }

  /**
   * False when listing a built-in kind Basalt can do without answers 403 (RBAC does not grant it, e.g. an older chart)
   * or 404: logged once, and gangs are then inferred without reading that kind.
   */
  private boolean served(String name, ApiProbe probe) {
    try {
      probe.list();
    } catch (ApiException e) {
      if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN || e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        problems.note(name, "cannot list " + name + " (HTTP " + e.getCode() + "): gangs are inferred without reading "
            + name + "; grant list/watch on " + name + " (see the Helm chart's ClusterRole)");
        return false;
      }
      LOG.log(Level.DEBUG, "Probing " + name + " failed; starting its informer anyway", e);
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "Probing " + name + " failed; starting its informer anyway", e);
    }
    return true;
  }

  /** One list call, for {@link #served(String, ApiProbe)}. */
  private interface ApiProbe {
    void list() throws ApiException;
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

  /** A sink for kinds keyed the same way by informer and cache. */
  private static <T> InformerHandler.Sink<T> sink(Consumer<T> put,
      Consumer<String> remove) {
    return new InformerHandler.Sink<>() {
      @Override
      public void put(T obj) {
        put.accept(obj);
      }

      @Override
      public void remove(T obj, String key) {
        remove.accept(key);
      }
    };
  }
}
