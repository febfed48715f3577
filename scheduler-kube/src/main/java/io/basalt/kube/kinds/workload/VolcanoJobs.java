package io.basalt.kube.kinds.workload;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Volcano {@code batch.volcano.sh/v1alpha1} Job, as Volcano's admission webhook defaults it and its job controller
 * creates it: one PodGroup, then {@code <job>-<task>-<index>} for every task and replica.
 *
 * <p>Webhook defaults applied: {@code queue} {@code default}, {@code schedulerName} {@code volcano}, a task without a
 * name is {@code default<i>}, {@code minAvailable} the sum over tasks of their {@code minAvailable} (else replicas).
 * Webhook rejections reported as errors: no tasks, duplicate task names, {@code minAvailable} above the replicas.
 *
 * <p>PodGroup name: current Volcano names it {@code <job>-<job uid>} and still finds a legacy one named {@code <job>};
 * a job with {@code metadata.uid} gets the former, one without (most fixtures) the latter, so names stay stable.
 * {@code minTaskMember} carries only the tasks that set {@code minAvailable}: Volcano's webhook would default every
 * task's to its replicas, but its scheduler then ignores them when {@code minMember} is below their sum, which
 * Basalt's gang does not, so writing the defaults would make {@code minAvailable: 1} of 2 replicas demand both.
 */
final class VolcanoJobs {
  static final String API_VERSION = "batch.volcano.sh/v1alpha1";
  static final String PODGROUP_API_VERSION = "scheduling.volcano.sh/v1beta1";

  private VolcanoJobs() {}

  static void expand(JsonObject job, Owner owner, Sink out) {
    JsonObject spec = Fields.object(job, "spec", "spec");
    JsonArray tasks = spec == null ? null : Fields.array(spec, "tasks", "spec.tasks");
    if (tasks == null || tasks.isEmpty()) {
      throw new Malformed("spec.tasks", "no tasks: a Volcano Job needs at least one");
    }
    String queue = nonEmpty(Fields.string(spec, "queue"), "default");
    String scheduler = nonEmpty(Fields.string(spec, "schedulerName"), "volcano");
    String priorityClass = Fields.string(spec, "priorityClassName");
    String group = owner.explicitUid() ? owner.name() + "-" + owner.uid() : owner.name();

    Map<String, JsonObject> templates = new LinkedHashMap<>();
    Map<String, Integer> replicas = new LinkedHashMap<>();
    Map<String, Integer> minTaskMember = new LinkedHashMap<>();
    int defaultMin = 0;
    int total = 0;
    for (int i = 0; i < tasks.size(); i++) {
      String path = "spec.tasks[" + i + "]";
      JsonElement el = tasks.get(i);
      if (!el.isJsonObject()) {
        throw new Malformed(path, "expected a mapping");
      }
      JsonObject task = el.getAsJsonObject();
      String name = nonEmpty(Fields.string(task, "name"), "default" + i);
      if (templates.containsKey(name)) {
        throw new Malformed(path + ".name", "duplicate task name '" + name + "'");
      }
      int n = orZero(Fields.pods(task, "replicas", path + ".replicas"));
      Integer min = Fields.count(task, "minAvailable", path + ".minAvailable");
      if (min != null && min > n) {
        throw new Malformed(path + ".minAvailable", min + " is greater than replicas " + n);
      }
      if (min != null) {
        minTaskMember.put(name, min);
      }
      templates.put(name, Fields.object(task, "template", path + ".template"));
      replicas.put(name, n);
      defaultMin += min != null ? min : n;
      total += n;
      Sink.checkTotal(total, path + ".replicas", "the tasks' replicas"); // before any pod is made
    }
    Integer minAvailable = Fields.count(spec, "minAvailable", "spec.minAvailable");
    int minMember = minAvailable == null || minAvailable == 0 ? defaultMin : minAvailable;
    if (minMember > total) {
      throw new Malformed("spec.minAvailable", minMember + " is greater than the tasks' replicas " + total);
    }

    out.add(podGroup(spec, owner, group, minMember, minTaskMember, queue, priorityClass));
    int t = 0;
    for (Map.Entry<String, JsonObject> e : templates.entrySet()) {
      String task = e.getKey();
      for (int ix = 0; ix < replicas.get(task); ix++) {
        String name = owner.name() + "-" + task + "-" + ix;
        JsonObject pod = Docs.pod(e.getValue(), "spec.tasks[" + t + "].template", name, owner);
        Docs.specDefault(pod, "schedulerName", scheduler);
        Docs.specDefault(pod, "priorityClassName", priorityClass);
        Docs.annotate(pod, "scheduling.k8s.io/group-name", group);
        Docs.annotate(pod, "volcano.sh/job-name", owner.name());
        Docs.annotate(pod, "volcano.sh/task-spec", task);
        Docs.annotate(pod, "volcano.sh/task-index", Integer.toString(ix));
        Docs.annotate(pod, "volcano.sh/queue-name", queue);
        Docs.annotate(pod, "volcano.sh/job-version", "0");
        Docs.annotate(pod, "volcano.sh/template-uid", owner.name() + "-" + task);
        Docs.label(pod, "volcano.sh/job-name", owner.name());
        Docs.label(pod, "volcano.sh/task-spec", task);
        Docs.label(pod, "volcano.sh/job-namespace", owner.namespace());
        Docs.label(pod, "volcano.sh/queue-name", queue);
        out.add(pod);
      }
      t++;
    }
  }

  private static JsonObject podGroup(JsonObject spec, Owner owner, String name, int minMember,
      Map<String, Integer> minTaskMember, String queue, String priorityClass) {
    JsonObject pg = new JsonObject();
    pg.addProperty("apiVersion", PODGROUP_API_VERSION);
    pg.addProperty("kind", "PodGroup");
    pg.add("metadata", Docs.metadata(name, owner));
    JsonObject s = new JsonObject();
    s.addProperty("minMember", minMember);
    if (!minTaskMember.isEmpty()) {
      JsonObject m = new JsonObject();
      minTaskMember.forEach(m::addProperty);
      s.add("minTaskMember", m);
    }
    s.addProperty("queue", queue);
    if (priorityClass != null && !priorityClass.isEmpty()) {
      s.addProperty("priorityClassName", priorityClass);
    }
    JsonElement topology = spec.get("networkTopology");
    if (topology != null && !topology.isJsonNull()) {
      s.add("networkTopology", topology.deepCopy());
    }
    pg.add("spec", s);
    return pg;
  }

  static String nonEmpty(String s, String otherwise) {
    return s == null || s.isEmpty() ? otherwise : s;
  }

  static int orZero(Integer n) {
    return n == null ? 0 : n;
  }
}
