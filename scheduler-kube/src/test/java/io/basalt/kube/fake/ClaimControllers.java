package io.basalt.kube.fake;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for kube-controller-manager's resource claim controller against a {@link FakeApiServer}: for each pod
 * entry in {@code spec.resourceClaims} naming a {@code resourceClaimTemplateName} and not yet in
 * {@code status.resourceClaimStatuses}, it creates a ResourceClaim {@code <pod>-<entry>-<suffix>} (five characters of
 * Kubernetes' generateName alphabet, derived from the pod's uid and the entry) with the template's {@code spec.spec},
 * owned by the pod and annotated {@code resource.kubernetes.io/pod-claim-name}, then records it in the pod's status.
 * A template that does not exist makes nothing (the pod waits). Runs on its own thread until closed.
 */
public final class ClaimControllers extends PollingController {
  private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  private final FakeApiServer server;
  private final AtomicInteger made = new AtomicInteger();

  private ClaimControllers(FakeApiServer server) {
    super("fake-claim-controller");
    this.server = server;
  }

  public static ClaimControllers start(FakeApiServer server) {
    ClaimControllers c = new ClaimControllers(server);
    c.startPolling();
    return c;
  }

  /** How many claims were made from templates. */
  public int made() {
    return made.get();
  }

  /** One round over the pods. */
  @Override
  public void once() {
    for (JsonObject pod : server.list(Resources.PODS, null)) {
      JsonObject spec = pod.getAsJsonObject("spec");
      if (spec == null || !spec.has("resourceClaims")) {
        continue;
      }
      JsonObject meta = pod.getAsJsonObject("metadata");
      String ns = meta.get("namespace").getAsString();
      String podName = meta.get("name").getAsString();
      String uid = meta.get("uid").getAsString();
      JsonObject status = pod.getAsJsonObject("status");
      JsonArray statuses = status != null && status.has("resourceClaimStatuses")
          ? status.getAsJsonArray("resourceClaimStatuses").deepCopy() : new JsonArray();
      boolean changed = false;
      for (JsonElement e : spec.getAsJsonArray("resourceClaims")) {
        JsonObject entry = e.getAsJsonObject();
        String name = entry.get("name").getAsString();
        if (!entry.has("resourceClaimTemplateName") || recorded(statuses, name)) {
          continue;
        }
        JsonObject template = server.get(Resources.RESOURCE_CLAIM_TEMPLATES, ns,
            entry.get("resourceClaimTemplateName").getAsString());
        if (template == null) {
          continue;
        }
        String claim = podName + "-" + name + "-" + suffix(uid + "/" + name);
        if (server.get(Resources.RESOURCE_CLAIMS, ns, claim) == null) {
          JsonObject obj = new JsonObject();
          obj.addProperty("apiVersion", "resource.k8s.io/v1");
          obj.addProperty("kind", "ResourceClaim");
          JsonObject m = new JsonObject();
          m.addProperty("name", claim);
          m.addProperty("namespace", ns);
          JsonObject annotations = new JsonObject();
          annotations.addProperty("resource.kubernetes.io/pod-claim-name", name);
          m.add("annotations", annotations);
          JsonObject owner = new JsonObject();
          owner.addProperty("apiVersion", "v1");
          owner.addProperty("kind", "Pod");
          owner.addProperty("name", podName);
          owner.addProperty("uid", uid);
          owner.addProperty("controller", true);
          owner.addProperty("blockOwnerDeletion", true);
          JsonArray owners = new JsonArray();
          owners.add(owner);
          m.add("ownerReferences", owners);
          obj.add("metadata", m);
          obj.add("spec", template.getAsJsonObject("spec").getAsJsonObject("spec").deepCopy());
          server.seed(obj);
          made.incrementAndGet();
        }
        JsonObject s = new JsonObject();
        s.addProperty("name", name);
        s.addProperty("resourceClaimName", claim);
        statuses.add(s);
        changed = true;
      }
      if (changed) {
        server.mergePatch(Resources.PODS, ns, podName, "{\"status\":{\"resourceClaimStatuses\":" + statuses + "}}");
      }
    }
  }

  private static boolean recorded(JsonArray statuses, String entry) {
    for (JsonElement s : statuses) {
      if (s.getAsJsonObject().get("name").getAsString().equals(entry)) {
        return true;
      }
    }
    return false;
  }

  /** Five characters of the generateName alphabet, the same for the same pod and entry. */
  static String suffix(String seed) {
    long x = seed.hashCode() & 0xffffffffL;
    StringBuilder sb = new StringBuilder(5);
    for (int i = 0; i < 5; i++) {
      sb.append(ALPHABET.charAt((int) (x % ALPHABET.length())));
      x /= ALPHABET.length();
    }
    return sb.toString();
  }
}
