package io.basalt.kube.kinds.workload;

import com.google.gson.JsonObject;
import java.util.List;

/**
 * Expands workload objects into the pods (and PodGroups) their controllers would create, so the simulator can read
 * the YAML users actually apply: a Volcano Job, a batch/v1 Job, a JobSet, a Kubeflow PyTorchJob or MPIJob. The engine
 * only ever sees pods and pod groups; this is where a workload becomes them (see docs/ARCHITECTURE.md).
 *
 * <p>Nothing here throws: a field the controller or its webhook would reject becomes one error naming the object and
 * the field, and the object then expands to nothing.
 */
public final class WorkloadExpander {
  private WorkloadExpander() {}

  /**
   * The documents {@code o} expands to, or null when its apiVersion and kind are not a workload this package knows
   * (the caller then treats it as before, e.g. as a skipped kind).
   */
  public static Expansion expand(JsonObject o) {
    String apiVersion = Fields.string(o, "apiVersion");
    String kind = Fields.string(o, "kind");
    Expander e = expander(apiVersion, kind);
    if (e == null) {
      return null;
    }
    String origin = kind + " " + display(o);
    try {
      Owner owner = Owner.of(o);
      Sink out = new Sink();
      e.expand(o, owner, out);
      return new Expansion(owner.display(), owner.uid(), out.documents(), out.warnings(), List.of());
    } catch (Malformed m) {
      return new Expansion(origin, null, List.of(), List.of(), List.of(origin + ": " + m.getMessage()));
    } catch (RuntimeException ex) { // a shape not foreseen above: still an error line, never a crash of the load
      return new Expansion(origin, null, List.of(), List.of(), List.of(origin + ": cannot expand: " + ex));
    }
  }

  private interface Expander {
    void expand(JsonObject o, Owner owner, Sink out);
  }

  private static Expander expander(String apiVersion, String kind) {
    if (apiVersion == null || kind == null) {
      return null;
    }
    return switch (apiVersion + " " + kind) {
      case VolcanoJobs.API_VERSION + " Job" -> VolcanoJobs::expand;
      case BatchJobs.API_VERSION + " Job" -> BatchJobs::expand;
      case JobSets.API_VERSION + " JobSet" -> JobSets::expand;
      case TrainingJobs.API_VERSION + " PyTorchJob", TrainingJobs.API_VERSION + " MPIJob" -> TrainingJobs::expand;
      default -> null;
    };
  }

  /** {@code namespace/name} as far as the document states them, for errors about a malformed one. */
  private static String display(JsonObject o) {
    JsonObject meta = o.get("metadata") != null && o.get("metadata").isJsonObject() ? o.getAsJsonObject("metadata")
        : null;
    String name = Fields.string(meta, "name");
    String ns = Fields.string(meta, "namespace");
    return (ns == null || ns.isEmpty() ? Owner.DEFAULT_NAMESPACE : ns) + "/"
        + (name == null || name.isEmpty() ? "<unnamed>" : name);
  }
}
