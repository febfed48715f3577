package io.basalt.framework;

import io.basalt.api.TaskInfo;
import java.util.List;

/**
 * Preemptable / reclaimable: which of {@code candidates} may be evicted for {@code preemptor}. Returns the allowed
 * subset, or null to abstain. Every answering plugin, in every tier, must agree (see the session's Callbacks).
 */
@FunctionalInterface
public interface VictimSelector {
  List<TaskInfo> victims(TaskInfo preemptor, List<TaskInfo> candidates);
}
