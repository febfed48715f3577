package io.basalt.kube.fake;

import static io.basalt.kube.fake.Fixtures.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonObject;
import io.basalt.testing.Await;
import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** coordination.k8s.io/v1 Leases: optimistic concurrency, and client-java's LeaderElector on a LeaseLock. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LeaseTest {
  private FakeApiServer server;
  private ApiClient client;
  private CoordinationV1Api coordination;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    client = server.apiClient();
    coordination = new CoordinationV1Api(client);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void createAndUpdateWithResourceVersionConflicts() throws ApiException {
    V1Lease lease = new V1Lease().metadata(new V1ObjectMeta().name("basalt").namespace("kube-system"))
        .spec(new V1LeaseSpec().holderIdentity("a").leaseDurationSeconds(15)
            .renewTime(OffsetDateTime.parse("2025-01-01T00:00:00.123456Z")));
    V1Lease created = coordination.createNamespacedLease("kube-system", lease).execute();
    assertEquals("a", created.getSpec().getHolderIdentity());

    ApiException exists = assertThrows(ApiException.class,
        () -> coordination.createNamespacedLease("kube-system", lease).execute());
    assertEquals(409, exists.getCode());
    JsonObject s = status(exists);
    assertEquals("AlreadyExists", s.get("reason").getAsString());
    assertEquals("leases.coordination.k8s.io \"basalt\" already exists", s.get("message").getAsString());
    assertEquals("coordination.k8s.io", s.getAsJsonObject("details").get("group").getAsString());

    created.getSpec().setHolderIdentity("b");
    V1Lease renewed = coordination.replaceNamespacedLease("basalt", "kube-system", created).execute();
    assertEquals("b", renewed.getSpec().getHolderIdentity());
    assertNotEquals(created.getMetadata().getResourceVersion(), renewed.getMetadata().getResourceVersion());

    created.getSpec().setHolderIdentity("c");
    ApiException conflict = assertThrows(ApiException.class,
        () -> coordination.replaceNamespacedLease("basalt", "kube-system", created).execute());
    assertEquals(409, conflict.getCode());
    assertEquals("Operation cannot be fulfilled on leases.coordination.k8s.io \"basalt\": "
        + Statuses.OPTIMISTIC_LOCK, status(conflict).get("message").getAsString());
    assertEquals("b", coordination.readNamespacedLease("basalt", "kube-system").execute().getSpec()
        .getHolderIdentity());
  }

  @Test
  void leaderElectorAcquiresTheLeaseAndASecondCandidateWaits() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    CountDownLatch aLeads = new CountDownLatch(1);
    CountDownLatch bLeads = new CountDownLatch(1);
    LeaderElector a = elector("basalt-a");
    LeaderElector b = elector("basalt-b");
    try {
      threads.submit(() -> a.run(aLeads::countDown, () -> { }));
      assertEquals(true, aLeads.await(10, TimeUnit.SECONDS), "basalt-a leads");
      V1Lease held = server.get(Resources.LEASES, "kube-system", "basalt-scheduler", V1Lease.class);
      assertEquals("basalt-a", held.getSpec().getHolderIdentity());
      assertEquals(3, held.getSpec().getLeaseDurationSeconds());

      threads.submit(() -> b.run(bLeads::countDown, () -> { }));
      Await.until("basalt-b tried three times", Duration.ofSeconds(10),
          () -> server.requests("GET", ".*/leases/basalt-scheduler").stream()
              .filter(r -> "basalt-b".equals(r.header("User-Agent"))).count() >= 3);
      assertFalse(bLeads.await(0, TimeUnit.SECONDS), "basalt-b does not lead while basalt-a renews");
      assertEquals("basalt-a", server.get(Resources.LEASES, "kube-system", "basalt-scheduler", V1Lease.class)
          .getSpec().getHolderIdentity());
    } finally {
      a.close();
      b.close();
      threads.shutdownNow();
    }
  }

  private LeaderElector elector(String identity) {
    ApiClient own = server.apiClient();
    own.setUserAgent(identity);
    LeaseLock lock = new LeaseLock("kube-system", "basalt-scheduler", identity, own);
    return new LeaderElector(new LeaderElectionConfig(lock, Duration.ofSeconds(3), Duration.ofSeconds(2),
        Duration.ofMillis(100)));
  }
}
