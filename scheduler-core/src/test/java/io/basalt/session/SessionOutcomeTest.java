package io.basalt.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.PodGroup;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Pending pods get their job's reasons, each worked out once per job however many pods wait. */
class SessionOutcomeTest {
  private final Map<String, Integer> validityAsked = new HashMap<>();

  /** Calls the job "ns/bad" invalid and counts how often each job's validity is asked. */
  private final class CountingValidity implements Plugin {
    @Override
    public String name() {
      return "test";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      registrar.addJobValid(job -> {
        validityAsked.merge(job.key(), 1, Integer::sum);
        return job.key().equals("ns/bad") ? "bad is broken" : null;
      });
    }
  }

  private static PodGroup gang(String name) {
    return new PodGroup("ns", name, 3, Map.of(), "default", null, null, "Pending",
        Instant.ofEpochSecond(1_600_000_000L));
  }

  @Test
  void eachJobsReasonsAreWorkedOutOnceAndGoToEveryPendingPod() {
    TestSessions cluster = TestSessions.cluster().node(TestNodes.node("n1").cpu("1").build());
    for (String g : new String[] {"bad", "waiting"}) {
      cluster.podGroup(gang(g));
      for (int i = 0; i < 3; i++) {
        cluster.pod(TestPods.pod("ns/" + g + "-" + i).cpu("1").group(g).build());
      }
    }
    Session s = cluster.open(PluginRegistry.of(PluginDescriptor.of("test", CountingValidity::new)),
        "actions: \"enqueue\"\ntiers:\n- plugins:\n  - name: test\n");
    validityAsked.clear();
    SessionResult r = s.close();
    Map<String, String> reasons = new TreeMap<>();
    r.pending().forEach(p -> reasons.put(p.pod().key(), p.reason()));
    String waiting = "PodGroup ns/waiting is waiting to be admitted (enqueue)";
    assertEquals(Map.of("ns/bad-0", "bad is broken", "ns/bad-1", "bad is broken", "ns/bad-2", "bad is broken",
        "ns/waiting-0", waiting, "ns/waiting-1", waiting, "ns/waiting-2", waiting), reasons);
    assertEquals(Map.of("ns/bad", 1, "ns/waiting", 1), validityAsked, "once per job, not per pod");
  }

  /**
   * A queue's status counts its jobs by closing phase and sums what its running pods hold (pods slot aside); pending
   * jobs add nothing to it and the other queue's pods nothing at all.
   */
  @Test
  void queueStatusCountsJobsByPhaseAndSumsItsRunningPods() {
    io.basalt.model.Queue other = new io.basalt.model.Queue("other", 1, null, null, null, true, 0, null, "Open",
        Map.of());
    String queueKey = "scheduling.volcano.sh/queue-name";
    io.basalt.model.Pod a = TestPods.pod("ns/run-a").cpu("2").memory("1Gi").onNode("n1").build();
    io.basalt.model.Pod b = TestPods.pod("ns/run-b").cpu("1").onNode("n1").build();
    Session s = TestSessions.cluster().node(TestNodes.node("n1").cpu("8").build()).queue(other)
        .pod(a).pod(b)
        .pod(TestPods.pod("ns/waiting").cpu("64").build())
        .pod(TestPods.pod("ns/elsewhere").cpu("3").onNode("n1").annotation(queueKey, "other").build())
        .podGroup(gang("gang"))
        .pod(TestPods.pod("ns/gang-0").cpu("1").group("gang").build())
        .open(PluginRegistry.of(), "actions: \"enqueue\"\ntiers: []\n");
    Map<String, SessionResult.QueueStatus> byName = new TreeMap<>();
    s.close().queues().forEach(q -> byName.put(q.name(), q));
    SessionResult.QueueStatus def = byName.get("default");
    assertEquals(java.util.List.of(2, 0, 2), java.util.List.of(def.pending(), def.inqueue(), def.running()));
    assertEquals(a.request().plus(b.request()).without(io.basalt.model.ResourceNames.PODS), def.allocated());
    SessionResult.QueueStatus o = byName.get("other");
    assertEquals(java.util.List.of(0, 0, 1), java.util.List.of(o.pending(), o.inqueue(), o.running()));
    assertEquals(io.basalt.model.ResourceVector.parse(Map.of("cpu", "3")), o.allocated());
  }
}
