package io.basalt.kube.kinds.workload;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Locale;
import java.util.Map;

/**
 * Kubeflow training-operator jobs ({@code kubeflow.org/v1} PyTorchJob and MPIJob): each replica spec (Master,
 * Worker, Launcher, ...) {@code replicas} times (default 1) becomes a pod {@code <job>-<type lowercased>-<index>},
 * labelled {@code training.kubeflow.org/job-name}, {@code replica-type} (lowercased), {@code replica-index},
 * {@code operator-name}, and {@code job-role: master} on a PyTorch Master or an MPI Launcher. The MPIJob launcher is
 * the operator's one exception to the naming: {@code <job>-launcher}.
 *
 * <p>Gangs: the operator creates a Volcano PodGroup only when it runs with gang scheduling on
 * ({@code --gang-scheduler-name}), which a manifest cannot show. The visible sign is a replica template naming a
 * scheduler other than {@code default-scheduler}; then the job gets PodGroup {@code <job>} (minMember
 * {@code runPolicy.schedulingPolicy.minAvailable}, else all replicas; queue and priorityClass from the scheduling
 * policy), every pod its {@code scheduling.k8s.io/group-name} and, where its template names none, that scheduler.
 * A scheduling policy without such a template is noted and gets no PodGroup.
 */
final class TrainingJobs {
  static final String API_VERSION = "kubeflow.org/v1";

  private TrainingJobs() {}

  static void expand(JsonObject job, Owner owner, Sink out) {
    boolean mpi = owner.kind().equals("MPIJob");
    String field = mpi ? "mpiReplicaSpecs" : "pytorchReplicaSpecs";
    String operator = mpi ? "mpijob-controller" : "pytorchjob-controller";
    JsonObject spec = Fields.object(job, "spec", "spec");
    JsonObject specs = spec == null ? null : Fields.object(spec, field, "spec." + field);
    if (specs == null || specs.isEmpty()) {
      throw new Malformed("spec." + field, "no replica specs");
    }
    JsonObject runPolicy = Fields.object(spec, "runPolicy", "spec.runPolicy");
    JsonObject policy = Fields.object(runPolicy, "schedulingPolicy", "spec.runPolicy.schedulingPolicy");
    Integer minAvailable = Fields.count(policy, "minAvailable", "spec.runPolicy.schedulingPolicy.minAvailable");

    int total = 0;
    String gangScheduler = null;
    for (Map.Entry<String, JsonElement> e : specs.entrySet()) {
      String path = "spec." + field + "." + e.getKey();
      if (!e.getValue().isJsonObject()) {
        throw new Malformed(path, "expected a mapping");
      }
      Integer n = Fields.pods(e.getValue().getAsJsonObject(), "replicas", path + ".replicas");
      total += n == null ? 1 : n;
      Sink.checkTotal(total, path + ".replicas", "the replica specs' replicas"); // before any pod is made
      JsonObject template = Fields.object(e.getValue().getAsJsonObject(), "template", path + ".template");
      String s = Fields.string(Fields.object(template, "spec", path + ".template.spec"), "schedulerName");
      if (gangScheduler == null && s != null && !s.isEmpty() && !s.equals("default-scheduler")) {
        gangScheduler = s;
      }
    }
    if (gangScheduler != null) {
      out.add(podGroup(owner, minAvailable == null ? total : minAvailable, policy));
    } else if (policy != null) {
      out.warnings().add(owner.display() + ": spec.runPolicy.schedulingPolicy applies only when the training "
          + "operator runs with gang scheduling, and no replica template names a gang scheduler: no PodGroup");
    }
    for (Map.Entry<String, JsonElement> e : specs.entrySet()) {
      String type = e.getKey();
      String lower = type.toLowerCase(Locale.ROOT);
      String path = "spec." + field + "." + type;
      JsonObject replica = e.getValue().getAsJsonObject();
      Integer n = Fields.pods(replica, "replicas", path + ".replicas");
      boolean master = lower.equals(mpi ? "launcher" : "master");
      for (int i = 0; i < (n == null ? 1 : n); i++) {
        String name = mpi && master ? owner.name() + "-launcher" : owner.name() + "-" + lower + "-" + i;
        JsonObject pod = Docs.pod(Fields.object(replica, "template", path + ".template"), path + ".template", name,
            owner);
        Docs.label(pod, "training.kubeflow.org/job-name", owner.name());
        Docs.label(pod, "training.kubeflow.org/operator-name", operator);
        Docs.label(pod, "training.kubeflow.org/replica-type", lower);
        Docs.label(pod, "training.kubeflow.org/replica-index", Integer.toString(i));
        if (master) {
          Docs.label(pod, "training.kubeflow.org/job-role", "master");
        }
        if (gangScheduler != null) {
          Docs.specDefault(pod, "schedulerName", gangScheduler);
          Docs.annotate(pod, "scheduling.k8s.io/group-name", owner.name());
        }
        out.add(pod);
      }
    }
  }

  private static JsonObject podGroup(Owner owner, int minMember, JsonObject policy) {
    JsonObject pg = new JsonObject();
    pg.addProperty("apiVersion", VolcanoJobs.PODGROUP_API_VERSION);
    pg.addProperty("kind", "PodGroup");
    pg.add("metadata", Docs.metadata(owner.name(), owner));
    JsonObject s = new JsonObject();
    s.addProperty("minMember", minMember);
    String queue = Fields.string(policy, "queue");
    if (queue != null && !queue.isEmpty()) {
      s.addProperty("queue", queue);
    }
    String priorityClass = Fields.string(policy, "priorityClass");
    if (priorityClass != null && !priorityClass.isEmpty()) {
      s.addProperty("priorityClassName", priorityClass);
    }
    pg.add("spec", s);
    return pg;
  }
}
