package io.basalt.kube.kinds;

import io.basalt.kube.gang.OwnerObject;
import io.basalt.model.Quantities;
import io.basalt.model.ResourceVector;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What converting any kind shares: names and namespaces, resource lists and quantities, metadata maps. The rules of
 * each kind live beside its adapter ({@code kinds.core}, {@code kinds.volcano}, ...); a conversion fails with a
 * {@link KubeConversionException} naming the object and the field for input the API server would have rejected.
 */
public final class Conversion {
  /** The namespace of a namespaced object that names none (kubectl's default context namespace). */
  public static final String DEFAULT_NAMESPACE = "default";

  private Conversion() {}

  /** What gang inference reads of any workload owning pods (a Job, a PyTorchJob, a JobSet, ...): its metadata. */
  public static OwnerObject owner(String kind, V1ObjectMeta meta) {
    Ctx ctx = Ctx.namespaced(kind, meta);
    if (meta == null || isBlank(meta.getUid())) {
      throw ctx.fail("metadata.uid", "missing");
    }
    return new OwnerObject(kind, namespaceOf(meta), meta.getName(), meta.getUid(), strings(meta.getLabels()),
        strings(meta.getAnnotations()), instant(meta.getCreationTimestamp()));
  }

  /** {@link #resources}, or null for a list that is unset or empty (Volcano's "no limit" / "nothing reserved"). */
  public static ResourceVector optionalResources(Map<String, Quantity> list, String field, Ctx ctx) {
    return list == null || list.isEmpty() ? null : resources(list, field, ctx);
  }

  /** A resource list as a vector of requests (rounded up); a bad entry fails naming {@code field.name}. */
  public static ResourceVector resources(Map<String, Quantity> list, String field, Ctx ctx) {
    ResourceVector.Builder b = ResourceVector.builder();
    list.forEach((name, q) -> add(b, name, amount(name, q, field + "." + name, ctx), field + "." + name, ctx));
    return b.build();
  }

  /** {@code b.add(name, amount)}, failing naming {@code field} when no more resource names can be counted. */
  public static void add(ResourceVector.Builder b, String name, long amount, String field, Ctx ctx) {
    try {
      b.add(name, amount);
    } catch (IllegalArgumentException e) {
      throw ctx.fail(field, e.getMessage(), e);
    }
  }

  /**
   * A node's resource list: as {@link #resources}, but a fraction of a unit rounds down, so a node advertising
   * {@code nvidia.com/gpu: 1m} or {@code pods: 0.5} offers nothing of it rather than one.
   */
  public static ResourceVector capacities(Map<String, Quantity> list, String field, Ctx ctx) {
    ResourceVector.Builder b = ResourceVector.builder();
    list.forEach((name, q) -> add(b, name, amount(name, q, field + "." + name, false, ctx), field + "." + name, ctx));
    return b.build();
  }

  /** One request in the model's units; missing, negative, out-of-range or malformed fails naming {@code field}. */
  public static long amount(String name, Quantity q, String field, Ctx ctx) {
    return amount(name, q, field, true, ctx);
  }

  /**
   * The most a pod's container is taken to ask of one resource: more than any node has, yet small enough that the
   * requests of a thousand such pods still add up without overflowing.
   */
  public static final long MAX_REQUEST = Long.MAX_VALUE >> 10;

  /**
   * A container's request, as {@link #amount}, but a quantity too large for the model ({@code 10E} of memory, valid
   * for the API server) is clamped to {@link #MAX_REQUEST} with a warning instead of failing: a running pod must
   * never drop out of its node's accounting, and a pending one then fits nowhere, which is the truth.
   */
  public static long requestAmount(String name, Quantity q, String field, Ctx ctx) {
    try {
      return amount(name, q, field, true, ctx);
    } catch (KubeConversionException e) {
      if (!(e.getCause() instanceof ArithmeticException)) {
        throw e;
      }
      if (CLAMPED.size() < 10_000 && CLAMPED.add(ctx.key() + " " + field)) {
        LOG.log(System.Logger.Level.WARNING, ctx.kind() + " " + ctx.key() + ": " + field + ": quantity '" + text(q)
            + "' is beyond what Basalt can count; taken as more than any node has");
      }
      return MAX_REQUEST;
    }
  }

  private static final System.Logger LOG = System.getLogger(Conversion.class.getName());
  /** Fields already warned about, so a pod seen again on every update is one line. */
  private static final java.util.Set<String> CLAMPED = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private static long amount(String name, Quantity q, String field, boolean roundUp, Ctx ctx) {
    if (q == null || q.getNumber() == null) {
      throw ctx.fail(field, "missing quantity");
    }
    if (q.getNumber().signum() < 0) {
      throw ctx.fail(field, "negative quantity '" + text(q) + "'");
    }
    try {
      // The exact decimal, never expanded: Quantities bounds it by precision and scale first.
      return Quantities.toUnits(name, q.getNumber(), roundUp);
    } catch (ArithmeticException e) {
      throw ctx.fail(field, "quantity '" + text(q) + "' is out of range", e);
    } catch (IllegalArgumentException e) {
      throw ctx.fail(field, "'" + text(q) + "' is not a Kubernetes quantity", e);
    }
  }

  /** The quantity as a user wrote it, short, and without expanding a huge exponent into its digits. */
  private static String text(Quantity q) {
    java.math.BigDecimal n = q.getNumber();
    long digits = (long) n.precision() - n.scale();
    if (n.precision() <= 40 && digits <= 40 && digits >= -40) {
      try {
        return q.toSuffixedString();
      } catch (RuntimeException e) {
        // fall through to the number's own form
      }
    }
    String plain = n.toString();
    return plain.length() <= 60 ? plain : plain.substring(0, 30) + "...(" + plain.length() + " characters)";
  }

  public static String namespaceOf(V1ObjectMeta meta) {
    return meta == null || isBlank(meta.getNamespace()) ? DEFAULT_NAMESPACE : meta.getNamespace();
  }

  /** A copy without null keys; null values (a bare {@code key:} in YAML) become empty strings. */
  public static Map<String, String> strings(Map<String, String> in) {
    if (in == null || in.isEmpty()) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    in.forEach((k, v) -> {
      if (k != null) {
        out.put(k, v == null ? "" : v);
      }
    });
    return out;
  }

  public static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }

  public static boolean isBlank(String s) {
    return s == null || s.isEmpty();
  }

  public static String emptyToNull(String s) {
    return isBlank(s) ? null : s;
  }

  /** Names the object being converted, for error messages. */
  public record Ctx(String kind, String key) {
    /** The context of a namespaced object, keyed {@code namespace/name}; fails when it has no name. */
    public static Ctx namespaced(String kind, V1ObjectMeta meta) {
      return named(kind, namespaceOf(meta) + "/", meta);
    }

    /** The context of a cluster-scoped object, keyed by its name; fails when it has none. */
    public static Ctx clusterScoped(String kind, V1ObjectMeta meta) {
      return named(kind, "", meta);
    }

    private static Ctx named(String kind, String keyPrefix, V1ObjectMeta meta) {
      String name = meta == null ? null : meta.getName();
      Ctx ctx = new Ctx(kind, keyPrefix + (isBlank(name) ? "<unnamed>" : name));
      if (isBlank(name)) {
        throw ctx.fail("metadata.name", "missing");
      }
      return ctx;
    }

    public KubeConversionException fail(String field, String problem) {
      return new KubeConversionException(kind, key, field, problem);
    }

    public KubeConversionException fail(String field, String problem, Throwable cause) {
      return new KubeConversionException(kind, key, field, problem, cause);
    }
  }
}
