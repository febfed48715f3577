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
 * a budget before anything is built from it (hashing or printing such a value never ends). Scheduler configs are
 * read through {@link #load}; Kubernetes manifests compose each document through {@link #compose} with their own
 * {@link Limits} and build JSON from the checked graph.
 */
public final class BoundedYaml {
  /** A scheduler config is a few KB; a ConfigMap holds at most 1 MiB. */
  static final int MAX_CHARS = 256 * 1024;
  /** Values reached again through aliases, beyond those written out once. */
  static final int MAX_ALIAS_EXPANSION = 10_000;
  /** Nesting as expanded through aliases; a config needs about 8. */
  static final int MAX_DEPTH = 64;
  private static final Limits CONFIG = new Limits(MAX_CHARS, MAX_ALIAS_EXPANSION, MAX_DEPTH);

  /**
   * What one document may be: its code points, the values its aliases reach again beyond those written out once,
   * and its nesting once aliases are expanded.
   */
  public record Limits(int maxChars, int maxAliasExpansion, int maxDepth) {}

  /** A document's checked node graph (null when empty) and how many values its aliases repeat. */
  public record Composed(Node root, int repeated) {}

  /**
   * A document that is not YAML ({@link #syntax()}) or breaks a limit, with where: line and column are 1-based, 0
   * when unknown.
   */
  public static final class Problem extends Exception {
    private static final long serialVersionUID = 1L;
    private final int line;
    private final int column;
    private final boolean syntax;
    private final String detail;

    Problem(int line, int column, boolean syntax, String detail) {
      super((line > 0 ? "line " + line + (column > 0 ? ", column " + column : "") + ": " : "")
          + (syntax ? "not valid YAML: " : "") + detail);
      this.line = line;
      this.column = column;
      this.syntax = syntax;
      this.detail = detail;
    }

    public int line() {
      return line;
    }

    public int column() {
      return column;
    }

    /** True when the text is not YAML at all; false when it is, but breaks a limit or a rule of this reader. */
    public boolean syntax() {
      return syntax;
    }

    /** The problem without where it is. */
    public String detail() {
      return detail;
    }
  }

  private BoundedYaml() {}

  /** The document's value (null when empty); {@code source} starts every message. */
  static Object load(String text, String source) throws ConfigException {
    if (text.length() > MAX_CHARS) {
      throw new ConfigException(source + ": " + text.length() + " characters, more than the " + MAX_CHARS
          + " a scheduler config may have");
    }
    try {
      Node root = compose(text, CONFIG, 0).root();
      return root == null ? null : new Builder(options(CONFIG)).build(root);
    } catch (Problem p) {
      throw new ConfigException(source + ": " + p.getMessage());
    } catch (MarkedYAMLException e) {
      throw new ConfigException(source + ": " + problem(e, 0).getMessage());
    } catch (YAMLException e) {
      throw new ConfigException(source + ": " + problem(e).getMessage());
    }
  }

  /**
   * The checked node graph of one YAML document within {@code limits}.
   *
   * @param firstLine how many lines precede {@code text} in its source (0-based), added to every line reported
   * @throws Problem naming the line and column of what is wrong
   */
  public static Composed compose(String text, Limits limits, int firstLine) throws Problem {
    try {
      Node root = new Yaml(options(limits)).compose(new StringReader(text));
      if (root == null) {
        return new Composed(null, 0);
      }
      Walk walk = new Walk(limits, firstLine);
      walk.check(root);
      return new Composed(root, walk.repeated);
    } catch (MarkedYAMLException e) {
      throw problem(e, firstLine);
    } catch (ReaderException e) {
      throw new Problem(firstLine + lineOf(text, e.getPosition()), 0, true, "character "
          + String.format("U+%04X", e.getCodePoint()) + " is not allowed");
    } catch (YAMLException e) {
      throw problem(e);
    }
  }

  private static LoaderOptions options(Limits limits) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    options.setAllowRecursiveKeys(false);
    options.setCodePointLimit(limits.maxChars());
    options.setNestingDepthLimit(limits.maxDepth());
    // The walk's budget bounds what aliases expand to and names the line; SnakeYAML's count of aliases (50) would
    // fail without one, and says nothing about their size.
    options.setMaxAliasesForCollections(Integer.MAX_VALUE);
    return options;
  }

  private static Problem problem(MarkedYAMLException e, int firstLine) {
    Mark m = e.getProblemMark();
    return new Problem(m == null ? 0 : firstLine + m.getLine() + 1, m == null ? 0 : m.getColumn() + 1, true,
        Values.clip(e.getProblem(), 200) + context(e, firstLine));
  }

  private static Problem problem(YAMLException e) {
    return new Problem(0, 0, true, Values.clip(firstLine(e.getMessage()), 200));
  }

  private static String context(MarkedYAMLException e, int firstLine) {
    if (e.getContext() == null) {
      return "";
    }
    Mark m = e.getContextMark();
    String where = m == null ? "" : " at line " + (firstLine + m.getLine() + 1) + ", column " + (m.getColumn() + 1);
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
    private final Limits limits;
    private final int firstLine;
    private final Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Node> open = Collections.newSetFromMap(new IdentityHashMap<>());
    private int repeated;

    Walk(Limits limits, int firstLine) {
      this.limits = limits;
      this.firstLine = firstLine;
    }

    void check(Node node) throws Problem {
      visit(node, null, 0);
    }

    /** @param alias the outermost node on the path reached again, i.e. through an alias; null until there is one */
    private void visit(Node node, Node alias, int depth) throws Problem {
      Node expanding = alias;
      if (!seen.add(node)) {
        expanding = alias == null ? node : alias;
        if (++repeated > limits.maxAliasExpansion()) {
          throw fail(expanding, "aliases expand to more than " + limits.maxAliasExpansion() + " values ('*"
              + expanding.getAnchor() + "' anchored here, and the aliases inside it)");
        }
      }
      if (depth > limits.maxDepth()) {
        throw fail(node, "nested deeper than " + limits.maxDepth() + " levels once aliases are expanded");
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

    private Problem fail(Node node, String problem) {
      Mark m = node.getStartMark();
      return new Problem(m == null ? 0 : firstLine + m.getLine() + 1, m == null ? 0 : m.getColumn() + 1, false,
          problem);
    }
  }
}
