package io.basalt.plugins.priority;

import io.basalt.config.Arguments;
import io.basalt.framework.Plugin;
import io.basalt.framework.Session;

/**
 * Higher priority first: jobs by their PodGroup's PriorityClass value (else their pods' priority), tasks within a job
 * by pod priority. Eviction rules based on priority arrive with preempt and reclaim.
 */
public final class PriorityPlugin implements Plugin {
  public static final String NAME = "priority";

  public PriorityPlugin(Arguments args) {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session) {
    session.addJobOrder(this, (a, b) -> Integer.compare(b.priority(), a.priority()));
    session.addTaskOrder(this, (a, b) -> Integer.compare(b.priority(), a.priority()));
  }
}
