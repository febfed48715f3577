package io.basalt.actions;

import static io.basalt.testing.TestQueues.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.PodGroup;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class VictimPlannerTest {
  private static final String QUEUE = "scheduling.volcano.sh/queue-name";

  private static PodGroup gang(String name, String queue) {
    return new PodGroup("ns", name, 3, Map.of(), queue, null, null, "Running", Instant.ofEpochSecond(1_600_000_000L));
  }

  @Test
  void theScopeIsAskedOncePerJobAndOnlyItsQueuesGiveUnits() {
    TestSessions c = TestSessions.cluster().node(TestNodes.node("n1").cpu("64").build())
        .queue(queue("a")).queue(queue("b")).queue(queue("c"))
        .pod(TestPods.pod("ns/asker").cpu("1").annotation(QUEUE, "a").build());
    String[][] gangs = {{"g1", "b"}, {"g2", "c"}, {"g3", "b"}};
    for (String[] g : gangs) {
      c.podGroup(gang(g[0], g[1]));
      for (int i = 0; i < 3; i++) {
        c.pod(TestPods.pod("ns/" + g[0] + "-" + i).cpu("1").group(g[0]).onNode("n1").build());
      }
    }
    Session s = c.open(PluginRegistry.of(), "actions: \"reclaim\"\ntiers: []\n");
    List<TaskInfo> running = new ArrayList<>();
    TaskInfo asker = null;
    for (JobInfo job : s.jobs()) {
      for (TaskInfo t : job.tasks()) {
        if (VictimPlanner.isRunning(t)) {
          running.add(t);
        } else {
          asker = t;
        }
      }
    }
    assertEquals(9, running.size());
    TestScope scope = TestScope.onlyQueue("b");
    List<VictimPlanner.Unit> units = VictimPlanner.units(s, asker, scope, running);
    assertEquals(3, scope.asked, "once per running job, not per pod");
    Set<String> jobs = new TreeSet<>();
    for (VictimPlanner.Unit u : units) {
      assertEquals(3, u.tasks().size(), "whole gangs: none has a pod to spare");
      jobs.add(u.job().podGroup().name());
    }
    assertEquals(Set.of("g1", "g3"), jobs);
  }
}
