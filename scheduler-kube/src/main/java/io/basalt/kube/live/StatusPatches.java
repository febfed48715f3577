package io.basalt.kube.live;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.basalt.api.JobCondition;
import io.basalt.session.SessionResult;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The patch bodies StatusWriter sends, as kube-scheduler and Volcano shape them. */
final class StatusPatches {
  private StatusPatches() {
  }

  /**
   * A strategic merge patch setting {@code PodScheduled=False}, reason {@code Unschedulable}, with the reason as
   * message. {@code transitionTime} is null when the condition was False already (only the reason changed), so the
   * time it became False stays.
   */
  static String podUnschedulable(String reason, String transitionTime) {
    return podStatus(reason, transitionTime, false, null);
  }

  /**
   * A strategic merge patch of a pending pod's status: the {@link #podUnschedulable} condition unless {@code reason}
   * is null, and with {@code nomination} its {@code nominatedNodeName}, null in the patch to clear it.
   */
  static String podStatus(String reason, String transitionTime, boolean nomination, String nominatedNode) {
    JsonObject status = new JsonObject();
    if (reason != null) {
      status.add("conditions", unschedulable(reason, transitionTime));
    }
    if (nomination) {
      status.add("nominatedNodeName",
          nominatedNode == null ? JsonNull.INSTANCE : new com.google.gson.JsonPrimitive(nominatedNode));
    }
    return wrap(status);
  }

  /** A strategic merge patch setting {@code PodScheduled=False} with the given reason and message. */
  static String podCondition(String reason, String message, String transitionTime) {
    JsonObject status = new JsonObject();
    status.add("conditions", podScheduledFalse(reason, message, transitionTime));
    return wrap(status);
  }

  private static JsonArray unschedulable(String reason, String transitionTime) {
    return podScheduledFalse("Unschedulable", reason, transitionTime);
  }

  private static JsonArray podScheduledFalse(String reason, String message, String transitionTime) {
    JsonObject c = new JsonObject();
    c.addProperty("type", "PodScheduled");
    c.addProperty("status", "False");
    c.addProperty("reason", reason);
    c.addProperty("message", message);
    if (transitionTime != null) {
      c.addProperty("lastTransitionTime", transitionTime);
    }
    JsonArray conditions = new JsonArray();
    conditions.add(c);
    return conditions;
  }

  /** Volcano's annotation naming the HyperNode a job was placed in. */
  static final String ALLOCATED_HYPERNODE = "volcano.sh/job-allocated-hypernode";

  /** A merge patch of a PodGroup's metadata recording the network domain its job was placed in, as Volcano does. */
  static String allocatedDomain(String domain) {
    JsonObject annotations = new JsonObject();
    annotations.addProperty(ALLOCATED_HYPERNODE, domain);
    JsonObject metadata = new JsonObject();
    metadata.add("annotations", annotations);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    return patch.toString();
  }

  /**
   * A merge patch of a PodGroup's status: phase, running count (its pods in phase Running, as Volcano counts them and
   * its CRD documents {@code status.running}; a bound pod whose containers have not started is not running yet),
   * conditions as Volcano writes them; without times, to tell whether anything changed.
   */
  static String podGroup(SessionResult.JobStatus j) {
    return podGroup(j, Map.of());
  }

  /** {@link #podGroup(SessionResult.JobStatus)} with each condition's {@code lastTransitionTime} from {@code times}. */
  static String podGroup(SessionResult.JobStatus j, Map<String, String> times) {
    JsonObject status = new JsonObject();
    status.addProperty("phase", j.phase().wireName());
    status.addProperty("running", j.running());
    JsonArray conditions = new JsonArray();
    for (JobCondition c : j.conditions()) {
      JsonObject o = new JsonObject();
      o.addProperty("type", c.type());
      o.addProperty("status", c.status());
      o.addProperty("reason", c.reason());
      o.addProperty("message", c.message());
      String time = times.get(c.type());
      if (time != null) {
        o.addProperty("lastTransitionTime", time);
      }
      conditions.add(o);
    }
    if (!conditions.isEmpty()) {
      status.add("conditions", conditions);
    }
    return wrap(status);
  }

  /** A condition's status and when it last changed to it. */
  record Transition(String status, String time) {}

  /**
   * Each condition's {@code lastTransitionTime}: kept from {@code known} while its status stays, {@code now} when it
   * is new or its status flipped (as Kubernetes conditions mean it: a changed reason or message is no transition).
   * {@code known} is updated to the conditions given, forgetting types no longer reported.
   */
  static Map<String, String> transitionTimes(Map<String, Transition> known, List<JobCondition> conditions,
      String now) {
    Map<String, String> times = new java.util.HashMap<>();
    Set<String> types = new java.util.HashSet<>();
    for (JobCondition c : conditions) {
      types.add(c.type());
      Transition t = known.get(c.type());
      if (t == null || !t.status().equals(c.status())) {
        t = new Transition(c.status(), now);
        known.put(c.type(), t);
      }
      times.put(c.type(), t.time());
    }
    known.keySet().retainAll(types);
    return times;
  }

  /**
   * A merge patch of a Queue's status: allocated per resource and its PodGroups by phase. The resources in
   * {@code clear} are sent as null: a merge patch keeps every key it does not mention, so a resource the queue no
   * longer holds must be named to leave {@code status.allocated}.
   */
  static String queue(SessionResult.QueueStatus q, Set<String> clear) {
    JsonObject allocated = new JsonObject();
    Map<String, String> now = q.allocated().toQuantities();
    for (String name : new TreeSet<>(clear)) {
      if (!now.containsKey(name)) {
        allocated.add(name, JsonNull.INSTANCE);
      }
    }
    now.forEach(allocated::addProperty);
    JsonObject status = new JsonObject();
    status.add("allocated", allocated);
    status.addProperty("pending", q.pending());
    status.addProperty("inqueue", q.inqueue());
    status.addProperty("running", q.running());
    return wrap(status);
  }

  /** A merge patch removing {@code names} from a Queue's {@code status.allocated}. */
  static String clearAllocated(Set<String> names) {
    JsonObject allocated = new JsonObject();
    new TreeSet<>(names).forEach(n -> allocated.add(n, JsonNull.INSTANCE));
    JsonObject status = new JsonObject();
    status.add("allocated", allocated);
    return wrap(status);
  }

  /** The resource names under {@code status.allocated} of a Queue as the API server returned it (a Gson tree). */
  static Set<String> allocatedNames(Object queue) {
    if (queue instanceof Map<?, ?> q && q.get("status") instanceof Map<?, ?> status
        && status.get("allocated") instanceof Map<?, ?> allocated) {
      Set<String> names = new TreeSet<>();
      allocated.keySet().forEach(k -> names.add(String.valueOf(k)));
      return names;
    }
    return Set.of();
  }

  private static String wrap(JsonObject status) {
    JsonObject body = new JsonObject();
    body.add("status", status);
    return body.toString();
  }
}
