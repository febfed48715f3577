package io.basalt.app;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.kube.fake.BindLedger;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.kubernetes.client.custom.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a fault soak must leave behind, read from the fake API server's own objects and its ledger of bindings, never
 * from Basalt: no pod lost, none bound twice or placed again on another node, no gang partly bound, no node over its
 * allocatable cpu, memory or GPUs, and no GPU index held by two pods of a node.
 */
final class SoakChecks {
  private static final List<String> RESOURCES = List.of("cpu", "memory", "nvidia.com/gpu");

  /**
   * The outcome counts and every broken promise, each naming the objects it is about.
   *
   * @param pending pods not bound, each told why (PodScheduled=False with a reason and message)
   * @param silent pods not bound and not told why
   * @param wholeGangs gangs bound with at least minMember pods; {@code waitingGangs} with none bound
   * @param devicePods bound GPU pods carrying {@code basalt.io/gpu-devices}
   */
  record Verdict(int pods, int bound, int pending, int silent, int wholeGangs, int waitingGangs, int partialGangs,
      int devicePods, List<String> problems) {
    /** Settled: every pod bound or told why, and no gang waits on a member. */
    boolean settled() {
      return silent == 0 && partialGangs == 0;
    }
  }

  private SoakChecks() {
  }

  static Verdict check(FakeApiServer server, Collection<String> seeded) {
    List<String> problems = new ArrayList<>();
    Map<String, JsonObject> pods = new TreeMap<>();
    for (JsonObject p : server.list(Resources.PODS, SoakWorkload.NAMESPACE)) {
      pods.put(name(p), p);
    }
    for (String name : seeded) {
      if (!pods.containsKey(name)) {
        problems.add("lost: pod " + name + " no longer exists");
      }
    }
    int bound = 0;
    int pending = 0;
    int silent = 0;
    Map<String, List<JsonObject>> byNode = new HashMap<>();
    for (JsonObject p : pods.values()) {
      String node = nodeName(p);
      if (node != null) {
        bound++;
        byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(p);
      } else if (toldWhy(p)) {
        pending++;
      } else {
        silent++;
      }
    }
    checkBindings(server.bindLedger(), pods, problems);
    int[] gangs = checkGangs(server, pods, problems);
    int devicePods = 0;
    for (JsonObject node : server.list(Resources.NODES, null)) {
      List<JsonObject> on = byNode.getOrDefault(name(node), List.of());
      checkCapacity(node, on, problems);
      devicePods += checkDevices(name(node), on, problems);
    }
    return new Verdict(pods.size(), bound, pending, silent, gangs[0], gangs[1], gangs[2], devicePods, problems);
  }

  /** Each pod bound at most once, where it is now; no binding naming another node for a pod already bound. */
  private static void checkBindings(BindLedger ledger, Map<String, JsonObject> pods, List<String> problems) {
    Map<String, String> first = new HashMap<>();
    for (BindLedger.Entry e : ledger.applied()) {
      String name = e.pod().substring(e.pod().indexOf('/') + 1);
      String before = first.putIfAbsent(name, e.node());
      if (before != null) {
        problems.add("bound twice: pod " + name + " to " + before + " and then " + e.node());
      }
      JsonObject now = pods.get(name);
      if (now != null && !e.node().equals(nodeName(now))) {
        problems.add("rebound: pod " + name + " bound to " + e.node() + " is now on " + nodeName(now));
      }
    }
    for (BindLedger.Entry e : ledger.rebinds()) {
      problems.add("placed twice: pod " + e.pod() + " already on " + e.alreadyOn() + " was bound again to "
          + e.node() + " (refused by the server's 409)");
    }
  }

  /** Whole, waiting and partial gangs; a partial one (0 < bound < minMember) is a problem. */
  private static int[] checkGangs(FakeApiServer server, Map<String, JsonObject> pods, List<String> problems) {
    Map<String, Integer> boundPerGroup = new HashMap<>();
    for (JsonObject p : pods.values()) {
      String group = annotation(p, "scheduling.k8s.io/group-name");
      if (group != null && nodeName(p) != null) {
        boundPerGroup.merge(group, 1, Integer::sum);
      }
    }
    int[] counts = new int[3];
    for (JsonObject pg : server.list(Resources.PODGROUPS, SoakWorkload.NAMESPACE)) {
      int minMember = pg.getAsJsonObject("spec").get("minMember").getAsInt();
      int n = boundPerGroup.getOrDefault(name(pg), 0);
      if (n == 0) {
        counts[1]++;
      } else if (n >= minMember) {
        counts[0]++;
      } else {
        counts[2]++;
        problems.add("partial gang: " + name(pg) + " has " + n + " of minMember " + minMember + " pods bound");
      }
    }
    return counts;
  }

