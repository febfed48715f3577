package io.basalt.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.config.Arguments;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.Vote;
import io.basalt.model.PodGroup;
import io.basalt.session.Session;
import io.basalt.session.SessionResult;
import io.basalt.testing.CountingSelector;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A gang keeps placing past a task that fits nowhere while the rest can still make it ready, skips the failed role's
 * other pods, and stops as soon as readiness is out of reach. A test plugin stands in for gang and predicates and
 * counts the filter calls each pod costs.
 */
class JobPlacerTest {
  private final Map<String, Integer> filterCalls = new HashMap<>();

  /** Gang's permit (minMember and minTaskMember) and a nodeSelector filter that counts its calls per pod. */
  private final class GangAndSelector implements Plugin {
    @Override
    public String name() {
      return "test";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      registrar.addJobReady(job -> enough(job, false));
      registrar.addJobPipelined(job -> enough(job, true) ? Vote.PERMIT : Vote.reject("gang not pipelined"));
      registrar.addFilter(CountingSelector.counting(filterCalls));
    }
  }

  private static boolean enough(JobInfo job, boolean countPipelined) {
    Map<String, Integer> placed = new HashMap<>();
    int total = 0;
    for (TaskInfo t : job.tasks()) {
      if (t.status().isReady() || (countPipelined && t.status() == TaskStatus.PIPELINED)) {
        placed.merge(t.role(), 1, Integer::sum);
        total++;
      }
    }
    for (Map.Entry<String, Integer> e : job.minTaskMember().entrySet()) {
      if (placed.getOrDefault(e.getKey(), 0) < e.getValue()) {
        return false;
      }
    }
    return total >= job.minMember();
  }

  private static PodGroup group(int minMember, Map<String, Integer> minTaskMember) {
    return new PodGroup("ns", "job", minMember, minTaskMember, "default", null, null, "Pending",
        Instant.ofEpochSecond(1_600_000_000L));
  }

  /** A 4-cpu pod of the job; {@code index} tells pods of one role apart, as Volcano's task-index annotation does. */
  private static TestPods member(String name, String role, int index) {
    TestPods p = TestPods.pod("ns/" + name).cpu("4").group("job").annotation("volcano.sh/task-index", "" + index);
    return role.isEmpty() ? p : p.role(role).nodeSelector("role", role);
  }

  private SessionResult allocate(TestSessions cluster) {
    Session s = cluster.open(PluginRegistry.of(PluginDescriptor.of("test", GangAndSelector::new)),
        "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: test\n");
    ActionRegistry.builtin().create("enqueue", Arguments.empty()).execute(s);
    ActionRegistry.builtin().create("allocate", Arguments.empty()).execute(s);
    return s.close();
  }

  private static Set<String> bound(SessionResult r) {
    Set<String> keys = new TreeSet<>();
    r.bindings().forEach(b -> keys.add(b.pod().key()));
    return keys;
  }

  private int calls(String pod) {
    return filterCalls.getOrDefault("ns/" + pod, 0);
  }

  @Test
  void aFailedRolesOtherPodsAreSkippedWhileTheOtherRoleStillStarts() {
    TestSessions cluster = TestSessions.cluster()
        .node(TestNodes.node("ps-node").cpu("4").label("role", "ps").build())
        .node(TestNodes.node("worker-node").cpu("4").label("role", "worker").build())
        .podGroup(group(2, Map.of("ps", 1, "worker", 1)));
    for (int i = 0; i < 4; i++) {
      cluster.pod(member("ps-" + i, "ps", i).build());
    }
    for (int i = 0; i < 2; i++) {
      cluster.pod(member("worker-" + i, "worker", i).build());
    }
    SessionResult r = allocate(cluster);
    assertEquals(Set.of("ns/ps-0", "ns/worker-0"), bound(r), "one ps and one worker start though ps-1 fits nowhere");
    assertTrue(calls("ps-1") > 0, "the first ps that does not fit is searched");
    // ps-2 and ps-3 differ from ps-1 by their task-index, so only the failed role, not the search's shape memo,
    // spares them a search.
    assertEquals(0, calls("ps-2"), "the failed role's other pods are not searched");
    assertEquals(0, calls("ps-3"));
  }

  @Test
  void keepsPlacingPastUnfitPodsWhileTheRestCanStillMakeTheGangReady() {
    TestSessions cluster = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("16").label("zone", "a").build())
        .podGroup(group(3, Map.of()))
        .pod(member("p-0", "", 0).nodeSelector("zone", "b").build())
        .pod(member("p-1", "", 1).nodeSelector("zone", "c").build());
    for (int i = 2; i < 5; i++) {
      cluster.pod(member("p-" + i, "", i).build());
    }
    SessionResult r = allocate(cluster);
    assertEquals(Set.of("ns/p-2", "ns/p-3", "ns/p-4"), bound(r));
    assertEquals("0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
        r.pending().get(0).reason(), "the job's fit error names why a pod did not fit");
  }

  @Test
  void stopsAtTheFailureAfterWhichTheGangCanNoLongerBeReady() {
    TestSessions cluster = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("16").label("zone", "a").build())
        .podGroup(group(4, Map.of()))
        .pod(member("p-0", "", 0).nodeSelector("zone", "b").build())
        .pod(member("p-1", "", 1).nodeSelector("zone", "c").build());
    for (int i = 2; i < 5; i++) {
      cluster.pod(member("p-" + i, "", i).build());
    }
    SessionResult r = allocate(cluster);
    assertEquals(Set.of(), bound(r));
    assertTrue(calls("p-1") > 0, "after p-0 fails, four pods remain for minMember 4: p-1 is tried");
    assertEquals(0, calls("p-2"), "after p-1 fails, three remain: nothing more is tried");
  }

  @Test
  void stopsWhenARoleCanNoLongerReachItsMinimum() {
    TestSessions cluster = TestSessions.cluster()
        .node(TestNodes.node("ps-node").cpu("4").label("role", "ps").build())
        .node(TestNodes.node("worker-node").cpu("8").label("role", "worker").build())
        .podGroup(group(3, Map.of("ps", 2, "worker", 1)))
        .pod(member("ps-0", "ps", 0).build())
        .pod(member("ps-1", "ps", 1).build())
        .pod(member("worker-0", "worker", 0).build())
        .pod(member("worker-1", "worker", 1).build());
    SessionResult r = allocate(cluster);
    assertEquals(Set.of(), bound(r), "all or nothing: ps-0 is rolled back");
    assertTrue(calls("ps-1") > 0);
    assertEquals(0, calls("worker-0"), "with one of two ps placed and none left, the workers are not tried");
    assertEquals(4, r.pending().size());
  }
}
