package io.basalt.plugins.volumes;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedScorer;
import io.basalt.model.ClusterVolumes;
import io.basalt.model.PersistentVolume;
import io.basalt.model.VolumeClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * kube-scheduler's VolumeBinding score, behind its StorageCapacityScoring (formerly VolumeCapacityPriority) gate and
 * so off by default: a node where the static PVs the pod's unbound {@code WaitForFirstConsumer} claims would bind are
 * fuller scores higher, so small claims do not take large local disks. Per class of those claims, the utilisation
 * (requested over the chosen PVs' capacity, in percent) goes through the {@code shape} (a broken line of
 * utilisation 0..100 to score 0..10, scaled to 0..100); the node's score is the mean over the classes. Claims a
 * class would provision count for nothing. A pod with no such claim scores 0 everywhere and is signed alike.
 */
final class VolumeCapacityScore implements PreparedScorer, PodSigner {
  private static final Object NO_CLAIMS = "no-delayed-claims";
  /** kube-scheduler's MaxNodeScore over its MaxCustomPriorityScore: shape scores 0..10 become 0..100. */
  private static final long SCALE = 10;

  private final VolumeFilter filter;
  private final List<Point> shape;

  VolumeCapacityScore(VolumeFilter filter, List<Point> shape) {
    this.filter = filter;
    this.shape = shape;
  }

  /** One point of the shape: at {@code utilization} percent, {@code score} out of 10. */
  record Point(long utilization, long score) {}

  /**
   * {@code "0:0,100:10"} (kube-scheduler's default shape) as points; utilisations must rise from 0..100 and scores
   * lie in 0..10, as kube-scheduler validates its {@code VolumeBindingArgs}.
   */
  static List<Point> parseShape(String text) {
    List<Point> points = new ArrayList<>();
    for (String part : text.split(",")) {
      String[] kv = part.trim().split(":");
      if (kv.length != 2) {
        throw new IllegalArgumentException("shape point '" + part.trim() + "' is not utilization:score");
      }
      long u = Long.parseLong(kv[0].trim());
      long s = Long.parseLong(kv[1].trim());
      if (u < 0 || u > 100 || s < 0 || s > 10) {
        throw new IllegalArgumentException("shape point '" + part.trim() + "': utilization 0..100, score 0..10");
      }
      if (!points.isEmpty() && u <= points.get(points.size() - 1).utilization()) {
        throw new IllegalArgumentException("shape utilizations must rise: '" + text + "'");
      }
      points.add(new Point(u, s));
    }
    if (points.isEmpty()) {
      throw new IllegalArgumentException("empty shape");
    }
    return List.copyOf(points);
  }

  @Override
  public double score(TaskInfo task, NodeInfo node) {
    ToDoubleFunction<NodeInfo> f = forTask(task);
    return f == null ? 0 : f.applyAsDouble(node);
  }

  @Override
  public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
    PodClaims claims = filter.delayedClaims(task.pod());
    if (claims == null) {
      return node -> 0;
    }
    return node -> score(claims, filter.chosenOn(claims, node), filter.volumes());
  }

  @Override
  public Object sign(TaskInfo task) {
    return filter.delayedClaims(task.pod()) == null ? NO_CLAIMS : null;
  }

  private double score(PodClaims claims, Map<String, String> chosen, ClusterVolumes volumes) {
    if (chosen == null) {
      return 0;
    }
    Map<String, long[]> byClass = new TreeMap<>(); // class -> {requested, capacity}
    for (VolumeClaim c : claims.delayed) {
      String pvName = chosen.get(c.key());
      PersistentVolume pv = pvName == null ? null : volumes.volume(pvName);
      if (pv == null) {
        continue; // provisioned: not scored
      }
      long[] rc = byClass.computeIfAbsent(c.storageClassName(), k -> new long[2]);
      rc[0] += c.request();
      rc[1] += pv.capacity();
    }
    if (byClass.isEmpty()) {
      return 0;
    }
    long sum = 0;
    for (long[] rc : byClass.values()) {
      long utilization = rc[1] == 0 || rc[0] > rc[1] ? 100 : percent(rc[0], rc[1]);
      sum += shapeAt(utilization);
    }
    return Math.round((double) sum / byClass.size());
  }

  /** {@code requested * 100 / capacity}, exact for byte counts whose product would overflow a long. */
  private static long percent(long requested, long capacity) {
    return java.math.BigInteger.valueOf(requested).multiply(java.math.BigInteger.valueOf(100))
        .divide(java.math.BigInteger.valueOf(capacity)).longValueExact();
  }

  /** The broken line through the shape's points at {@code p} percent, on the 0..100 scale (integer steps). */
  long shapeAt(long p) {
    for (int i = 0; i < shape.size(); i++) {
      Point here = shape.get(i);
      if (p <= here.utilization()) {
        if (i == 0) {
          return here.score() * SCALE;
        }
        Point prev = shape.get(i - 1);
        long s0 = prev.score() * SCALE;
        long s1 = here.score() * SCALE;
        return s0 + (s1 - s0) * (p - prev.utilization()) / (here.utilization() - prev.utilization());
      }
    }
    return shape.get(shape.size() - 1).score() * SCALE;
  }
}
