package io.basalt.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.cache.ClusterCache;
import io.basalt.model.ClusterVolumes;
import io.basalt.model.Node;
import io.basalt.model.PersistentVolume;
import io.basalt.model.PodConstraints;
import io.basalt.model.PodVolume;
import io.basalt.model.ResourceVector;
import io.basalt.model.StorageClass;
import io.basalt.model.VolumeClaim;
import io.basalt.scheduler.BindOutcomes;
import io.basalt.session.SessionResult;
import io.basalt.testing.TestPods;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulator's binder reserves the claims of a gang's members before binding any, and a member that cannot reserve
 * unreserves the whole gang's: no claim annotated, no PV bound, nothing bound.
 */
class InMemoryBinderVolumesTest {
  private static final int MEMBERS = 16;

  private final ClusterCache cache = new ClusterCache(java.util.Set.of("basalt-scheduler"), "default");
  private final List<String> outcomes = new ArrayList<>();
  private final BindOutcomes record = new BindOutcomes() {
    @Override
    public void bound(String uid) {
      outcomes.add("bound " + uid);
    }

    @Override
    public void notBound(String uid, boolean hold) {
      outcomes.add("not bound " + uid);
    }

    @Override
    public void evicted(String uid) {}

    @Override
    public void notEvicted(String uid) {}
  };

  private List<SessionResult.Binding> gang(String pvClass) {
    cache.putNode(Node.of("node-1", ResourceVector.ZERO));
    cache.volumes().putClass(new StorageClass("fast", "ebs.csi.aws.com", StorageClass.WAIT_FOR_FIRST_CONSUMER,
        List.of()));
    cache.volumes().putClass(new StorageClass("local", StorageClass.NO_PROVISIONER,
        StorageClass.WAIT_FOR_FIRST_CONSUMER, List.of()));
    List<SessionResult.Binding> bindings = new ArrayList<>();
    for (int i = 0; i < MEMBERS; i++) {
      cache.volumes().putClaim(new VolumeClaim("ml", "ckpt-" + i, "uid-" + i, pvClass, null,
          List.of("ReadWriteOnce"), 10, null, null, null, "Pending", false));
      if (pvClass.equals("local")) {
        cache.volumes().putVolume(new PersistentVolume("pv-" + i, "local", 10, List.of("ReadWriteOnce"), null,
            List.of(), Map.of(), null, null, "Available", null));
      }
      var pod = TestPods.pod("ml/train-" + i).group("train").build()
          .withConstraints(PodConstraints.NONE.withVolumes(List.of(new PodVolume("ckpt", "ckpt-" + i, false))));
      bindings.add(new SessionResult.Binding(pod, "node-1", Map.of()));
    }
    return bindings;
  }

  @Test
  void aWholeGangIsProvisionedAndBound() {
    InMemoryBinder binder = new InMemoryBinder(() -> Instant.EPOCH, cache.volumes(), cache::node);
    binder.bind(gang("fast"), record);
    assertEquals(MEMBERS, outcomes.stream().filter(o -> o.startsWith("bound")).count(), outcomes.toString());
    ClusterVolumes v = cache.volumes().value();
    for (int i = 0; i < MEMBERS; i++) {
      VolumeClaim c = v.claim("ml", "ckpt-" + i);
      assertTrue(c.isBound(), c.toString());
      assertEquals("node-1", c.selectedNode());
    }
    assertEquals(MEMBERS, binder.volumes().size());
  }

  @Test
  void aMemberThatCannotReserveLeavesNoClaimAnnotatedForItsGang() {
    InMemoryBinder binder = new InMemoryBinder(() -> Instant.EPOCH, cache.volumes(), cache::node);
    List<SessionResult.Binding> bindings = gang("fast");
    binder.storage().refused.add("ml/ckpt-10");
    binder.bind(bindings, record);
    assertEquals(MEMBERS, outcomes.stream().filter(o -> o.startsWith("not bound")).count(), outcomes.toString());
    assertTrue(binder.bound().isEmpty());
    ClusterVolumes v = cache.volumes().value();
    for (int i = 0; i < MEMBERS; i++) {
      VolumeClaim c = v.claim("ml", "ckpt-" + i);
      assertNull(c.selectedNode(), c.toString());
      assertTrue(!c.isBound(), c.toString());
    }
  }

