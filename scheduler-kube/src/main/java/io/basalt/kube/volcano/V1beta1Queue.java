package io.basalt.kube.volcano;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.custom.Quantity;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Volcano's cluster-scoped {@code scheduling.volcano.sh/v1beta1} Queue custom resource, shaped for client-java's Gson
 * (usable with {@code GenericKubernetesApi<V1beta1Queue, V1beta1QueueList>} and shared informers). Fields Basalt does
 * not read (extendClusters, affinity) are not modelled and are ignored when read.
 */
public final class V1beta1Queue extends VolcanoObject<V1beta1Queue, V1beta1Queue.Spec, V1beta1Queue.Status> {
  public static final String GROUP = V1beta1PodGroup.GROUP;
  public static final String VERSION = V1beta1PodGroup.VERSION;
  public static final String API_VERSION = V1beta1PodGroup.API_VERSION;
  public static final String KIND = "Queue";
  public static final String PLURAL = "queues";

  /** {@code spec}: share weight, limits, guarantees and place in the queue hierarchy. */
  public static final class Spec {
    @SerializedName("weight")
    private Integer weight;

    @SerializedName("capability")
    private Map<String, Quantity> capability;

    @SerializedName("reclaimable")
    private Boolean reclaimable;

    @SerializedName("guarantee")
    private Guarantee guarantee;

    @SerializedName("deserved")
    private Map<String, Quantity> deserved;

    @SerializedName("priority")
    private Integer priority;

    @SerializedName("parent")
    private String parent;

    @SerializedName("type")
    private String type;

    @SerializedName("dequeueStrategy")
    private String dequeueStrategy;

    /** Null when unset; Volcano defaults it to 1. */
    public Integer getWeight() {
      return weight;
    }

    public void setWeight(Integer weight) {
      this.weight = weight;
    }

    public Spec weight(Integer weight) {
      this.weight = weight;
      return this;
    }

    public Map<String, Quantity> getCapability() {
      return capability;
    }

    public void setCapability(Map<String, Quantity> capability) {
      this.capability = capability;
    }

    public Spec capability(Map<String, Quantity> capability) {
      this.capability = capability;
      return this;
    }

    /** Null when unset, which means reclaimable. */
    public Boolean getReclaimable() {
      return reclaimable;
    }

    public void setReclaimable(Boolean reclaimable) {
      this.reclaimable = reclaimable;
    }

    public Spec reclaimable(Boolean reclaimable) {
      this.reclaimable = reclaimable;
      return this;
    }

    public Guarantee getGuarantee() {
      return guarantee;
    }

    public void setGuarantee(Guarantee guarantee) {
      this.guarantee = guarantee;
    }

    public Spec guarantee(Guarantee guarantee) {
      this.guarantee = guarantee;
      return this;
    }

    public Map<String, Quantity> getDeserved() {
      return deserved;
    }

    public void setDeserved(Map<String, Quantity> deserved) {
      this.deserved = deserved;
    }

    public Spec deserved(Map<String, Quantity> deserved) {
      this.deserved = deserved;
      return this;
    }

    public Integer getPriority() {
      return priority;
    }

    public void setPriority(Integer priority) {
      this.priority = priority;
    }

    public Spec priority(Integer priority) {
      this.priority = priority;
      return this;
    }

    public String getParent() {
      return parent;
    }

    public void setParent(String parent) {
      this.parent = parent;
    }

    public Spec parent(String parent) {
      this.parent = parent;
      return this;
    }

    public String getType() {
      return type;
    }

    public void setType(String type) {
      this.type = type;
    }

    public Spec type(String type) {
      this.type = type;
      return this;
    }

    /** {@code fifo} or {@code traverse} (Volcano's default). */
    public String getDequeueStrategy() {
      return dequeueStrategy;
    }

    public void setDequeueStrategy(String dequeueStrategy) {
      this.dequeueStrategy = dequeueStrategy;
    }

    public Spec dequeueStrategy(String dequeueStrategy) {
      this.dequeueStrategy = dequeueStrategy;
      return this;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Spec other && Objects.equals(weight, other.weight)
          && Objects.equals(capability, other.capability) && Objects.equals(reclaimable, other.reclaimable)
          && Objects.equals(guarantee, other.guarantee) && Objects.equals(deserved, other.deserved)
          && Objects.equals(priority, other.priority) && Objects.equals(parent, other.parent)
          && Objects.equals(type, other.type) && Objects.equals(dequeueStrategy, other.dequeueStrategy);
    }

    @Override
    public int hashCode() {
      return Objects.hash(weight, capability, reclaimable, guarantee, deserved, priority, parent, type,
          dequeueStrategy);
    }

