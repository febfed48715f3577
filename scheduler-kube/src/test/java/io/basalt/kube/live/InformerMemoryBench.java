package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.kube.kinds.core.NodeConversion;
import io.basalt.kube.kinds.core.PodConversion;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What the informers' stores retain per object: a LIST of N realistic pods (the 8 KB training pod of
 * {@code live/training-pod.json}, numbered) and of N GPU nodes ({@code live/gpu-node.json}) read the way
 * {@link ListWatch} reads one (a lean stream), and as it read one before (a tree per item, lean or whole), then
 * converted to the engine's records; decode time is the reading thread's CPU time, after a warm-up round. Retained heap is the used heap
 * after full collections, before and after. Not a unit test: run it by hand,
 * {@code mvn -q -o test -pl scheduler-kube -Dtest=InformerMemoryBench -Dbasalt.bench=true
 * -Dsurefire.failIfNoSpecifiedTests=false} ({@code -Dbasalt.bench.pods=N}, {@code -Dbasalt.bench.nodes=N}).
 */
@EnabledIfSystemProperty(named = "basalt.bench", matches = "true")
class InformerMemoryBench {
  @Test
  void retainedBytesPerPodAndNode() throws Exception {
    int pods = Integer.getInteger("basalt.bench.pods", 20_000);
    int nodes = Integer.getInteger("basalt.bench.nodes", 5_000);
    String pod = resource("/live/training-pod.json");
    String node = resource("/live/gpu-node.json");
    Function<Integer, String> podN = i -> pod.replace("train-worker-3", "train-worker-" + i)
        .replace("000000000003", String.format("%012d", i));
    Function<Integer, String> nodeN = i -> node.replace("gpu-node-17", "gpu-node-" + i)
        .replace("000000000017", String.format("%012d", i));
    System.out.printf(Locale.ROOT, "%-6s %-6s %8s %14s %14s %14s%n", "kind", "mode", "objects", "store B/object",
        "engine B/obj", "decode CPU ms");
    for (int round = 0; round < 2; round++) { // the first round warms the JIT up for all three
      boolean print = round == 1;
      for (LeanObjects mode : List.of(LeanObjects.whole(), LeanObjects.lean())) {
        String name = isLean(mode) ? "lean" : "whole";
        measure(print, "pods", name, pods, podN, V1Pod.class, tree(mode, V1Pod.class), p -> PodConversion.toPod(p));
        measure(print, "nodes", name, nodes, nodeN, V1Node.class, tree(mode, V1Node.class),
            n -> NodeConversion.toNode(n));
      }
      LeanObjects lean = LeanObjects.lean();
      measure(print, "pods", "stream", pods, podN, V1Pod.class, in -> lean.reader(V1Pod.class).fromJson(in,
          V1Pod.class), p -> PodConversion.toPod(p));
      measure(print, "nodes", "stream", nodes, nodeN, V1Node.class, in -> lean.reader(V1Node.class).fromJson(in,
          V1Node.class), n -> NodeConversion.toNode(n));
    }
  }

  /** How the informers read a list before streaming: a JSON tree per item, stripped, then bound. */
  private static <T> ListWatch.ItemReader<T> tree(LeanObjects mode, Class<T> type) {
    return in -> ListWatch.decode(com.google.gson.JsonParser.parseReader(in).getAsJsonObject(), type, mode);
  }

  private static boolean isLean(LeanObjects mode) {
    com.google.gson.JsonObject probe = new com.google.gson.JsonObject();
    com.google.gson.JsonObject meta = new com.google.gson.JsonObject();
    meta.add("managedFields", new com.google.gson.JsonArray());
    probe.add("metadata", meta);
    mode.strip(V1Pod.class, probe);
    return !meta.has("managedFields");
  }

  private static <T> void measure(boolean print, String kind, String mode, int n, Function<Integer, String> item,
      Class<T> type, ListWatch.ItemReader<T> reader, Function<T, Object> convert) throws IOException {
    if (!print) {
      n = Math.min(n, 2_000);
    }
    long before = used();
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long start = threads.getCurrentThreadCpuTime();
    List<T> store = new ArrayList<>(n);
    ListWatch.readItems(list(n, item), reader, store);
    long decodeMs = (threads.getCurrentThreadCpuTime() - start) / 1_000_000;
    long afterStore = used();
    List<Object> engine = new ArrayList<>(n);
    store.forEach(o -> engine.add(convert.apply(o)));
    long afterEngine = used();
    assertEquals(n, store.size());
    assertEquals(n, engine.size());
    if (print) {
      System.out.printf(Locale.ROOT, "%-6s %-6s %8d %14d %14d %14d%n", kind, mode, n, (afterStore - before) / n,
          (afterEngine - afterStore) / n, decodeMs);
    }
  }

  /** {@code {"kind":"List","metadata":{...},"items":[...]}} of n items, produced as it is read. */
  private static Reader list(int n, Function<Integer, String> item) {
    Iterator<String> parts = IntStream.rangeClosed(-1, n).mapToObj(i -> i < 0
        ? "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":["
        : i == n ? "]}" : (i > 0 ? "," : "") + item.apply(i)).iterator();
    return new Reader() {
      private String current = "";
      private int pos;

      @Override
      public int read(char[] buf, int off, int len) {
        while (pos == current.length()) {
          if (!parts.hasNext()) {
            return -1;
          }
          current = parts.next();
          pos = 0;
        }
        int k = Math.min(len, current.length() - pos);
        current.getChars(pos, pos + k, buf, off);
        pos += k;
        return k;
      }

      @Override
      public void close() {}
    };
  }

  private static long used() {
    for (int i = 0; i < 3; i++) {
      System.gc();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private String resource(String path) throws IOException {
    try (InputStream in = getClass().getResourceAsStream(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
