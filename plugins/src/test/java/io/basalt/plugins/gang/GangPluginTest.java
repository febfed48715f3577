package io.basalt.plugins.gang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.JobInfo;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.PodGroup;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GangPluginTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(GangPlugin.descriptor());
  private static final String CONF = TestSessions.singlePlugin("gang", "");

  private static PodGroup group(String name, int min, Map<String, Integer> minTaskMember) {
    return new PodGroup("ml", name, min, minTaskMember, "default", null, null, "Inqueue", null);
  }

  private static TestSessions cluster(PodGroup pg, int pods, String role) {
    TestSessions c = TestSessions.cluster().node(TestNodes.node("n1").cpu("64").memory("64Gi").gpu(8).build())
        .podGroup(pg);
    for (int i = 0; i < pods; i++) {
      c.pod(TestPods.pod("ml/" + pg.name() + "-" + i).cpu("1").gpu(1).group(pg.name())
          .role(i == 0 ? "master" : role).build());
    }
    return c;
  }

  @Test
  void readyOnlyOnceMinMemberTasksArePlaced() {
    Session s = cluster(group("g", 3, Map.of()), 4, "worker").open(REGISTRY, CONF);
    JobInfo job = s.job("ml/g");
    Statement stmt = s.newStatement();
    stmt.allocate(job.tasks().get(0), s.node("n1"));
    stmt.allocate(job.tasks().get(1), s.node("n1"));
    assertFalse(s.callbacks().jobReady(job));
    assertTrue(s.callbacks().jobPipelined(job) == false, "2 placed of minMember 3 is not pipelined either");
    stmt.pipeline(job.tasks().get(2), s.node("n1"));
    assertFalse(s.callbacks().jobReady(job), "a pipelined member is not ready");
    assertTrue(s.callbacks().jobPipelined(job));
    stmt.discard();
    stmt = s.newStatement();
    for (int i = 0; i < 3; i++) {
      stmt.allocate(job.tasks().get(i), s.node("n1"));
    }
    assertTrue(s.callbacks().jobReady(job));
  }

  @Test
  void minTaskMemberIsCheckedPerRole() {
    Session s = cluster(group("g", 2, Map.of("master", 1, "worker", 1)), 3, "worker").open(REGISTRY, CONF);
    JobInfo job = s.job("ml/g");
    Statement stmt = s.newStatement();
    stmt.allocate(job.tasks().get(1), s.node("n1"));
    stmt.allocate(job.tasks().get(2), s.node("n1"));
    assertEquals(2, job.readyTaskNum());
    assertFalse(s.callbacks().jobReady(job), "two workers but no master");
    stmt.allocate(job.tasks().get(0), s.node("n1"));
    assertTrue(s.callbacks().jobReady(job));
  }

  @Test
  void jobWithFewerPodsThanMinMemberIsInvalid() {
    Session s = cluster(group("g", 4, Map.of()), 3, "worker").open(REGISTRY, CONF);
    assertEquals("PodGroup ml/g has 3 valid pods, fewer than minMember 4", s.jobInvalidReason(s.job("ml/g")));
    Session ok = cluster(group("h", 3, Map.of()), 3, "worker").open(REGISTRY, CONF);
    assertNull(ok.jobInvalidReason(ok.job("ml/h")));
  }

  @Test
  void missingRoleMakesTheJobInvalid() {
    Session s = cluster(group("g", 1, Map.of("ps", 1)), 2, "worker").open(REGISTRY, CONF);
    assertEquals("PodGroup ml/g has 0 valid pods of task 'ps', fewer than minTaskMember 1",
        s.jobInvalidReason(s.job("ml/g")));
  }

  @Test
  void notReadyJobsComeFirst() {
    TestSessions c = cluster(group("a", 1, Map.of()), 1, "w");
    c.podGroup(group("b", 1, Map.of())).pod(TestPods.pod("ml/b-0").cpu("1").group("b").onNode("n1").build());
    Session s = c.open(REGISTRY, CONF);
    assertTrue(s.callbacks().jobOrder().compare(s.job("ml/a"), s.job("ml/b")) < 0, "a is not ready, b already runs");
    assertTrue(s.callbacks().jobOrder().compare(s.job("ml/b"), s.job("ml/a")) > 0);
  }

  @Test
  void closeWritesTheUnschedulableConditionWithCounts() {
    Session s = cluster(group("g", 3, Map.of()), 3, "worker").open(REGISTRY, CONF);
    JobInfo job = s.job("ml/g");
    job.setFitError("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
    s.close();
    assertEquals("Unschedulable", job.conditions().get(0).type());
    assertEquals("NotEnoughResources", job.conditions().get(0).reason());
    assertEquals("3/3 tasks in gang unschedulable: 0/1 nodes are available: 1 Insufficient nvidia.com/gpu.",
        job.conditions().get(0).message());
  }
}
