package io.basalt.plugins.queueshare;

import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;

/**
 * Volcano's {@code proportion}: divides the cluster between queues by weight, so no team takes more than its due
 * while others wait.
 *
 * <ul>
 *   <li>realCapability = min(capability, max(total - sum of guarantees, 0) + guarantee), per resource;</li>
 *   <li>deserved: weighted water-filling of the cluster, each round capped by realCapability and by what the queue
 *       asks for (allocated plus pending), floored by its guarantee; a queue leaves the filling once satisfied or
 *       once a round gives it nothing;</li>
 *   <li>overused when allocated &gt;= deserved on every resource (allocate skips it);</li>
 *   <li>allocatable when allocated + the task's request &lt;= deserved on the resources the task requests;</li>
 *   <li>enqueueable when minResources + allocated + inqueue - elastic &lt;= realCapability on the resources
 *       minResources names;</li>
 *   <li>queue order: the lower share (max over resources of allocated / deserved) first;</li>
 *   <li>reclaimable: pods of a queue while it holds more than its deserved share, counted down pod by pod.</li>
 * </ul>
 * A guarantee is reserved for its queue even while idle; weight shares are lent out and reclaimed.
 */
public final class ProportionPlugin extends QueueSharingPlugin {
  public static final String NAME = "proportion";

  public ProportionPlugin() {}

  /** No arguments. */
  public static PluginDescriptor<Void> descriptor() {
    return PluginDescriptor.of(NAME, ProportionPlugin::new);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected void divide(double[] total, SessionView session) {
    Deserved.compute(total, queues.values());
  }

  @Override
  protected void register(SessionView session, Registrar registrar) {
    registrar.addOverused(q -> queues.containsKey(q.name()) && queues.get(q.name()).overused());
    registrar.addAllocatable(this::allocatable);
  }

  private boolean allocatable(QueueInfo q, TaskInfo task) {
    QueueShare qs = queues.get(q.name());
    return qs == null || qs.fits(task.request(), qs.deserved, session.deviceManagedResources());
  }
}
