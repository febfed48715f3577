package io.basalt.app;

import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code basalt run} reads ResourceQuotas: a gang of two 8-GPU pods in a namespace whose quota allows 8 GPUs has only
 * the one pod the API server created, and its pod is told which quota keeps the gang from starting, not merely that
 * it has fewer pods than minMember.
 */
@Timeout(90)
class QuotaRunTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static String message(FakeApiServer server, String pod) {
    JsonObject status = server.get(Resources.PODS, "ml", pod).getAsJsonObject("status");
    return status == null ? "" : status.toString();
  }

  @Test
  void aGangItsNamespacesQuotaCannotHoldIsToldWhichQuota(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(node("gpu-2", 8));
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"gpu-quota\","
          + "\"namespace\":\"ml\"},\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"8\",\"pods\":\"50\"}}}");
      server.seed(LiveRun.podGroup("pair", 2));
      server.seed(LiveRun.pod("pair-0", "basalt-scheduler", 8, "pair")); // pair-1 was refused by the API server
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("pair-0 told why it waits", WAIT, () -> message(server, "pair-0").contains("ResourceQuota"));
        String m = message(server, "pair-0");
        assertTrue(m.contains("ResourceQuota ml/gpu-quota allows requests.nvidia.com/gpu 8"), m);
        assertTrue(m.contains("the gang's 2 pods need 16"), m);
        assertNull(nodeOf(server, "pair-0"));
        server.delete(Resources.RESOURCE_QUOTAS, "ml", "gpu-quota");
        Await.until("the plain gang reason once the quota is gone", WAIT,
            () -> message(server, "pair-0").contains("fewer than minMember 2"));
        assertEquals(0, run.stop());
      }
    }
  }
}
