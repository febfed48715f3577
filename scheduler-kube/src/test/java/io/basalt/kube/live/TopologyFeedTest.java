package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.basalt.cache.ClusterCache;
import io.basalt.fabric.Fabric;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The network fabric in live mode: HyperNodes through the informer, a polled node_group URL, node labels. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TopologyFeedTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private FakeApiServer server;
  private ClusterCache cache;
  private InformerSource source;
  private HttpServer http;

  @BeforeEach
  void setUp() {
    server = FakeApiServer.start();
    cache = new ClusterCache(Set.of("basalt"), "default");
    for (String n : List.of("a1", "a2", "b1", "b2")) {
      server.seed(node(n, "rack-" + n.charAt(0)));
    }
  }

  @AfterEach
  void tearDown() {
    if (source != null) {
      source.close();
    }
    if (http != null) {
      http.stop(0);
    }
    server.close();
  }

  private void start(TopologyFeed feed) throws Exception {
    source = new InformerSource(server.apiClient()).topology(feed);
    source.start(cache, WAIT);
  }

  private static String node(String name, String rack) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{"
        + "\"example.com/rack\":\"" + rack + "\"}},\"status\":{\"allocatable\":{\"cpu\":\"8\",\"pods\":\"110\"}}}";
  }

  /** A HyperNode of {@code tier} holding the nodes matching {@code regex}, or the HyperNodes named. */
  private static String hyperNode(String name, int tier, String memberType, String selector) {
    return "{\"apiVersion\":\"topology.volcano.sh/v1alpha1\",\"kind\":\"HyperNode\",\"metadata\":{\"name\":\""
        + name + "\"},\"spec\":{\"tier\":" + tier + ",\"members\":[{\"type\":\"" + memberType + "\",\"selector\":"
        + selector + "}]}}";
  }

  private static String regex(String pattern) {
    return "{\"regexMatch\":{\"pattern\":\"" + pattern + "\"}}";
  }

  private static String exact(String name) {
    return "{\"exactMatch\":{\"name\":\"" + name + "\"}}";
  }

  private List<String> domains(int tier) {
    return cache.fabric().domains(tier);
  }

  @Test
  void hyperNodesInTheClusterAreTheFabricAndFollowItsChanges() throws Exception {
    server.seed(hyperNode("rack-a", 1, "Node", regex("^a")));
    server.seed(hyperNode("rack-b", 1, "Node", regex("^b")));
    server.seed(hyperNode("spine", 2, "HyperNode", regex("^rack-")));

    start(TopologyFeed.hyperNodes());

    assertEquals(List.of("rack-a", "rack-b"), domains(1), "built before start returns");
    assertEquals("spine/rack-b", cache.fabric().path("b2"));
    assertEquals(List.of(), source.warnings());

    server.delete(Resources.HYPERNODES, null, "rack-b");
    Await.until("rack-b gone", WAIT, () -> domains(1), List.of("rack-a")::equals);
    assertEquals(List.of("a1", "a2"), cache.fabric().nodesOf("spine"));

    server.seed(node("a3", "rack-a"));
    Await.until("a new node joins its HyperNode", WAIT, () -> cache.fabric().nodesOf("rack-a"),
        List.of("a1", "a2", "a3")::equals);
  }

  @Test
  void aBadHyperNodeIsAWarningNamingItAndTheRestStays() throws Exception {
    server.seed(hyperNode("rack-a", 1, "Node", regex("^a")));
    server.seed(hyperNode("rack-x", 1, "Node", exact("nowhere")));

    start(TopologyFeed.hyperNodes());

    assertEquals(List.of("rack-a", "rack-x"), domains(1));
    assertEquals(List.of("HyperNode rack-x: spec.members[0].selector.exactMatch.name: no node 'nowhere'",
        "HyperNode rack-x: has no nodes"), source.warnings());
  }

  @Test
  void withoutTheHyperNodeCrdTheFabricIsEmptyAndThatIsOneWarning() throws Exception {
    server.faults().failNext(1, 404, "GET", "/apis/topology\\.volcano\\.sh/.*");

    start(TopologyFeed.hyperNodes());

    assertTrue(cache.fabric().isEmpty());
    List<String> warnings = source.warnings();
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("hypernodes not served (404)"), warnings.get(0));
  }

  @Test
  void aFlagSourceDoesNotWatchHyperNodes() throws Exception {
    server.seed(hyperNode("rack-a", 1, "Node", regex("^a")));

    start(TopologyFeed.labels(List.of("example.com/rack")));

    assertEquals(List.of("rack-a", "rack-b"), domains(1));
    assertEquals(List.of(), server.requests("GET", "/apis/topology\\.volcano\\.sh/.*"));
    server.mergePatch(Resources.NODES, null, "b2", "{\"metadata\":{\"labels\":{\"example.com/rack\":\"rack-c\"}}}");
    Await.until("b2 moves to rack-c", WAIT, () -> cache.fabric().domainOf("b2", 1), "rack-c"::equals);
  }

  @Test
  void aPolledUrlReplacesTheFabricAndBadJsonKeepsTheLastGoodOne() throws Exception {
    AtomicReference<String> body = new AtomicReference<>(nodeGroup("df-a", "a1", "a2"));
    AtomicInteger status = new AtomicInteger(200);
    AtomicInteger fetches = new AtomicInteger();
    http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext("/node_group", exchange -> {
      byte[] b = body.get().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status.get(), b.length);
      exchange.getResponseBody().write(b);
      exchange.close();
      fetches.incrementAndGet();
    });
    http.start();
    URI url = URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/node_group");

    start(TopologyFeed.nodeGroupUrl(url, Duration.ofMillis(50)));
    assertEquals(List.of("df-a"), domains(1), "fetched before start returns");

    body.set("[{\"name\": ");
    awaitFetches(fetches);
    assertEquals(List.of("df-a"), domains(1), "malformed JSON keeps the last good fabric");
    List<String> warnings = source.warnings();
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith(url + ": node_group: malformed JSON"), warnings.get(0));
    assertTrue(warnings.get(0).endsWith("keeping the last good topology"), warnings.get(0));

    body.set(nodeGroup("df-b", "b1", "b2"));
    status.set(503);
    awaitFetches(fetches);
    assertEquals(List.of("df-a"), domains(1), "an HTTP error keeps it too");
    assertEquals(List.of(url + ": cannot read: HTTP 503; keeping the last good topology"), source.warnings());

    status.set(200);
    Await.until("the new document is taken", WAIT, () -> domains(1), List.of("df-b")::equals);
    assertEquals(List.of(), source.warnings());
    server.delete(Resources.NODES, null, "b2");
    Await.until("a deleted node leaves it", WAIT, () -> cache.fabric().nodesOf(Fabric.ROOT).contains("b2"), in -> !in);
  }

  /**
   * Hardening II: an entry without {@code kind} crashed start-up, or after a good start ended the polling silently;
   * a server dripping its body held start-up forever; a huge body ran the heap out.
   */
  @Test
  void aHostileFeedCostsOneFailedFetchAndPollingGoesOn() throws Exception {
    AtomicReference<String> mode = new AtomicReference<>("good");
    AtomicInteger fetches = new AtomicInteger();
    http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    http.createContext("/node_group", exchange -> {
      fetches.incrementAndGet();
      try (exchange) {
        switch (mode.get()) {
          case "drip" -> {
            exchange.sendResponseHeaders(200, 0);
            for (int i = 0; i < 100; i++) {
              exchange.getResponseBody().write(' ');
              exchange.getResponseBody().flush();
              Thread.sleep(100);
            }
          }
          case "huge" -> {
            exchange.sendResponseHeaders(200, 0);
            byte[] spaces = new byte[1 << 16];
            java.util.Arrays.fill(spaces, (byte) ' ');
            for (int i = 0; i < 64; i++) {
              exchange.getResponseBody().write(spaces);
            }
          }
          default -> {
            String doc = mode.get().equals("nokind") ? "[{\"name\":\"df-x\",\"child\":[]}]"
                : nodeGroup("df-a", "a1", "a2");
            byte[] b = doc.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, b.length);
            exchange.getResponseBody().write(b);
          }
        }
      } catch (InterruptedException | java.io.IOException e) {
        // the client gave up: what the test wants
      }
    });
    http.start();
    URI url = URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/node_group");

    mode.set("nokind");
    TopologyFeed feed = TopologyFeed.nodeGroupUrl(url, Duration.ofMillis(50), Duration.ofSeconds(1), 1 << 20);
    start(feed);
    assertEquals(List.of(), domains(1), "nothing to build from, and no crash");

    mode.set("good");
    Await.until("polling survived the bad entry", WAIT, () -> domains(1), List.of("df-a")::equals);

    mode.set("drip");
    Await.until("a dripping body fails the fetch", WAIT, () -> source.warnings().toString(),
        w -> w.contains("no whole answer within 1 s"));
    mode.set("huge");
    Await.until("a huge body fails the fetch", WAIT, () -> source.warnings().toString(),
        w -> w.contains("body larger than 1 MiB"));
    assertEquals(List.of("df-a"), domains(1), "the last good topology stays");
    mode.set("good");
    Await.until("and polling goes on", WAIT, () -> source.warnings(), List.of()::equals);
  }

  /** Waits until the URL has been fetched twice more, so a poll surely saw the current answer. */
  private static void awaitFetches(AtomicInteger fetches) {
    int now = fetches.get();
    Await.until("two more fetches", WAIT, () -> fetches.get() >= now + 2);
  }

  private static String nodeGroup(String dragonfly, String... nodes) {
    StringBuilder b = new StringBuilder("[{\"name\":\"" + dragonfly + "\",\"kind\":\"dragonfly\",\"child\":[");
    for (int i = 0; i < nodes.length; i++) {
      b.append(i == 0 ? "" : ",").append("{\"name\":\"").append(nodes[i]).append("\",\"kind\":\"node\"}");
    }
    return b.append("]}]").toString();
  }
}
