package io.basalt.framework;

import io.basalt.api.JobInfo;

/**
 * Ranks the network domains a topology-constrained job could be placed in (Volcano's hyperNodeOrder): higher is
 * better; scores of all plugins are summed. Registering one turns topology-aware placement on: jobs asking for a
 * domain (Volcano's {@code networkTopology}, MetaX's {@code gpu-group-size}) are then placed whole inside one.
 */
@FunctionalInterface
public interface DomainScorer {
  /** @param domain a domain of {@link SessionView#fabric()} that has room for the job */
  double score(JobInfo job, String domain);
}
