package io.basalt.model;

import java.util.Map;
import java.util.function.Predicate;

/**
 * The queue a pod (or the owner of its group) asks for, in the two spellings users already write: Volcano's
 * {@code scheduling.volcano.sh/queue-name} annotation, and Kueue's {@code kueue.x-k8s.io/queue-name} label (a
 * LocalQueue name in Kueue; here it counts when a Basalt queue of that name exists, so a team's Kueue-labelled pods
 * land in that team's queue rather than escaping it into the default one).
 *
 * @param volcano the annotation's value, or null
 * @param kueue the label's value, or null
 */
public record QueueRequest(String volcano, String kueue) {
  public static final String VOLCANO_ANNOTATION = Pod.QUEUE_NAME_ANNOTATION;
  public static final String KUEUE_LABEL = "kueue.x-k8s.io/queue-name";
  public static final QueueRequest NONE = new QueueRequest(null, null);
  /** At most this many distinct requests are shared; beyond, each is its own (as before sharing). */
  private static final int MAX_SHARED = 1024;
  private static final Map<QueueRequest, QueueRequest> SHARED = new java.util.concurrent.ConcurrentHashMap<>();

  public QueueRequest {
    volcano = volcano == null || volcano.isEmpty() ? null : volcano;
    kueue = kueue == null || kueue.isEmpty() ? null : kueue;
  }

  public static QueueRequest of(Map<String, String> labels, Map<String, String> annotations) {
    return new QueueRequest(annotations.get(VOLCANO_ANNOTATION), labels.get(KUEUE_LABEL));
  }

  public static QueueRequest of(Pod pod) {
    return of(pod.labels(), pod.annotations());
  }

  /**
   * The one object every request equal to this one is (while fewer than {@value #MAX_SHARED} distinct ones were
   * seen), so its queue names are shared strings too: each pod's annotation is a string of its own, and a session
   * compares and hashes the queue names of tens of thousands of jobs per pass.
   */
  public QueueRequest shared() {
    QueueRequest s = SHARED.get(this);
    if (s == null && SHARED.size() < MAX_SHARED) {
      s = SHARED.putIfAbsent(this, this);
    }
    return s != null ? s : this;
  }

  /** This request, with blanks filled from {@code fallback} (a pod's own request before its owner's). */
  public QueueRequest or(QueueRequest fallback) {
    return new QueueRequest(volcano != null ? volcano : fallback.volcano, kueue != null ? kueue : fallback.kueue);
  }

  /**
   * The queue: Volcano's name as given (a missing queue is then the job's error, as in Volcano), else Kueue's when
   * {@code exists} says so, else {@code defaultQueue}.
   */
  public String resolve(Predicate<String> exists, String defaultQueue) {
    if (volcano != null) {
      return volcano;
    }
    return kueue != null && exists.test(kueue) ? kueue : defaultQueue;
  }

  /** Why {@link #resolve} fell back to the default although a queue was asked for, or null when it did not. */
  public String fallbackReason(Predicate<String> exists, String defaultQueue) {
    if (volcano == null && kueue != null && !exists.test(kueue)) {
      return "label " + KUEUE_LABEL + "=" + kueue + " names no queue: scheduled in queue " + defaultQueue;
    }
    return null;
  }
}
