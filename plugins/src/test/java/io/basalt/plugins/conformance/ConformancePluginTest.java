package io.basalt.plugins.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.TaskInfo;
import io.basalt.framework.PluginRegistry;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConformancePluginTest {
  @Test
  void criticalAndKubeSystemPodsAreNeverVictims() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .pod(TestPods.pod("kube-system/dns").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/critical").priorityClass("system-cluster-critical").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/node-critical").priorityClass("system-node-critical").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/batch").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/preemptor").cpu("4").build())
        .open(PluginRegistry.of(ConformancePlugin.descriptor()),
            TestSessions.singlePlugin("conformance", ""));
    List<TaskInfo> running = s.tasksOn("n1");
    TaskInfo preemptor = TestSessions.task(s, "ml/preemptor");
    assertEquals(List.of("ml/batch"), s.callbacks().preemptable(preemptor, running).stream().map(TaskInfo::key).toList());
    assertEquals(List.of("ml/batch"), s.callbacks().reclaimable(preemptor, running).stream().map(TaskInfo::key).toList());
  }

  private static final PluginRegistry REGISTRY = PluginRegistry.of(ConformancePlugin.descriptor());
  private static final String KEY = "volcano.sh/preemptable";

  private static List<String> keys(List<TaskInfo> tasks) {
    return tasks.stream().map(TaskInfo::key).toList();
  }

  @Test
  void preemptableFalseAsAnnotationOrLabelProtectsAPod() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .pod(TestPods.pod("ml/annotated-false").annotation(KEY, "false").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/labelled-false").label(KEY, "false").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/annotated-true").annotation(KEY, "true").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/labelled-true").label(KEY, "true").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/unmarked").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/preemptor").cpu("4").build())
        .open(REGISTRY, TestSessions.singlePlugin("conformance", ""));
    TaskInfo preemptor = TestSessions.task(s, "ml/preemptor");
    List<TaskInfo> running = s.tasksOn("n1");
    assertEquals(5, running.size());
    // Candidate order is kept; the two "false" pods drop out, "true" and absent stay.
    List<String> expected = List.of("ml/annotated-true", "ml/labelled-true", "ml/unmarked");
    assertEquals(expected, keys(s.callbacks().preemptable(preemptor, running)));
    assertEquals(expected, keys(s.callbacks().reclaimable(preemptor, running)));
  }

  @Test
  void aProtectedPodIsDroppedEvenWhenItIsTheOnlyCandidate() {
    // Each protected pod offered on its own yields no victim at all (not the candidate list unfiltered).
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .pod(TestPods.pod("ml/annotated-false").annotation(KEY, "false").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/labelled-false").label(KEY, "false").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/preemptor").cpu("4").build())
        .open(REGISTRY, TestSessions.singlePlugin("conformance", ""));
    TaskInfo preemptor = TestSessions.task(s, "ml/preemptor");
    for (String key : List.of("ml/annotated-false", "ml/labelled-false")) {
      List<TaskInfo> only = List.of(TestSessions.task(s, key));
      assertEquals(List.of(), keys(s.callbacks().preemptable(preemptor, only)), key);
      assertEquals(List.of(), keys(s.callbacks().reclaimable(preemptor, only)), key);
    }
  }

  @Test
  void theMarkerOnThePreemptorDoesNotMatter() {
    // volcano.sh/preemptable describes the victim; a preemptor marked "false" still evicts unmarked pods.
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .pod(TestPods.pod("ml/unmarked").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/preemptor").annotation(KEY, "false").label(KEY, "false").cpu("4").build())
        .open(REGISTRY, TestSessions.singlePlugin("conformance", ""));
    TaskInfo preemptor = TestSessions.task(s, "ml/preemptor");
    assertEquals(List.of("ml/unmarked"), keys(s.callbacks().preemptable(preemptor, s.tasksOn("n1"))));
    assertEquals(List.of("ml/unmarked"), keys(s.callbacks().reclaimable(preemptor, s.tasksOn("n1"))));
  }
}
