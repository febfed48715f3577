package io.basalt.app;

import static io.basalt.app.LiveRun.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.kube.fake.VolumeControllers;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * Issue 32's examples end to end: {@code basalt run} against the fake API server seeded with the objects of
 * {@code test-fixtures/volumes/}, claims bound only through PV and claim updates by the stand-in PV controller and
 * provisioner ({@link VolumeControllers}).
 */
@Timeout(120)
class VolumesRunTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** Seeds every document of the fixture's cluster.yaml, as a user's kubectl apply would create them. */
  private static void seed(FakeApiServer server, String fixture) throws Exception {
    String text = Files.readString(Scenarios.fixture("volumes/" + fixture).resolve("cluster.yaml"));
    Gson gson = new Gson();
    for (Object doc : new Yaml().loadAll(text)) {
      if (doc != null) {
        server.seed(gson.toJsonTree(doc).getAsJsonObject());
      }
    }
  }

  private static JsonObject claim(FakeApiServer server, String name) {
    return server.get(Resources.PERSISTENT_VOLUME_CLAIMS, "ml", name);
  }

  private static String volumeOf(FakeApiServer server, String claim) {
    JsonObject spec = claim(server, claim).getAsJsonObject("spec");
    return spec.has("volumeName") ? spec.get("volumeName").getAsString() : null;
  }

  private static String selectedNode(FakeApiServer server, String claim) {
    JsonObject a = claim(server, claim).getAsJsonObject("metadata").getAsJsonObject("annotations");
    return a == null || !a.has("volume.kubernetes.io/selected-node") ? null
        : a.get("volume.kubernetes.io/selected-node").getAsString();
  }

  @Test
  void aClaimBoundToAZonalPvTakesThePodToThatZone(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seed(server, "zonal-pv");
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("trainer bound", WAIT, () -> nodeOf(server, "trainer") != null);
        assertEquals("a-1", nodeOf(server, "trainer"));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void waitForFirstConsumerClaimsAreProvisionedOrBoundBeforeTheirPodsAre(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seed(server, "wait-for-first-consumer");
      try (VolumeControllers controllers = VolumeControllers.start(server);
          LiveRun run = LiveRun.start(server, dir)) {
        Await.until("writer and local-reader bound", WAIT,
            () -> nodeOf(server, "writer") != null && nodeOf(server, "local-reader") != null);
        assertEquals("b-1", nodeOf(server, "writer"));
        assertEquals("b-1", selectedNode(server, "checkpoints"), "annotated for the provisioner");
        assertEquals("pvc-6f1c0e52-0000-4000-8000-000000000001", volumeOf(server, "checkpoints"));
        assertEquals("a-2", nodeOf(server, "local-reader"));
        assertEquals("local-a-2", volumeOf(server, "scratch"), "the static PV's claimRef set, then bound");
        assertNull(selectedNode(server, "scratch"));
        Thread.sleep(500);
        assertNull(nodeOf(server, "logger"), "its Immediate claim is unbound: it waits");
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void twoPodsWithOneReadWriteOncePodClaimNeverBothBind(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seed(server, "read-write-once-pod");
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("one bound", WAIT, () -> nodeOf(server, "first") != null || nodeOf(server, "second") != null);
        Thread.sleep(1000); // ten cycles
        assertEquals(1, (nodeOf(server, "first") == null ? 0 : 1) + (nodeOf(server, "second") == null ? 0 : 1));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aNodeAtItsCsiAttachLimitTakesNoOtherVolume(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seed(server, "attach-limit");
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("incoming bound", WAIT, () -> nodeOf(server, "incoming") != null);
        assertEquals("room-1", nodeOf(server, "incoming"));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aSixteenPodGangWithOneWaitForFirstConsumerClaimEachStartsWhole(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seed(server, "gang-16");
      try (VolumeControllers controllers = VolumeControllers.start(server);
          LiveRun run = LiveRun.start(server, dir)) {
        Await.until("the gang bound", WAIT, () -> {
          for (int i = 0; i < 16; i++) {
            if (nodeOf(server, "train-" + i) == null) {
              return false;
            }
          }
          return true;
        });
        for (int i = 0; i < 16; i++) {
          assertEquals(nodeOf(server, "train-" + i), selectedNode(server, "ckpt-" + i));
        }
        assertEquals(16, controllers.provisioned());
        assertEquals(0, run.stop());
      }
    }
  }

  /**
   * A gang member's claim cannot be read (the API refuses it): live, the gang reserves all its claims before any
   * member binds, so no member is bound and no claim is annotated for a provisioner; once the API answers, the gang
   * starts whole. Binding member by member, the fifteen others would bind with their claims provisioned.
   */
  @Test
  void aGangWhoseMemberCannotReserveItsClaimBindsNoMemberAndLeavesNoClaimAnnotated(@TempDir Path dir)
      throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seed(server, "gang-16");
      String ckpt7 = ".*/namespaces/ml/persistentvolumeclaims/ckpt-7";
      server.faults().failNext(100_000, 403, "GET", ckpt7);
      try (VolumeControllers controllers = VolumeControllers.start(server);
          LiveRun run = LiveRun.start(server, dir)) {
        Await.until("the gang's bind tried ckpt-7", WAIT, () -> !server.requests("GET", ckpt7).isEmpty());
        Thread.sleep(1500); // several cycles, each placing the gang again
        for (int i = 0; i < 16; i++) {
          assertNull(nodeOf(server, "train-" + i), "train-" + i + " bound without its gang");
          assertNull(selectedNode(server, "ckpt-" + i), "ckpt-" + i + " annotated");
          assertNull(volumeOf(server, "ckpt-" + i), "ckpt-" + i + " bound");
        }
        assertEquals(0, controllers.provisioned());
        server.faults().clear();
        Await.until("the gang bound", WAIT, () -> {
          for (int i = 0; i < 16; i++) {
            if (nodeOf(server, "train-" + i) == null) {
              return false;
            }
          }
          return true;
        });
        assertEquals(16, controllers.provisioned());
        assertEquals(0, run.stop());
      }
    }
  }
  /**
   * A gang member's binding is refused by the API (an admission webhook, say) though every claim could be reserved:
   * the gang tries each member's binding (a dry run) before it writes any claim, so no member is bound, no claim is
   * annotated and no PV is provisioned or bound for it; once the API takes the binding, the gang starts whole.
   * Reserving first, the fifteen other members would bind with their claims provisioned.
   */
  @Test
  void aGangWhoseMemberBindingIsRefusedBindsNoMemberAndLeavesNoClaimAnnotatedOrBound(@TempDir Path dir)
      throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seed(server, "gang-16");
      String bind7 = ".*/namespaces/ml/pods/train-7/binding";
      server.faults().failNext(100_000, 403, "POST", bind7);
      try (VolumeControllers controllers = VolumeControllers.start(server);
          LiveRun run = LiveRun.start(server, dir)) {
        Await.until("train-7's binding tried", WAIT, () -> !server.requests("POST", bind7).isEmpty());
        Thread.sleep(1500); // several cycles, each placing the gang again
        for (int i = 0; i < 16; i++) {
          assertNull(nodeOf(server, "train-" + i), "train-" + i + " bound without its gang");
          assertNull(selectedNode(server, "ckpt-" + i), "ckpt-" + i + " annotated");
          assertNull(volumeOf(server, "ckpt-" + i), "ckpt-" + i + " bound");
        }
        for (JsonObject pv : server.list(Resources.PERSISTENT_VOLUMES, null)) {
          assertNull(pv.getAsJsonObject("spec").get("claimRef"), "a PV reserved for the gang");
        }
        assertEquals(0, controllers.provisioned());
        server.faults().clear();
        Await.until("the gang bound", WAIT, () -> {
          for (int i = 0; i < 16; i++) {
            if (nodeOf(server, "train-" + i) == null) {
              return false;
            }
          }
          return true;
        });
        assertEquals(16, controllers.provisioned());
        assertEquals(0, run.stop());
      }
    }
  }
}
