package io.basalt.app;

import static io.basalt.app.LiveRun.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.basalt.kube.fake.ClaimControllers;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The DRA example end to end: {@code basalt run} against the fake API server seeded with
 * {@code test-fixtures/dra/example/}, the claim made from the pod's ResourceClaimTemplate by the stand-in for
 * kube-controller-manager ({@link ClaimControllers}), allocated by Basalt before the pod is bound.
 */
@Timeout(120)
class DraRunTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void aPodWithATemplateClaimBindsWithItsClaimAllocated(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      String text = Files.readString(Scenarios.fixture("dra/example").resolve("cluster.yaml"));
      Gson gson = new Gson();
      for (Object doc : new Yaml().loadAll(text)) {
        if (doc != null) {
          server.seed(gson.toJsonTree(doc).getAsJsonObject());
        }
      }
      try (ClaimControllers claims = ClaimControllers.start(server);
          LiveRun run = LiveRun.start(server, dir)) {
        Await.until("train-0 bound", WAIT, () -> nodeOf(server, "train-0") != null);
        String node = nodeOf(server, "train-0");
        assertTrue(Set.of("node-6", "node-7").contains(node), node);
        JsonObject pod = server.get(Resources.PODS, "ml", "train-0");
        String claim = pod.getAsJsonObject("status").getAsJsonArray("resourceClaimStatuses").get(0)
            .getAsJsonObject().get("resourceClaimName").getAsString();
        assertTrue(claim.matches("train-0-gpu-[a-z0-9]{5}"), claim);
        JsonObject status = server.get(Resources.RESOURCE_CLAIMS, "ml", claim).getAsJsonObject("status");
        String allocation = String.valueOf(status.get("allocation"));
        assertTrue(allocation.contains("\"pool\":\"" + node + "\"") && allocation.contains("\"device\":\"gpu-0\""),
            allocation);
        assertEquals(List.of(pod.getAsJsonObject("metadata").get("uid").getAsString()),
            List.of(status.getAsJsonArray("reservedFor").get(0).getAsJsonObject().get("uid").getAsString()));
        assertEquals(2, claims.made(), "one claim per pod naming a template");
        Thread.sleep(500);
        assertNull(nodeOf(server, "bad-0"), "no device matches its class: it waits");
        assertEquals(0, run.stop());
      }
    }
  }
}
