package io.basalt.plugins.drf;

import io.basalt.api.QueueInfo;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hierarchical DRF: queues are leaves of a tree named by their {@code volcano.sh/hierarchy} annotation
 * ("root/eng/dev") with per-level weights from {@code volcano.sh/hierarchy-weights} ("100/50/50"). Every tree node
 * holds what its leaves hold; its dominant share is the largest fraction of any cluster resource. Two queues are
 * ordered where their paths part: the child with the lower share per weight goes first, so siblings split their
 * parent's share by weight at every level.
 */
final class QueueHierarchy {
  static final String HIERARCHY = "volcano.sh/hierarchy";
  static final String WEIGHTS = "volcano.sh/hierarchy-weights";

  /** One tree node: a path prefix such as "root/eng". */
  private static final class Level {
    final double weight;
    long[] allocated = new long[ResourceNames.count()];
    double share;

    Level(double weight) {
      this.weight = weight;
    }
  }

  private static final System.Logger LOG = System.getLogger(QueueHierarchy.class.getName());
  /** Values already warned about, so a bad annotation is one line, not one per cycle. */
  private static final java.util.Set<String> REPORTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final long[] total;
  private final Map<String, Level> levels = new HashMap<>();
  /** For each queue, its path prefixes from the first level below root down to the queue itself. */
  private final Map<String, List<String>> paths = new HashMap<>();

  QueueHierarchy(long[] total, Iterable<QueueInfo> queues) {
    this.total = total;
    for (QueueInfo q : queues) {
      String[] names = names(q);
      String[] weights = q.queue().annotations().getOrDefault(WEIGHTS, "").split("/");
      List<String> path = new ArrayList<>();
      StringBuilder prefix = new StringBuilder(names[0]);
      for (int i = 1; i < names.length; i++) {
        prefix.append('/').append(names[i]);
        double w = weight(weights, i, i == names.length - 1 ? q.weight() : 1);
        levels.putIfAbsent(prefix.toString(), new Level(w));
        path.add(prefix.toString());
      }
      paths.put(q.name(), path);
    }
  }

  /**
   * The queue's path, root first. A value with an empty level ({@code "/"}, {@code "root//a"}) names no place in the
   * tree: the queue is then placed as if unannotated, and the value reported once.
   */
  private static String[] names(QueueInfo q) {
    String value = q.queue().annotations().get(HIERARCHY);
    if (value != null) {
      String[] names = value.split("/", -1);
      boolean valid = names.length >= 2;
      for (String n : names) {
        valid &= !n.isBlank();
      }
      if (valid) {
        return names;
      }
      if (REPORTED.size() < 10_000 && REPORTED.add(q.name() + "\0" + value)) {
        LOG.log(System.Logger.Level.WARNING, "Queue " + q.name() + ": metadata.annotations[" + HIERARCHY + "]: '"
            + value + "' is not a path such as root/eng/dev; the queue is placed under root");
      }
    }
    return new String[] {"root", q.name()};
  }

  private static double weight(String[] weights, int i, double fallback) {
    try {
      return i < weights.length && !weights[i].isBlank() ? Math.max(Double.parseDouble(weights[i].trim()), 1e-9)
          : fallback;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  /** Adds ({@code sign} 1) or removes (-1) {@code request} along {@code queue}'s path. */
  void add(String queue, ResourceVector request, int sign) {
    List<String> path = paths.get(queue);
    if (path == null) {
      return;
    }
    for (String p : path) {
      Level l = levels.get(p);
      if (request.size() > l.allocated.length) {
        l.allocated = java.util.Arrays.copyOf(l.allocated, request.size());
      }
      double s = 0;
      for (int r = 0; r < l.allocated.length; r++) {
        l.allocated[r] += sign * request.get(r);
        if (r != ResourceNames.PODS && l.allocated[r] > 0) {
          long t = r < total.length ? total[r] : 0;
          s = Math.max(s, t <= 0 ? 1.0 : (double) l.allocated[r] / t);
        }
      }
      l.share = s;
    }
  }

  /** Negative when queue {@code a} should be served before {@code b}. */
  int compare(String a, String b) {
    List<String> pa = paths.get(a);
    List<String> pb = paths.get(b);
    if (pa == null || pb == null) {
      return 0;
    }
    for (int i = 0; i < Math.min(pa.size(), pb.size()); i++) {
      if (!pa.get(i).equals(pb.get(i))) {
        Level la = levels.get(pa.get(i));
        Level lb = levels.get(pb.get(i));
        return Double.compare(la.share / la.weight, lb.share / lb.weight);
      }
    }
    return 0;
  }
}
