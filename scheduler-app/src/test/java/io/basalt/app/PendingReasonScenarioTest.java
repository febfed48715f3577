package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.ConfLoader;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.ReportFormat;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Issue #12's "reasons that tell the truth": what each pending pod is told, and why. */
class PendingReasonScenarioTest {
  @Test
  void aSingleQueueWhoseGangCannotFitIsToldTheClusterLacksRoomNotThatItReachedItsShare() throws Exception {
    // 6 nodes x 8 GPUs; 41 of 48 GPUs run in the only queue; a 2 x 8-GPU gang needs 16.
    StringBuilder cluster = new StringBuilder(nodes(6));
    for (int i = 1; i <= 5; i++) {
      cluster.append(pod("run-" + i, 8, "gpu-" + i, null));
    }
    cluster.append(pod("run-6", 1, "gpu-6", null)).append(podGroup("big", "default", 2))
        .append(pod("big-0", 8, null, "big")).append(pod("big-1", 8, null, "big"));
    SimulationReport r = simulate(cluster.toString(), null);
    String reason = r.pendingPod("ml/big-0").reason();
    assertTrue(reason.contains("the cluster lacks 9 nvidia.com/gpu (needs 16, free 7)"), reason);
    assertFalse(reason.contains("reached its share"), reason);
    assertEquals("2/2 tasks in gang unschedulable: not tried after ml/big-0: the cluster lacks 9 nvidia.com/gpu "
        + "(needs 16, free 7) for the 2 pods of ml/big", r.pendingPod("ml/big-1").reason());
  }

  @Test
  void aQueueAtItsCapabilityWhileTheClusterHasRoomIsToldItReachedItsShare() throws Exception {
    String cluster = queue("team-a", "capability: {nvidia.com/gpu: 16}") + nodes(4)
        + pod("a-0", 8, "gpu-1", null, "team-a") + pod("a-1", 8, "gpu-2", null, "team-a")
        + pod("a-2", 8, null, null, "team-a");
    // Without enqueue the capacity plugin's admission check does not run first; allocate meets the cap itself.
    SimulationReport r = simulate(cluster, """
        actions: "allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}]
        - plugins: [{name: predicates}, {name: capacity}]
        """);
    assertEquals("queue team-a has reached its share: no room for ml/a-2 {nvidia.com/gpu: 8}",
        r.pendingPod("ml/a-2").reason());
  }

  @Test
  void aPodWaitingOnlyBecauseItsQueueIsOverusedSaysSo() throws Exception {
    // 4 nodes x 8 GPUs; team-a (weight 1) holds 24, team-b (weight 1) asks for 8: team-a deserves 16 and waits.
    String cluster = queue("team-a", "weight: 1") + queue("team-b", "weight: 1") + nodes(4)
        + pod("a-0", 8, "gpu-1", null, "team-a") + pod("a-1", 8, "gpu-2", null, "team-a")
        + pod("a-2", 8, "gpu-3", null, "team-a") + pod("a-3", 8, null, null, "team-a")
        + pod("b-0", 8, null, null, "team-b");
    SimulationReport r = simulate(cluster, """
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}, {name: conformance}]
        - plugins: [{name: predicates}, {name: proportion}, {name: nodeorder}]
        """);
    assertNotNull(r.binding("ml/b-0"));
    assertEquals("queue team-a is overused (it holds at least its deserved share): its jobs wait until its usage "
        + "falls below that share", r.pendingPod("ml/a-3").reason());
    assertTrue(r.queues().stream().anyMatch(q -> q.name().equals("team-a") && q.overused()));
  }

  @Test
  void eachGangMemberIsToldItsOwnReason() throws Exception {
    SimulationReport r = Scenarios.run("gang-partial");
    String fitted = r.pendingPod("ml/train-0").reason();
    assertTrue(fitted.startsWith("4/4 tasks in gang unschedulable: fits on node gpu-"), fitted);
    assertTrue(fitted.contains(", but its gang cannot start: ml/train-2: the cluster lacks 4 nvidia.com/gpu"),
        fitted);
    assertEquals("4/4 tasks in gang unschedulable: the cluster lacks 4 nvidia.com/gpu (needs 12, free 8) for the "
        + "4 pods of ml/train", r.pendingPod("ml/train-2").reason());
    assertTrue(r.pendingPod("ml/train-3").reason().contains("not tried after ml/train-2"));
    assertEquals(4, r.pending().stream().map(SimulationReport.Pending::reason).distinct().count(),
        "no reason copied from one pod to the next");
  }

