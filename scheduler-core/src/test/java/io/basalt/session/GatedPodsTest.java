package io.basalt.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.JobInfo;
import io.basalt.api.KeptTasks;
import io.basalt.cache.ClusterCache;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A pod with scheduling gates is no task: nothing searches for it, admits it or counts it; its gang learns how many
 * of its pods wait on gates; the session reports it pending with reason SchedulingGated.
 */
class GatedPodsTest {
  private static final String NO_PLUGINS = "actions: \"enqueue, allocate\"\ntiers: []\n";

  private static Pod gated(TestPods pod, String... gates) {
    return pod.build().withConstraints(
        new PodConstraints(List.of(gates), null, null, null, null, null, null, null, null));
  }

  private static SessionResult.PendingPod pending(SessionResult r, String key) {
    return r.pending().stream().filter(p -> p.pod().key().equals(key)).findFirst()
        .orElseThrow(() -> new AssertionError(key + " not pending: " + r.pending()));
  }

  @Test
  void aGatedPodIsNoTaskAndIsReportedSchedulingGated() {
    Pod g = gated(TestPods.pod("ml/g").cpu("1"), "example.com/a", "example.com/b");
    Pod plain = TestPods.pod("ml/plain").cpu("1").build();
    Session s = TestSessions.cluster().node(TestNodes.node("n1").cpu("8").build()).pod(g).pod(plain)
        .open(PluginRegistry.of(), NO_PLUGINS);
    assertNull(s.job("ml/g"), "no job for a gated pod");
    assertEquals(1, s.jobs().size());
    SessionResult r = s.close();
    SessionResult.PendingPod p = pending(r, "ml/g");
    assertEquals("SchedulingGated: waiting for scheduling gates: [example.com/a example.com/b]", p.reason());
    assertTrue(p.gated());
    assertEquals("default", p.queue());
    assertNull(p.nominatedNode());
    assertTrue(!pending(r, "ml/plain").gated());
  }

  @Test
  void aGangLearnsItsGatedPodsAndTheirRequestsLeaveItsMinResources() {
    ResourceVector min = ResourceVector.parse(Map.of("cpu", "3", "memory", "3Gi"));
    PodGroup pg = new PodGroup("ml", "train", 3, Map.of(), "default", null, min, "Inqueue", Instant.EPOCH);
    Session s = TestSessions.cluster().node(TestNodes.node("n1").cpu("8").build()).podGroup(pg)
        .pod(gated(TestPods.pod("ml/train-0").cpu("1").memory("2Gi").group("train"), "wait"))
        .pod(TestPods.pod("ml/train-1").cpu("1").memory("1Gi").group("train").build())
        .pod(TestPods.pod("ml/train-2").cpu("1").memory("1Gi").group("train").build())
        .open(PluginRegistry.of(), NO_PLUGINS);
    JobInfo job = s.job("ml/train");
    assertEquals(2, job.tasks().size(), "the gated pod is no task");
    assertEquals(2, job.validTaskNum());
    assertEquals(1, job.gatedTaskNum());
    assertEquals(ResourceVector.parse(Map.of("cpu", "2", "memory", "1Gi")), job.minResources(),
        "3 cpu less the gated pod's 1; 3Gi less its 2Gi");
    assertSame(pg.minResources(), s.job("ml/train").podGroup().minResources(), "the PodGroup itself unchanged");
    assertEquals("default", pending(s.close(), "ml/train-0").queue());
  }

  @Test
  void ungatingMakesANewPodRecordThatTheNextSessionSchedules() {
    ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), Queue.DEFAULT);
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    Pod waiting = gated(TestPods.pod("ml/w").cpu("1"), "wait");
    cache.putPod(waiting);
    KeptTasks kept = new KeptTasks();
    Session first = Session.open(cache.snapshot(), TestSessions.sessionProfile(PluginRegistry.of(),
        TestSessions.parse(NO_PLUGINS)), ExplainRecorder.NONE, kept);
    assertNull(first.job("ml/w"));
    assertEquals(0, kept.size(), "nothing kept for a gated pod");
    first.close();
    cache.putPod(waiting.withConstraints(waiting.constraints().withoutGates()));
    Session second = Session.open(cache.snapshot(), TestSessions.sessionProfile(PluginRegistry.of(),
        TestSessions.parse(NO_PLUGINS)), ExplainRecorder.NONE, kept);
    assertEquals(1, second.job("ml/w").tasks().size(), "ungated: a task like any other");
    assertTrue(second.close().pending().stream().noneMatch(SessionResult.PendingPod::gated));
  }
}
