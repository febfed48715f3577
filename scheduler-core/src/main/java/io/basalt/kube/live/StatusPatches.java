package io.basalt.kube.live;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.basalt.framework.JobCondition;
import io.basalt.framework.SessionResult;
import io.basalt.model.ResourceNames;
import java.util.Map;

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
    JsonObject c = new JsonObject();
    c.addProperty("type", "PodScheduled");
    c.addProperty("status", "False");
    c.addProperty("reason", "Unschedulable");
    c.addProperty("message", reason);
    if (transitionTime != null) {
      c.addProperty("lastTransitionTime", transitionTime);
    }
    JsonArray conditions = new JsonArray();
    conditions.add(c);
    JsonObject status = new JsonObject();
    status.add("conditions", conditions);
    return wrap(status);
  }

  /** A merge patch of a PodGroup's status: phase, running count, conditions as Volcano writes them. */
  static String podGroup(SessionResult.JobStatus j) {
    JsonObject status = new JsonObject();
    status.addProperty("phase", j.phase());
    status.addProperty("running", j.scheduled());
    JsonArray conditions = new JsonArray();
    for (JobCondition c : j.conditions()) {
      JsonObject o = new JsonObject();
      o.addProperty("type", c.type());
      o.addProperty("status", c.status());
      o.addProperty("reason", c.reason());
      o.addProperty("message", c.message());
      conditions.add(o);
    }
    if (!conditions.isEmpty()) {
      status.add("conditions", conditions);
    }
    return wrap(status);
  }

  /**
   * A merge patch of a Queue's status: allocated per resource and its PodGroups by phase. With {@code clearUnused},
   * every resource the cluster knows but the queue no longer holds is sent as null, since a merge patch keeps every
   * key it does not mention: so a resource that drops to zero leaves the Queue even when an earlier process (a
   * previous leader) wrote it. Without, the body is the canonical form used to detect change.
   */
  static String queue(SessionResult.QueueStatus q, boolean clearUnused) {
    JsonObject allocated = new JsonObject();
    Map<String, String> now = q.allocated().toQuantities();
    if (clearUnused) {
      for (int i = 0; i < ResourceNames.count(); i++) {
        String name = ResourceNames.name(i);
        if (!now.containsKey(name)) {
          allocated.add(name, JsonNull.INSTANCE);
        }
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

  private static String wrap(JsonObject status) {
    JsonObject body = new JsonObject();
    body.add("status", status);
    return body.toString();
  }
}
