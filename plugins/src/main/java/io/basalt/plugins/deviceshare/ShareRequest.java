package io.basalt.plugins.deviceshare;

import io.basalt.gpu.ShareSize;

/**
 * What one share pod asks of one GPU, read once per task so filter, score and chooser agree: compute in percent and
 * memory as {@link ShareSize}'s asked figure (MiB; 0 = none named: the whole memory of the device it gets, as HAMi and
 * MetaX count it; below 0 a percentage of the device), the resource whose node allocatable sets the default share limit, the resource
 * domain its HAMi use-/nouse- annotations are read from, and why it cannot be placed as a share at all (else null).
 */
record ShareRequest(String countResource, String domain, int cores, long memoryMiB, String problem) {

  /** The memory (MiB) this share holds on a device of {@code deviceMiB} (0: unknown). */
  long memoryOn(long deviceMiB) {
    return ShareSize.memoryMiB(memoryMiB, deviceMiB);
  }

  /** "30% compute and 4Gi memory" (or "... and all its memory" when it names none), for a pending pod's reason. */
  String describe() {
    String compute = cores > 0 ? cores + "% compute" : "";
    String memory = ShareSize.describeMemory(memoryMiB);
    return compute.isEmpty() ? memory : compute + " and " + memory;
  }
}