  @Test
  void aMemberThatCannotReserveLeavesNoStaticPvBoundForItsGang() {
    InMemoryBinder binder = new InMemoryBinder(() -> Instant.EPOCH, cache.volumes(), cache::node);
    List<SessionResult.Binding> bindings = gang("local");
    binder.storage().refused.add("ml/ckpt-15");
    binder.bind(bindings, record);
    assertTrue(binder.bound().isEmpty());
    for (PersistentVolume pv : cache.volumes().value().volumes().values()) {
      assertNull(pv.claimName(), pv.toString());
    }
  }

  // ---- live mode's gang reservation (VolumeBindStep.batch and GangReserve), over the simulated API ----

  private io.basalt.kube.volumes.VolumeBindStep liveStep() {
    return new io.basalt.kube.volumes.VolumeBindStep(new io.basalt.kube.volumes.VolumeBindStep.View() {
      @Override
      public ClusterVolumes volumes() {
        return cache.volumes().value();
      }

      @Override
      public Node node(String name) {
        return cache.node(name);
      }
    });
  }

  private InMemoryObjects api() {
    InMemoryObjects api = new InMemoryObjects();
    api.storage = new SimStorage(cache.volumes(), cache::node);
    return api;
  }

  private static java.util.Set<String> uids(List<SessionResult.Binding> bindings) {
    java.util.Set<String> out = new java.util.HashSet<>();
    bindings.forEach(b -> out.add(b.pod().uid()));
    return out;
  }

  private void assertNoClaimTouched() {
    for (VolumeClaim c : cache.volumes().value().claims().values()) {
      assertNull(c.selectedNode(), c.toString());
    }
    for (PersistentVolume pv : cache.volumes().value().volumes().values()) {
      assertNull(pv.claimName(), pv.toString());
    }
  }

  @Test
  void liveAGangReservesEveryMembersClaimsOnTheFirstMembersBind() {
    List<SessionResult.Binding> bindings = gang("local");
    var step = liveStep();
    InMemoryObjects api = api();
    step.batch(bindings, uids(bindings));
    assertEquals(io.basalt.kube.prebind.PreBindStep.State.DONE, step.preBind(bindings.get(5), api).state());
    for (PersistentVolume pv : cache.volumes().value().volumes().values()) {
      assertTrue(pv.claimName() != null, "reserved for the whole gang at once: " + pv);
    }
    for (SessionResult.Binding b : bindings) {
      assertEquals(io.basalt.kube.prebind.PreBindStep.State.DONE, step.preBind(b, api).state());
    }
  }

  @Test
  void liveAMemberThatCannotReserveFailsTheWholeGangAndUndoesItsWrites() {
    List<SessionResult.Binding> bindings = gang("fast");
    var step = liveStep();
    InMemoryObjects api = api();
    api.storage.refused.add("ml/ckpt-12"); // written after eleven others: they are undone
    step.batch(bindings, uids(bindings));
    for (SessionResult.Binding b : bindings) {
      var r = step.preBind(b, api);
      assertEquals(io.basalt.kube.prebind.PreBindStep.State.FAILED, r.state());
      assertEquals(409, r.reply().code(), "no retry reserves a member alone");
    }
    assertNoClaimTouched();
  }

  @Test
  void liveAGangSentInPartReservesNothing() {
    List<SessionResult.Binding> bindings = gang("fast");
    var step = liveStep();
    InMemoryObjects api = api();
    java.util.Set<String> sent = uids(bindings);
    sent.remove(bindings.get(3).pod().uid()); // its earlier bind still in flight
    step.batch(bindings, sent);
    for (SessionResult.Binding b : bindings) {
      if (sent.contains(b.pod().uid())) {
        assertEquals(io.basalt.kube.prebind.PreBindStep.State.FAILED, step.preBind(b, api).state());
      }
    }
    assertNoClaimTouched();
  }

  @Test
  void liveAFailedGangPlacedAgainInPartReservesNothingUntilWhole() {
    List<SessionResult.Binding> bindings = gang("fast");
    var step = liveStep();
    InMemoryObjects api = api();
    api.storage.refused.add("ml/ckpt-12");
    step.batch(bindings, uids(bindings));
    bindings.forEach(b -> step.preBind(b, api)); // fails whole
    api.storage.refused.clear();
    List<SessionResult.Binding> part = bindings.subList(0, 10); // the cycle places the others again later
    step.batch(part, uids(part));
    for (SessionResult.Binding b : part) {
      assertEquals(io.basalt.kube.prebind.PreBindStep.State.FAILED, step.preBind(b, api).state());
    }
    assertNoClaimTouched();
    step.batch(bindings, uids(bindings)); // whole again
    for (SessionResult.Binding b : bindings) {
      assertEquals(io.basalt.kube.prebind.PreBindStep.State.DONE, step.preBind(b, api).state());
    }
  }
}
