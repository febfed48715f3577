package io.basalt.kube.kueue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A ClusterQueue's or LocalQueue's status as Kueue writes it (v1beta1), in "instead" mode written by Basalt through the
 * status subresource so {@code kubectl get clusterqueue -o yaml} and {@code kubectl describe localqueue} show what
 * they show under Kueue: {@code pendingWorkloads}, {@code reservingWorkloads} (quota reserved, provisioning included),
 * {@code admittedWorkloads}, usage per flavor and resource ({@code flavorsReservation}, {@code flavorsUsage}; a
 * LocalQueue's {@code flavorsReservation} and {@code flavorUsage}, without {@code borrowed}) and an {@code Active}
 * condition.
 *
 * @param namespace null for a ClusterQueue
 * @param reservation per flavor, per resource: {total, borrowed} of every workload holding quota
 * @param usage the same for admitted workloads only
 */
public record QueueStatus(String namespace, String name, int pending, int reserving, int admitted,
    Map<String, Map<String, long[]>> reservation, Map<String, Map<String, long[]>> usage, boolean active,
    String inactiveReason) {

  public boolean clusterQueue() {
    return namespace == null;
  }

  public String key() {
    return namespace == null ? name : namespace + "/" + name;
  }

  /**
   * The {@code status} object to merge-patch (whole lists: a merge patch replaces them).
   *
   * @param since when the {@code Active} condition took its value (its {@code lastTransitionTime}, which the CRD
   *     requires)
   */
  public JsonObject body(java.time.Instant since) {
    JsonObject s = new JsonObject();
    s.addProperty("pendingWorkloads", pending);
    s.addProperty("reservingWorkloads", reserving);
    s.addProperty("admittedWorkloads", admitted);
    s.add("flavorsReservation", flavors(reservation));
    s.add(clusterQueue() ? "flavorsUsage" : "flavorUsage", flavors(usage));
    JsonObject c = new JsonObject();
    c.addProperty("type", "Active");
    c.addProperty("status", active ? "True" : "False");
    c.addProperty("reason", active ? "Ready" : inactiveReason);
    c.addProperty("message", active ? "Can admit new workloads" : "Cannot admit new workloads: " + inactiveReason);
    c.addProperty("lastTransitionTime", since.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    JsonArray conditions = new JsonArray();
    conditions.add(c);
    s.add("conditions", conditions);
    JsonObject out = new JsonObject();
    out.add("status", s);
    return out;
  }

  private JsonArray flavors(Map<String, Map<String, long[]>> byFlavor) {
    JsonArray out = new JsonArray();
    byFlavor.forEach((flavor, resources) -> {
      JsonArray rs = new JsonArray();
      resources.forEach((r, v) -> {
        JsonObject o = new JsonObject();
        o.addProperty("name", r);
        o.addProperty("total", Quotas.fmt(r, v[0]));
        if (clusterQueue()) {
          o.addProperty("borrowed", Quotas.fmt(r, v[1]));
        }
        rs.add(o);
      });
      JsonObject f = new JsonObject();
      f.addProperty("name", flavor);
      f.add("resources", rs);
      out.add(f);
    });
    return out;
  }

  /** Counts and usage gathered over one admission pass. */
  static final class Tally {
    private final Map<String, int[]> counts = new LinkedHashMap<>();
    private final Map<String, Map<String, Map<String, long[]>>> reservation = new LinkedHashMap<>();
    private final Map<String, Map<String, Map<String, long[]>>> usage = new LinkedHashMap<>();

    /** A workload of {@code cq} entering through {@code lq}: state 0 pending, 1 reserving only, 2 admitted. */
    void add(KueueRecord.ClusterQueue cq, KueueRecord.LocalQueue lq, int state, Map<String, Long> request,
        List<KueueRecord.FlavorQuotas> chosen) {
      for (String key : new String[] {cq.name(), lq.key()}) {
        int[] c = counts.computeIfAbsent(key, k -> new int[3]);
        if (state == 0) {
          c[0]++;
          continue;
        }
        c[1]++;
        if (state == 2) {
          c[2]++;
        }
        for (int i = 0; i < cq.resourceGroups().size() && i < chosen.size(); i++) {
          KueueRecord.FlavorQuotas f = chosen.get(i);
          if (f == null) {
            continue;
          }
          for (String r : cq.resourceGroups().get(i).coveredResources()) {
            Long amount = request.get(r);
            if (amount != null) {
              book(reservation, key, f.flavor(), r, amount);
              if (state == 2) {
                book(usage, key, f.flavor(), r, amount);
              }
            }
          }
        }
      }
    }

    private static void book(Map<String, Map<String, Map<String, long[]>>> m, String key, String flavor, String r,
        long amount) {
      m.computeIfAbsent(key, k -> new LinkedHashMap<>()).computeIfAbsent(flavor, k -> new LinkedHashMap<>())
          .computeIfAbsent(r, k -> new long[2])[0] += amount;
    }

    /** One status per ClusterQueue and LocalQueue, every flavor and covered resource listed (zero when unused). */
    List<QueueStatus> statuses(Map<String, KueueRecord.ClusterQueue> cqs, Map<String, KueueRecord.LocalQueue> lqs) {
      List<QueueStatus> out = new ArrayList<>();
      for (KueueRecord.ClusterQueue cq : cqs.values()) {
        int[] c = counts.getOrDefault(cq.name(), new int[3]);
        out.add(new QueueStatus(null, cq.name(), c[0], c[1], c[2], filled(cq, reservation.get(cq.name()), true),
            filled(cq, usage.get(cq.name()), true), !cq.stopped(), "Stopped"));
      }
      for (KueueRecord.LocalQueue lq : lqs.values()) {
        KueueRecord.ClusterQueue cq = cqs.get(lq.clusterQueue());
        int[] c = counts.getOrDefault(lq.key(), new int[3]);
        boolean active = cq != null && !cq.stopped() && !lq.stopped();
        String why = cq == null ? "ClusterQueueDoesNotExist" : "Stopped";
        out.add(new QueueStatus(lq.namespace(), lq.name(), c[0], c[1], c[2],
            cq == null ? Map.of() : filled(cq, reservation.get(lq.key()), false),
            cq == null ? Map.of() : filled(cq, usage.get(lq.key()), false), active, why));
      }
      return out;
    }

    private static Map<String, Map<String, long[]>> filled(KueueRecord.ClusterQueue cq,
        Map<String, Map<String, long[]>> used, boolean borrowed) {
      Map<String, Map<String, long[]>> out = new LinkedHashMap<>();
      for (KueueRecord.ResourceGroup g : cq.resourceGroups()) {
        for (KueueRecord.FlavorQuotas f : g.flavors()) {
          Map<String, long[]> rs = out.computeIfAbsent(f.flavor(), k -> new LinkedHashMap<>());
          for (String r : g.coveredResources()) {
            long total = used == null ? 0 : used.getOrDefault(f.flavor(), Map.of()).getOrDefault(r, new long[2])[0];
            KueueRecord.Quota q = f.quota(r);
            long over = borrowed && q != null ? Math.max(0, total - q.nominal()) : 0;
            rs.put(r, new long[] {total, over});
          }
        }
      }
      return out;
    }
  }
}
