package io.basalt.kube.live;

import com.google.gson.JsonObject;
import io.basalt.cache.ClusterCache;
import io.basalt.fabric.FabricBuilder;
import io.basalt.kube.fabric.HyperNodeReader;
import io.basalt.kube.fabric.LabelTopologyReader;
import io.basalt.kube.fabric.NodeGroupReader;
import io.basalt.model.Node;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Keeps {@link ClusterCache#setFabric the cache's network fabric} built from one topology source over the cluster's
 * current nodes: Volcano HyperNodes (the informer's), a MetaX {@code node_group} file or URL (polled), or node label
 * keys. It is rebuilt when the source changes or a node comes, goes or changes its labels (status updates do not
 * count), at most once per {@link #DEBOUNCE} so that a burst of events costs one build. Each problem of a build is
 * logged once, while it lasts. A file or URL that cannot be read, or a document from which no domain can be built
 * (malformed JSON), keeps the last good document, logged once until the failure changes. Owns its thread; {@link
 * #close} stops it.
 */
public final class TopologyFeed implements AutoCloseable {
  /** How long a change waits for others before the fabric is rebuilt. */
  static final Duration DEBOUNCE = Duration.ofMillis(100);
  private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(30);
  /** The largest node_group document read: far more than a 10,000-node fabric's. */
  static final int MAX_BODY = 16 << 20;
  private static final System.Logger LOG = System.getLogger(TopologyFeed.class.getName());

  /** A node_group document's source. */
  private interface Fetch {
    String get() throws IOException, InterruptedException;
  }

  private final String source;
  private final Fetch fetch;
  private final Duration poll;
  private final List<String> labelKeys;
  private final Map<String, Node> nodes = new ConcurrentHashMap<>();
  private final Map<String, JsonObject> hyperNodes = new ConcurrentHashMap<>();
  private final AtomicBoolean queued = new AtomicBoolean();
  private volatile ClusterCache cache;
  private volatile List<String> problems = List.of();
  private ScheduledExecutorService thread;
  private String document;
  private volatile String failure;

  private TopologyFeed(String source, Fetch fetch, Duration poll, List<String> labelKeys) {
    this.source = source;
    this.fetch = fetch;
    this.poll = poll;
    this.labelKeys = labelKeys == null ? null : List.copyOf(labelKeys);
  }

  /** From the cluster's HyperNodes, fed by the informer ({@link #watchesHyperNodes}). The default. */
  public static TopologyFeed hyperNodes() {
    return new TopologyFeed("HyperNodes", null, null, null);
  }

  /** From a node_group file, re-read every {@code poll} (a mounted ConfigMap changes in place). */
  public static TopologyFeed nodeGroupFile(Path file, Duration poll) {
    return new TopologyFeed(file.toString(), () -> Files.readString(file, StandardCharsets.UTF_8), poll, null);
  }

  /**
   * From a node_group document served at {@code url} (topo-master), fetched every {@code poll}. Each fetch is bounded
   * as a whole, body included ({@link #HTTP_TIMEOUT}, {@link #MAX_BODY}): a server that sends its headers and then
   * drips the body, or sends half a gigabyte, costs one failed fetch, not a stuck start or the heap.
   */
  public static TopologyFeed nodeGroupUrl(URI url, Duration poll) {
    return nodeGroupUrl(url, poll, HTTP_TIMEOUT, MAX_BODY);
  }

  static TopologyFeed nodeGroupUrl(URI url, Duration poll, Duration timeout, int maxBody) {
    if ("http".equalsIgnoreCase(url.getScheme())) {
      LOG.log(Level.WARNING, "Topology: {0} is plain http: anyone on the path can change the topology Basalt "
          + "places gangs by; serve it over https", url);
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(timeout)
        .followRedirects(HttpClient.Redirect.NORMAL).build();
    HttpRequest get = HttpRequest.newBuilder(url).timeout(timeout).GET().build();
    return new TopologyFeed(url.toString(), () -> {
      java.util.concurrent.CompletableFuture<HttpResponse<String>> sent =
          http.sendAsync(get, info -> BoundedBody.of(maxBody));
      HttpResponse<String> r;
      try {
        r = sent.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        sent.cancel(true);
        throw new IOException("no whole answer within " + timeout.toSeconds() + " s");
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable cause = e.getCause();
        throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
      }
      if (r.statusCode() != 200) {
        throw new IOException("HTTP " + r.statusCode());
      }
      return r.body();
    }, poll, null);
  }

  /** From node labels, widest key first ({@link LabelTopologyReader}). */
  public static TopologyFeed labels(List<String> keys) {
    return new TopologyFeed("labels " + String.join(",", keys), null, null, keys);
  }

  /** True when the source is the cluster's HyperNodes, so the informer must watch them. */
  public boolean watchesHyperNodes() {
    return fetch == null && labelKeys == null;
  }

  /** What the fabric is read from, for logs. */
  public String source() {
    return source;
  }

  /** The problems of the fabric now in the cache, and why the document in use is not the newest, one line each. */
  public List<String> problems() {
    List<String> p = problems;
    String f = failure;
    return f == null ? p : Stream.concat(p.stream(), Stream.of(f)).toList();
  }

  void putNode(Node n) {
    Node before = nodes.put(n.name(), n);
    if (before == null || !before.labels().equals(n.labels())) {
      changed();
    }
  }

  void removeNode(String name) {
    if (nodes.remove(name) != null) {
      changed();
    }
  }

  void putHyperNode(String name, JsonObject document) {
    hyperNodes.put(name, document);
    changed();
  }

  void removeHyperNode(String name) {
    if (hyperNodes.remove(name) != null) {
      changed();
    }
  }

  /**
   * Builds the first fabric into {@code cache} before returning (reading the file or URL once), then starts
   * rebuilding on changes and polling.
   */
  synchronized void start(ClusterCache target) {
    if (cache != null) {
      throw new IllegalStateException("TopologyFeed already started");
    }
    thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "basalt-topology");
      t.setDaemon(true);
      return t;
    });
    cache = target; // from here on, events schedule rebuilds (which wait for this first build: same lock)
    if (fetch != null) {
      fetchNow();
      long every = Math.max(1, poll.toMillis());
      thread.scheduleWithFixedDelay(this::fetchNow, every, every, TimeUnit.MILLISECONDS);
    } else {
      build();
    }
    LOG.log(Level.INFO, "Topology from {0}: {1}", source, target.fabric());
  }

  @Override
  public synchronized void close() {
    if (thread != null) {
      thread.shutdownNow();
    }
  }

  private void changed() {
    if (cache != null && queued.compareAndSet(false, true)) {
      try {
        thread.schedule(() -> {
          queued.set(false);
          build();
        }, DEBOUNCE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException closed) {
        queued.set(false);
      }
    }
  }

  /**
   * Reads the document; a new one that builds replaces the one in use. Never throws: an exception escaping a periodic
   * task would end the polling for good, without a word.
   */
  private void fetchNow() {
    try {
      fetchOnce();
    } catch (RuntimeException e) {
      failed(source + ": cannot use the document: " + e + "; keeping the last good topology");
    }
  }

  private void fetchOnce() {
    String text;
    try {
      text = fetch.get();
    } catch (IOException e) {
      failed(source + ": cannot read: " + e.getMessage() + "; keeping the last good topology");
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (RuntimeException e) {
      failed(source + ": cannot read: " + e + "; keeping the last good topology");
      return;
    }
    synchronized (this) {
      if (text.equals(document)) {
        failed(null);
        return;
      }
      FabricBuilder.Result r = NodeGroupReader.read(text, nodes.keySet());
      if (r.fabric().isEmpty() && !r.problems().isEmpty()) {
        failed(source + ": " + String.join("; ", r.problems()) + "; keeping the last good topology");
        return;
      }
      failed(null);
      document = text;
      apply(r);
    }
  }

  /** Rebuilds from the document in use over the current nodes. */
  private synchronized void build() {
    List<Node> current = nodes.values().stream().sorted(Comparator.comparing(Node::name)).toList();
    if (labelKeys != null) {
      apply(LabelTopologyReader.read(labelKeys, current));
    } else if (fetch == null) {
      List<JsonObject> docs = hyperNodes.entrySet().stream().sorted(Map.Entry.comparingByKey())
          .map(Map.Entry::getValue).toList();
      apply(HyperNodeReader.read(docs, current));
    } else if (document != null) {
      apply(NodeGroupReader.read(document, nodes.keySet()));
    }
  }

  private void apply(FabricBuilder.Result r) {
    cache.setFabric(r.fabric());
    String prefix = watchesHyperNodes() ? "" : source + ": "; // HyperNode problems name their object already
    List<String> now = r.problems().stream().map(p -> prefix + p).toList();
    Set<String> before = Set.copyOf(problems);
    now.stream().filter(p -> !before.contains(p)).forEach(p -> LOG.log(Level.WARNING, "Topology: {0}", p));
    problems = now;
    LOG.log(Level.DEBUG, "Topology from {0} rebuilt: {1}", source, r.fabric());
  }

  /** Logs {@code message} when it differs from the last failure; null clears it. */
  private synchronized void failed(String message) {
    if (message != null && !message.equals(failure)) {
      LOG.log(Level.WARNING, "Topology: {0}", message);
    } else if (message == null && failure != null) {
      LOG.log(Level.INFO, "Topology: {0} readable again", source);
    }
    failure = message;
  }

  @Override
  public String toString() {
    return "TopologyFeed[" + source + "]";
  }
}
