package io.basalt.plugins.queueshare;

import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.PluginDescriptor.Conflict;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.ResourceNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code capacity}: each queue states what it deserves per resource instead of a weight. A queue may
 * borrow beyond {@code deserved} up to its {@code capability} while others are idle, and the borrowed part is
 * reclaimed when its owners need it; a {@code guarantee} is never lent. This is how a Kueue setup maps over:
 * nominal quota = deserved, nominal + borrowing limit = capability.
 *
 * <ul>
 *   <li>realCapability = min(capability, max(total - sum of guarantees, 0) + guarantee), and never more than the
 *       parent's realCapability;</li>
 *   <li>deserved = the queue's {@code deserved} (its guarantee when unset; a resource it leaves out has no quota),
 *       at most its realCapability and its parent's deserved;</li>
 *   <li>allocatable while the queue and every ancestor stay within realCapability (this is where borrowing
 *       happens);</li>
 *   <li>preemptive (may reclaim) only while the queue stays within its deserved share after placing the task;</li>
 *   <li>reclaimable, enqueue and queue order as in {@link QueueSharingPlugin}.</li>
 * </ul>
 * Hierarchy comes from Queue {@code spec.parent}; queues without a parent hang under the cluster.
 */
public final class CapacityPlugin extends QueueSharingPlugin {
  public static final String NAME = "capacity";

  private final Map<String, String> parents = new HashMap<>();
  /** Allocated by a queue and all its descendants. */
  private final Map<String, double[]> subtree = new HashMap<>();

  public CapacityPlugin() {}

  /** No arguments; cannot be configured together with proportion. */
  public static PluginDescriptor<Void> descriptor() {
    return PluginDescriptor.of(NAME, CapacityPlugin::new)
        .conflictsWith(Conflict.anywhere(ProportionPlugin.NAME, "both divide the cluster between queues"));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected void divide(double[] total, SessionView session) {
    for (QueueInfo q : session.queues()) {
      String parent = q.queue().parent();
      if (parent != null && !parent.isEmpty() && !parent.equals(q.name()) && queues.containsKey(parent)) {
        parents.put(q.name(), parent);
      }
    }
    List<QueueInfo> order = topDown(session);
    // Only top-level guarantees carve the cluster; a child's guarantee is part of its parent's.
    double[] totalGuarantee = new double[total.length];
    for (QueueInfo q : order) {
      if (!parents.containsKey(q.name())) {
        QueueShare qs = queues.get(q.name());
        for (int i = 0; i < total.length; i++) {
          totalGuarantee[i] += qs.guarantee[i];
        }
      }
    }
    for (QueueInfo q : order) {
      QueueShare qs = queues.get(q.name());
      QueueShare parent = queues.get(parents.get(q.name()));
      // A resource the queue's deserved leaves out has no quota: the queue deserves all it may hold of it.
      double[] declared = QueueShare.toArray(q.queue().deserved(), total.length, Double.POSITIVE_INFINITY);
      for (int i = 0; i < total.length; i++) {
        double real = Math.min(qs.capability[i], Math.max(total[i] - totalGuarantee[i], 0) + qs.guarantee[i]);
        double wanted = q.queue().deserved() == null ? qs.guarantee[i] : declared[i];
        if (parent != null) {
          real = Math.min(real, parent.realCapability[i]);
          wanted = Math.min(wanted, parent.deserved[i]);
        }
        qs.realCapability[i] = real;
        qs.deserved[i] = Math.max(Math.min(wanted, real), Math.min(qs.guarantee[i], real));
      }
      subtree.put(q.name(), qs.allocated.clone());
    }
    for (QueueShare qs : queues.values()) {
      for (String a = parents.get(qs.name); a != null; a = parents.get(a)) {
        add(subtree.get(a), qs.allocated, 1);
      }
    }
  }

  /** Only the resources the queue declares a deserved amount (or guarantee) for: the rest have no quota. */
  @Override
  protected io.basalt.model.ResourceVector reportedDeserved(QueueInfo queue, QueueShare share) {
    io.basalt.model.ResourceVector all = share.deservedVector();
    io.basalt.model.ResourceVector declared = queue.queue().deserved();
    io.basalt.model.ResourceVector guarantee = queue.queue().guarantee();
    long[] shown = new long[all.size()];
    for (int i = 0; i < shown.length; i++) {
      boolean set = (declared != null && declared.get(i) > 0) || (guarantee != null && guarantee.get(i) > 0);
      shown[i] = set ? all.get(i) : 0;
    }
    return io.basalt.model.ResourceVector.of(shown);
  }

  /** Parents before children (a cycle or a missing parent makes a queue top-level). */
  private List<QueueInfo> topDown(SessionView session) {
    List<QueueInfo> order = new ArrayList<>();
    Map<String, Integer> depth = new HashMap<>();
    for (QueueInfo q : session.queues()) {
      int d = 0;
      String a = parents.get(q.name());
      while (a != null && d <= queues.size()) {
        d++;
        a = parents.get(a);
      }
      if (d > queues.size()) {
        parents.remove(q.name());
        d = 0;
      }
      depth.put(q.name(), d);
      order.add(q);
    }
    order.sort((x, y) -> Integer.compare(depth.get(x.name()), depth.get(y.name())));
    return order;
  }

  @Override
  protected void register(SessionView session, Registrar registrar) {
    registrar.addAllocatable(this::allocatable);
    registrar.addPreemptive((q, task) -> {
      QueueShare qs = queues.get(q.name());
      return qs == null || qs.fits(task.request(), qs.deserved, session.deviceManagedResources());
    });
  }

  private boolean allocatable(QueueInfo q, TaskInfo task) {
    boolean[] skip = session.deviceManagedResources();
    for (String name = q.name(); name != null; name = parents.get(name)) {
      QueueShare qs = queues.get(name);
      double[] held = subtree.get(name);
      if (qs == null || held == null) {
        continue;
      }
      for (int i = 0; i < Math.min(task.request().size(), held.length); i++) {
        long req = task.request().get(i);
        if (i != ResourceNames.PODS && req > 0 && held[i] + req > qs.realCapability[i] + 1e-9
            && (skip == null || i >= skip.length || !skip[i])) {
          return false;
        }
      }
    }
    return true;
  }

  @Override
  protected void afterUpdate(QueueShare queue, TaskInfo task, int sign) {
    for (String name = queue.name; name != null; name = parents.get(name)) {
      double[] held = subtree.get(name);
      if (held != null) {
        QueueShare.add(held, task.request(), sign);
      }
    }
  }

  private static void add(double[] target, double[] v, int sign) {
    for (int i = 0; i < target.length; i++) {
      target[i] += sign * v[i];
    }
  }

  /** The queue's parent, for tests; null at the top. */
  String parentOf(String queue) {
    return parents.get(queue);
  }
}
