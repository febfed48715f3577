package io.basalt.session;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;

/**
 * Receives why each node was filtered or how it scored. The default does nothing and costs one boolean check on the
 * hot path; {@code --explain} installs a collecting one.
 */
public interface ExplainRecorder {
  ExplainRecorder NONE = new ExplainRecorder() {
    @Override
    public boolean enabled() {
      return false;
    }

    @Override
    public void filtered(TaskInfo task, NodeInfo node, String reason) {}

    @Override
    public void scored(TaskInfo task, NodeInfo node, String plugin, double score) {}

    @Override
    public void chosen(TaskInfo task, NodeInfo node) {}
  };

  boolean enabled();

  void filtered(TaskInfo task, NodeInfo node, String reason);

  void scored(TaskInfo task, NodeInfo node, String plugin, double score);

  /** The node the task was placed (or pipelined) on. */
  void chosen(TaskInfo task, NodeInfo node);
}
