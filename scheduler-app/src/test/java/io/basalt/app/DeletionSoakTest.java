package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault soak's deletions during binds (docs/RELIABILITY.md, "Fault soak"): while every binding is held 800 ms by
 * the fake API server, pods whose binds are in flight and nodes those binds name are deleted, and more pods arrive
 * than the remaining nodes hold. Afterwards: no pod lost or bound twice, no node over capacity ({@link SoakChecks}),
 * no binding sent to a deleted node or for a deleted pod once the informer had time to report it, and Basalt's cache
 * holds exactly the server's nodes and pods, each pod on the server's node (its accounting is the server's).
 */
@Timeout(180)
class DeletionSoakTest {
  /** Time for the informer to report a deletion and a cycle to see it; a binding sent later is a decision on it. */
  private static final Duration NOTICE = Duration.ofSeconds(2);
  private static final int DELETED_PODS = 12;
  private static final int DELETED_NODES = 4;

  @Test
  void podsAndNodesDeletedWhileTheirBindsAreInFlightAreForgottenAndNothingElseIsLost(@TempDir Path dir)
      throws Exception {
    // 24 nodes of 8 GPUs; 5 waves of 4 gangs, 20 GPU pods and 10 CPU pods ask 220 GPUs of the 160 left after deletion.
    SoakWorkload workload = new SoakWorkload(24, 5, 4, 20, 10);
    try (FakeApiServer server = FakeApiServer.start()) {
      workload.seedNodes(server);
      server.faults().delayNextMatching(100_000, Duration.ofMillis(800),
          r -> r.method().equals("POST") && r.path().endsWith("/binding"));
      try (LiveRun run = LiveRun.start(server, dir, "--config", "../config/gpu-aware.conf", "--bind-workers", "256",
          "--log-level", "error")) {
        List<String> seeded = new ArrayList<>();
        seeded.addAll(workload.seedWave(server, 0));
        seeded.addAll(workload.seedWave(server, 1));
        Await.until("binds in flight", Duration.ofSeconds(20), () -> bindingPosts(server).size() >= 40);

        // Delete pods whose binding was posted (most still held by the server) and nodes those bindings name.
        List<RecordedRequest> posted = bindingPosts(server);
        Set<String> deletedPods = new LinkedHashSet<>();
        Set<String> deletedNodes = new LinkedHashSet<>();
        int inFlight = 0;
        Set<String> applied = server.bindLedger().applied().stream().map(e -> e.pod()).collect(Collectors.toSet());
        for (RecordedRequest r : posted) {
          String pod = podOf(r);
          if (deletedPods.size() < DELETED_PODS && !pod.startsWith("gang-")) { // a gang's member is its own test
            if (!applied.contains(SoakWorkload.NAMESPACE + "/" + pod)) {
              inFlight++;
            }
            server.delete(Resources.PODS, SoakWorkload.NAMESPACE, pod);
            deletedPods.add(pod);
          } else if (deletedNodes.size() < DELETED_NODES && deletedNodes.add(nodeOf(r))) {
            server.delete(Resources.NODES, null, nodeOf(r));
          }
        }
        Instant deletedAt = Instant.now();
        assertEquals(DELETED_PODS, deletedPods.size());
        assertEquals(DELETED_NODES, deletedNodes.size());
        for (int w = 2; w < workload.waves(); w++) {
          Thread.sleep(1000);
          seeded.addAll(workload.seedWave(server, w));
        }
        seeded.removeAll(deletedPods);

        SoakChecks.Verdict verdict = settle(server, seeded);
        Instant noticed = deletedAt.plus(NOTICE);
        List<String> late = bindingPosts(server).stream().filter(r -> r.receivedAt().isAfter(noticed))
            .filter(r -> deletedPods.contains(podOf(r)) || deletedNodes.contains(nodeOf(r)))
            .map(r -> podOf(r) + " -> " + nodeOf(r)).toList();
        String report = String.format("deletion soak: pods %d (bound %d, pending with a reason %d), deleted %d pods"
                + " (%d with their bind in flight) and nodes %s; bindings posted %d, applied %d; problems %s",
            verdict.pods(), verdict.bound(), verdict.pending(), deletedPods.size(), inFlight, deletedNodes,
            bindingPosts(server).size(), server.bindLedger().applied().size(), verdict.problems());
        System.out.println(report);
        assertEquals(List.of(), verdict.problems(), report);
        assertTrue(verdict.settled(), "not settled: " + report);
        assertEquals(seeded.size(), verdict.pods(), report);
        assertTrue(inFlight > 0, "some pod was deleted while its bind was in flight: " + report);
        assertEquals(List.of(), late, "bindings sent for deleted pods or to deleted nodes after the informer "
            + "reported them: " + report);
        assertEquals(serverView(server), cacheView(run), "Basalt's cache and the server disagree after deletions");
        assertEquals(0, run.stop());
      }
    }
  }

  /** Nodes, and each pod of the soak's namespace with its node ("" when pending), as the server holds them. */
  private static Map<String, String> serverView(FakeApiServer server) {
    Map<String, String> view = new TreeMap<>();
    for (JsonObject n : server.list(Resources.NODES, null)) {
      view.put("node " + n.getAsJsonObject("metadata").get("name").getAsString(), "");
    }
    for (JsonObject p : server.list(Resources.PODS, SoakWorkload.NAMESPACE)) {
      String node = SoakChecks.nodeName(p);
      view.put("pod " + p.getAsJsonObject("metadata").get("name").getAsString(), node == null ? "" : node);
    }
    return view;
  }

  /** The same, as Basalt's cache holds it (no pod still assumed, none kept after its deletion). */
  private static Map<String, String> cacheView(LiveRun run) {
    Map<String, String> view = new TreeMap<>();
    for (Node n : run.cache().nodes()) {
      view.put("node " + n.name(), "");
    }
    for (Pod p : run.cache().pods()) {
      if (p.namespace().equals(SoakWorkload.NAMESPACE)) {
        view.put("pod " + p.name(), p.nodeName() == null ? "" : p.nodeName());
      }
    }
    return view;
  }

  private static SoakChecks.Verdict settle(FakeApiServer server, List<String> seeded) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    int posts = -1;
    long quietSince = System.nanoTime();
    while (true) {
      SoakChecks.Verdict v = SoakChecks.check(server, seeded);
      int now = bindingPosts(server).size();
      if (now != posts) {
        posts = now;
        quietSince = System.nanoTime();
      }
      if (v.settled() && System.nanoTime() - quietSince > Duration.ofSeconds(3).toNanos()
          || System.nanoTime() > deadline) {
        return v;
      }
      Thread.sleep(300);
    }
  }

  private static List<RecordedRequest> bindingPosts(FakeApiServer server) {
    return server.requests("POST", ".*/pods/[^/]+/binding");
  }

  private static String podOf(RecordedRequest r) {
    String[] parts = r.path().split("/");
    return parts[parts.length - 2];
  }

  private static String nodeOf(RecordedRequest r) {
    return JsonParser.parseString(r.body()).getAsJsonObject().getAsJsonObject("target").get("name").getAsString();
  }
}
