package io.basalt.kube.fake;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpServer;
import io.basalt.kube.fake.ObjectStore.WriteMode;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import okhttp3.OkHttpClient;

/**
 * An in-process Kubernetes API server for tests: the JDK's HTTP server on 127.0.0.1 at an ephemeral port, serving
 * the kinds in {@link Resources} with list (selectors, chunking), watch (streamed watch events, bookmarks, 410 for
 * a compacted resourceVersion), get/create/update/patch/delete, the status subresource, pods/binding and
 * pods/eviction, with real Status replies, fault injection (rules, or a seeded {@link FaultPlan} for soaks), a
 * request log and a ledger of bindings.
 *
 * <pre>{@code
 * try (FakeApiServer server = FakeApiServer.start()) {
 *   server.seed(new V1Node().metadata(new V1ObjectMeta().name("n1")));
 *   CoreV1Api core = new CoreV1Api(server.apiClient());
 *   ...
 *   server.faults().failNext(1, 500, "POST", ".*\\/binding");
 *   server.dropWatches();
 *   assertEquals(1, server.requests("POST", ".*\\/binding").size());
 * }
 * }</pre>
 */
public final class FakeApiServer implements AutoCloseable {
  private final HttpServer http;
  private final ExecutorService executor;
  private final WatchHub hub = new WatchHub();
  private final ObjectStore store;
  private final Faults faults = new Faults();
  private final BindLedger ledger = new BindLedger();
  private final List<RecordedRequest> log = Collections.synchronizedList(new ArrayList<>());
  private final ResourceOps ops;
  private final ScheduledExecutorService bookmarks;

  /** Options; the defaults suit most tests. */
  public static final class Builder {
    private boolean gracefulPodDeletion;
    private int historyLimit = 10_000;
    private Duration bookmarkEvery;

    private Builder() {
    }

    /**
     * Delete bound, running pods gracefully (deletionTimestamp set, the pod stays until deleted again with
     * gracePeriodSeconds=0, as a kubelet does) instead of at once. Default false.
     */
    public Builder gracefulPodDeletion(boolean graceful) {
      this.gracefulPodDeletion = graceful;
      return this;
    }

    /** How many writes stay in history for watches from an old resourceVersion (default 10,000). */
    public Builder historyLimit(int writes) {
      this.historyLimit = writes;
      return this;
    }

    /**
     * Sends a BOOKMARK every {@code period} to each watch that asked for them (a real server sends one about every
     * minute); default never, tests then call {@link FakeApiServer#sendBookmarks}.
     */
    public Builder bookmarkEvery(Duration period) {
      this.bookmarkEvery = period;
      return this;
    }

    public FakeApiServer start() {
      return new FakeApiServer(this);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts a server with default options. */
  public static FakeApiServer start() {
    return builder().start();
  }

  private FakeApiServer(Builder b) {
    this.store = new ObjectStore(hub, b.historyLimit, b.gracefulPodDeletion);
    AtomicInteger threads = new AtomicInteger();
    this.executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "fake-apiserver-" + threads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      this.http = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ResourceOps ops = this.ops = new ResourceOps(store, hub);
    http.createContext("/", new ApiHandler(ops, new PodSubresources(store, ops, ledger), faults, log,
        () -> "127.0.0.1:" + port()));
    http.setExecutor(executor);
    http.start();
    if (b.bookmarkEvery == null) {
      bookmarks = null;
    } else {
      bookmarks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fake-apiserver-bookmarks");
        t.setDaemon(true);
        return t;
      });
      long every = b.bookmarkEvery.toMillis();
      bookmarks.scheduleAtFixedRate(store::bookmark, every, every, TimeUnit.MILLISECONDS);
    }
  }

  public int port() {
    return http.getAddress().getPort();
  }

  /** {@code http://127.0.0.1:PORT}, the base path for clients. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port();
  }

  /**
   * A new client pointing at this server, without a read timeout (watches stay open) and with a 5 s connect
   * timeout. Each call returns a fresh client.
   */
  public ApiClient apiClient() {
    OkHttpClient http = new OkHttpClient.Builder().readTimeout(Duration.ZERO).connectTimeout(Duration.ofSeconds(5))
        .build();
    return new ApiClient(http).setBasePath(baseUrl());
  }

