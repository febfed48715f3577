package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The victim units one kind of asker may take (see {@link Evictions}' pool key), in the two orders plans are tried in
 * (the second built only when a plan needs it), and the pod that asked first: the plugins' verdicts were its.
 */
final class VictimPool {
  private final TaskInfo asker;
  private List<VictimPlanner.Unit> units;
  private VictimOrder[] orders = new VictimOrder[2];

  VictimPool(TaskInfo asker, List<VictimPlanner.Unit> units) {
    this.asker = asker;
    this.units = units;
  }

  /** 0: cheapest unit first; 1: largest first (fewest pods for the same room). */
  VictimOrder order(Session session, int i) {
    if (orders[i] == null) {
      orders[i] = VictimOrder.of(session, i == 0 ? units : VictimPlanner.largestFirst(units));
    }
    return orders[i];
  }

  /**
   * After a commit: the units of the jobs it touched (victims lost pods, so fewer can be spared; the placed job is now
   * busy) are built again, the rest kept. A verdict that changed for an untouched pod is still caught, since every
   * plan asks the plugins again for the units it takes.
   */
  void refresh(Session session, VictimPlanner.Scope scope, Set<JobInfo> touched) {
    List<TaskInfo> pods = new ArrayList<>();
    for (JobInfo j : touched) {
      for (TaskInfo t : j.tasks()) {
        if (VictimPlanner.isRunning(t) && !VictimPlanner.optedOut(t)) {
          pods.add(t);
        }
      }
    }
    List<VictimPlanner.Unit> next = new ArrayList<>(units.size());
    for (VictimPlanner.Unit u : units) {
      if (!touched.contains(u.job())) {
        next.add(u);
      }
    }
    next.addAll(VictimPlanner.units(session, asker, scope, pods));
    VictimPlanner.sortCheapestFirst(next);
    units = next;
    orders = new VictimOrder[2];
  }
}
