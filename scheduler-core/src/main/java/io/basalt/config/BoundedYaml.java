package io.basalt.config;

import java.io.StringReader;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.reader.ReaderException;

/**
 * Reads one YAML document so that no input can crash, hang or exhaust memory: the document is bounded in size,
 * nesting and what its aliases expand to, an alias may not contain itself, mapping keys must be plain values and
 * may not repeat, and every error names its line and column. SnakeYAML's own alias limit counts aliases, not what
 * they expand to: 48 aliases of 6 each stand for 1.7 million values, which is why the composed graph is walked with
 * a budget before anything is built from it (hashing or printing such a value never ends).
 */
final class BoundedYaml {
  /** A scheduler config is a few KB; a ConfigMap holds at most 1 MiB. */
  static final int MAX_CHARS = 256 * 1024;
  /** Values reached again through aliases, beyond those written out once. */
  static final int MAX_ALIAS_EXPANSION = 10_000;
  /** Nesting as expanded through aliases; a config needs about 8. */
  static final int MAX_DEPTH = 64;

  private BoundedYaml() {}

  /** The document's value (null when empty); {@code source} starts every message. */
  static Object load(String text, String source) throws ConfigException {
    if (text.length() > MAX_CHARS) {
      throw new ConfigException(source + ": " + text.length() + " characters, more than the " + MAX_CHARS
          + " a scheduler config may have");
    }
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    options.setAllowRecursiveKeys(false);
    options.setCodePointLimit(MAX_CHARS);
    options.setNestingDepthLimit(MAX_DEPTH);
    Builder builder = new Builder(options);
    try {
      Node root = new Yaml(options).compose(new StringReader(text));
      if (root == null) {
        return null;
      }
      new Walk(source).check(root);
      return builder.build(root);
    } catch (MarkedYAMLException e) {
      throw new ConfigException(source + ": " + at(e.getProblemMark()) + "not valid YAML: "
          + Values.clip(e.getProblem(), 200) + context(e));
    } catch (ReaderException e) {
      throw new ConfigException(source + ": line " + lineOf(text, e.getPosition()) + ": not valid YAML: character "
          + String.format("U+%04X", e.getCodePoint()) + " is not allowed");
    } catch (YAMLException e) {
      throw new ConfigException(source + ": not valid YAML: " + Values.clip(firstLine(e.getMessage()), 200));
    }
  }

  /** {@code "line 3, column 5: "} (1-based), or nothing without a mark. */
  static String at(Mark mark) {
    return mark == null ? "" : "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ": ";
  }

  private static String context(MarkedYAMLException e) {
    if (e.getContext() == null) {
      return "";
    }
    Mark m = e.getContextMark();
    String where = m == null ? "" : " at line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1);
    return " (" + Values.clip(e.getContext(), 200) + where + ")";
  }

  /** The 1-based line holding code point {@code position}. */
  private static int lineOf(String text, int position) {
    int line = 1;
    int end = text.offsetByCodePoints(0, Math.min(position, text.codePointCount(0, text.length())));
    for (int i = 0; i < end; i++) {
      line += text.charAt(i) == '\n' ? 1 : 0;
    }
    return line;
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.strip().split("\n", 2)[0];
  }

  /** Builds values from an already checked node graph. */
  private static final class Builder extends SafeConstructor {
    Builder(LoaderOptions options) {
      super(options);
      setAllowDuplicateKeys(false); // Yaml copies this from its options; a bare constructor does not
    }

    Object build(Node root) {
      return constructDocument(root);
    }

    /** A value its tag cannot hold ({@code !!int x}) fails inside SnakeYAML without a mark; this gives it one. */
    @Override
    protected Object constructObjectNoCheck(Node node) {
      try {
        return super.constructObjectNoCheck(node);
      } catch (YAMLException e) {
        throw e;
      } catch (RuntimeException e) {
        String value = node instanceof ScalarNode scalar ? "'" + Values.clip(scalar.getValue()) + "'" : "this value";
        throw new BadValue(value + " cannot be read as " + node.getTag().getValue()
            .replace("tag:yaml.org,2002:", "!!"), node.getStartMark());
      }
    }
  }

  /** A value that does not fit its tag, at its place. */
  private static final class BadValue extends MarkedYAMLException {
    private static final long serialVersionUID = 1L;

    BadValue(String problem, Mark mark) {
      super(null, null, problem, mark);
    }
  }

  /** Walks the composed graph as it would be expanded, within the budget, rejecting cycles and complex keys. */
  private static final class Walk {
    private final String source;
    private final Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Node> open = Collections.newSetFromMap(new IdentityHashMap<>());
    private int repeated;

    Walk(String source) {
      this.source = source;
    }

    void check(Node node) throws ConfigException {
      visit(node, null, 0);
    }

    /** @param alias the outermost node on the path reached again, i.e. through an alias; null until there is one */
    private void visit(Node node, Node alias, int depth) throws ConfigException {
      Node expanding = alias;
      if (!seen.add(node)) {
        expanding = alias == null ? node : alias;
        if (++repeated > MAX_ALIAS_EXPANSION) {
          throw fail(expanding, "aliases expand to more than " + MAX_ALIAS_EXPANSION + " values ('*"
              + expanding.getAnchor() + "' anchored here, and the aliases inside it)");
        }
      }
      if (depth > MAX_DEPTH) {
        throw fail(node, "nested deeper than " + MAX_DEPTH + " levels once aliases are expanded");
      }
      if (node instanceof ScalarNode) {
        return;
      }
      if (!open.add(node)) {
        throw fail(node, "alias '" + node.getAnchor() + "' refers to a value that contains it (recursive alias)");
      }
      if (node instanceof SequenceNode seq) {
        for (Node item : seq.getValue()) {
          visit(item, expanding, depth + 1);
        }
      } else if (node instanceof MappingNode map) {
        for (NodeTuple t : map.getValue()) {
          if (!(t.getKeyNode() instanceof ScalarNode)) {
            throw fail(t.getKeyNode(), "a key must be a plain value, not a list or mapping");
          }
          visit(t.getValueNode(), expanding, depth + 1);
        }
      }
      open.remove(node);
    }

    private ConfigException fail(Node node, String problem) {
      return new ConfigException(source + ": " + at(node.getStartMark()) + problem);
    }
  }
}
