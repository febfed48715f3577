package io.basalt.framework;

import io.basalt.model.Queue;

/** A queue within a session. Fair-share plugins keep their own accounting keyed by queue name. */
public final class QueueInfo {
  private final Queue queue;

  QueueInfo(Queue queue) {
    this.queue = queue;
  }

  public Queue queue() {
    return queue;
  }

  public String name() {
    return queue.name();
  }

  public int weight() {
    return queue.weight();
  }

  @Override
  public String toString() {
    return "Queue[" + name() + "]";
  }
}
