package io.basalt.plugins.overcommit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.Arguments;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Vote;
import io.basalt.model.PodGroup;
import io.basalt.model.ResourceVector;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OvercommitPluginTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(OvercommitPlugin.descriptor());

  private static PodGroup pending(String name, String gpus) {
    return new PodGroup("ml", name, 1, Map.of(), "default", null,
        ResourceVector.parse(Map.of("nvidia.com/gpu", gpus)), "Pending", null);
  }

  /** 10 GPUs, 4 used: with factor 1.2 the admission budget is 10 * 1.2 - 4 = 8 GPUs. */
  private Session session(String factorArgs) {
    return TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("64").gpu(10).build())
        .pod(TestPods.pod("ml/running").gpu(4).onNode("n1").build())
        .podGroup(pending("a", "5"))
        .podGroup(pending("b", "3"))
        .podGroup(pending("c", "1"))
        .pod(TestPods.pod("ml/a-0").group("a").gpu(5).build())
        .pod(TestPods.pod("ml/b-0").group("b").gpu(3).build())
        .pod(TestPods.pod("ml/c-0").group("c").gpu(1).build())
        .open(REGISTRY, TestSessions.singlePlugin("overcommit", factorArgs));
  }

  @Test
  void admitsWhileMinResourcesFitTheOvercommittedIdle() {
    Session s = session("");
    assertEquals(Vote.PERMIT, s.callbacks().jobEnqueueable(s.job("ml/a")));
    s.enqueue(s.job("ml/a"));
    assertEquals(Vote.PERMIT, s.callbacks().jobEnqueueable(s.job("ml/b")), "5 + 3 = 8 fits the budget of 8");
    s.enqueue(s.job("ml/b"));
    Vote c = s.callbacks().jobEnqueueable(s.job("ml/c"));
    assertTrue(c.isReject(), "5 + 3 + 1 = 9 exceeds 8");
    assertTrue(c.reason().contains("nvidia.com/gpu"), c.reason());
  }

  @Test
  void aLargerFactorAdmitsMore() {
    Session s = session("overcommit-factor: 1.3");
    s.enqueue(s.job("ml/a"));
    s.enqueue(s.job("ml/b"));
    assertEquals(Vote.PERMIT, s.callbacks().jobEnqueueable(s.job("ml/c")), "budget 10 * 1.3 - 4 = 9");
  }

  @Test
  void factorBelowOneIsAConfigProblem() {
    Arguments args = new Arguments(Map.of("overcommit-factor", 0.5), "tiers[1].plugins[0] (overcommit)");
    OvercommitPlugin.descriptor().read().apply(args);
    assertEquals(List.of("tiers[1].plugins[0] (overcommit): argument 'overcommit-factor' must be at least 1.0, got 0.5"),
        args.problems());
  }

  @Test
  void rejectionSaysWhatAdmittedJobsNeedAndWhatIsLeft() {
    Session s = session("");
    s.enqueue(s.job("ml/a"));
    s.enqueue(s.job("ml/b"));
    assertEquals("cluster nvidia.com/gpu would be overcommitted: admitted jobs need 9, capacity x 1.2 minus used "
        + "leaves 8", s.callbacks().jobEnqueueable(s.job("ml/c")).reason());
  }

  /** A rejection is kept for the next job of the same size only until a job is admitted. */
  @Test
  void aKeptRejectionIsAskedAgainOnceAJobIsAdmitted() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("64").gpu(10).build())
        .pod(TestPods.pod("ml/running").gpu(4).onNode("n1").build())
        .podGroup(pending("big1", "9"))
        .podGroup(pending("big2", "9"))
        .podGroup(pending("small", "2"))
        .pod(TestPods.pod("ml/big1-0").group("big1").gpu(9).build())
        .pod(TestPods.pod("ml/big2-0").group("big2").gpu(9).build())
        .pod(TestPods.pod("ml/small-0").group("small").gpu(2).build())
        .open(REGISTRY, TestSessions.singlePlugin("overcommit", ""));
    String first = s.callbacks().jobEnqueueable(s.job("ml/big1")).reason();
    assertEquals("cluster nvidia.com/gpu would be overcommitted: admitted jobs need 9, capacity x 1.2 minus used "
        + "leaves 8", first);
    assertEquals(first, s.callbacks().jobEnqueueable(s.job("ml/big2")).reason());
    s.enqueue(s.job("ml/small"));
    assertEquals("cluster nvidia.com/gpu would be overcommitted: admitted jobs need 11, capacity x 1.2 minus used "
        + "leaves 8", s.callbacks().jobEnqueueable(s.job("ml/big2")).reason(), "asked again against 2 admitted");
  }

  /** The sum taken at open in one array is the sum of each admitted job's unplaced part, as vectors. */
  @Test
  void admittedUnplacedIsTheSumOfEachAdmittedJobsUnplacedPart() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("64").gpu(10).build())
        .podGroup(new PodGroup("ml", "half", 4, Map.of(), "default", null,
            ResourceVector.parse(Map.of("nvidia.com/gpu", "4", "cpu", "8")), "Inqueue", null))
        .podGroup(pending("waiting", "2"))
        .pod(TestPods.pod("ml/half-0").group("half").gpu(1).cpu("2").onNode("n1").build())
        .pod(TestPods.pod("ml/half-1").group("half").gpu(1).cpu("2").build())
        .pod(TestPods.pod("ml/waiting-0").group("waiting").gpu(2).build())
        .pod(TestPods.pod("ml/solo").gpu(1).cpu("1").onNode("n1").build())
        .open(REGISTRY, TestSessions.singlePlugin("overcommit", ""));
    ResourceVector expected = ResourceVector.ZERO;
    for (io.basalt.api.JobInfo job : s.jobs()) {
      if (job.phase() != io.basalt.api.PodGroupPhase.PENDING) {
        expected = expected.plus(OvercommitPlugin.unplaced(job));
      }
    }
    assertEquals(ResourceVector.parse(Map.of("nvidia.com/gpu", "3", "cpu", "6")), expected);
    assertEquals(expected, OvercommitPlugin.admittedUnplaced(s.jobs()));
  }

  /** A succeeded pod counts as placed for minResources though it holds nothing: the sum walks such a job. */
  @Test
  void admittedUnplacedCountsSucceededPodsAsPlaced() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("64").gpu(10).build())
        .podGroup(new PodGroup("ml", "done", 3, Map.of(), "default", null,
            ResourceVector.parse(Map.of("nvidia.com/gpu", "3", "cpu", "6")), "Running", null))
        .pod(TestPods.pod("ml/done-0").group("done").gpu(1).cpu("2").onNode("n1").phase("Succeeded").build())
        .pod(TestPods.pod("ml/done-1").group("done").gpu(1).cpu("2").onNode("n1").build())
        .pod(TestPods.pod("ml/done-2").group("done").gpu(1).cpu("2").build())
        .open(REGISTRY, TestSessions.singlePlugin("overcommit", ""));
    ResourceVector expected = ResourceVector.ZERO;
    for (io.basalt.api.JobInfo job : s.jobs()) {
      expected = expected.plus(OvercommitPlugin.unplaced(job));
    }
    assertEquals(ResourceVector.parse(Map.of("nvidia.com/gpu", "1", "cpu", "2")), expected);
    assertEquals(expected, OvercommitPlugin.admittedUnplaced(s.jobs()));
  }
}
