package io.basalt.kube.kueue;

import io.basalt.kube.provisioning.ConsumeGate;
import io.basalt.kube.provisioning.NewRequest;
import io.basalt.kube.provisioning.ProvisioningState;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Kueue's provisioning check as live mode runs it in Kueue's place ({@link KueueLive} asks it under its own lock): a
 * Job admitted by quota that the cluster cannot hold waits, its quota reserved, for the ProvisioningRequest made for it
 * ({@code <job>-<check>-<attempt>}); a provisioned one starts it, consuming the request; a lost one is asked again after
 * the config's backoff, until its retries run out.
 */
final class ProvisioningCheck {
  /** Jobs admitted by quota that wait for their ProvisioningRequest, by key: charged meanwhile. */
  final Map<String, Waiting> waiting = new HashMap<>();
  /** Jobs whose ProvisioningRequests failed past the config's retries: never admitted again (Kueue deactivates). */
  final Map<String, String> gaveUp = new HashMap<>();
  private final Supplier<java.time.Instant> clock;

  ProvisioningCheck(Supplier<java.time.Instant> clock) {
    this.clock = clock;
  }

  /** A Job waiting for the ProvisioningRequest of its {@code attempt} (1 first). */
  static final class Waiting {
    final String check;
    final KueueRecord.ProvisioningConfig config;
    final KueueLive.Unsuspend admitted;
    int attempt = 1;
    java.time.Instant retryAt;

    Waiting(String check, KueueRecord.ProvisioningConfig config, KueueLive.Unsuspend admitted) {
      this.check = check;
      this.config = config;
      this.admitted = admitted;
    }

    String requestName(KueueJob j) {
      return NewRequest.name(j.name(), check, attempt);
    }
  }

  /** Null when Basalt runs every check {@code cq} names (one provisioning check); why it does not otherwise. */
  static String problem(KueueRecord.ClusterQueue cq, Map<String, KueueRecord.AdmissionCheck> checks,
      Map<String, KueueRecord.ProvisioningConfig> configs) {
    if (cq.admissionChecks().isEmpty()) {
      return null;
    }
    if (cq.admissionChecks().size() > 1) {
      return cq.display() + " names admission checks " + cq.admissionChecks() + ": Basalt runs one provisioning "
          + "check per ClusterQueue";
    }
    KueueRecord.AdmissionCheck c = checks.get(cq.admissionChecks().get(0));
    if (c == null) {
      return "AdmissionCheck " + cq.admissionChecks().get(0) + " of " + cq.display() + " does not exist";
    }
    if (!c.provisioning()) {
      return c.display() + " (controller " + c.controllerName() + ") is not Kueue's provisioning check, which is "
          + "the only one Basalt runs";
    }
    if (!configs.containsKey(c.config())) {
      return "ProvisioningRequestConfig " + c.config() + " of " + c.display() + " does not exist";
    }
    return null;
  }

  /** Whether the Job asks for any resource the config manages (every resource when it names none). */
  static boolean needsNodes(KueueRecord.ProvisioningConfig config, KueueJob j) {
    return config.managedResources().isEmpty()
        || config.managedResources().stream().anyMatch(r -> j.podRequest().getOrDefault(r, 0L) > 0);
  }

  /** A Job waiting for its request: started once it is provisioned, asked again after a loss. */
  void provisioned(KueueJob j, Waiting waits, Map<String, KueueRecord> records,
      Map<String, KueueLive.Unsuspend> inFlight, List<KueueLive.Unsuspend> out, List<NewRequest> provision,
      List<String> warnings) {
    String name = waits.requestName(j);
    KueueRecord r = records.get("ProvisioningRequest " + j.namespace() + "/" + name);
    ProvisioningState state = r instanceof KueueRecord.ProvisioningRequest req ? req.state() : null;
    if (state == ProvisioningState.PROVISIONED) {
      Map<String, String> consume = new LinkedHashMap<>();
      consume.put(ConsumeGate.CONSUME_ANNOTATION, name);
      consume.put(ConsumeGate.CLASS_ANNOTATION, waits.config.provisioningClassName());
      KueueLive.Unsuspend u = waits.admitted.withAnnotations(consume);
      waiting.remove(j.key());
      inFlight.put(j.key(), u);
      out.add(u);
      return;
    }
    if (state == null || !state.lost()) {
      warnings.add("Kueue: Job " + j.key() + " waits for ProvisioningRequest " + j.namespace() + "/" + name
          + " to be Provisioned");
      return;
    }
    String message = ((KueueRecord.ProvisioningRequest) r).message();
    String lost = "ProvisioningRequest " + j.namespace() + "/" + name + " is "
        + state.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
        + (message == null ? "" : " (" + message + ")");
    if (waits.attempt > waits.config.backoffLimitCount()) {
      waiting.remove(j.key());
      gaveUp.put(j.key(), lost + "; no retry left (" + waits.config.display() + " retryStrategy.backoffLimitCount "
          + waits.config.backoffLimitCount() + ")");
      warnings.add("Kueue: Job " + j.key() + " stays suspended: " + gaveUp.get(j.key()));
      return;
    }
    java.time.Instant now = clock.get();
    if (waits.retryAt == null) {
      long delay = Math.min(waits.config.backoffMaxSeconds(),
          waits.config.backoffBaseSeconds() << Math.min(20, waits.attempt - 1));
      waits.retryAt = now.plusSeconds(delay);
    }
    if (now.isBefore(waits.retryAt)) {
      warnings.add("Kueue: Job " + j.key() + ": " + lost + "; retry " + waits.attempt + " of "
          + waits.config.backoffLimitCount() + " at " + waits.retryAt);
      return;
    }
    waits.attempt++;
    waits.retryAt = null;
    provision.add(newRequest(j, waits));
    warnings.add("Kueue: Job " + j.key() + ": " + lost + "; asking again: ProvisioningRequest " + j.namespace()
        + "/" + waits.requestName(j));
  }

  static NewRequest newRequest(KueueJob j, Waiting waits) {
    Map<String, String> parameters = new LinkedHashMap<>(waits.config.parameters());
    parameters.putAll(j.provisioningParameters());
    io.basalt.model.ResourceVector.Builder one = io.basalt.model.ResourceVector.builder();
    j.podRequest().forEach(one::add);
    Map<String, String> quantities = one.build().toQuantities();
    return new NewRequest(j.namespace(), waits.requestName(j), "batch/v1", "Job", j.name(), j.uid(),
        waits.config.provisioningClassName(), parameters, j.pods(), j.podTemplate(), quantities,
        waits.admitted.nodeSelector(), waits.admitted.tolerations());
  }


}
