package io.basalt.session;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import java.util.List;

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

  /**
   * The network domains one attempt to place {@code job} (which asks for a domain) considered, and why each won or
   * lost: one call per attempt, after it, because a domain's verdict is only known once the attempt has ended. Called
   * only when {@link #enabled()}.
   */
  default void domains(JobInfo job, List<DomainVerdict> considered) {}
}
