package io.basalt.app.topology;

import io.basalt.gpu.GpuDevice;
import java.util.List;

/** The production {@link TopologyReader}: runs the topology and the device query commands and parses both. */
final class SmiTopologyReader implements TopologyReader {
  private final List<String> topoCommand;
  private final List<String> queryCommand;
  private final SmiRunner runner;

  SmiTopologyReader(List<String> topoCommand, List<String> queryCommand, SmiRunner runner) {
    this.topoCommand = List.copyOf(topoCommand);
    this.queryCommand = List.copyOf(queryCommand);
    this.runner = runner;
  }

  @Override
  public TopologyAnnotation read() throws SmiException {
    String topoSource = SmiRunner.display(topoCommand);
    String querySource = SmiRunner.display(queryCommand);
    List<List<String>> codes = TopoMatrixParser.parse(runner.run(topoCommand), topoSource);
    List<GpuDevice> devices = GpuQueryParser.parse(runner.run(queryCommand), querySource);
    return TopologyAnnotation.of(devices, codes, topoSource, querySource);
  }
}
