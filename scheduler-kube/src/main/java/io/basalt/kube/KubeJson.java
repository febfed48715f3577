package io.basalt.kube;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonPrimitive;
import com.google.gson.TypeAdapter;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * YAML to JSON trees and a lenient Gson for client-java models.
 *
 * <p>Why not {@code io.kubernetes.client.util.Yaml.loadAs} or {@code JSON.getGson()}: both reject any field the
 * models do not know (a manifest written for a newer Kubernetes, a typo) and {@code JSON}'s also rejects a missing
 * required field (a container without a name) and fractional seconds other than exactly six digits. This reader
 * ignores unknown fields (reporting them as warnings, see {@link ManifestReader}), keeps every YAML number's exact
 * text (so {@code nvidia.com/gpu: 8}, {@code cpu: 1.5} and {@code 1e3} reach {@link Quantity} unchanged, never through
 * a double), keeps timestamps as text for an RFC 3339 parser, and names the field of a bad quantity or time.
 */
final class KubeJson {
  private static final int MAX_DEPTH = 200;

  /** A quantity as its suffixed text; resource lists read and write their values through it too. */
  private static final TextAdapter<Quantity> QUANTITY =
      new TextAdapter<>(KubeJson::quantity, Quantity::toSuffixedString, "a Kubernetes quantity");

  /**
   * client-java's reading of a quantity, but exact for {@code Ei}: client-java works the suffix's factor out in 16
   * digits ({@code MathContext.DECIMAL64}), and 2^60 has 19, so {@code 1Ei} would be 1152921504606847000 bytes
   * (found by ManifestQuantityFuzzTest). Every other factor (10^n, 2^10 to 2^50) it works out exactly.
   */
  static Quantity quantity(String text) {
    if (text.length() > io.basalt.model.Quantities.MAX_LENGTH) {
      // client-java takes seconds over a 100,000-digit number (ManifestQuantityFuzzTest); Basalt counts none so long
      throw new IllegalArgumentException("longer than " + io.basalt.model.Quantities.MAX_LENGTH + " characters");
    }
    Quantity q = new Quantity(text);
    if (text.endsWith("Ei")) {
      try {
        return new Quantity(io.basalt.model.Quantities.parseDecimal("memory", text), Quantity.Format.BINARY_SI);
      } catch (RuntimeException e) {
        return q; // what Basalt's own parser refuses (too long) is bounded later, as before
      }
    }
    return q;
  }

  /** A time as RFC 3339 text, fractional seconds optional (up to nanoseconds). */
  private static final TextAdapter<OffsetDateTime> TIME =
      new TextAdapter<>(t -> OffsetDateTime.parse(t, DateTimeFormatter.ISO_OFFSET_DATE_TIME),
          DateTimeFormatter.ISO_OFFSET_DATE_TIME::format, "an RFC 3339 time (e.g. 2024-01-01T00:00:00Z)");

  /** Gson with client-java's settings (managedFields dropped) but without its strict per-model validation. */
  static final Gson GSON = JSON.createGson()
      .registerTypeAdapter(Quantity.class, QUANTITY.nullSafe())
      .registerTypeAdapter(TypeToken.getParameterized(Map.class, String.class, Quantity.class).getType(),
          new ResourceListAdapter().nullSafe())
      .registerTypeAdapter(OffsetDateTime.class, TIME.nullSafe())
      .registerTypeAdapter(TypeToken.getParameterized(Map.class, String.class, String.class).getType(),
          new StringMapAdapter().nullSafe())
      .registerTypeAdapter(Integer.class, new IntegerAdapter(false).nullSafe())
      .registerTypeAdapter(Long.class, new IntegerAdapter(true).nullSafe())
      .create();

  private KubeJson() {}

  /** A value the target type cannot take, with the JSON path of the field ({@code $.spec.containers[0]...}). */
  static final class FieldException extends JsonParseException {
    private static final long serialVersionUID = 1L;
    final String path;
    final String problem;

