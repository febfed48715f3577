package io.basalt.kube.volcano;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.custom.Quantity;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Volcano's {@code scheduling.volcano.sh/v1beta1} PodGroup custom resource, shaped for client-java's Gson (usable with
 * {@code GenericKubernetesApi<V1beta1PodGroup, V1beta1PodGroupList>} and shared informers). Only the fields Basalt
 * reads are modelled; unknown fields (networkTopology, subGroupPolicy, ...) are ignored when read.
 */
public final class V1beta1PodGroup
    extends VolcanoObject<V1beta1PodGroup, V1beta1PodGroup.Spec, V1beta1PodGroup.Status> {
  public static final String GROUP = "scheduling.volcano.sh";
  public static final String VERSION = "v1beta1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "PodGroup";
  public static final String PLURAL = "podgroups";

  /** {@code spec}: the gang's size, queue, priority and minimum resources. */
  public static final class Spec {
    @SerializedName("minMember")
    private Integer minMember;

    @SerializedName("minTaskMember")
    private Map<String, Integer> minTaskMember;

    @SerializedName("queue")
    private String queue;

    @SerializedName("priorityClassName")
    private String priorityClassName;

    @SerializedName("minResources")
    private Map<String, Quantity> minResources;

    public Integer getMinMember() {
      return minMember;
    }

    public void setMinMember(Integer minMember) {
      this.minMember = minMember;
    }

    public Spec minMember(Integer minMember) {
      this.minMember = minMember;
      return this;
    }

    public Map<String, Integer> getMinTaskMember() {
      return minTaskMember;
    }

    public void setMinTaskMember(Map<String, Integer> minTaskMember) {
      this.minTaskMember = minTaskMember;
    }

    public Spec minTaskMember(Map<String, Integer> minTaskMember) {
      this.minTaskMember = minTaskMember;
      return this;
    }

    public String getQueue() {
      return queue;
    }

    public void setQueue(String queue) {
      this.queue = queue;
    }

    public Spec queue(String queue) {
      this.queue = queue;
      return this;
    }

    public String getPriorityClassName() {
      return priorityClassName;
    }

    public void setPriorityClassName(String priorityClassName) {
      this.priorityClassName = priorityClassName;
    }

    public Spec priorityClassName(String priorityClassName) {
      this.priorityClassName = priorityClassName;
      return this;
    }

    /** Null when the group does not declare it, which Volcano treats differently from an empty list. */
    public Map<String, Quantity> getMinResources() {
      return minResources;
    }

    public void setMinResources(Map<String, Quantity> minResources) {
      this.minResources = minResources;
    }

    public Spec minResources(Map<String, Quantity> minResources) {
      this.minResources = minResources;
      return this;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Spec other && Objects.equals(minMember, other.minMember)
          && Objects.equals(minTaskMember, other.minTaskMember) && Objects.equals(queue, other.queue)
          && Objects.equals(priorityClassName, other.priorityClassName)
          && Objects.equals(minResources, other.minResources);
    }

    @Override
    public int hashCode() {
      return Objects.hash(minMember, minTaskMember, queue, priorityClassName, minResources);
    }

    @Override
    public String toString() {
      return "{minMember=" + minMember + ", minTaskMember=" + minTaskMember + ", queue=" + queue
          + ", priorityClassName=" + priorityClassName + ", minResources=" + minResources + "}";
    }
  }

  /** {@code status}: phase (Pending, Inqueue, Running, Unknown, Completed), conditions and pod counts. */
  public static final class Status {
    @SerializedName("phase")
    private String phase;

    @SerializedName("conditions")
    private List<Condition> conditions;

    @SerializedName("running")
    private Integer running;

    @SerializedName("succeeded")
    private Integer succeeded;

    @SerializedName("failed")
    private Integer failed;

    public String getPhase() {
      return phase;
    }

    public void setPhase(String phase) {
      this.phase = phase;
    }

    public Status phase(String phase) {
      this.phase = phase;
      return this;
    }

    public List<Condition> getConditions() {
      return conditions;
    }

    public void setConditions(List<Condition> conditions) {
      this.conditions = conditions;
    }

    public Status conditions(List<Condition> conditions) {
      this.conditions = conditions;
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

    public Integer getSucceeded() {
      return succeeded;
    }

    public void setSucceeded(Integer succeeded) {
      this.succeeded = succeeded;
    }

    public Status succeeded(Integer succeeded) {
      this.succeeded = succeeded;
      return this;
    }

    public Integer getFailed() {
      return failed;
    }

    public void setFailed(Integer failed) {
      this.failed = failed;
    }

    public Status failed(Integer failed) {
      this.failed = failed;
      return this;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Status other && Objects.equals(phase, other.phase)
          && Objects.equals(conditions, other.conditions) && Objects.equals(running, other.running)
          && Objects.equals(succeeded, other.succeeded) && Objects.equals(failed, other.failed);
    }

    @Override
    public int hashCode() {
      return Objects.hash(phase, conditions, running, succeeded, failed);
    }

    @Override
    public String toString() {
      return "{phase=" + phase + ", running=" + running + ", succeeded=" + succeeded + ", failed=" + failed
          + ", conditions=" + conditions + "}";
    }
  }

  /** One entry of {@code status.conditions}; types Volcano sets are Unschedulable and Scheduled. */
  public static final class Condition {
    @SerializedName("type")
    private String type;

    @SerializedName("status")
    private String status;

    @SerializedName("transitionID")
    private String transitionID;

    @SerializedName("lastTransitionTime")
    private OffsetDateTime lastTransitionTime;

    @SerializedName("reason")
    private String reason;

    @SerializedName("message")
    private String message;

    public String getType() {
      return type;
    }

    public void setType(String type) {
      this.type = type;
    }

    public Condition type(String type) {
      this.type = type;
      return this;
    }

    public String getStatus() {
      return status;
    }

    public void setStatus(String status) {
      this.status = status;
    }

    public Condition status(String status) {
      this.status = status;
      return this;
    }

    public String getTransitionID() {
      return transitionID;
    }

    public void setTransitionID(String transitionID) {
      this.transitionID = transitionID;
    }

    public Condition transitionID(String transitionID) {
      this.transitionID = transitionID;
      return this;
    }

    public OffsetDateTime getLastTransitionTime() {
      return lastTransitionTime;
    }

    public void setLastTransitionTime(OffsetDateTime lastTransitionTime) {
      this.lastTransitionTime = lastTransitionTime;
    }

    public Condition lastTransitionTime(OffsetDateTime lastTransitionTime) {
      this.lastTransitionTime = lastTransitionTime;
      return this;
    }

    public String getReason() {
      return reason;
    }

    public void setReason(String reason) {
      this.reason = reason;
    }

    public Condition reason(String reason) {
      this.reason = reason;
      return this;
    }

    public String getMessage() {
      return message;
    }

    public void setMessage(String message) {
      this.message = message;
    }

    public Condition message(String message) {
      this.message = message;
      return this;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Condition other && Objects.equals(type, other.type) && Objects.equals(status, other.status)
          && Objects.equals(transitionID, other.transitionID)
          && Objects.equals(lastTransitionTime, other.lastTransitionTime) && Objects.equals(reason, other.reason)
          && Objects.equals(message, other.message);
    }

    @Override
    public int hashCode() {
      return Objects.hash(type, status, transitionID, lastTransitionTime, reason, message);
    }

    @Override
    public String toString() {
      return "{type=" + type + ", status=" + status + ", reason=" + reason + ", message=" + message + "}";
    }
  }
}
