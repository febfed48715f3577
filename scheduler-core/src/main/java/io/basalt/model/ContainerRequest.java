package io.basalt.model;

/**
 * One container's own resource request (requests, a missing request defaulting to the limit). Kept per container
 * because device plugins allocate per container: HAMi's annotations list each container's devices in pod order.
 *
 * @param init true for an init container (sidecars included): they come first, in spec order
 */
public record ContainerRequest(String name, boolean init, ResourceVector request) {}