  private static void checkCapacity(JsonObject node, List<JsonObject> pods, List<String> problems) {
    JsonObject allocatable = node.getAsJsonObject("status").getAsJsonObject("allocatable");
    for (String r : RESOURCES) {
      BigDecimal used = BigDecimal.ZERO;
      for (JsonObject p : pods) {
        used = used.add(request(p, r));
      }
      BigDecimal has = allocatable.has(r) ? quantity(allocatable.get(r)) : BigDecimal.ZERO;
      if (used.compareTo(has) > 0) {
        problems.add("overcommitted: node " + name(node) + " has " + has.toPlainString() + " " + r + ", its pods ask "
            + used.toPlainString() + ": " + pods.stream().map(SoakChecks::name).toList());
      }
    }
  }

  /** GPU indices of the node's pods: as many as each asks, none held twice; returns the pods carrying them. */
  private static int checkDevices(String node, List<JsonObject> pods, List<String> problems) {
    Set<String> held = new HashSet<>();
    int carrying = 0;
    for (JsonObject p : pods) {
      String devices = annotation(p, GpuAnnotations.DEVICES);
      if (devices == null) {
        continue;
      }
      carrying++;
      List<String> indices = List.of(devices.split(","));
      if (BigDecimal.valueOf(indices.size()).compareTo(request(p, "nvidia.com/gpu")) != 0) {
        problems.add("devices: pod " + name(p) + " holds GPUs " + devices + " for a request of "
            + request(p, "nvidia.com/gpu"));
      }
      for (String i : indices) {
        if (!held.add(i.trim())) {
          problems.add("devices: GPU " + i + " of node " + node + " held twice, again by pod " + name(p));
        }
      }
    }
    return carrying;
  }

  /** PodScheduled=False with a reason and a message. */
  private static boolean toldWhy(JsonObject pod) {
    JsonObject status = pod.getAsJsonObject("status");
    if (status == null || !status.has("conditions")) {
      return false;
    }
    for (JsonElement c : status.getAsJsonArray("conditions")) {
      JsonObject condition = c.getAsJsonObject();
      if (str(condition, "type").equals("PodScheduled") && str(condition, "status").equals("False")
          && !str(condition, "reason").isEmpty() && !str(condition, "message").isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private static BigDecimal request(JsonObject pod, String resource) {
    BigDecimal sum = BigDecimal.ZERO;
    for (JsonElement c : pod.getAsJsonObject("spec").getAsJsonArray("containers")) {
      JsonObject resources = c.getAsJsonObject().getAsJsonObject("resources");
      JsonObject requests = resources == null ? null : resources.getAsJsonObject("requests");
      if (requests != null && requests.has(resource)) {
        sum = sum.add(quantity(requests.get(resource)));
      }
    }
    return sum;
  }

  private static BigDecimal quantity(JsonElement e) {
    return Quantity.fromString(e.getAsString()).getNumber();
  }

  static String nodeName(JsonObject pod) {
    JsonObject spec = pod.getAsJsonObject("spec");
    return spec != null && spec.has("nodeName") ? spec.get("nodeName").getAsString() : null;
  }

  private static String annotation(JsonObject obj, String key) {
    JsonObject annotations = obj.getAsJsonObject("metadata").getAsJsonObject("annotations");
    return annotations != null && annotations.has(key) ? annotations.get(key).getAsString() : null;
  }

  private static String name(JsonObject obj) {
    return obj.getAsJsonObject("metadata").get("name").getAsString();
  }

  private static String str(JsonObject obj, String key) {
    return obj.has(key) && !obj.get(key).isJsonNull() ? obj.get(key).getAsString() : "";
  }
}
