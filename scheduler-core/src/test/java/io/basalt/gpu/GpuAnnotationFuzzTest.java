package io.basalt.gpu;

import io.basalt.gpu.protocol.hami.HamiFormat;
import io.basalt.gpu.protocol.hami.HamiVendor;
import io.basalt.gpu.protocol.hami.HamiClaims;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.basalt.testing.FuzzJson;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Every GPU annotation parser fed thousands of seeded hostile values (wrong types, nulls, numbers beyond every range,
 * nesting 5,000 deep, 5,000-device lists, mutants of valid values): each returns, or throws the one exception its
 * contract names, {@link IllegalArgumentException} with a message naming the annotation, within a bound on time.
 * Anything else (a Gson exception, an error, a slow input) fails with the seed and the input. Set
 * {@code -Dbasalt.fuzz.seed} and {@code -Dbasalt.fuzz.count} to explore further.
 */
class GpuAnnotationFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 7L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 2000);
  /** A parse is microseconds; a second means work growing with something other than the text's length. */
  private static final long SLOW_NANOS = Duration.ofSeconds(1).toNanos();
  /** The parsers Basalt owns keep messages short enough for a log line; HAMi's quote whole entries. */
  private static final int MAX_MESSAGE = 400;

  private static final GpuTopology EIGHT = io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(HamiFormat.NVIDIA_REGISTER,
      "GPU-0,10,81920,100,H100,0,true:GPU-1,10,81920,100,H100,0,true:GPU-2,10,81920,100,H100,0,false:"
          + "GPU-3,10,81920,100,H100,0,true:"));

  private static final List<String> TOPOLOGIES = List.of(
      "{\"devices\":[{\"index\":0,\"uuid\":\"GPU-0\",\"model\":\"H100\",\"memoryMiB\":81920},{\"index\":1,\"uuid\":"
          + "\"GPU-1\",\"model\":\"H100\",\"memoryMiB\":81920}],\"links\":[[\"X\",\"NV18\"],[\"NV18\",\"X\"]]}",
      "{\"devices\":[{\"index\":0},{\"index\":1},{\"index\":2}],\"links\":[[\"X\",\"PHB\",\"SYS\"],[\"PHB\",\"X\","
          + "\"NODE\"],[\"SYS\",\"NODE\",\"X\"]]}");
  private static final List<String> METAX = List.of(
      "[{\"uuid\":\"GPU-mx-0\",\"model\":\"MXC500\",\"totalVRam\":65536,\"linkZone\":1},{\"uuid\":\"GPU-mx-1\","
          + "\"model\":\"MXC500\",\"totalVRam\":65536,\"linkZone\":1},{\"uuid\":\"GPU-mx-2\",\"linkZone\":2}]");
  private static final List<String> REGISTERS = List.of(
      "[{\"id\":\"GPU-0\",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"H100\",\"health\":true},"
          + "{\"id\":\"GPU-1\",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"H100\",\"health\":false}]",
      "GPU-0,10,81920,100,NVIDIA-H100,0,true:GPU-1,10,81920,100,NVIDIA-H100,0,true,1,hami-core:");
  private static final List<String> POD_DEVICES = List.of("GPU-0,NVIDIA,81920,0:GPU-1,NVIDIA,81920,0:;",
      ";GPU-3,NVIDIA,4096,30:;", "n1-metax-2,Metax-GPU,65536,100:;", "GPU-1,Metax-SGPU,4096,60:;");
  private static final List<String> LOCKS = List.of("2026-05-01T10:00:00Z,ns,pod", "2026-05-01T10:00:00+08:00");
  private static final List<String> CLAIMS = List.of("0,1", "2, 3", "7", "0,1,2,3,4,5,6,7");

  /** Runs {@code parse} on {@code COUNT} inputs; a throw is allowed only as the contract's named exception. */
  private static void fuzz(String what, long seed, List<String> valid, Consumer<String> parse, String prefix,
      boolean ownMessages) {
    FuzzJson gen = new FuzzJson(seed);
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      int rejected = 0;
      for (int i = 0; i < COUNT; i++) {
        String input = gen.next(valid);
        long start = System.nanoTime();
        try {
          parse.accept(input);
        } catch (IllegalArgumentException e) {
          rejected++;
          String m = String.valueOf(e.getMessage());
          if (!m.startsWith(prefix)) {
            fail(failure(what, seed, i, input, "a message not naming " + prefix + ": " + m));
          }
          if (ownMessages && m.length() > MAX_MESSAGE) {
            fail(failure(what, seed, i, input, "a message of " + m.length() + " characters"));
          }
        } catch (Throwable t) {
          throw new AssertionError(failure(what, seed, i, input, "threw " + t), t);
        }
        long took = System.nanoTime() - start;
        if (took > SLOW_NANOS) {
          fail(failure(what, seed, i, input, "took " + took / 1_000_000 + " ms"));
        }
      }
      assertTrue(rejected > COUNT / 4, what + ": the inputs should break most values: " + rejected + " of " + COUNT);
      assertTrue(rejected < COUNT, what + ": some inputs should still parse");
    });
  }

  private static String failure(String what, long seed, int i, String input, String problem) {
    String shown = input.length() > 600 ? input.substring(0, 600) + "... (" + input.length() + " chars)" : input;
    return what + " input " + i + " of seed " + seed + ": " + problem + "\n--- input ---\n" + shown;
  }

  @Test
  void basaltTopology() {
    fuzz("gpu-topology", SEED, TOPOLOGIES, s -> io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(GpuAnnotations.TOPOLOGY, s)),
        "annotation basalt.io/gpu-topology: ", true);
  }

  @Test
  void metaxNodeDevices() {
    fuzz("node-gpu-devices", SEED + 1, METAX, s -> io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(GpuAnnotations.METAX_DEVICES, s)),
        "annotation metax-tech.com/node-gpu-devices: ", true);
  }

  @Test
  void hamiNodeRegister() {
    fuzz("node-nvidia-register", SEED + 2, REGISTERS,
        s -> io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(HamiFormat.NVIDIA_REGISTER, s)), "annotation hami.io/node-nvidia-register: ",
        false);
  }

  @Test
  void basaltPodDevices() {
    fuzz("gpu-devices", SEED + 3, CLAIMS, s -> GpuAnnotations.claim(s, 8), "'", true);
    fuzz("gpu-devices (DeviceSet)", SEED + 4, CLAIMS, DeviceSet::parse, "'", true);
  }

  /** HAMi's and MetaX's pod annotations, through the claims read from them on a 4-GPU node (one unhealthy). */
  @Test
  void hamiAndMetaxPodAnnotations() {
    int v = 0;
    for (HamiVendor vendor : HamiVendor.values()) {
      fuzz(vendor.allocated(), SEED + 10 + v++, POD_DEVICES,
          s -> HamiClaims.of(Map.of(vendor.allocated(), s), EIGHT, "n1", 1), "annotation " + vendor.allocated() + ": ",
          false);
    }
  }

  @Test
  void hamiNodeLock() {
    fuzz("mutex.lock", SEED + 20, LOCKS, HamiFormat::parseLock, "annotation hami.io/mutex.lock: ", false);
  }
}
