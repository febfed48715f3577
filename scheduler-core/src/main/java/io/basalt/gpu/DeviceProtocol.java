package io.basalt.gpu;

import io.basalt.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The engine half of one device protocol: how a node's device plugin reports its devices, how a pod records the
 * devices it holds, and what a pod is told about the devices the engine chose for it (Volcano keeps one such interface
 * per vendor's protocol). Kubernetes-free: what is written to the API, and when (at pre-bind, with a node lock or
 * not), is the protocol's other half, in scheduler-kube. Implementations live one package per protocol under
 * {@code gpu.protocol}; {@code gpu.protocol.DeviceProtocols} lists them and says which speaks for which resource.
 */
public interface DeviceProtocol {
  /** The name {@code --device-protocol} and the {@code deviceProtocol} configuration know it by. */
  String name();

  /** The node annotations this protocol reports an inventory in, in order of preference. */
  List<String> inventoryAnnotations();

  /**
   * The devices of inventory annotation {@code annotation}'s {@code value}.
   *
   * @throws IllegalArgumentException naming the annotation and what is wrong with it
   */
  GpuTopology inventory(String annotation, String value);

  /**
   * Whether, left to {@code auto}, devices asked for with {@code resource} on a node carrying these annotations are
   * told to it in this protocol.
   */
  boolean detects(String resource, Map<String, String> nodeAnnotations);

  /** Whether the pod carries this protocol's record of the devices it holds. */
  boolean recorded(Map<String, String> podAnnotations);

  /**
   * What that record says the pod holds on a node with topology {@code t}.
   *
   * @throws IllegalArgumentException naming the annotation and the problem
   */
  List<DeviceClaim> recordedClaims(Pod pod, GpuTopology t, String node);

  /**
   * The pod annotations telling the node the devices chosen for {@code pod}: empty when none of the resources it asks
   * for speaks this protocol there ({@code speaks} says, per resource).
   */
  Map<String, String> annotations(Pod pod, String node, GpuTopology t, DeviceClaim claim, Predicate<String> speaks);
}
