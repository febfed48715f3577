package io.basalt.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import io.basalt.session.SessionResult;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import org.junit.jupiter.api.Test;

class StatementTest {
  private final Session session = TestSessions.cluster()
      .node(TestNodes.node("n1").cpu("4").memory("8Gi").gpu(4).build())
      .pod(TestPods.pod("ns/a").cpu("1").gpu(2).build())
      .pod(TestPods.pod("ns/b").cpu("1").gpu(1).build())
      .open(PluginRegistry.of(), "actions: allocate\ntiers: []\n");

  @Test
  void discardUndoesAllocationsAndPipelines() {
    NodeInfo n1 = session.node("n1");
    TaskInfo a = TestSessions.task(session, "ns/a");
    TaskInfo b = TestSessions.task(session, "ns/b");
    Statement stmt = session.newStatement();
    stmt.allocate(a, n1);
    stmt.pipeline(b, n1);
    int gpu = ResourceNames.index("nvidia.com/gpu");
    assertEquals(2, n1.used(gpu));
    assertEquals(1, n1.pipelined(gpu));
    assertEquals(1, a.job().count(TaskStatus.ALLOCATED));
    stmt.discard();
    assertEquals(0, n1.used(gpu));
    assertEquals(0, n1.pipelined(gpu));
    assertEquals(TaskStatus.PENDING, a.status());
    assertNull(a.nodeName());
    assertEquals(1, a.job().count(TaskStatus.PENDING));
    assertEquals(0, session.tasksOn("n1").size());
  }

  @Test
  void commitBindsAllocationsOnlyWhenTheSessionCloses() {
    TaskInfo a = TestSessions.task(session, "ns/a");
    TaskInfo b = TestSessions.task(session, "ns/b");
    Statement stmt = session.newStatement();
    stmt.allocate(a, session.node("n1"));
    stmt.pipeline(b, session.node("n1"));
    stmt.commit();
    SessionResult r = session.close();
    assertEquals(1, r.bindings().size());
    assertEquals("ns/a", r.bindings().get(0).pod().key());
    SessionResult.PendingPod pending = r.pending().get(0);
    assertEquals("ns/b", pending.pod().key());
    assertEquals("n1", pending.nominatedNode());
  }
}