  /**
   * Writes a kubeconfig pointing at this server (no credentials: the fake checks none) into {@code dir} and returns
   * its path, for commands that take {@code --kubeconfig}.
   */
  public Path writeKubeconfig(Path dir) {
    try {
      Path file = Files.createTempFile(dir, "kubeconfig", "");
      Files.writeString(file, String.join("\n",
          "apiVersion: v1",
          "kind: Config",
          "clusters:",
          "- name: fake",
          "  cluster: {server: \"" + baseUrl() + "\"}",
          "users:",
          "- name: test",
          "  user: {}",
          "contexts:",
          "- name: fake",
          "  context: {cluster: fake, user: test}",
          "current-context: fake",
          ""));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- objects, written directly (no HTTP, no request log, no faults) ------------------------------------------

  /**
   * Stores an object as given, status included (unlike a client's create, which loses a pod's status); uid,
   * creationTimestamp and resourceVersion are filled in. The kind comes from apiVersion and kind.
   */
  public JsonObject seed(JsonObject obj) {
    return store.create(typeOf(obj), Json.namespace(obj), obj, true);
  }

  public JsonObject seed(String json) {
    return seed(Json.parseObject(json));
  }

  /** Seeds a client-java (or Volcano CRD) object and returns it as stored, with the same class. */
  @SuppressWarnings("unchecked")
  public <T extends KubernetesObject> T seed(T obj) {
    JsonObject json = Json.parseObject(JSON.serialize(obj));
    ResourceType type = typeOf(obj);
    json.addProperty("kind", type.kind());
    json.addProperty("apiVersion", type.apiVersion());
    JsonObject stored = store.create(type, Json.namespace(json), json, true);
    return (T) JSON.deserialize(Json.write(stored), obj.getClass());
  }

  /** The stored object, or null. */
  public JsonObject get(ResourceType type, String namespace, String name) {
    return store.find(type, namespace, name);
  }

  /** The stored object read as {@code as}, or null. */
  public <T> T get(ResourceType type, String namespace, String name, Class<T> as) {
    JsonObject o = get(type, namespace, name);
    return o == null ? null : JSON.deserialize(Json.write(o), as);
  }

  /** Objects of a kind in key order; {@code namespace} null or "" for all namespaces. */
  public List<JsonObject> list(ResourceType type, String namespace) {
    return store.list(type, namespace, o -> true, false, 0, null).items();
  }

  /**
   * A server-side change (a kubelet setting status.phase, a controller, ...): applies an RFC 7386 merge patch to
   * any part of the object, status and spec included, bumps the resourceVersion and notifies watches.
   */
  public JsonObject mergePatch(ResourceType type, String namespace, String name, String mergePatchJson) {
    JsonObject patch = Json.parseObject(mergePatchJson);
    return store.mutate(type, namespace, name, o -> Patches.mergePatch(o, patch).getAsJsonObject(),
        WriteMode.SYSTEM);
  }

  /** Replaces an existing object as given (all parts); a stale metadata.resourceVersion is a conflict. */
  public JsonObject update(JsonObject obj) {
    return store.update(typeOf(obj), Json.namespace(obj), Json.name(obj), obj, WriteMode.SYSTEM);
  }

  /** Deletes at once (grace period 0); returns false if it does not exist. Finalizers still hold it. */
  public boolean delete(ResourceType type, String namespace, String name) {
    if (store.find(type, namespace, name) == null) {
      return false;
    }
    store.delete(type, namespace, name, 0L, null, null);
    return true;
  }

  /** The current global resourceVersion. */
  public long resourceVersion() {
    return store.resourceVersion();
  }

  /**
   * Forgets the write history, as an etcd compaction does: a watch from any older resourceVersion gets a 410 Gone
   * (Expired) ERROR event, and old continue tokens a 410.
   */
  public void compactHistory() {
    store.compact();
  }

  // ---- watches ----------------------------------------------------------------------------------------------------

  public int openWatches() {
    return hub.size();
  }

  public int openWatches(ResourceType type) {
    return hub.size(type);
  }

  /** Polls until at least {@code atLeast} watches on {@code type} are open; false on timeout. */
  public boolean awaitOpenWatches(ResourceType type, int atLeast, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (hub.size(type) < atLeast) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  /** Breaks every open watch connection (no terminating chunk): clients see an I/O error, as on a network cut. */
  public int dropWatches() {
    return hub.terminateAll(true);
  }

  /** Ends every open watch cleanly, as the server does when timeoutSeconds runs out. */
  public int closeWatches() {
    return hub.terminateAll(false);
  }

  /** Sends a BOOKMARK at the current resourceVersion to every watch opened with allowWatchBookmarks=true. */
  public void sendBookmarks() {
    store.bookmark();
  }

  /**
   * While set, every list and watch is answered {@code 429 TooManyRequests} "storage is (re)initializing" with
   * Retry-After: 1, as a real server answers until its watch cache has synced (after a restart, or an etcd outage).
   */
  public void storageInitializing(boolean initializing) {
    ops.storageInitializing(initializing);
  }

  // ---- faults and request log -------------------------------------------------------------------------------------

  public Faults faults() {
    return faults;
  }

  /** Every binding applied, and every one refused because its pod was already on another node. */
  public BindLedger bindLedger() {
    return ledger;
  }

  /**
   * Runs {@code plan} from now on: its per-request faults, a cut of every open watch each
   * {@link FaultPlan.Mix#watchCutEvery}, and its outage (open watches cut as it begins). Closing the returned handle
   * stops every fault; the plan keeps its counts.
   */
  public AutoCloseable soak(FaultPlan plan) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fake-apiserver-faults");
      t.setDaemon(true);
      return t;
    });
    plan.start();
    faults.plan(plan);
    long every = plan.mix().watchCutEvery().toMillis();
    timer.scheduleAtFixedRate(() -> plan.watchCut(hub.terminateAll(true), true), every, every,
        TimeUnit.MILLISECONDS);
    timer.schedule(() -> plan.watchCut(hub.terminateAll(true), false), plan.mix().outageAfter().toMillis(),
        TimeUnit.MILLISECONDS);
    return () -> {
      plan.stop();
      timer.shutdownNow();
    };
  }

