package io.basalt.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.basalt.config.BoundedYaml;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The document half of {@link ManifestReader}: YAML or JSON text to one JSON tree per document, each labelled
 * {@code source doc N}, knowing nothing of kinds. Malformed text throws a {@link ManifestException} naming the source,
 * the document and, for YAML, the line; a YAML document that is only comments is not counted. YAML is composed by
 * {@link BoundedYaml} (as the scheduler config is), so no document can hang or exhaust memory through aliases.
 */
final class ManifestDocuments {
  /**
   * Per document: the code points SnakeYAML reads, values repeated through aliases (a fixture's anchors for a pod
   * template repeat a few thousand), and nesting (Kubernetes objects nest about 15 deep).
   */
  static final BoundedYaml.Limits LIMITS = new BoundedYaml.Limits(256 * 1024 * 1024, 100_000, 100);
  /** Values repeated through aliases in all of one file's documents: a few KB of anchors can stand for millions. */
  static final long MAX_ALIAS_EXPANSION_PER_SOURCE = 1_000_000;
  private static final Pattern SEPARATOR = Pattern.compile("^---(?:\\s+(.*))?$");
  private static final Pattern DOCUMENT_END = Pattern.compile("^\\.\\.\\.(?:\\s.*)?$");

  private ManifestDocuments() {}

  /** Hands each document of YAML {@code text} (null for an empty one) and its label to {@code sink}, in order. */
  static void yaml(String source, String text, BiConsumer<JsonElement, String> sink) {
    int doc = 0;
    long repeated = 0;
    for (Chunk c : split(text)) {
      if (c.isBlank()) {
        continue;
      }
      doc++;
      BoundedYaml.Composed composed;
      try {
        composed = BoundedYaml.compose(c.text, LIMITS, c.firstLine);
      } catch (BoundedYaml.Problem p) {
        throw malformed(source, doc, p);
      }
      repeated += composed.repeated();
      if (repeated > MAX_ALIAS_EXPANSION_PER_SOURCE) {
        throw new ManifestException(source, doc, "malformed YAML: aliases expand to more than "
            + MAX_ALIAS_EXPANSION_PER_SOURCE + " values in this source's documents together", null);
      }
      JsonElement json;
      try {
        json = KubeJson.toJson(composed.root());
      } catch (KubeJson.YamlShapeException e) {
        String at = e.line < 0 ? "" : " at line " + (c.firstLine + e.line + 1);
        throw new ManifestException(source, doc, "malformed YAML" + at + ": " + e.getMessage(), e);
      }
      sink.accept(json, source + " doc " + doc);
    }
  }

  /** Hands each value of a JSON stream (one or more concatenated values, as kubectl takes) to {@code sink}. */
  static void json(String source, String text, BiConsumer<JsonElement, String> sink) {
    JsonReader reader = new JsonReader(new StringReader(text));
    reader.setStrictness(Strictness.LENIENT); // a stream of several objects, as kubectl accepts
    int doc = 0;
    try {
      while (reader.peek() != JsonToken.END_DOCUMENT) {
        doc++;
        sink.accept(JsonParser.parseReader(reader), source + " doc " + doc);
      }
    } catch (IOException | JsonParseException e) {
      throw new ManifestException(source, Math.max(doc, 1), "malformed JSON: " + ParserWords.problem(e), e);
    }
  }

  private static ManifestException malformed(String source, int doc, BoundedYaml.Problem p) {
    StringBuilder m = new StringBuilder("malformed YAML");
    if (p.line() > 0) {
      m.append(" at line ").append(p.line());
      if (p.column() > 0) {
        m.append(", column ").append(p.column());
      }
    }
    return new ManifestException(source, doc, m.append(": ").append(p.detail()).toString(), p);
  }

  /** One {@code ---}-separated document and the 0-based line of the source it starts on. */
  record Chunk(String text, int firstLine) {
    boolean isBlank() {
      for (String line : text.split("\n", -1)) {
        String t = line.strip();
        if (!t.isEmpty() && !t.startsWith("#")) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Splits as kubectl does: a line starting with {@code ---} (then nothing, spaces or a comment) separates documents;
   * a {@code ...} line ends one. Splitting here, not in the YAML parser, pins an error to its own document.
   */
  static List<Chunk> split(String text) {
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    String[] lines = text.split("\n", -1);
    List<Chunk> chunks = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int start = 0;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
      Matcher sep = SEPARATOR.matcher(line);
      if (sep.matches() || DOCUMENT_END.matcher(line).matches()) {
        chunks.add(new Chunk(current.toString(), start));
        current = new StringBuilder();
        start = i + 1;
        String rest = sep.matches() ? sep.group(1) : null;
        if (rest != null && !rest.isBlank() && !rest.strip().startsWith("#")) {
          current.append(rest).append('\n'); // "--- {kind: ...}": content on the separator line
          start = i;
        }
        continue;
      }
      current.append(line).append('\n');
    }
    chunks.add(new Chunk(current.toString(), start));
    return chunks;
  }
}