    FieldException(String path, String problem) {
      super(path + ": " + problem);
      this.path = path;
      this.problem = problem;
    }

    /** The path without Gson's leading {@code $.}: {@code spec.containers[0].resources.requests.cpu}. */
    String field() {
      return path.startsWith("$.") ? path.substring(2) : path;
    }
  }

  /** A YAML document that is not valid as data: duplicate keys, bad merge keys, nesting too deep. */
  static final class YamlShapeException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int line;

    YamlShapeException(Node at, String message) {
      super(message);
      this.line = at == null || at.getStartMark() == null ? -1 : at.getStartMark().getLine();
    }
  }

  /**
   * Quantity and time fields, read from and written as text: a value that does not parse is an error naming the
   * field and what it should be. Registered {@link TypeAdapter#nullSafe() null-safe}, as are the adapters below.
   */
  private static final class TextAdapter<T> extends TypeAdapter<T> {
    private final Function<String, T> parse;
    private final Function<T, String> format;
    private final String expected;

    TextAdapter(Function<String, T> parse, Function<T, String> format, String expected) {
      this.parse = parse;
      this.format = format;
      this.expected = expected;
    }

    @Override
    public void write(JsonWriter out, T value) throws IOException {
      out.value(format.apply(value));
    }

    @Override
    public T read(JsonReader in) throws IOException {
      String path = in.getPath();
      return parse(path, in.nextString());
    }

    /** {@code text} (surrounding blanks ignored) as a value; {@code path} names the field when it is not one. */
    T parse(String path, String text) {
      try {
        return parse.apply(text.trim());
      } catch (RuntimeException e) {
        throw new FieldException(path, "'" + quoted(text) + "' is not " + expected);
      }
    }
  }

  /** A value as quoted in a message: a tenant's 100,000-digit number is cut, so an error stays one short line. */
  static String quoted(String text) {
    return text.length() <= 60 ? text : text.substring(0, 30) + "...(" + text.length() + " characters)";
  }

  /**
   * Resource lists ({@code Map<String, Quantity>}, every requests / limits / allocatable / capability field): read
   * here rather than through Gson's map adapter so a bad quantity's error names its resource
   * ({@code ...requests.cpu}); Gson's path loses map keys.
   */
  private static final class ResourceListAdapter extends TypeAdapter<Map<String, Quantity>> {
    @Override
    public void write(JsonWriter out, Map<String, Quantity> value) throws IOException {
      out.beginObject();
      for (Map.Entry<String, Quantity> e : value.entrySet()) {
        out.name(e.getKey());
        if (e.getValue() == null) {
          out.nullValue();
        } else {
          QUANTITY.write(out, e.getValue());
        }
      }
      out.endObject();
    }

    @Override
    public Map<String, Quantity> read(JsonReader in) throws IOException {
      String path = in.getPath();
      if (in.peek() != JsonToken.BEGIN_OBJECT) {
        throw new FieldException(path, "expected a map of resource name to quantity, got "
            + ParserWords.token(in.peek()));
      }
      Map<String, Quantity> out = new LinkedHashMap<>();
      in.beginObject();
      while (in.hasNext()) {
        String name = in.nextName();
        JsonToken t = in.peek();
        if (t == JsonToken.NULL) {
          in.nextNull();
          throw new FieldException(path + "." + name, "missing quantity");
        }
        if (t != JsonToken.STRING && t != JsonToken.NUMBER) {
          in.skipValue();
          throw new FieldException(path + "." + name, "expected a quantity, got " + ParserWords.token(t));
        }
        out.put(name, QUANTITY.parse(path + "." + name, in.nextString()));
      }
      in.endObject();
      return out;
    }
  }

  /**
   * Labels, annotations, node selectors: a mapping of text. Gson's own map adapter also takes a list of key-value
   * pairs, so a list of labels was reported as "Expected BEGIN_ARRAY but was STRING at metadata.labels[0]"; here it
   * is "metadata.labels: expected a mapping, got a list". Numbers and booleans are kept as their text, a null value is
   * left out (the models copy maps, which refuse nulls).
   */
  private static final class StringMapAdapter extends TypeAdapter<Map<String, String>> {
    @Override
    public void write(JsonWriter out, Map<String, String> value) throws IOException {
      out.beginObject();
      for (Map.Entry<String, String> e : value.entrySet()) {
        out.name(e.getKey()).value(e.getValue());
      }
      out.endObject();
    }

    @Override
    public Map<String, String> read(JsonReader in) throws IOException {
      String path = in.getPath();
      JsonToken first = in.peek();
      if (first != JsonToken.BEGIN_OBJECT) {
        in.skipValue();
        throw new FieldException(path, "expected a mapping, got " + ParserWords.token(first));
      }
      Map<String, String> out = new LinkedHashMap<>();
      in.beginObject();
      while (in.hasNext()) {
        String name = in.nextName();
        JsonToken t = in.peek();
        if (t == JsonToken.NULL) {
          in.nextNull();
        } else if (t == JsonToken.BOOLEAN) {
          out.put(name, Boolean.toString(in.nextBoolean()));
        } else if (t == JsonToken.STRING || t == JsonToken.NUMBER) {
          out.put(name, in.nextString());
        } else {
          in.skipValue();
          throw new FieldException(path + "." + name, "expected a string, got " + ParserWords.token(t));
        }
      }
      in.endObject();
      return out;
    }
  }

  /** Integer and Long fields: a fraction, an overflow or text is an error naming the field, never truncated. */
  private static final class IntegerAdapter extends TypeAdapter<Number> {
    private final boolean isLong;

    IntegerAdapter(boolean isLong) {
      this.isLong = isLong;
    }

    @Override
    public void write(JsonWriter out, Number value) throws IOException {
      out.value(value.longValue());
    }

    @Override
    public Number read(JsonReader in) throws IOException {
      JsonToken t = in.peek();
      String path = in.getPath();
      if (t != JsonToken.NUMBER && t != JsonToken.STRING) {
        in.skipValue();
        throw new FieldException(path, "expected an integer, got " + ParserWords.token(t));
      }
      String text = in.nextString();
      try {
        BigDecimal v = new BigDecimal(text.trim());
        return isLong ? (Number) v.longValueExact() : (Number) v.intValueExact();
      } catch (NumberFormatException | ArithmeticException e) {
        throw new FieldException(path, "'" + quoted(text) + "' is not a " + (isLong ? "64" : "32") + "-bit integer");
      }
    }
  }

  /**
   * A YAML number that keeps its text: {@link #toString()} is what the manifest said (Quantity parses that), the
   * numeric views are exact, and an integer view of a fraction fails instead of truncating.
   */
  static final class YamlNumber extends Number {
    private static final long serialVersionUID = 1L;
    private final String text;
    private final BigDecimal value;

    YamlNumber(String text, BigDecimal value) {
      this.text = text;
      this.value = value;
    }

    @Override
    public int intValue() {
      try {
        return value.intValueExact();
      } catch (ArithmeticException e) {
        throw new NumberFormatException("'" + text + "' is not a 32-bit integer");
      }
    }

    @Override
    public long longValue() {
      try {
        return value.longValueExact();
      } catch (ArithmeticException e) {
        throw new NumberFormatException("'" + text + "' is not a 64-bit integer");
      }
    }

    @Override
    public float floatValue() {
      return value.floatValue();
    }

    @Override
    public double doubleValue() {
      return value.doubleValue();
    }

    @Override
    public String toString() {
      return text;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof YamlNumber other && text.equals(other.text);
    }

    @Override
    public int hashCode() {
      return text.hashCode();
    }
  }

  /** Converts a composed YAML node (null for an empty document) to a JSON tree, YAML 1.1 scalars resolved. */
  static JsonElement toJson(Node node) {
    return toJson(node, 0);
  }

  private static JsonElement toJson(Node node, int depth) {
    if (node == null) {
      return JsonNull.INSTANCE;
    }
    if (depth > MAX_DEPTH) {
      throw new YamlShapeException(node, "nesting deeper than " + MAX_DEPTH + " levels (a recursive alias?)");
    }
    if (node instanceof ScalarNode s) {
      return scalar(s);
    }
    if (node instanceof SequenceNode seq) {
      JsonArray a = new JsonArray();
      for (Node item : seq.getValue()) {
        a.add(toJson(item, depth + 1));
      }
      return a;
    }
    MappingNode map = (MappingNode) node;
    JsonObject o = new JsonObject();
    List<Node> merges = new ArrayList<>();
    for (NodeTuple t : map.getValue()) {
      Node k = t.getKeyNode();
      if (!(k instanceof ScalarNode key)) {
        throw new YamlShapeException(k, "a mapping key must be a plain value");
      }
      if (Tag.MERGE.equals(key.getTag())) {
        merges.add(t.getValueNode());
        continue;
      }
      if (o.has(key.getValue())) {
        throw new YamlShapeException(k, "duplicate key '" + key.getValue() + "'");
      }
      o.add(key.getValue(), toJson(t.getValueNode(), depth + 1));
    }
    // "<<: *base" merge keys: explicit keys win, earlier merged maps win over later ones.
    for (Node m : merges) {
      List<Node> sources = m instanceof SequenceNode seq ? seq.getValue() : List.of(m);
      for (Node source : sources) {
        JsonElement merged = toJson(source, depth + 1);
        if (!merged.isJsonObject()) {
          throw new YamlShapeException(source, "a merge key '<<' needs a mapping");
        }
        merged.getAsJsonObject().entrySet().forEach(e -> {
          if (!o.has(e.getKey())) {
            o.add(e.getKey(), e.getValue());
          }
        });
      }
    }
    return o;
  }

  private static JsonElement scalar(ScalarNode s) {
    String text = s.getValue();
    Tag tag = s.getTag();
    if (Tag.NULL.equals(tag)) {
      return JsonNull.INSTANCE;
    }
    if (Tag.BOOL.equals(tag)) {
      String t = text.toLowerCase(Locale.ROOT);
      return new JsonPrimitive(t.equals("true") || t.equals("yes") || t.equals("on") || t.equals("y"));
    }
    if (Tag.INT.equals(tag) || Tag.FLOAT.equals(tag)) {
      JsonPrimitive n = number(text, Tag.INT.equals(tag));
      if (n != null) {
        return n;
      }
    }
    return new JsonPrimitive(text);
  }

  /**
   * A YAML int or float as an exact number, or null (then kept as text: .inf, .nan, 1:30 sexagesimal). Leading zeros
   * are decimal ({@code 010} is ten), as most people mean; YAML 1.1 would read octal.
   */
  private static JsonPrimitive number(String text, boolean integer) {
    String t = text.replace("_", "");
    try {
      return new JsonPrimitive(new YamlNumber(t, new BigDecimal(t)));
    } catch (NumberFormatException e) {
      // not a plain decimal: maybe 0x1F, 0b101 or 0o17, with a sign
    }
    if (!integer) {
      return null;
    }
    boolean negative = t.startsWith("-");
    String digits = t.startsWith("-") || t.startsWith("+") ? t.substring(1) : t;
    int radix;
    if (digits.startsWith("0x") || digits.startsWith("0X")) {
      radix = 16;
      digits = digits.substring(2);
    } else if (digits.startsWith("0b") || digits.startsWith("0B")) {
      radix = 2;
      digits = digits.substring(2);
    } else if (digits.startsWith("0o") || digits.startsWith("0O")) {
      radix = 8;
      digits = digits.substring(2);
    } else {
      return null;
    }
    try {
      BigInteger v = new BigInteger(digits, radix);
      v = negative ? v.negate() : v;
      return new JsonPrimitive(new YamlNumber(v.toString(), new BigDecimal(v)));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The string at {@code key} of {@code o}, or null when absent or not a string. */
  static String string(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
  }
}