  /** Every "0/N nodes are available: ..." in every fixture counts each node once: the counts add up to N. */
  @Test
  void nodeCountsInEveryFitErrorAddUp() throws Exception {
    Pattern head = Pattern.compile("0/(\\d+) nodes are available: ([^.]*)\\.");
    Pattern count = Pattern.compile("(?:^|, )(\\d+) ");
    int checked = 0;
    for (String fixture : fixtures()) {
      for (SimulationReport.Pending p : Scenarios.run(fixture).pending()) {
        Matcher m = head.matcher(p.reason());
        while (m.find()) {
          int sum = 0;
          Matcher c = count.matcher(m.group(2));
          while (c.find()) {
            sum += Integer.parseInt(c.group(1));
          }
          assertEquals(Integer.parseInt(m.group(1)), sum, fixture + " " + p.pod() + ": " + p.reason());
          checked++;
        }
      }
    }
    assertTrue(checked >= 2, "only " + checked + " fit errors seen");
  }

  @Test
  void explainPrintsAPerPodSectionInTableOutputAlsoAfterReclaim() throws Exception {
    SimulationReport r = Scenarios.run("gang-partial", Scenarios.parse("""
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}, {name: conformance}]
        - plugins: [{name: predicates}, {name: nodeorder}, {name: binpack}]
        """), true);
    String table = ReportFormat.table(r);
    assertTrue(table.contains("\nEXPLAIN ("), table);
    assertTrue(table.contains("  ml/train-0: pending\n"), table);
    assertTrue(table.contains("gpu-a  ok"), table);

    // After reclaim the starving gang's pods are bound; each shows the search that placed it.
    SimulationReport reclaimed = Scenarios.run("reclaim-borrowed-gpus",
        Scenarios.parse(Files.readString(Scenarios.fixture("../config/capacity-reclaim.conf"))), true);
    assertFalse(reclaimed.evicted().isEmpty());
    String after = ReportFormat.table(reclaimed);
    Matcher bound = Pattern.compile("  (team-c/llm-train-\\d): bound to (gpu-\\d)\n").matcher(after);
    assertTrue(bound.find(), after);
    assertTrue(after.contains(bound.group(2) + "  ok"), after);
  }

  // ---- clusters ---------------------------------------------------------------------------------------------------

  private static List<String> fixtures() throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(Scenarios.fixture("."))) {
      dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString())
          .filter(n -> !Set.of("volcano-conformance", "nvidia-smi", "openb-slice").contains(n)).sorted()
          .forEach(names::add);
    }
    return names;
  }

  /** {@code cluster} under {@code conf} (Volcano's default tiers when null). */
  private static SimulationReport simulate(String cluster, String conf) throws Exception {
    Simulator sim = new Simulator(Scenarios.compile(conf == null ? ConfLoader.defaultConf() : Scenarios.parse(conf)),
        Set.of("basalt-scheduler"), false);
    return sim.run(FixtureSource.fromText("reasons", cluster));
  }

  private static String nodes(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= n; i++) {
      sb.append("apiVersion: v1\nkind: Node\nmetadata: {name: gpu-").append(i).append("}\nstatus: {allocatable: "
          + "{cpu: \"64\", memory: 512Gi, nvidia.com/gpu: \"8\", pods: \"110\"}}\n---\n");
    }
    return sb.toString();
  }

  private static String queue(String name, String spec) {
    return "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: " + name + "}\nspec: {" + spec
        + "}\n---\n";
  }

  private static String podGroup(String name, String queue, int minMember) {
    return "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: " + name
        + ", namespace: ml}\nspec: {minMember: " + minMember + ", queue: " + queue + "}\n---\n";
  }

  private static String pod(String name, int gpus, String node, String group) {
    return pod(name, gpus, node, group, null);
  }

  /** A pod asking only for GPUs (so proportion's overused test, every resource at its share, can hold). */
  private static String pod(String name, int gpus, String node, String group, String queue) {
    StringBuilder ann = new StringBuilder();
    if (group != null) {
      ann.append("scheduling.k8s.io/group-name: ").append(group);
    }
    if (queue != null) {
      ann.append(ann.isEmpty() ? "" : ", ").append("scheduling.volcano.sh/queue-name: ").append(queue);
    }
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ml"
        + (ann.isEmpty() ? "" : ", annotations: {" + ann + "}") + "}\nspec:\n  schedulerName: basalt-scheduler\n"
        + (node == null ? "" : "  nodeName: " + node + "\n")
        + "  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: " + gpus + "}}}]\n"
        + (node == null ? "" : "status: {phase: Running}\n") + "---\n";
  }
}
