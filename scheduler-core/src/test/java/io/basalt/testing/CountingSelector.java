package io.basalt.testing;

import io.basalt.framework.FilterResult;
import io.basalt.framework.TaskFilter;
import java.util.Map;

/** A nodeSelector filter that counts its calls per pod, so a test can pin how many node visits a search costs. */
public final class CountingSelector {
  private CountingSelector() {}

  public static TaskFilter counting(Map<String, Integer> calls) {
    return (task, node) -> {
      calls.merge(task.key(), 1, Integer::sum);
      for (Map.Entry<String, String> e : task.pod().nodeSelector().entrySet()) {
        if (!e.getValue().equals(node.node().labels().get(e.getKey()))) {
          return FilterResult.unfit("node(s) didn't match Pod's node affinity/selector");
        }
      }
      return FilterResult.OK;
    };
  }
}
