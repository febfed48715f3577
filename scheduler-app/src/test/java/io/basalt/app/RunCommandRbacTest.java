package io.basalt.app;

import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static io.basalt.app.LiveRun.podGroup;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.app.chart.ApiCalls.ApiCall;
import io.basalt.app.chart.ApiCalls;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.basalt.kube.fake.VolumeControllers;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's RBAC follows the code: one {@code basalt run} does everything live mode does (leader election, the
 * ConfigMap and an invalid edit of it, binding, a 409 read back, preemption through evictions, pod conditions,
 * events, PodGroup and Queue status, a PodGroup created for a Job's gang with {@code --create-podgroups}, the owner
 * kinds watched), and the API calls it sends, as the authorizer sees them, must be exactly
 * {@link ApiCalls#granted} with {@code --create-podgroups} and {@code --kueue instead}, which ChartTest holds the
 * rendered roles to.
 */
@Timeout(90)
class RunCommandRbacTest {
  private static final String NS = "basalt-system";
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static String pod(String name, int gpus, String priorityClass, int priority, String group) {
    String annotations = group == null ? "{}" : "{\"scheduling.k8s.io/group-name\":\"" + group + "\"}";
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"annotations\":" + annotations + "},\"spec\":{\"schedulerName\":\"basalt-scheduler\","
        + "\"priorityClassName\":\"" + priorityClass + "\",\"priority\":" + priority + ",\"containers\":[{"
        + "\"name\":\"c\",\"image\":\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"" + gpus + "\"}}}]}}";
  }

  /** A pod mounting {@code claim}. */
  private static String volumePod(String name, String claim) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\"},"
        + "\"spec\":{\"schedulerName\":\"basalt-scheduler\",\"priorityClassName\":\"low\",\"priority\":1,"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"x\"}],\"volumes\":[{\"name\":\"v\","
        + "\"persistentVolumeClaim\":{\"claimName\":\"" + claim + "\"}}]}}";
  }

  private static String claim(String name, String storageClass) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"ml\"},\"spec\":{\"storageClassName\":\"" + storageClass + "\",\"accessModes\":"
        + "[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}},\"status\":{\"phase\":"
        + "\"Pending\"}}";
  }

  private static String configMap(String conf) {
    JsonObject data = new JsonObject();
    data.addProperty("volcano-scheduler.conf", conf);
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"basalt-scheduler\","
        + "\"namespace\":\"" + NS + "\"},\"data\":" + data + "}";
  }

  @Test
  void everyCallALiveRunMakesIsGrantedAndNothingElse(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      // No admission plugins (overcommit, proportion): a full cluster would keep the preemptor from being enqueued.
      server.seed(configMap("""
          actions: "enqueue, allocate, preempt, backfill"
          tiers:
          - plugins: [{name: priority}, {name: gang}, {name: conformance}]
          - plugins: [{name: predicates}, {name: nodeorder}, {name: binpack}, {name: deviceshare}]
          """));
      server.seed("{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":"
          + "\"high\"},\"value\":1000}");
      server.seed("{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":"
          + "\"low\"},\"value\":1}");
      server.seed("{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",\"metadata\":{\"name\":"
          + "\"default\"},\"spec\":{\"weight\":1}}");
      server.seed(node("gpu-1", 4));
      // A node running HAMi's device plugin, kept to itself: its GPU share is bound under HAMi's node lock.
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"hami-1\",\"labels\":{"
          + "\"pool\":\"hami\"},\"annotations\":{\"hami.io/node-nvidia-register\":\"[{\\\"id\\\":\\\"GPU-h0\\\","
          + "\\\"count\\\":10,\\\"devmem\\\":81920,\\\"devcore\\\":100,\\\"type\\\":\\\"H100\\\","
          + "\\\"health\\\":true}]\"}},\"spec\":{\"taints\":[{\"key\":\"pool\",\"value\":\"hami\","
          + "\"effect\":\"NoSchedule\"}]},\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\","
          + "\"pods\":\"110\",\"nvidia.com/gpu\":\"10\"}}}");
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"hami-0\",\"namespace\":"
          + "\"ml\"},\"spec\":{\"schedulerName\":\"basalt-scheduler\",\"priorityClassName\":\"low\",\"priority\":1,"
          + "\"nodeSelector\":{\"pool\":\"hami\"},\"tolerations\":[{\"key\":\"pool\",\"operator\":\"Equal\","
          + "\"value\":\"hami\",\"effect\":\"NoSchedule\"}],\"containers\":[{\"name\":\"c\",\"image\":\"x\","
          + "\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpucores\":\"30\"}}}]}}");
      for (int i = 0; i < 4; i++) {
        server.seed(pod("low-" + i, 1, "low", 1, null));
      }
      // --create-podgroups: a Job's pod gets a PodGroup created for its inferred gang.
      server.seed("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"train\","
          + "\"namespace\":\"ml\",\"uid\":\"job-uid\"},\"spec\":{\"template\":{\"spec\":{\"containers\":[{"
          + "\"name\":\"c\",\"image\":\"x\"}],\"restartPolicy\":\"Never\"}}}}");
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"train-0\",\"namespace\":"
          + "\"ml\",\"ownerReferences\":[{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"name\":\"train\","
          + "\"uid\":\"job-uid\",\"controller\":true}]},\"spec\":{\"schedulerName\":\"basalt-scheduler\","
          + "\"priorityClassName\":\"low\",\"priority\":1,\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
      // DRA: a device on gpu-1 in a ResourceSlice, a claim for it and a pod using the claim; binding the pod writes
      // the claim's status first.
      server.seed("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":"
          + "\"gpu.example.com\"},\"spec\":{\"selectors\":[{\"cel\":{\"expression\":"
          + "\"device.driver == 'gpu.example.com'\"}}]}}");
      server.seed("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":"
          + "\"gpu-1-dra\"},\"spec\":{\"driver\":\"gpu.example.com\",\"pool\":{\"name\":\"gpu-1\","
          + "\"generation\":1,\"resourceSliceCount\":1},\"nodeName\":\"gpu-1\",\"devices\":[{\"name\":\"d0\"}]}}");
      server.seed("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":"
          + "\"dra-claim\",\"namespace\":\"ml\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\","
          + "\"exactly\":{\"deviceClassName\":\"gpu.example.com\"}}]}}}");
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"dra-0\",\"namespace\":"
          + "\"ml\"},\"spec\":{\"schedulerName\":\"basalt-scheduler\",\"priorityClassName\":\"high\","
          + "\"priority\":1000,\"resourceClaims\":[{\"name\":\"gpu\",\"resourceClaimName\":\"dra-claim\"}],"
          + "\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
      server.seed(podGroup("huge", 1));
      server.seed(pod("huge-0", 8, "low", 1, "huge"));
      // Volumes: a WaitForFirstConsumer claim annotated with the node for the provisioner (claim get, patch), and
      // one bound to a static PV (PV get, patch); the stand-in controllers bind both, then the pods are bound.
      server.seed("{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":"
          + "\"fast\"},\"provisioner\":\"ebs.csi.aws.com\",\"volumeBindingMode\":\"WaitForFirstConsumer\"}");
      server.seed("{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":"
          + "\"local\"},\"provisioner\":\"kubernetes.io/no-provisioner\","
          + "\"volumeBindingMode\":\"WaitForFirstConsumer\"}");
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"static-pv\"},"
          + "\"spec\":{\"storageClassName\":\"local\",\"capacity\":{\"storage\":\"10Gi\"},\"accessModes\":"
          + "[\"ReadWriteOnce\"],\"local\":{\"path\":\"/mnt/a\"}},\"status\":{\"phase\":\"Available\"}}");
      server.seed(claim("ckpt", "fast"));
      server.seed(claim("scratch", "local"));
      server.seed(volumePod("vol-0", "ckpt"));
      server.seed(volumePod("vol-1", "scratch"));
      // --kueue instead: Kueue's objects read, and a suspended Job its ClusterQueue admits unsuspended by a patch.
      server.seed("{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"ResourceFlavor\",\"metadata\":{"
          + "\"name\":\"any\"}}");
      server.seed("{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"ClusterQueue\",\"metadata\":{"
          + "\"name\":\"cq\"},\"spec\":{\"resourceGroups\":[{\"coveredResources\":[\"nvidia.com/gpu\"],"
          + "\"flavors\":[{\"name\":\"any\",\"resources\":[{\"name\":\"nvidia.com/gpu\","
          + "\"nominalQuota\":4}]}]}]}}");
      server.seed("{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"LocalQueue\",\"metadata\":{"
          + "\"name\":\"lq\",\"namespace\":\"ml\"},\"spec\":{\"clusterQueue\":\"cq\"}}");
      server.seed("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"queued\","
          + "\"namespace\":\"ml\",\"uid\":\"queued-uid\",\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\"}},"
          + "\"spec\":{\"suspend\":true,\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\","
          + "\"image\":\"x\"}],\"restartPolicy\":\"Never\"}}}}");
      // --kueue instead, provisioning check: a Job no node holds gets a ProvisioningRequest and its PodTemplate.
      server.seed("{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"AdmissionCheck\",\"metadata\":{"
          + "\"name\":\"prov\"},\"spec\":{\"controllerName\":\"kueue.x-k8s.io/provisioning-request\","
          + "\"parameters\":{\"apiGroup\":\"kueue.x-k8s.io\",\"kind\":\"ProvisioningRequestConfig\","
          + "\"name\":\"cfg\"}}}");
      server.seed("{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"ProvisioningRequestConfig\","
          + "\"metadata\":{\"name\":\"cfg\"},\"spec\":{\"provisioningClassName\":\"queued-provisioning.gke.io\"}}");
      server.seed("{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"ClusterQueue\",\"metadata\":{"
          + "\"name\":\"dws\"},\"spec\":{\"admissionChecks\":[\"prov\"],\"resourceGroups\":[{"
          + "\"coveredResources\":[\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"any\",\"resources\":[{"
          + "\"name\":\"nvidia.com/gpu\",\"nominalQuota\":1000}]}]}]}}");
      server.seed("{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"LocalQueue\",\"metadata\":{"
          + "\"name\":\"dwsq\",\"namespace\":\"ml\"},\"spec\":{\"clusterQueue\":\"dws\"}}");
      server.seed("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"huge-job\","
          + "\"namespace\":\"ml\",\"uid\":\"huge-job-uid\",\"labels\":{\"kueue.x-k8s.io/queue-name\":\"dwsq\"}},"
          + "\"spec\":{\"suspend\":true,\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\","
          + "\"image\":\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"500\"}}}],"
          + "\"restartPolicy\":\"Never\"}}}}");
      // A racing scheduler binds "raced" while Basalt's binding is held: the 409 is read back with a GET.
      server.seed(pod("raced", 0, "low", 1, null));
      server.faults().delayNextMatching(1, Duration.ofSeconds(1),
          r -> r.method().equals("POST") && r.path().endsWith("/pods/raced/binding"));
      try (VolumeControllers controllers = VolumeControllers.start(server);
          LiveRun run = LiveRun.start(server, dir, "--leader-elect", "--lease-namespace", NS, "--lease-name",
          "basalt-scheduler", "--config-map", NS + "/basalt-scheduler", "--lease-duration", "2s",
          "--renew-deadline", "1500ms", "--retry-period", "200ms", "--create-podgroups", "--kueue",
          "instead")) {
        Await.until("raced binding sent", WAIT,
            () -> !server.requests("POST", ".*/pods/raced/binding").isEmpty());
        server.mergePatch(Resources.PODS, "ml", "raced", "{\"spec\":{\"nodeName\":\"gpu-1\"}}");
        Await.until("low pods bound", WAIT, () -> nodeOf(server, "low-3") != null);
        Await.until("the pods with claims bound", WAIT,
            () -> nodeOf(server, "vol-0") != null && nodeOf(server, "vol-1") != null);
        Await.until("the DRA pod bound", WAIT, () -> "gpu-1".equals(nodeOf(server, "dra-0")));
        assertTrue(String.valueOf(server.get(Resources.RESOURCE_CLAIMS, "ml", "dra-claim").get("status"))
            .contains("\"device\":\"d0\""), "the claim's allocation written before the binding");
        Await.until("the HAMi pod bound", WAIT, () -> nodeOf(server, "hami-0") != null);
        server.seed(pod("high", 2, "high", 1000, null));
        Await.until("high bound after preempting", WAIT, () -> nodeOf(server, "high") != null);
        Await.until("the gang told it does not fit", WAIT, () -> String.valueOf(
            server.get(Resources.PODGROUPS, "ml", "huge").get("status")).contains("Unschedulable"));
        Await.until("the Job's PodGroup created", WAIT,
            () -> server.get(Resources.PODGROUPS, "ml", "podgroup-job-uid") != null);
        Await.until("the queued Job unsuspended", WAIT, () -> !server.get(Resources.JOBS, "ml", "queued")
            .getAsJsonObject("spec").get("suspend").getAsBoolean());
        Await.until("queue status written", WAIT, () -> server.get(Resources.QUEUES, "", "default").has("status"));
        Await.until("a ProvisioningRequest made", WAIT,
            () -> server.get(Resources.PROVISIONING_REQUESTS, "ml", "huge-job-prov-1") != null);
        Await.until("ClusterQueue and LocalQueue status written", WAIT,
            () -> server.get(Resources.KUEUE_CLUSTER_QUEUES, "", "cq").has("status")
            && server.get(Resources.KUEUE_LOCAL_QUEUES, "ml", "lq").has("status"));
        server.mergePatch(Resources.CONFIGMAPS, NS, "basalt-scheduler",
            "{\"data\":{\"volcano-scheduler.conf\":\"actions: \\\"allocate\\\"\\ntiers:\\n- plugins:\\n  - name: nosuch\\n\"}}");
        Await.until("the invalid edit reported", WAIT, () -> server.list(Resources.EVENTS, NS).stream()
            .anyMatch(e -> e.toString().contains("basalt-scheduler")));
        Await.until("a Scheduled event", WAIT, () -> server.list(Resources.EVENTS, "ml").stream()
            .anyMatch(e -> e.get("reason").getAsString().equals("Scheduled")));
        assertEquals(0, run.stop());
      }
      Set<String> made = new TreeSet<>();
      Set<String> other = new TreeSet<>();
      for (RecordedRequest r : server.requests()) {
        ApiCalls.of(r.method(), r.path(), r.queryParam("fieldSelector"), r.isWatch(), NS, "basalt-scheduler", NS,
            "basalt-scheduler").ifPresentOrElse(c -> made.add(c.toString()),
            () -> other.add(r.method() + " " + r.path()));
      }
      Set<String> granted = ApiCalls.granted(true, true).stream().map(ApiCall::toString)
          .collect(Collectors.toCollection(TreeSet::new));
      assertEquals(granted, made, "calls made vs granted; not granted: " + minus(made, granted)
          + "; granted but never made: " + minus(granted, made));
      assertEquals(Set.of(), other, "only resource calls (discovery would need its own grant)");
    }
  }

  private static Set<String> minus(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.removeAll(b);
    return out;
  }
}