    @Override
    public String toString() {
      return "{weight=" + weight + ", capability=" + capability + ", reclaimable=" + reclaimable + ", guarantee="
          + guarantee + ", deserved=" + deserved + ", priority=" + priority + ", parent=" + parent + "}";
    }
  }

  /** {@code spec.guarantee}: resources reserved for the queue. */
  public static final class Guarantee {
    @SerializedName("resource")
    private Map<String, Quantity> resource;

    public Map<String, Quantity> getResource() {
      return resource;
    }

    public void setResource(Map<String, Quantity> resource) {
      this.resource = resource;
    }

    public Guarantee resource(Map<String, Quantity> resource) {
      this.resource = resource;
      return this;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Guarantee other && Objects.equals(resource, other.resource);
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(resource);
    }

    @Override
    public String toString() {
      return "{resource=" + resource + "}";
    }
  }

  /** {@code status}: state (Open, Closed, Closing, Unknown), PodGroup counts per phase, allocated resources. */
  public static final class Status {
    @SerializedName("state")
    private String state;

    @SerializedName("unknown")
    private Integer unknown;

    @SerializedName("pending")
    private Integer pending;

    @SerializedName("running")
    private Integer running;

    @SerializedName("inqueue")
    private Integer inqueue;

    @SerializedName("completed")
    private Integer completed;

    @SerializedName("reservation")
    private Reservation reservation;

    @SerializedName("allocated")
    private Map<String, Quantity> allocated;

    public String getState() {
      return state;
    }

    public void setState(String state) {
      this.state = state;
    }

    public Status state(String state) {
      this.state = state;
      return this;
    }

    public Integer getUnknown() {
      return unknown;
    }

    public void setUnknown(Integer unknown) {
      this.unknown = unknown;
    }

    public Status unknown(Integer unknown) {
      this.unknown = unknown;
      return this;
    }

    public Integer getPending() {
      return pending;
    }

    public void setPending(Integer pending) {
      this.pending = pending;
    }

    public Status pending(Integer pending) {
      this.pending = pending;
      return this;
    }

    public Integer getRunning() {
      return running;
    }

    public void setRunning(Integer running) {
      this.running = running;
    }

    public Status running(Integer running) {
      this.running = running;
      return this;
    }

    public Integer getInqueue() {
      return inqueue;
    }

    public void setInqueue(Integer inqueue) {
      this.inqueue = inqueue;
    }

    public Status inqueue(Integer inqueue) {
      this.inqueue = inqueue;
      return this;
    }

    public Integer getCompleted() {
      return completed;
    }

    public void setCompleted(Integer completed) {
      this.completed = completed;
    }

    public Status completed(Integer completed) {
      this.completed = completed;
      return this;
    }

    public Reservation getReservation() {
      return reservation;
    }

    public void setReservation(Reservation reservation) {
      this.reservation = reservation;
    }

    public Status reservation(Reservation reservation) {
      this.reservation = reservation;
      return this;
    }

    public Map<String, Quantity> getAllocated() {
      return allocated;
    }

    public void setAllocated(Map<String, Quantity> allocated) {
      this.allocated = allocated;
    }

    public Status allocated(Map<String, Quantity> allocated) {
      this.allocated = allocated;
      return this;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Status other && Objects.equals(state, other.state) && Objects.equals(unknown, other.unknown)
          && Objects.equals(pending, other.pending) && Objects.equals(running, other.running)
          && Objects.equals(inqueue, other.inqueue) && Objects.equals(completed, other.completed)
          && Objects.equals(reservation, other.reservation) && Objects.equals(allocated, other.allocated);
    }

    @Override
    public int hashCode() {
      return Objects.hash(state, unknown, pending, running, inqueue, completed, reservation, allocated);
    }

    @Override
    public String toString() {
      return "{state=" + state + ", pending=" + pending + ", inqueue=" + inqueue + ", running=" + running
          + ", allocated=" + allocated + "}";
    }
  }

  /** {@code status.reservation}: nodes locked for the queue and their idle resources. */
  public static final class Reservation {
    @SerializedName("nodes")
    private List<String> nodes;

    @SerializedName("resource")
    private Map<String, Quantity> resource;

    public List<String> getNodes() {
      return nodes;
    }

    public void setNodes(List<String> nodes) {
      this.nodes = nodes;
    }

    public Reservation nodes(List<String> nodes) {
      this.nodes = nodes;
      return this;
    }

    public Map<String, Quantity> getResource() {
      return resource;
    }

    public void setResource(Map<String, Quantity> resource) {
      this.resource = resource;
    }

    public Reservation resource(Map<String, Quantity> resource) {
      this.resource = resource;
      return this;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Reservation other && Objects.equals(nodes, other.nodes)
          && Objects.equals(resource, other.resource);
    }

    @Override
    public int hashCode() {
      return Objects.hash(nodes, resource);
    }
  }
}
