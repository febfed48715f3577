package io.basalt.kube.fake;

import static io.basalt.kube.fake.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.fake.FaultPlan.Kind;
import io.basalt.kube.fake.FaultPlan.Mix;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A seeded plan decides the same per request whatever the interleaving; its faults look as a real server's. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultPlanTest {
  private static final Duration NEVER = Duration.ofHours(1);

  private static Mix mix(double bindError, double applied, double throttle, double delay) {
    return new Mix(bindError, applied, throttle, delay, Duration.ofMillis(1), NEVER, NEVER, Duration.ZERO);
  }

  private static RecordedRequest bind(String pod) {
    return new RecordedRequest("POST", "/api/v1/namespaces/ml/pods/" + pod + "/binding", "", "", "", Map.of(),
        Instant.now());
  }

  /** The faults met by pods p0..p49's first three binds, asking in the given order of pods. */
  private static List<String> fates(FaultPlan plan, boolean reversed) {
    plan.start();
    String[][] out = new String[50][3];
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 50; i++) {
        int p = reversed ? 49 - i : i;
        out[p][round] = plan.decide(bind("p" + p)).map(a -> a.applyFirst() ? "applied" : a.error() != null
            ? String.valueOf(a.error().code()) : "delay").orElse("ok");
      }
    }
    List<String> flat = new ArrayList<>();
    for (String[] pod : out) {
      flat.addAll(List.of(pod));
    }
    return flat;
  }

  @Test
  void theSameSeedGivesEachRequestTheSameFateInAnyArrivalOrder() {
    Mix m = mix(0.2, 0.1, 0.1, 0.1);
    List<String> forward = fates(new FaultPlan(7, m), false);
    assertEquals(forward, fates(new FaultPlan(7, m), true), "decided per request, not by arrival order");
    assertNotEquals(forward, fates(new FaultPlan(8, m), false), "another seed, other fates");
    assertTrue(forward.contains("500") && forward.contains("applied") && forward.contains("429")
        && forward.contains("delay") && forward.contains("ok"), forward.toString());
  }

  @Test
  void anAppliedErrorBindsThePodAndAnswers500() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(pod("ml", "p1"));
      FaultPlan plan = new FaultPlan(1, mix(0, 1, 0, 0));
      try (AutoCloseable soak = server.soak(plan)) {
        try (Response r = post(server, "p1", "n1")) {
          assertEquals(500, r.code());
        }
      }
      assertEquals("n1", server.get(Resources.PODS, "ml", "p1").getAsJsonObject("spec").get("nodeName")
          .getAsString(), "applied though the client was told it failed");
      assertEquals(1, plan.counts().get(Kind.BIND_APPLIED_ERROR));
      assertEquals(1, plan.bindsSeen());
      try (Response r = post(server, "p1", "n2")) {
        assertEquals(409, r.code(), "the plan is stopped: a real answer");
      }
      assertEquals(List.of(new BindLedger.Entry("ml/p1", "n1", null)), server.bindLedger().applied());
      assertEquals(List.of(new BindLedger.Entry("ml/p1", "n2", "n1")), server.bindLedger().rebinds());
    }
  }

  @Test
  void duringTheOutageNothingIsAnsweredAndWatchesAreCut() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(pod("ml", "p1"));
      FaultPlan plan = new FaultPlan(1, new Mix(0, 0, 0, 0, Duration.ZERO, NEVER, Duration.ZERO,
          Duration.ofMillis(800)));
      try (AutoCloseable soak = server.soak(plan)) {
        assertThrows(IOException.class, () -> post(server, "p1", "n1").close());
        Thread.sleep(1000);
        try (Response r = post(server, "p1", "n1")) {
          assertEquals(201, r.code(), "answered again after the outage");
        }
      }
      assertTrue(plan.counts().get(Kind.OUTAGE) >= 1);
    }
  }

  private static Response post(FakeApiServer server, String pod, String node) throws Exception {
    V1Binding b = new V1Binding().apiVersion("v1").kind("Binding")
        .metadata(new V1ObjectMeta().name(pod).namespace("ml"))
        .target(new V1ObjectReference().apiVersion("v1").kind("Node").name(node));
    return new CoreV1Api(server.apiClient()).createNamespacedPodBinding(pod, "ml", b).buildCall(null).execute();
  }
}
