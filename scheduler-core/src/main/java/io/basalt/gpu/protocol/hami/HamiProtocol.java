package io.basalt.gpu.protocol.hami;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceProtocol;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuTopology;
import io.basalt.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * HAMi's protocol, so HAMi's device plugins allocate exactly the devices Basalt chose: a node's NVIDIA inventory in
 * {@value HamiFormat#NVIDIA_REGISTER}, a pod's devices per container in {@code hami.io/*-devices-to-allocate} and
 * {@code -allocated} ({@link HamiBinding}), and what pods hami-scheduler placed hold read back from the latter
 * ({@link HamiClaims}). Left to {@code auto}, it speaks for a vendor on nodes carrying HAMi's inventory for it
 * (HAMi's register for NVIDIA, MetaX's {@value GpuAnnotations#METAX_DEVICES} for MetaX). Its Kubernetes half (the
 * node lock, the bind-time stamps) is in scheduler-kube.
 */
public final class HamiProtocol implements DeviceProtocol {
  public static final HamiProtocol INSTANCE = new HamiProtocol();
  private static final List<String> INVENTORY = List.of(HamiFormat.NVIDIA_REGISTER);

  private HamiProtocol() {}

  @Override
  public String name() {
    return "hami";
  }

  @Override
  public List<String> inventoryAnnotations() {
    return INVENTORY;
  }

  @Override
  public GpuTopology inventory(String annotation, String value) {
    List<HamiFormat.Registered> devices = HamiFormat.parseRegister(value);
    GpuAnnotations.checkCount(HamiFormat.NVIDIA_REGISTER, devices.size());
    return HamiFormat.topology(devices);
  }

  @Override
  public boolean detects(String resource, Map<String, String> nodeAnnotations) {
    return nodeAnnotations.containsKey(resource.equals(HamiVendor.NVIDIA.resource()) ? HamiFormat.NVIDIA_REGISTER
        : GpuAnnotations.METAX_DEVICES);
  }

  @Override
  public boolean recorded(Map<String, String> podAnnotations) {
    return HamiClaims.present(podAnnotations);
  }

  @Override
  public List<DeviceClaim> recordedClaims(Pod pod, GpuTopology t, String node) {
    int init = (int) pod.containers().stream().filter(c -> c.init()).count();
    return HamiClaims.of(pod.annotations(), t, node, init);
  }

  @Override
  public Map<String, String> annotations(Pod pod, String node, GpuTopology t, DeviceClaim claim,
      Predicate<String> speaks) {
    return HamiBinding.annotations(pod, node, t, claim, speaks);
  }
}