  /** Every request received so far, in arrival order. */
  public List<RecordedRequest> requests() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  /** Requests with {@code method} (null: any) whose path matches {@code pathRegex} as a whole. */
  public List<RecordedRequest> requests(String method, String pathRegex) {
    Pattern p = Pattern.compile(pathRegex);
    return requests().stream()
        .filter(r -> (method == null || method.equalsIgnoreCase(r.method())) && p.matcher(r.path()).matches())
        .toList();
  }

  public void clearRequests() {
    log.clear();
  }

  // ---- lifecycle --------------------------------------------------------------------------------------------------

  /** Breaks open watches and stops the server; idempotent. */
  @Override
  public void close() {
    if (bookmarks != null) {
      bookmarks.shutdownNow();
    }
    hub.terminateAll(true);
    http.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** From apiVersion and kind, else from the client-java class name (V1Pod, V1beta1PodGroup, CoreV1Event...). */
  private static ResourceType typeOf(KubernetesObject obj) {
    if (obj.getKind() != null && obj.getApiVersion() != null) {
      return Resources.forKind(obj.getApiVersion(), obj.getKind()).orElseThrow(() -> new IllegalArgumentException(
          "fake API server does not serve apiVersion=" + obj.getApiVersion() + " kind=" + obj.getKind()));
    }
    String simple = obj.getClass().getSimpleName();
    if (simple.equals("CoreV1Event")) {
      return Resources.EVENTS;
    }
    if (simple.equals("EventsV1Event")) {
      return Resources.EVENTS_V1;
    }
    String kind = obj.getKind() != null ? obj.getKind() : simple.replaceFirst("^V\\d+((alpha|beta)\\d+)?", "");
    List<ResourceType> matches = Resources.all().stream().filter(t -> t.kind().equals(kind)).toList();
    if (matches.size() > 1) { // PodGroup of Volcano and of coscheduling: the class name's version tells them apart
      java.util.regex.Matcher v = java.util.regex.Pattern.compile("^V(\\d+(?:(?:alpha|beta)\\d+)?)").matcher(simple);
      String version = v.find() ? "v" + v.group(1) : "";
      matches = matches.stream().filter(t -> t.version().equals(version)).toList();
    }
    if (matches.size() != 1) {
      throw new IllegalArgumentException("cannot tell the kind of " + simple + "; set apiVersion and kind");
    }
    return matches.get(0);
  }

  private static ResourceType typeOf(JsonObject obj) {
    String apiVersion = Json.str(obj, "apiVersion");
    String kind = Json.str(obj, "kind");
    return Resources.forKind(apiVersion, kind).orElseThrow(() -> new IllegalArgumentException(
        "fake API server does not serve apiVersion=" + apiVersion + " kind=" + kind));
  }
}
