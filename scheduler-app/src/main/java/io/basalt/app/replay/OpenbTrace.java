package io.basalt.app.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Alibaba openb trace as its CSV files state it (cluster-trace-gpu-v2023): the node list ({@code sn, cpu_milli,
 * memory_mib, gpu, model}) and a pod list ({@code name, cpu_milli, memory_mib, num_gpu, gpu_milli, gpu_spec, ...,
 * creation_time, deletion_time, scheduled_time}). Columns are found by their header, so variants of the pod list
 * with extra or reordered columns read the same. {@code gpu_spec} and the times may be missing (the paper's
 * multi-GPU variants list only name, cpu, memory and GPUs): no model restriction, and {@link #timed()} false, which
 * the fgd protocol does not need and the clock protocol refuses.
 */
record OpenbTrace(List<TraceNode> nodes, List<TracePod> pods, boolean timed) {
  static final String NODE_FILE = "openb_node_list_gpu_node.csv";
  static final String POD_FILE = "openb_pod_list_default.csv";

  /** The columns the clock protocol needs; without either the trace is untimed. */
  static final String CREATION = "creation_time";
  static final String DELETION = "deletion_time";

  OpenbTrace(List<TraceNode> nodes, List<TracePod> pods) {
    this(nodes, pods, true);
  }

  OpenbTrace {
    nodes = List.copyOf(nodes);
    pods = List.copyOf(pods);
  }

  /** One GPU node of the trace; all its GPUs are of one model. */
  record TraceNode(String name, long cpuMilli, long memoryMib, int gpus, String model) {}

  /**
   * One pod of the trace. {@code gpuMilli} is per GPU (1000 unless the pod shares one GPU); {@code gpuSpec} lists
   * the accepted GPU models separated by {@code |} (empty: any); times are seconds, {@code scheduled} is -1 when the
   * pod never ran in production.
   */
  record TracePod(String name, long cpuMilli, long memoryMib, int numGpu, int gpuMilli, String gpuSpec,
      long creation, long deletion, long scheduled) {
    /** Milli-GPUs requested: what the allocation ratio counts. */
    long gpuMilliTotal() {
      return (long) numGpu * gpuMilli;
    }

    /** A share of one GPU rather than whole GPUs. */
    boolean isShare() {
      return numGpu == 1 && gpuMilli < 1000;
    }

    /** How long it runs once placed: deletion minus the production start (creation when it never started). */
    long runtime() {
      return Math.max(0, deletion - (scheduled >= 0 ? scheduled : creation));
    }

    /** Whether a GPU of {@code model} is one this pod accepts. */
    boolean accepts(String model) {
      if (gpuSpec.isEmpty()) {
        return true;
      }
      for (String s : gpuSpec.split("\\|")) {
        if (s.trim().equalsIgnoreCase(model)) {
          return true;
        }
      }
      return false;
    }
  }

  /** Reads {@code nodeFile} and {@code podFile}. */
  static OpenbTrace read(Path nodeFile, Path podFile) throws IOException {
    List<TraceNode> nodes = new ArrayList<>();
    for (Row r : rows(nodeFile)) {
      nodes.add(new TraceNode(r.text("sn"), r.number("cpu_milli"), r.number("memory_mib"), (int) r.number("gpu"),
          r.text("model")));
    }
    List<TracePod> pods = new ArrayList<>();
    List<Row> podRows = rows(podFile);
    boolean timed = podRows.isEmpty() || podRows.get(0).has(CREATION) && podRows.get(0).has(DELETION);
    for (Row r : podRows) {
      int numGpu = (int) r.number("num_gpu");
      int milli = (int) r.number("gpu_milli");
      if (numGpu < 0 || milli < 0 || milli > 1000 || (milli < 1000 && numGpu > 1) || (numGpu > 0 && milli == 0)) {
        throw r.bad("num_gpu " + numGpu + " with gpu_milli " + milli
            + ": a pod takes whole GPUs (1000 each) or a share (< 1000) of one");
      }
      String spec = r.has("gpu_spec") ? r.text("gpu_spec") : "";
      String scheduled = timed && r.has("scheduled_time") ? r.text("scheduled_time") : "";
      pods.add(new TracePod(r.text("name"), r.number("cpu_milli"), r.number("memory_mib"), numGpu,
          numGpu == 0 ? 0 : milli, spec, timed ? r.number(CREATION) : 0, timed ? r.number(DELETION) : 0,
          scheduled.isEmpty() ? -1 : r.number("scheduled_time")));
    }
    return new OpenbTrace(nodes, pods, timed);
  }

  /** GPUs in the cluster. */
  long gpus() {
    long sum = 0;
    for (TraceNode n : nodes) {
      sum += n.gpus();
    }
    return sum;
  }

  /** One data line, its columns by header name; errors name the file and line. */
  private record Row(Path file, int line, Map<String, Integer> columns, String[] cells) {
    boolean has(String column) {
      return columns.containsKey(column);
    }

    String text(String column) {
      Integer i = columns.get(column);
      if (i == null) {
        throw bad("no column '" + column + "' (header: " + String.join(",", columns.keySet()) + ")");
      }
      return i < cells.length ? cells[i].trim() : "";
    }

    long number(String column) {
      String v = text(column);
      try {
        return v.isEmpty() ? 0 : Long.parseLong(v);
      } catch (NumberFormatException e) {
        try {
          return Math.round(Double.parseDouble(v));
        } catch (NumberFormatException e2) {
          throw bad(column + " '" + v + "' is not a number");
        }
      }
    }

    IllegalArgumentException bad(String problem) {
      return new IllegalArgumentException(file + ":" + line + ": " + problem);
    }
  }

  private static List<Row> rows(Path file) throws IOException {
    List<Row> rows = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String header = in.readLine();
      if (header == null) {
        throw new IllegalArgumentException(file + ": empty, expected a CSV header");
      }
      Map<String, Integer> columns = new HashMap<>();
      String[] names = header.replace("\uFEFF", "").split(",", -1);
      for (int i = 0; i < names.length; i++) {
        columns.put(names[i].trim(), i);
      }
      int line = 1;
      for (String s = in.readLine(); s != null; s = in.readLine()) {
        line++;
        if (!s.isBlank()) {
          rows.add(new Row(file, line, columns, s.split(",", -1)));
        }
      }
    }
    return rows;
  }
}
