package io.basalt.kube.kinds.volcano;

import io.basalt.kube.kinds.CustomObject;
import io.kubernetes.client.custom.Quantity;
import java.util.List;
import java.util.Map;

/**
 * Volcano's cluster-scoped {@code scheduling.volcano.sh/v1beta1} Queue custom resource, shaped for client-java's Gson
 * (usable with {@code GenericKubernetesApi<V1beta1Queue, V1beta1QueueList>} and shared informers). Fields Basalt does
 * not read (extendClusters, affinity) are not modelled and are ignored when read. Spec and status are records, as in
 * {@link V1beta1PodGroup}: Gson reads and writes them by component name; a change is a copy.
 */
public final class V1beta1Queue extends CustomObject<V1beta1Queue, V1beta1Queue.Spec, V1beta1Queue.Status> {
  public static final String GROUP = V1beta1PodGroup.GROUP;
  public static final String VERSION = V1beta1PodGroup.VERSION;
  public static final String API_VERSION = V1beta1PodGroup.API_VERSION;
  public static final String KIND = "Queue";
  public static final String PLURAL = "queues";

  /**
   * {@code spec}: share weight, limits, guarantees and place in the queue hierarchy. Null means unset: weight then
   * defaults to 1, reclaimable to true; {@code dequeueStrategy} is {@code fifo} or {@code traverse} (the default).
   */
  public record Spec(Integer weight, Map<String, Quantity> capability, Boolean reclaimable, Guarantee guarantee,
      Map<String, Quantity> deserved, Integer priority, String parent, String type, String dequeueStrategy) {
    /** Nothing set. */
    public Spec() {
      this(null, null, null, null, null, null, null, null, null);
    }

    public Spec weight(Integer v) {
      return new Spec(v, capability, reclaimable, guarantee, deserved, priority, parent, type, dequeueStrategy);
    }

    public Spec capability(Map<String, Quantity> v) {
      return new Spec(weight, v, reclaimable, guarantee, deserved, priority, parent, type, dequeueStrategy);
    }

    public Spec reclaimable(Boolean v) {
      return new Spec(weight, capability, v, guarantee, deserved, priority, parent, type, dequeueStrategy);
    }

    public Spec guarantee(Guarantee v) {
      return new Spec(weight, capability, reclaimable, v, deserved, priority, parent, type, dequeueStrategy);
    }

    public Spec deserved(Map<String, Quantity> v) {
      return new Spec(weight, capability, reclaimable, guarantee, v, priority, parent, type, dequeueStrategy);
    }

    public Spec priority(Integer v) {
      return new Spec(weight, capability, reclaimable, guarantee, deserved, v, parent, type, dequeueStrategy);
    }

    public Spec parent(String v) {
      return new Spec(weight, capability, reclaimable, guarantee, deserved, priority, v, type, dequeueStrategy);
    }

    public Spec type(String v) {
      return new Spec(weight, capability, reclaimable, guarantee, deserved, priority, parent, v, dequeueStrategy);
    }

    public Spec dequeueStrategy(String v) {
      return new Spec(weight, capability, reclaimable, guarantee, deserved, priority, parent, type, v);
    }
  }

  /** {@code spec.guarantee}: resources reserved for the queue. */
  public record Guarantee(Map<String, Quantity> resource) {
    /** Nothing set. */
    public Guarantee() {
      this(null);
    }

    public Guarantee resource(Map<String, Quantity> v) {
      return new Guarantee(v);
    }
  }

  /** {@code status}: state (Open, Closed, Closing, Unknown), PodGroup counts per phase, allocated resources. */
  public record Status(String state, Integer unknown, Integer pending, Integer running, Integer inqueue,
      Integer completed, Reservation reservation, Map<String, Quantity> allocated) {
    /** Nothing set. */
    public Status() {
      this(null, null, null, null, null, null, null, null);
    }

    public Status state(String v) {
      return new Status(v, unknown, pending, running, inqueue, completed, reservation, allocated);
    }

    public Status unknown(Integer v) {
      return new Status(state, v, pending, running, inqueue, completed, reservation, allocated);
    }

    public Status pending(Integer v) {
      return new Status(state, unknown, v, running, inqueue, completed, reservation, allocated);
    }

    public Status running(Integer v) {
      return new Status(state, unknown, pending, v, inqueue, completed, reservation, allocated);
    }

    public Status inqueue(Integer v) {
      return new Status(state, unknown, pending, running, v, completed, reservation, allocated);
    }

    public Status completed(Integer v) {
      return new Status(state, unknown, pending, running, inqueue, v, reservation, allocated);
    }

    public Status reservation(Reservation v) {
      return new Status(state, unknown, pending, running, inqueue, completed, v, allocated);
    }

    public Status allocated(Map<String, Quantity> v) {
      return new Status(state, unknown, pending, running, inqueue, completed, reservation, v);
    }
  }

  /** {@code status.reservation}: nodes locked for the queue and their idle resources. */
  public record Reservation(List<String> nodes, Map<String, Quantity> resource) {
    /** Nothing set. */
    public Reservation() {
      this(null, null);
    }

    public Reservation nodes(List<String> v) {
      return new Reservation(v, resource);
    }

    public Reservation resource(Map<String, Quantity> v) {
      return new Reservation(nodes, v);
    }
  }
}
