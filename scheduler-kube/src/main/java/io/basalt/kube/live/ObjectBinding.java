package io.basalt.kube.live;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonPrimitive;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How the informers build objects from JSON: Gson's plain field binding rather than client-java's adapters (which
 * re-read every nested object as a tree to validate it), with repeated strings, quantities and timestamps shared
 * across objects. {@link LeanObjects#reader} adds what a lean object skips.
 */
final class ObjectBinding {
  private ObjectBinding() {
  }

  /**
   * Field binding, with client-java's adapters for the JDK types its models hold (Quantity and IntOrString carry
   * their own).
   */
  static final Gson OBJECTS = new GsonBuilder()
      .registerTypeAdapter(String.class, new SharedStrings())
      .registerTypeAdapter(Quantity.class, new SharedValues<>(new Quantity.QuantityAdapter()))
      .registerTypeAdapter(OffsetDateTime.class, new SharedValues<>(new JSON.OffsetDateTimeTypeAdapter()))
      .registerTypeAdapter(byte[].class, new JSON.ByteArrayAdapter())
      .create();

  /**
   * Strings read once per value, not once per object: label keys and values, images, resource names and the like
   * repeat across thousands of pods, and the stores would otherwise hold a copy of each per pod.
   */
  private static final class SharedStrings extends TypeAdapter<String> {
    @Override
    public String read(JsonReader in) throws IOException {
      if (in.peek() == JsonToken.NULL) {
        in.nextNull();
        return null;
      }
      String s = in.peek() == JsonToken.BOOLEAN ? Boolean.toString(in.nextBoolean()) : in.nextString();
      return s.length() <= 256 ? s.intern() : s;
    }

    @Override
    public void write(JsonWriter out, String value) throws IOException {
      out.value(value);
    }
  }

  /**
   * Immutable values parsed once per distinct text: thousands of pods ask for the same few quantities ("4", "32Gi")
   * and carry timestamps of the same seconds, and client-java parses each afresh (a quantity through regular
   * expressions). Holds at most {@value #MAX_SHARED} texts; when full it starts again.
   */
  private static final class SharedValues<V> extends TypeAdapter<V> {
    private final TypeAdapter<V> parser;
    private final Map<String, V> seen = new ConcurrentHashMap<>();

    SharedValues(TypeAdapter<V> parser) {
      this.parser = parser;
    }

    @Override
    public V read(JsonReader in) throws IOException {
      if (in.peek() != JsonToken.STRING) {
        return parser.read(in);
      }
      String text = in.nextString();
      V value = seen.get(text);
      if (value == null) {
        value = parser.fromJsonTree(new JsonPrimitive(text));
        if (seen.size() >= MAX_SHARED) {
          seen.clear();
        }
        seen.put(text, value);
      }
      return value;
    }

    @Override
    public void write(JsonWriter out, V value) throws IOException {
      parser.write(out, value);
    }
  }

  private static final int MAX_SHARED = 4096;
}
