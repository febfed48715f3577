package io.basalt.sim;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.DomainVerdict;
import io.basalt.session.ExplainRecorder;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects, per pod, the filter verdict and per-plugin scores of every node its latest search considered. A search
 * for one task is contiguous, so a call for another task (or the same task after its choice) starts a new attempt.
 * Per job asking for a network domain, the domains its latest placement attempt considered.
 */
final class ExplainCollector implements ExplainRecorder {
  private final Map<String, Map<String, NodeVerdict>> byPod = new HashMap<>();
  private final Map<String, List<DomainVerdict>> byJob = new HashMap<>();
  private String current;
  private boolean closed;

  @Override
  public boolean enabled() {
    return true;
  }

  private Map<String, NodeVerdict> attempt(TaskInfo task) {
    String key = task.key();
    if (!key.equals(current) || closed) {
      current = key;
      closed = false;
      byPod.put(key, new LinkedHashMap<>());
    }
    return byPod.get(key);
  }

  @Override
  public void filtered(TaskInfo task, NodeInfo node, String reason) {
    attempt(task).computeIfAbsent(node.name(), n -> new NodeVerdict()).reject(reason);
  }

  @Override
  public void scored(TaskInfo task, NodeInfo node, String plugin, double score) {
    attempt(task).computeIfAbsent(node.name(), n -> new NodeVerdict()).addScore(plugin, score);
  }

  @Override
  public void chosen(TaskInfo task, NodeInfo node) {
    attempt(task);
    closed = true;
  }

  @Override
  public void domains(JobInfo job, List<DomainVerdict> considered) {
    byJob.put(job.key(), List.copyOf(considered));
  }

  /** The domains the latest attempt to place job {@code key} considered, or null when it asked for none. */
  List<DomainVerdict> forJob(String key) {
    return byJob.get(key);
  }

  /** The latest attempt's verdicts for pod {@code key}, in probe order, or null. */
  Map<String, NodeVerdict> forPod(String key) {
    return byPod.get(key);
  }
}
