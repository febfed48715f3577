package io.basalt.kube.kinds.workload;

import com.google.gson.JsonObject;
import io.basalt.kube.kueue.KueueAdmission;
import io.basalt.model.QueueRequest;

/**
 * A {@code batch/v1} Job, as the Kubernetes Job controller starts it: {@code parallelism} pods (default 1, at most
 * {@code completions}; with neither set the API server defaults both to 1), no PodGroup (gangs for plain Jobs are
 * another part's business). A suspended Job starts nothing: that is a note, not an error; one naming a Kueue queue
 * ({@code kueue.x-k8s.io/queue-name}) expands into pods marked {@link KueueAdmission#SUSPENDED}, which Kueue's
 * admission in the simulator starts or holds ({@code kube.kueue}).
 *
 * <p>Names: the controller uses {@code generateName} and the API server appends five random characters; here the
 * random part becomes something stable. NonIndexed: {@code <job>-<n>} ({@code n} counts the Job's pods from 0).
 * Indexed: {@code <job>-<index>-0} (the controller's {@code <job>-<index>-} prefix, then the attempt, 0), with the
 * index in the {@code batch.kubernetes.io/job-completion-index} annotation and label and, unless the template set
 * one, {@code hostname: <job>-<index>}.
 */
final class BatchJobs {
  static final String API_VERSION = "batch/v1";

  private BatchJobs() {}

  static void expand(JsonObject job, Owner owner, Sink out) {
    JsonObject spec = Fields.object(job, "spec", "spec");
    if (spec == null) {
      throw new Malformed("spec", "missing");
    }
    Integer parallelism = Fields.pods(spec, "parallelism", "spec.parallelism");
    Integer completions = Fields.count(spec, "completions", "spec.completions");
    String mode = VolcanoJobs.nonEmpty(Fields.string(spec, "completionMode"), "NonIndexed");
    if (!mode.equals("NonIndexed") && !mode.equals("Indexed")) {
      throw new Malformed("spec.completionMode", "'" + mode + "' is neither NonIndexed nor Indexed");
    }
    boolean indexed = mode.equals("Indexed");
    if (completions == null && parallelism == null) {
      completions = 1; // the API server's default: one pod to one completion
    }
    if (indexed && completions == null) {
      throw new Malformed("spec.completions", "required when completionMode is Indexed");
    }
    JsonObject template = Fields.object(spec, "template", "spec.template");
    int pods = parallelism == null ? 1 : parallelism;
    if (completions != null) {
      pods = Math.min(pods, completions);
    }
    boolean forKueue = false;
    if (Fields.isTrue(spec, "suspend") && kueueQueue(job) != null) {
      forKueue = true; // Kueue would unsuspend it: its pods are made for admission to start or hold (kube.kueue)
    } else if (Fields.isTrue(spec, "suspend")) {
      Docs.pod(template, "spec.template", owner.name(), owner); // still check the template
      out.warnings().add(owner.display() + " is suspended (spec.suspend: true), no pods: Kueue or a user would "
          + "unsuspend it");
      return;
    }
    for (int i = 0; i < pods; i++) {
      String name = indexed ? owner.name() + "-" + i + "-0" : owner.name() + "-" + i;
      JsonObject pod = Docs.pod(template, "spec.template", name, owner);
      Docs.label(pod, "batch.kubernetes.io/controller-uid", owner.uid());
      Docs.label(pod, "batch.kubernetes.io/job-name", owner.name());
      Docs.label(pod, "controller-uid", owner.uid());
      Docs.label(pod, "job-name", owner.name());
      if (indexed) {
        Docs.label(pod, "batch.kubernetes.io/job-completion-index", Integer.toString(i));
        Docs.annotate(pod, "batch.kubernetes.io/job-completion-index", Integer.toString(i));
        Docs.specDefault(pod, "hostname", owner.name() + "-" + i);
      }
      if (forKueue) {
        Docs.annotate(pod, KueueAdmission.SUSPENDED, "true");
      }
      out.add(pod);
    }
  }

  /** The {@code kueue.x-k8s.io/queue-name} label of a Job, or null. */
  private static String kueueQueue(JsonObject job) {
    JsonObject meta = Fields.object(job, "metadata", "metadata");
    JsonObject labels = meta == null ? null : Fields.object(meta, "labels", "metadata.labels");
    String q = labels == null ? null : Fields.string(labels, QueueRequest.KUEUE_LABEL);
    return q == null || q.isEmpty() ? null : q;
  }
}
