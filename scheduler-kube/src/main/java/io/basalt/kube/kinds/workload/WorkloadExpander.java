package io.basalt.kube.kinds.workload;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Expansion;
import java.util.List;

/**
 * Expands a workload object into the pods (and PodGroups) its controllers would create, so the simulator can read
 * the YAML users actually apply: a Volcano Job, a batch/v1 Job, a JobSet, a Kubeflow PyTorchJob or MPIJob (each a
 * {@link WorkloadKind} naming its {@link Expander}). The engine only ever sees pods and pod groups; this is where a
 * workload becomes them (see docs/ARCHITECTURE.md).
 *
 * <p>Nothing here throws: a field the controller or its webhook would reject becomes one error naming the object and
 * the field, and the object then expands to nothing.
 */
final class WorkloadExpander {
  private WorkloadExpander() {}

  /** The documents {@code o} expands to by {@code e}, its kind's controller. */
  static Expansion expand(JsonObject o, Expander e) {
    String kind = Fields.string(o, "kind");
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

  /** One kind's controller: what it creates for a workload object, into {@code out}. */
  interface Expander {
    void expand(JsonObject o, Owner owner, Sink out);
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
