package io.basalt.kube.kinds.workload;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Where one expansion collects its documents and notes, in the order the controllers would create them. */
record Sink(List<JsonObject> documents, List<String> warnings) {
  Sink() {
    this(new ArrayList<>(), new ArrayList<>());
  }
}
