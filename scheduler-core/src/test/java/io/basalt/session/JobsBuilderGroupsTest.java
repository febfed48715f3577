package io.basalt.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.PodGroup;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pod joins its own group's job even when the pod before it named the same group in another namespace. */
class JobsBuilderGroupsTest {
  private static PodGroup group(String ns, String name) {
    return new PodGroup(ns, name, 1, Map.of(), "default", null, null, "Pending", Instant.EPOCH);
  }

  private static List<String> tasks(JobInfo job) {
    List<String> out = new ArrayList<>();
    for (TaskInfo t : job.tasks()) {
      out.add(t.key());
    }
    return out;
  }

  @Test
  void podsOfOneGroupNameInTwoNamespacesFormTwoJobs() {
    Session s = TestSessions.cluster().node(TestNodes.node("n1").cpu("8").build())
        .podGroup(group("a", "g")).podGroup(group("b", "g")).podGroup(group("a", "h"))
        .pod(TestPods.pod("a/g-0").cpu("1").group("g").build())
        .pod(TestPods.pod("a/g-1").cpu("1").group("g").build())
        .pod(TestPods.pod("b/g-0").cpu("1").group("g").build())
        .pod(TestPods.pod("a/h-0").cpu("1").group("h").build())
        .pod(TestPods.pod("a/g-2").cpu("1").group("g").build())
        .open(PluginRegistry.of(), "actions: \"enqueue\"\ntiers: []\n");
    assertEquals(List.of("a/g-0", "a/g-1", "a/g-2"), tasks(s.job("a/g")));
    assertEquals(List.of("b/g-0"), tasks(s.job("b/g")));
    assertEquals(List.of("a/h-0"), tasks(s.job("a/h")));
    assertEquals(3, s.jobs().size());
  }
}
