package io.basalt.kube.kinds;

import com.google.gson.JsonObject;
import java.util.List;

/**
 * What a workload object expands to: the documents its controllers would create (PodGroups first, then pods, in
 * creation order), plus notes (a suspended Job, a gang the operator only makes with gang scheduling on) and errors (a
 * field the controller or its webhook would reject). An object with an error expands to no documents at all: a
 * half-expanded gang would mislead more than a missing one.
 *
 * @param origin {@code Kind namespace/name} of the workload, for labelling where each document came from
 * @param ownerUid the uid the documents' owner references name (the object's, or one derived from its kind and name);
 *     null when the object could not be read
 */
public record Expansion(String origin, String ownerUid, List<JsonObject> documents, List<String> warnings,
    List<String> errors) {
  public Expansion {
    documents = List.copyOf(documents);
    warnings = List.copyOf(warnings);
    errors = List.copyOf(errors);
  }
}
