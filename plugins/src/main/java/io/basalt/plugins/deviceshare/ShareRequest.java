package io.basalt.plugins.deviceshare;

/**
 * What one share pod asks of one GPU, read once per task so filter, score and chooser agree: compute in percent and
 * memory in MiB (0 = not reserved), the resource whose node allocatable sets the default share limit, the resource
 * domain its HAMi use-/nouse- annotations are read from, and why it cannot be placed as a share at all (else null).
 */
record ShareRequest(String countResource, String domain, int cores, long memoryMiB, String problem) {

  /** "30% compute and 4Gi memory", for a pending pod's reason. */
  String describe() {
    String compute = cores > 0 ? cores + "% compute" : "";
    String memory = memoryMiB <= 0 ? ""
        : memoryMiB % 1024 == 0 ? memoryMiB / 1024 + "Gi memory" : memoryMiB + "Mi memory";
    if (compute.isEmpty() && memory.isEmpty()) {
      return "a share";
    }
    return compute.isEmpty() ? memory : memory.isEmpty() ? compute : compute + " and " + memory;
  }
}
