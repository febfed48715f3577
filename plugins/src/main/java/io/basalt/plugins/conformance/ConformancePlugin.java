package io.basalt.plugins.conformance;

import io.basalt.api.TaskInfo;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.VictimSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Keeps the cluster's own machinery safe from preemption and reclaim: pods of the {@code system-cluster-critical} and
 * {@code system-node-critical} classes, anything in {@code kube-system}, and pods annotated or labelled
 * {@code volcano.sh/preemptable: "false"} are never victims.
 */
public final class ConformancePlugin implements Plugin {
  public static final String NAME = "conformance";
  static final Set<String> CRITICAL_CLASSES = Set.of("system-cluster-critical", "system-node-critical");
  static final String SYSTEM_NAMESPACE = "kube-system";
  static final String PREEMPTABLE_KEY = "volcano.sh/preemptable";

  public ConformancePlugin() {}

  /** No arguments. */
  public static PluginDescriptor<Void> descriptor() {
    return PluginDescriptor.of(NAME, ConformancePlugin::new);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    VictimSelector notCritical = (preemptor, candidates) -> {
      List<TaskInfo> victims = new ArrayList<>(candidates.size());
      for (TaskInfo t : candidates) {
        if (!isProtected(t)) {
          victims.add(t);
        }
      }
      return victims;
    };
    registrar.addPreemptable(notCritical);
    registrar.addReclaimable(notCritical);
  }

  static boolean isProtected(TaskInfo task) {
    String pc = task.pod().priorityClassName();
    return (pc != null && CRITICAL_CLASSES.contains(pc)) || SYSTEM_NAMESPACE.equals(task.pod().namespace())
        || "false".equalsIgnoreCase(task.pod().annotations().get(PREEMPTABLE_KEY))
        || "false".equalsIgnoreCase(task.pod().labels().get(PREEMPTABLE_KEY));
  }
}
