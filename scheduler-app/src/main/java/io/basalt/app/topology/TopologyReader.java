package io.basalt.app.topology;

/** Where the agent gets this node's topology from: the smi commands in production, a constant in tests. */
@FunctionalInterface
interface TopologyReader {
  TopologyAnnotation read() throws SmiException;
}
