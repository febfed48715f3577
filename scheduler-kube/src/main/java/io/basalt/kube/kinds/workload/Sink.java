package io.basalt.kube.kinds.workload;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Where one expansion collects its documents and notes, in the order the controllers would create them. */
record Sink(List<JsonObject> documents, List<String> warnings) {
  /** Most pods one workload object expands to; a count above it is refused naming its field ({@link Fields#pods}). */
  static final int MAX_PODS = 100_000;

  Sink() {
    this(new ArrayList<>(), new ArrayList<>());
  }

  /**
   * Adds a pod or group. Counts are checked one by one where they are read, but a JobSet multiplies its replicas by
   * its Jobs' parallelism, so the total is bounded here too.
   */
  void add(JsonObject document) {
    if (documents.size() > MAX_PODS) {
      throw new Malformed("spec", "expands to more than " + MAX_PODS + " pods");
    }
    documents.add(document);
  }
}
