package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.Lock;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.util.PatchUtils;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The fence at the wire: a write leaves only while the Lease's last renewal is recent, checked as each request is
 * sent, so a pause between {@link FencedBinder}'s per-batch check and the batch's calls, or during a status pass,
 * sends nothing. Reads pass.
 */
class FencedWritesTest {
  private static final class HeldLock implements Lock {
    @Override
    public LeaderElectionRecord get() {
      return null;
    }

    @Override
    public boolean create(LeaderElectionRecord record) {
      return true;
    }

    @Override
    public boolean update(LeaderElectionRecord record) {
      return true;
    }

    @Override
    public String identity() {
      return "me";
    }

    @Override
    public String describe() {
      return "kube-system/basalt";
    }
  }

  @Test
  void writesLeaveOnlyWhileTheLeaseIsFreshlyRenewedAndReadsAlways() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(LiveRun.node("n1", 8));
      server.seed(LiveRun.pod("p", "basalt-scheduler", 1, null));
      server.seed(LiveRun.pod("q", "basalt-scheduler", 1, null));
      AtomicLong now = new AtomicLong();
      LeaseFence fence = new LeaseFence(new HeldLock(), Duration.ofSeconds(10), now::get);
      ApiClient client = server.apiClient();
      client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(new FencedWrites(fence)).build());
      CoreV1Api core = new CoreV1Api(client);

      ApiException refused = assertThrows(ApiException.class, () -> bind(core, "p"));
      assertEquals(FencedWrites.REFUSED, refused.getCode(), "never held: nothing is written");
      assertTrue(refused.getResponseBody().contains("does not hold the leader Lease"), refused.getResponseBody());
      assertEquals(0, server.requests("POST", ".*/bindings?").size(), "the server saw nothing");
      assertEquals("p", core.readNamespacedPod("p", "ml").execute().getMetadata().getName(), "reads pass");

      LeaderElectionRecord me = new LeaderElectionRecord();
      me.setHolderIdentity("me");
      assertTrue(fence.update(me));
      bind(core, "p");
      assertEquals("n1", LiveRun.nodeOf(server, "p"), "renewed: the bind is sent");

      // Paused for 40 s after the batch's check passed: the status write and the next bind are stopped here.
      now.addAndGet(Duration.ofSeconds(40).toNanos());
      ApiException late = assertThrows(ApiException.class, () -> PatchUtils.patch(Object.class,
          () -> core.patchNamespacedPodStatus("q", "ml", new V1Patch("{\"status\":{\"conditions\":[]}}"))
              .buildCall(null), V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client));
      assertEquals(FencedWrites.REFUSED, late.getCode());
      assertEquals(FencedWrites.REFUSED, assertThrows(ApiException.class, () -> bind(core, "q")).getCode());
      assertEquals(1, server.requests("POST", ".*/bindings?").size());
      assertEquals(0, server.requests("PATCH", ".*/status").size());
      assertEquals(null, LiveRun.nodeOf(server, "q"));
      assertEquals(2, server.list(Resources.PODS, "ml").size());
    }
  }

  private static void bind(CoreV1Api core, String pod) throws ApiException {
    try {
      core.createNamespacedBinding("ml", new V1Binding().metadata(new V1ObjectMeta().name(pod).namespace("ml"))
          .target(new V1ObjectReference().kind("Node").name("n1"))).execute();
    } catch (IllegalArgumentException e) {
      // applied: the server answers a Status, which the generated client cannot read as a V1Binding (see BindCalls)
    }
  }
}
