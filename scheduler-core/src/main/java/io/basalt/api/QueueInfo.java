package io.basalt.api;

import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;

/**
 * A queue within a session. Fair-share plugins keep their own accounting keyed by queue name and report the result
 * here when the session closes, for queue status and reports.
 */
public final class QueueInfo {
  private final Queue queue;
  private ResourceVector deserved;
  private ResourceVector allocated;
  private boolean overused;

  public QueueInfo(Queue queue) {
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

  /** Called by the plugin that divides the cluster between queues. */
  public void reportShare(ResourceVector deserved, ResourceVector allocated, boolean overused) {
    this.deserved = deserved;
    this.allocated = allocated;
    this.overused = overused;
  }

  /** The deserved share a plugin computed this session, or null when no plugin divides the cluster. */
  public ResourceVector deserved() {
    return deserved;
  }

  /** What the queue holds as a plugin counted it, or null (then the session sums its tasks). */
  public ResourceVector allocated() {
    return allocated;
  }

  public boolean overused() {
    return overused;
  }

  @Override
  public String toString() {
    return "Queue[" + name() + "]";
  }
}
