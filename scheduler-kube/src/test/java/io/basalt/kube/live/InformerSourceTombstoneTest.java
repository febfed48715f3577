package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.cache.ClusterCache;
import io.basalt.kube.gang.InferredGroups;
import io.basalt.kube.kinds.core.PodKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.cache.DeltaFIFO.DeletedFinalStateUnknown;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pod handler without a server: tombstones, re-created pods and conversion errors. */
class InformerSourceTombstoneTest {
  private final ClusterCache cache = new ClusterCache(Set.of("basalt"), "default");
  private final InformerProblems problems = new InformerProblems();
  private final InformerHandler<V1Pod> handler =
      new InformerHandler<>(new PodKind(), new CacheRecords(cache, new InferredGroups(cache, "default", Set.of(),
          w -> { }), TopologyFeed.hyperNodes()), problems);

  private static V1Pod pod(String uid, String cpu) {
    return new V1Pod().metadata(new V1ObjectMeta().name("p1").namespace("ml").uid(uid))
        .spec(new V1PodSpec().schedulerName("basalt").nodeName("n1").addContainersItem(new V1Container()
            .name("main").resources(new V1ResourceRequirements().requests(Map.of("cpu", Quantity.fromString(cpu))))));
  }

  /** client-java's tombstone (its constructor is package-private). */
  @SuppressWarnings("rawtypes")
  private static KubernetesObject tombstone(String key, V1Pod last) throws Exception {
    Constructor<DeletedFinalStateUnknown> c = DeletedFinalStateUnknown.class
        .getDeclaredConstructor(String.class, KubernetesObject.class);
    c.setAccessible(true);
    return c.newInstance(key, last);
  }

  @Test
  void tombstoneRemovesEvenWithoutAUid() throws Exception {
    handler.onAdd(pod("u1", "1"));
    assertEquals(1, cache.pods().size());
    V1Pod last = pod(null, "1");
    // Through the erased interface, as client-java would call it if a tombstone were passed on unwrapped.
    @SuppressWarnings({"unchecked", "rawtypes"})
    ResourceEventHandler<KubernetesObject> raw = (ResourceEventHandler) handler;
    raw.onDelete(tombstone("ml/p1", last), true);
    assertEquals(List.of(), cache.pods());
    handler.onDelete(last, true); // and the unwrapped form of the same delete is harmless
  }

  @Test
  void reCreatedPodUnderTheSameNameReplacesTheOld() {
    handler.onAdd(pod("u1", "1"));
    handler.onUpdate(pod("u1", "1"), pod("u2", "2"));
    assertEquals(List.of("u2"), cache.pods().stream().map(p -> p.uid()).toList());
  }

  @Test
  void conversionErrorIsRecordedOnceAndClearedByAGoodVersion() {
    handler.onAdd(pod("u1", "-1"));
    handler.onUpdate(pod("u1", "-1"), pod("u1", "-1"));
    assertNull(cache.pod("u1"));
    assertEquals(1, problems.all().size());
    assertTrue(problems.all().get(0).startsWith("Pod ml/p1: "), problems.all().get(0));
    handler.onUpdate(pod("u1", "-1"), pod("u1", "1"));
    assertEquals(List.of(), problems.all());
    assertEquals(1, cache.pods().size());
  }

  @Test
  void anUpdateWhileTheBindIsInFlightKeepsTheAssumption() {
    InformerHandler<V1Pod> sink = handler;
    V1Pod pending = pod("u1", "1");
    pending.getSpec().setNodeName(null);
    sink.onAdd(pending);
    // The binder assumes it on n1 with the GPUs it chose.
    cache.assume("u1", "n1", Map.of("basalt.io/gpu-devices", "0"));
    V1Pod withCondition = pod("u1", "1");
    withCondition.getSpec().setNodeName(null);
    withCondition.getMetadata().setResourceVersion("2");
    sink.onUpdate(pending, withCondition);
    assertEquals("n1", cache.pod("u1").nodeName(), "the status write's echo does not free the room");
    assertEquals("0", cache.pod("u1").annotations().get("basalt.io/gpu-devices"));
    cache.finishBinding("u1");
    sink.onUpdate(withCondition, withCondition);
    assertEquals("n1", cache.pod("u1").nodeName(), "after the API accepted the bind, an unbound report is stale");
    V1Pod bound = pod("u1", "1");
    bound.getMetadata().setResourceVersion("3");
    sink.onUpdate(withCondition, bound);
    assertNull(cache.pod("u1").annotations().get("basalt.io/gpu-devices"), "the informer's report of it bound stands");
  }
}
