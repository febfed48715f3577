package io.basalt.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.ConfLoader;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.session.ExplainRecorder;
import io.basalt.session.SessionResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fast paths of node search (verdicts kept per task key and node, the tree per common key, the free-capacity
 * seek, the no-fit memo) decide exactly what asking every plugin about every node decides: the bench's workload at
 * 110% GPU demand (placements, preemptions and reclaims) run through both, cycle by cycle, gives the same bindings
 * and evictions, and the same pending reasons. Explaining turns every fast path off (tasks and jobs are built anew
 * each cycle too, see {@code KeptTasks}), so the explaining engine is the reference.
 */
class KeptVerdictsEquivalenceTest {
  /** Explaining, recording nothing: the engine asks every filter and scorer about every node it visits. */
  private static final ExplainRecorder ASK_EVERY_NODE = new ExplainRecorder() {
    @Override
    public boolean enabled() {
      return true;
    }

    @Override
    public void filtered(TaskInfo task, NodeInfo node, String reason) {}

    @Override
    public void scored(TaskInfo task, NodeInfo node, String plugin, double score) {}

    @Override
    public void chosen(TaskInfo task, NodeInfo node) {}
  };

  @Test
  void fastAndPlainSearchesDecideAlike() throws Exception {
    compare(BenchCommand.DEFAULT_CONF, true);
  }

  /** gpu-fragmentation names no key: verdicts are kept without scores, and gpu-aware / deviceshare keyed. */
  @Test
  void fastAndPlainSearchesDecideAlikeWithTheGpuClusterTiers() throws Exception {
    compare(Files.readString(repoFile("config/gpu-cluster.conf")), false); // it packs: nothing to evict
  }

  private static Path repoFile(String relative) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(relative))) {
        return dir.resolve(relative);
      }
    }
    throw new IllegalStateException(relative + " not found above " + Path.of("").toAbsolutePath());
  }

  private static void compare(String conf, boolean evicts) throws Exception {
    Workload workload = new WorkloadGenerator(400, 7, 110, 4).generate();
    InProcessEngine fast = new InProcessEngine(InProcessEngine.compile(ConfLoader.parse(conf, "test"), "test"),
        WorkloadGenerator.SCHEDULER_NAME);
    InProcessEngine plain = new InProcessEngine(InProcessEngine.compile(ConfLoader.parse(conf, "test"), "test"),
        WorkloadGenerator.SCHEDULER_NAME);
    for (InProcessEngine e : List.of(fast, plain)) {
      for (Node n : workload.nodes()) {
        e.cache().putNode(n);
      }
      workload.queues().forEach(e.cache()::putQueue);
    }
    List<List<Workload.Submission>> batches = workload.batches(300);
    int bindings = 0;
    int evictions = 0;
    for (int cycle = 0; cycle < batches.size() + 6; cycle++) {
      if (cycle < batches.size()) {
        for (InProcessEngine e : List.of(fast, plain)) {
          for (Workload.Submission s : batches.get(cycle)) {
            if (s.podGroup() != null) {
              e.cache().putPodGroup(s.podGroup());
            }
            for (Pod p : s.pods()) {
              e.cache().putPod(p);
            }
          }
        }
      }
      SessionResult a = fast.runOnce();
      SessionResult b = plain.runOnce(ASK_EVERY_NODE);
      assertSameDecisions(cycle, decisions(b), decisions(a));
      bindings += a.bindings().size();
      evictions += a.evictions().size();
      fast.status().finishTerminating();
      plain.status().finishTerminating();
    }
    assertTrue(bindings > 500, "the workload placed pods: " + bindings);
    assertTrue(!evicts || evictions > 0, "and preempted or reclaimed some: " + evictions);
  }

  /** The first decision that differs, not two lists of hundreds. */
  private static void assertSameDecisions(int cycle, List<String> plain, List<String> fast) {
    for (int i = 0; i < Math.min(plain.size(), fast.size()); i++) {
      assertEquals(plain.get(i), fast.get(i), "cycle " + cycle + ", decision " + i);
    }
    assertEquals(plain.size(), fast.size(), "cycle " + cycle + ": decisions");
  }

  private static List<String> decisions(SessionResult r) {
    List<String> out = new ArrayList<>();
    r.bindings().forEach(b -> out.add("bind " + b.pod().key() + " " + b.node() + " " + b.annotations()));
    r.evictions().forEach(e -> out.add("evict " + e.pod().key() + ": " + e.reason()));
    r.pending().forEach(p -> out.add("pending " + p.pod().key() + " " + p.nominatedNode() + ": " + p.reason()));
    return out;
  }
}
