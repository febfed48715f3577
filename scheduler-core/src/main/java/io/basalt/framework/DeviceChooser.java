package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.gpu.DeviceClaim;

/**
 * Picks the exact GPUs (whole, or a share of one) a task gets on the node it is being placed on. Called inside the
 * session's statement, so a discarded gang gives its members' devices back. Returns null when it has no opinion
 * (the task wants no GPUs).
 */
@FunctionalInterface
public interface DeviceChooser {
  DeviceClaim choose(TaskInfo task, NodeInfo node);
}
