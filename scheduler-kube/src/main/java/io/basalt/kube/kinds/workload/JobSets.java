package io.basalt.kube.kinds.workload;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.model.QueueRequest;
import java.util.HashSet;
import java.util.Set;

/**
 * A {@code jobset.x-k8s.io/v1alpha2} JobSet: each {@code replicatedJobs[]} entry {@code replicas} times (default 1)
 * becomes a batch Job {@code <jobset>-<replicatedJob>-<jobIndex>}, which {@link BatchJobs} expands into pods (owner
 * chain pod, Job, JobSet). As JobSet's webhook does, a Job template without {@code completionMode} is Indexed; the
 * JobSet's labels ({@code jobset.sigs.k8s.io/jobset-name}, {@code replicatedjob-name}, {@code job-index},
 * {@code replicatedjob-replicas}, {@code restart-attempt}) go on the Job and its pods. A suspended JobSet suspends
 * its Jobs. JobSet's gang policies (PodGroups) are not modelled.
 */
final class JobSets {
  static final String API_VERSION = "jobset.x-k8s.io/v1alpha2";
  private static final String PREFIX = "jobset.sigs.k8s.io/";

  private JobSets() {}

  static void expand(JsonObject jobSet, Owner owner, Sink out) {
    JsonObject spec = Fields.object(jobSet, "spec", "spec");
    JsonArray rjobs = spec == null ? null : Fields.array(spec, "replicatedJobs", "spec.replicatedJobs");
    if (rjobs == null || rjobs.isEmpty()) {
      throw new Malformed("spec.replicatedJobs", "no replicated jobs: a JobSet needs at least one");
    }
    boolean suspend = Fields.isTrue(spec, "suspend");
    JsonObject meta = Fields.object(jobSet, "metadata", "metadata");
    JsonObject labels = meta == null ? null : Fields.object(meta, "labels", "metadata.labels");
    String kueueQueue = labels == null ? null : Fields.string(labels, QueueRequest.KUEUE_LABEL);
    Set<String> seen = new HashSet<>();
    for (int r = 0; r < rjobs.size(); r++) {
      String path = "spec.replicatedJobs[" + r + "]";
      JsonElement el = rjobs.get(r);
      if (!el.isJsonObject()) {
        throw new Malformed(path, "expected a mapping");
      }
      JsonObject rjob = el.getAsJsonObject();
      String rname = Fields.string(rjob, "name");
      if (rname == null || rname.isEmpty()) {
        throw new Malformed(path + ".name", "missing");
      }
      if (!seen.add(rname)) {
        throw new Malformed(path + ".name", "duplicate replicated job name '" + rname + "'");
      }
      Integer replicas = Fields.pods(rjob, "replicas", path + ".replicas");
      int n = replicas == null ? 1 : replicas;
      JsonObject template = Fields.object(rjob, "template", path + ".template");
      JsonObject jobSpec = template == null ? null : Fields.object(template, "spec", path + ".template.spec");
      if (jobSpec == null) {
        throw new Malformed(path + ".template.spec", "missing");
      }
      Integer parallelism = Fields.count(jobSpec, "parallelism", path + ".template.spec.parallelism");
      long perJob = parallelism == null ? 1 : parallelism;
      if ((long) n * perJob > Sink.MAX_PODS) {
        throw new Malformed(path + ".replicas", n + " Jobs of up to " + perJob + " pods: more than the "
            + Sink.MAX_PODS + " one workload is expanded to");
      }
      for (int i = 0; i < n; i++) {
        JsonObject job = job(owner, rname, i, n, template, suspend);
        if (kueueQueue != null && !kueueQueue.isEmpty()) { // Kueue's admission reads it on each Job it admits
          Docs.label(job, QueueRequest.KUEUE_LABEL, kueueQueue);
        }
        Owner jobOwner = Owner.of(BatchJobs.API_VERSION, "Job", owner.namespace(), owner.name() + "-" + rname + "-" + i,
            null);
        try {
          BatchJobs.expand(job, jobOwner, out);
        } catch (Malformed e) {
          throw new Malformed(path + ".template", e.getMessage());
        }
      }
    }
  }

  /** The Job JobSet creates for replica {@code index} of {@code rname}, its labels also on the pod template. */
  private static JsonObject job(Owner owner, String rname, int index, int replicas, JsonObject template,
      boolean suspend) {
    JsonObject job = new JsonObject();
    job.addProperty("apiVersion", BatchJobs.API_VERSION);
    job.addProperty("kind", "Job");
    job.add("metadata", Docs.metadata(owner.name() + "-" + rname + "-" + index, owner));
    JsonObject spec = template.getAsJsonObject("spec").deepCopy();
    if (Fields.string(spec, "completionMode") == null) {
      spec.addProperty("completionMode", "Indexed");
    }
    if (suspend) {
      spec.addProperty("suspend", true);
    }
    JsonObject podTemplate = Fields.object(spec, "template", "spec.template");
    for (JsonObject target : podTemplate == null ? new JsonObject[] {job} : new JsonObject[] {job, podTemplate}) {
      if (!target.has("metadata") || !target.get("metadata").isJsonObject()) {
        target.add("metadata", new JsonObject());
      }
      for (String which : new String[] {"labels", "annotations"}) {
        JsonObject m = Docs.map(target, which);
        m.addProperty(PREFIX + "jobset-name", owner.name());
        m.addProperty(PREFIX + "replicatedjob-name", rname);
        m.addProperty(PREFIX + "job-index", Integer.toString(index));
        m.addProperty(PREFIX + "replicatedjob-replicas", Integer.toString(replicas));
        m.addProperty(PREFIX + "restart-attempt", "0");
      }
    }
    job.add("spec", spec);
    return job;
  }
}
