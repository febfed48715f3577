package io.basalt.framework;

import io.basalt.api.TaskInfo;
import java.util.List;

/**
 * Preemptable / reclaimable: which of {@code candidates} may be evicted for {@code preemptor}. Returns the allowed
 * subset, or null to abstain. As in Volcano, the answers of one tier are intersected and the first tier left with
 * victims decides; an empty answer (or a tier that abstains) falls through to the next tier. The reclaim action
 * separately keeps every victim queue above its deserved share ({@link Registrar#addReclaimFrom}).
 */
@FunctionalInterface
public interface VictimSelector {
  List<TaskInfo> victims(TaskInfo preemptor, List<TaskInfo> candidates);
}
