package io.basalt.app.bench;

import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import java.util.ArrayList;
import java.util.List;

/**
 * A generated cluster and the work submitted to it, in submission order. A submission is one pod, or one gang (its
 * PodGroup and all of its pods); batches never split a gang, as a job controller creates a gang's pods together.
 * {@code gpuResource} names the GPUs counted in the results ({@code nvidia.com/gpu}, or MetaX's on supernodes).
 */
public record Workload(List<Node> nodes, List<Submission> submissions, List<Queue> queues, long totalGpus,
    long gpuDemand, String gpuResource) {
  public Workload {
    nodes = List.copyOf(nodes);
    submissions = List.copyOf(submissions);
    queues = List.copyOf(queues);
  }

  /** Counting {@link WorkloadGenerator#GPU}. */
  public Workload(List<Node> nodes, List<Submission> submissions, List<Queue> queues, long totalGpus,
      long gpuDemand) {
    this(nodes, submissions, queues, totalGpus, gpuDemand, WorkloadGenerator.GPU);
  }

  /** One pod (podGroup null) or one gang. */
  public record Submission(PodGroup podGroup, List<Pod> pods) {
    public Submission {
      pods = List.copyOf(pods);
    }
  }

  /** Every pod in submission order. */
  public List<Pod> pods() {
    List<Pod> all = new ArrayList<>();
    for (Submission s : submissions) {
      all.addAll(s.pods());
    }
    return all;
  }

  public int podCount() {
    int n = 0;
    for (Submission s : submissions) {
      n += s.pods().size();
    }
    return n;
  }

  public List<PodGroup> podGroups() {
    List<PodGroup> r = new ArrayList<>();
    for (Submission s : submissions) {
      if (s.podGroup() != null) {
        r.add(s.podGroup());
      }
    }
    return r;
  }

  /**
   * Submissions grouped into batches of at least {@code batchSize} pods (the last may be smaller); a gang is never
   * split, so a batch can exceed the size by up to one gang.
   */
  public List<List<Submission>> batches(int batchSize) {
    List<List<Submission>> batches = new ArrayList<>();
    List<Submission> current = new ArrayList<>();
    int pods = 0;
    for (Submission s : submissions) {
      current.add(s);
      pods += s.pods().size();
      if (pods >= batchSize) {
        batches.add(current);
        current = new ArrayList<>();
        pods = 0;
      }
    }
    if (!current.isEmpty()) {
      batches.add(current);
    }
    return batches;
  }
}
