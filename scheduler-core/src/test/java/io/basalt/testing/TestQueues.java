package io.basalt.testing;

import io.basalt.model.Queue;
import java.util.Map;

/** Queues for tests. */
public final class TestQueues {
  private TestQueues() {}

  /** An open queue of weight 1 with no capability, guarantee or deserved share. */
  public static Queue queue(String name) {
    return new Queue(name, 1, null, null, null, true, 0, null, "Open", Map.of());
  }
}
