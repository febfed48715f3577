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
  /**
   * Fails naming {@code field} when a running sum of counts ({@code what}) passes {@link #MAX_PODS}: each count is
   * bounded where it is read, so two tasks of 60,000 would otherwise make 100,000 pods before {@link #add} refused.
   */
  static void checkTotal(int total, String field, String what) {
    if (total > MAX_PODS) {
      throw new Malformed(field, what + " add up to " + total + " pods: more than the " + MAX_PODS
          + " one workload is expanded to");
    }
  }

  void add(JsonObject document) {
    if (documents.size() > MAX_PODS) {
      throw new Malformed("spec", "expands to more than " + MAX_PODS + " pods");
    }
    documents.add(document);
  }
}
