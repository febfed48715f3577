package io.basalt.gpu.protocol.hami;

import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuDevice;
import io.basalt.gpu.GpuTopology;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HAMi's annotation formats, as HAMi's scheduler writes them and its device plugins read them (facts taken from
 * HAMi's documentation and source, not its code). A pod's devices: per container, init containers first, each device
 * {@code UUID,TYPE,MEMORY_MIB,CORES} followed by {@code :}, each container followed by {@code ;}, e.g.
 * {@code GPU-a,NVIDIA,81920,0:GPU-b,NVIDIA,81920,0:;} for one container on two GPUs. A node's inventory
 * ({@value #NVIDIA_REGISTER}): a JSON list of {@code {"id","count","devmem","devcore","type","numa","health","index",
 * "mode"}}, or the older {@code id,count,devmem,devcore,type,numa,health[,index,mode]:} list. The node lock
 * ({@value #NODE_LOCK}): {@code RFC3339-time,namespace,pod}.
 */
public final class HamiFormat {
  /** Pod: the node HAMi's plugin looks for pods bound to. */
  public static final String NODE = "hami.io/vgpu-node";
  /** Pod: when the devices were chosen, Unix seconds. */
  public static final String TIME = "hami.io/vgpu-time";
  /** Pod: when the bind was sent, Unix seconds; HAMi's plugin only allocates for pods that carry it. */
  public static final String BIND_TIME = "hami.io/bind-time";
  /** Pod: allocating at bind; the device plugin sets success or failed once it has allocated. */
  public static final String BIND_PHASE = "hami.io/bind-phase";
  public static final String ALLOCATING = "allocating";
  /** Pod, MetaX's own record of a share: per container a JSON list of {"uuid","compute","vRam"}. */
  public static final String METAX_ALLOCATED = "metax-tech.com/gpu-devices-allocated";
  /** Pod: when MetaX devices were chosen, Unix nanoseconds. */
  public static final String METAX_PREDICATE_TIME = "metax-tech.com/predicate-time";
  /** How many vGPUs HAMi's device plugin splits each GPU into unless configured otherwise (deviceSplitCount). */
  public static final int DEFAULT_SPLIT_COUNT = 10;
  /** Node: HAMi's NVIDIA device plugin's inventory. */
  public static final String NVIDIA_REGISTER = "hami.io/node-nvidia-register";
  /** Node: the lock a scheduler takes before binding a device pod; the device plugin releases it after allocating. */
  public static final String NODE_LOCK = "hami.io/mutex.lock";

  /** One device of one container: its UUID, HAMi's type, memory in MiB and percent of compute. */
  public record Entry(String uuid, String type, long memoryMiB, int cores) {}

  /** One device of a node's HAMi inventory; {@code count} is how many vGPUs it is split into. */
  public record Registered(String id, int count, long memoryMiB, int cores, String type, boolean healthy) {}

  /** A parsed node lock: when it was taken and by which pod (both empty for HAMi's older timestamp-only lock). */
  public record Lock(Instant time, String namespace, String pod) {}

  private HamiFormat() {}

  /** The annotation value for {@code containers}' devices. */
  public static String encode(List<List<Entry>> containers) {
    StringBuilder sb = new StringBuilder();
    for (List<Entry> c : containers) {
      for (Entry e : c) {
        sb.append(e.uuid()).append(',').append(e.type()).append(',').append(e.memoryMiB()).append(',')
            .append(e.cores()).append(':');
      }
      sb.append(';');
    }
    return sb.toString();
  }

  /**
   * The devices per container of annotation {@code name}'s {@code value}.
   *
   * @throws IllegalArgumentException naming the annotation, the container and what is wrong
   */
  public static List<List<Entry>> decode(String name, String value) {
    List<List<Entry>> out = new ArrayList<>();
    String[] containers = value.split(";", -1);
    int n = value.endsWith(";") ? containers.length - 1 : containers.length;
    for (int c = 0; c < n; c++) {
      List<Entry> devices = new ArrayList<>();
      for (String d : containers[c].split(":")) {
        if (d.isBlank()) {
          continue;
        }
        String[] f = d.split(",", -1);
        if (f.length < 4 || f[0].isBlank()) {
          throw bad(name, "container " + c + ": '" + d + "' is not UUID,TYPE,MEMORY,CORES");
        }
        devices.add(new Entry(f[0].trim(), f[1].trim(), number(name, c, "memory", f[2]),
            (int) number(name, c, "cores", f[3])));
      }
      out.add(devices);
    }
    return out;
  }

  private static long number(String name, int container, String field, String text) {
    try {
      long v = Long.parseLong(text.trim());
      if (v < 0 || v > Integer.MAX_VALUE) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw bad(name, "container " + container + ": " + field + " '" + text + "' is not a whole number");
    }
  }

  /**
   * MetaX's {@value #METAX_ALLOCATED}: per container a list of {@code {"uuid","compute","vRam"}} (zero values left
   * out, as MetaX's JSON does).
   */
  public static String encodeMetax(List<List<Entry>> containers) {
    JsonArray root = new JsonArray();
    for (List<Entry> c : containers) {
      JsonArray list = new JsonArray();
      for (Entry e : c) {
        JsonObject o = new JsonObject();
        o.addProperty("uuid", e.uuid());
        if (e.cores() != 0) {
          o.addProperty("compute", e.cores());
        }
        if (e.memoryMiB() != 0) {
          o.addProperty("vRam", e.memoryMiB());
        }
        list.add(o);
      }
      root.add(list);
    }
    return root.toString();
  }

  /**
   * The devices of HAMi's node inventory {@value #NVIDIA_REGISTER}.
   *
   * @throws IllegalArgumentException naming the annotation, the device and the field
   */
  public static List<Registered> parseRegister(String value) {
    String text = value.trim();
    return text.startsWith("[") ? registerJson(text) : registerLegacy(text);
  }

  private static List<Registered> registerJson(String text) {
    JsonArray list;
    try {
      list = JsonParser.parseString(text).getAsJsonArray();
    } catch (JsonParseException | IllegalStateException e) {
      throw bad(NVIDIA_REGISTER, "not a JSON list of devices");
    }
    List<Registered> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      JsonElement el = list.get(i);
      if (!el.isJsonObject() || !el.getAsJsonObject().has("id")) {
        throw bad(NVIDIA_REGISTER, "device " + i + " is not an object with an \"id\"");
      }
      JsonObject d = el.getAsJsonObject();
      try {
        out.add(new Registered(d.get("id").getAsString(), intOf(d, "count"), intOf(d, "devmem"), intOf(d, "devcore"),
            d.has("type") ? d.get("type").getAsString() : "", d.has("health") && d.get("health").getAsBoolean()));
      } catch (NumberFormatException | UnsupportedOperationException | IllegalStateException e) {
        throw bad(NVIDIA_REGISTER, "device " + i + ": a field has the wrong type");
      }
    }
    return out;
  }

  private static int intOf(JsonObject d, String field) {
    return d.has(field) ? d.get(field).getAsInt() : 0;
  }

  private static List<Registered> registerLegacy(String text) {
    if (!text.contains(":")) {
      throw bad(NVIDIA_REGISTER, "neither a JSON list nor id,count,devmem,devcore,type,numa,health: entries");
    }
    List<Registered> out = new ArrayList<>();
    for (String d : text.split(":")) {
      if (d.isBlank()) {
        continue;
      }
      String[] f = d.split(",", -1);
      int i = out.size();
      if (f.length != 7 && f.length != 9) {
        throw bad(NVIDIA_REGISTER, "device " + i + " has " + f.length + " fields, not 7 or 9");
      }
      try {
        out.add(new Registered(f[0], Integer.parseInt(f[1].trim()), Long.parseLong(f[2].trim()),
            Integer.parseInt(f[3].trim()), f[4], Boolean.parseBoolean(f[6].trim())));
      } catch (NumberFormatException e) {
        throw bad(NVIDIA_REGISTER, "device " + i + ": count, devmem and devcore must be whole numbers");
      }
    }
    return out;
  }

  /** A topology from HAMi's inventory: devices known, links not (every pair scored as PCIe). */
  static GpuTopology topology(List<Registered> devices) {
    List<GpuDevice> list = new ArrayList<>();
    DeviceSet unhealthy = DeviceSet.EMPTY;
    for (int i = 0; i < devices.size(); i++) {
      Registered r = devices.get(i);
      list.add(new GpuDevice(i, r.id(), r.type(), r.memoryMiB()));
      if (!r.healthy()) {
        unhealthy = unhealthy.with(i);
      }
    }
    return GpuTopology.unlinked(list, GpuTopology.pairScore(GpuAnnotations.PCIE), unhealthy);
  }

  /** The lock value for a pod taking it at {@code now}. */
  public static String lockValue(Instant now, String namespace, String pod) {
    return LOCK_TIME.format(now) + "," + namespace + "," + pod;
  }

  /**
   * Parses a lock value.
   *
   * @throws IllegalArgumentException when it is neither time,namespace,pod nor a bare time
   */
  public static Lock parseLock(String value) {
    String[] f = value.split(",", -1);
    if (f.length != 1 && f.length != 3) {
      throw bad(NODE_LOCK, "'" + value + "' is not time,namespace,pod");
    }
    try {
      Instant t = OffsetDateTime.parse(f[0].trim()).toInstant();
      return f.length == 1 ? new Lock(t, "", "") : new Lock(t, f[1], f[2]);
    } catch (DateTimeParseException e) {
      throw bad(NODE_LOCK, "'" + f[0] + "' is not an RFC 3339 time");
    }
  }

  private static final DateTimeFormatter LOCK_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static IllegalArgumentException bad(String annotation, String problem) {
    return new IllegalArgumentException("annotation " + annotation + ": " + problem);
  }
}
