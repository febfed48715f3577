package io.basalt.dra;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.basalt.model.Quantities;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DRA device selectors: CEL expressions over one {@code device} ({@code device.driver},
 * {@code device.attributes["domain"].name}, {@code device.capacity["domain"].name}), compiled once per expression
 * text (with the Google CEL library) and evaluated per device. An expression that does not compile, does not yield a
 * bool, or fails while evaluated (a missing attribute, a comprehension over its iteration limit) makes the device
 * not match, with the error as the reason: a tenant's bad selector never stops a cycle.
 *
 * <p>What differs from the API server's CEL environment: capacities are integers in base units (rounded up), and
 * {@code quantity("40Gi")} is one too, so {@code device.capacity[d].memory.compareTo(quantity("40Gi")) >= 0},
 * {@code isGreaterThan}, {@code isLessThan} and plain {@code >=} all work; version attributes are strings (no
 * {@code semver()}). Work per evaluation is bounded by {@link #MAX_ITERATIONS} comprehension steps, and expressions
 * by {@link #MAX_LENGTH} characters, in place of the API server's cost estimate.
 */
public final class Selectors {
  /** The longest expression compiled (the API server's limit on a selector). */
  static final int MAX_LENGTH = 10 * 1024;
  /** The most comprehension iterations one evaluation may take. */
  static final int MAX_ITERATIONS = 100_000;
  private static final int MAX_CACHED = 4096;

  /** Whether a device passed a selector, and the error when the selector could not say. */
  public record Result(boolean matches, String error) {
    static final Result MATCH = new Result(true, null);
    static final Result NO_MATCH = new Result(false, null);
  }

  private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
      .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
      .addVar("device", MapType.create(SimpleType.STRING, SimpleType.DYN))
      .addFunctionDeclarations(
          CelFunctionDecl.newFunctionDeclaration("quantity",
              CelOverloadDecl.newGlobalOverload("quantity_string", SimpleType.INT, SimpleType.STRING)),
          CelFunctionDecl.newFunctionDeclaration("compareTo",
              CelOverloadDecl.newMemberOverload("int_compareTo_int", SimpleType.INT, SimpleType.INT,
                  SimpleType.INT)),
          CelFunctionDecl.newFunctionDeclaration("isGreaterThan",
              CelOverloadDecl.newMemberOverload("int_isGreaterThan_int", SimpleType.BOOL, SimpleType.INT,
                  SimpleType.INT)),
          CelFunctionDecl.newFunctionDeclaration("isLessThan",
              CelOverloadDecl.newMemberOverload("int_isLessThan_int", SimpleType.BOOL, SimpleType.INT,
                  SimpleType.INT)),
          CelFunctionDecl.newFunctionDeclaration("asInteger",
              CelOverloadDecl.newMemberOverload("int_asInteger", SimpleType.INT, SimpleType.INT)))
      .build();

  private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
      .setOptions(CelOptions.current().comprehensionMaxIterations(MAX_ITERATIONS).build())
      .addFunctionBindings(
          CelFunctionBinding.from("quantity_string", String.class, Selectors::quantity),
          CelFunctionBinding.from("int_compareTo_int", Long.class, Long.class, (a, b) -> (long) Long.compare(a, b)),
          CelFunctionBinding.from("int_isGreaterThan_int", Long.class, Long.class, (a, b) -> a > b),
          CelFunctionBinding.from("int_isLessThan_int", Long.class, Long.class, (a, b) -> a < b),
          CelFunctionBinding.from("int_asInteger", Long.class, a -> a))
      .build();

  /** A compiled expression, or why it could not be. */
  private record Compiled(CelRuntime.Program program, String error) {}

  private static final Map<String, Compiled> CACHE = new ConcurrentHashMap<>();

  private Selectors() {}

  /** Whether {@code device} (see {@link #input}) passes {@code expression}. */
  public static Result test(String expression, Map<String, Object> device) {
    Compiled c = compiled(expression);
    if (c.error() != null) {
      return new Result(false, c.error());
    }
    try {
      Object v = c.program().eval(Map.of("device", device));
      if (v instanceof Boolean b) {
        return b ? Result.MATCH : Result.NO_MATCH;
      }
      return new Result(false, "CEL: expression must yield a bool, not " + v);
    } catch (CelEvaluationException | RuntimeException e) {
      return new Result(false, "CEL runtime error: " + firstLine(e.getMessage()));
    }
  }

  /** Why {@code expression} cannot be used, or null when it compiles to a bool. */
  public static String compileError(String expression) {
    return compiled(expression).error();
  }

  private static Compiled compiled(String expression) {
    Compiled c = CACHE.get(expression);
    if (c == null) {
      c = compile(expression);
      if (CACHE.size() >= MAX_CACHED) {
        CACHE.clear();
      }
      CACHE.put(expression, c);
    }
    return c;
  }

  private static Compiled compile(String expression) {
    if (expression.length() > MAX_LENGTH) {
      return new Compiled(null, "CEL: expression longer than " + MAX_LENGTH + " characters");
    }
    try {
      CelAbstractSyntaxTree ast = COMPILER.compile(expression).getAst();
      if (ast.getResultType() != SimpleType.BOOL && ast.getResultType() != SimpleType.DYN) {
        return new Compiled(null, "CEL: expression must yield a bool, not " + ast.getResultType().name());
      }
      return new Compiled(RUNTIME.createProgram(ast), null);
    } catch (CelValidationException | CelEvaluationException | RuntimeException e) {
      return new Compiled(null, "CEL compile error: " + firstLine(e.getMessage()));
    }
  }

  /**
   * The {@code device} variable for a device of {@code driver}: its attributes and capacities grouped by domain, as
   * the API server's environment presents them.
   */
  public static Map<String, Object> input(String driver, Device device) {
    Map<String, Map<String, Object>> attributes = new HashMap<>();
    device.attributes().forEach((k, v) -> byDomain(attributes, k).put(k.substring(k.indexOf('/') + 1), v));
    Map<String, Map<String, Object>> capacity = new HashMap<>();
    device.capacity().forEach((k, v) -> byDomain(capacity, k).put(k.substring(k.indexOf('/') + 1), v));
    return Map.of("driver", driver, "attributes", attributes, "capacity", capacity);
  }

  private static Map<String, Object> byDomain(Map<String, Map<String, Object>> all, String qualified) {
    return all.computeIfAbsent(qualified.substring(0, Math.max(0, qualified.indexOf('/'))), d -> new HashMap<>());
  }

  private static long quantity(String text) {
    BigDecimal v = Quantities.parseDecimal("quantity", text);
    return v.setScale(0, RoundingMode.CEILING).longValueExact();
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "(no message)";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
