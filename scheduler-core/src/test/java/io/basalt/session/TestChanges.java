package io.basalt.session;

import io.basalt.api.NodeInfo;
import java.util.List;

/** A change log over nodes without a session, for tests of what reads it. */
public final class TestChanges {
  private TestChanges() {}

  /** A log over {@code nodes}, each taking its position as a session would. */
  public static NodeChanges over(List<NodeInfo> nodes) {
    for (int i = 0; i < nodes.size(); i++) {
      nodes.get(i).joinSession(i);
    }
    return new NodeChanges(nodes);
  }

  /** Records a change as a statement does. */
  public static void record(NodeChanges changes, NodeInfo node, boolean freed) {
    changes.record(node, freed);
  }
}
