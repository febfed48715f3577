package io.basalt.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A plugin's or action's {@code arguments}, read with typed getters. Like Volcano, numbers may also be written as
 * strings ({@code "10"}). A value of the wrong type is collected as a problem naming the key and where it is, and
 * the default is used, so a plugin constructor reads everything and the caller reports all problems at once.
 */
public final class Arguments {
  private final Map<String, Object> values;
  private final String location;
  private final List<String> problems = new ArrayList<>();
  private final Set<String> read = new HashSet<>();

  public Arguments(Map<String, Object> values, String location) {
    this.values = values;
    this.location = location;
  }

  public static Arguments empty() {
    return new Arguments(Map.of(), "");
  }

  public boolean has(String key) {
    return values.containsKey(key);
  }

  public Set<String> keys() {
    return Collections.unmodifiableSet(values.keySet());
  }

  /** A finite number: {@code .nan}, {@code .inf} and values beyond a double's range (1e400) are problems. */
  public double getDouble(String key, double defaultValue) {
    read.add(key);
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    double d;
    if (v instanceof Number n) {
      d = n.doubleValue();
    } else if (v instanceof String s) {
      try {
        d = Double.parseDouble(s.trim());
      } catch (NumberFormatException e) {
        problem(key, "must be a number, got " + Values.describe(v));
        return defaultValue;
      }
    } else {
      problem(key, "must be a number, got " + Values.describe(v));
      return defaultValue;
    }
    if (!Double.isFinite(d)) {
      problem(key, Double.isNaN(d) ? "must be a number, got " + Values.describe(v)
          : "must be a finite number, got " + Values.describe(v) + " (infinite, or beyond 1.7e308)");
      return defaultValue;
    }
    return d;
  }

  /** A whole number within {@code int}'s range: 2^31 is a problem, never silently int-max. */
  public int getInt(String key, int defaultValue) {
    int before = problems.size();
    double d = getDouble(key, defaultValue);
    if (problems.size() > before) {
      return defaultValue;
    }
    if (d != Math.rint(d)) {
      problem(key, "must be a whole number, got " + Values.describe(values.get(key)));
      return defaultValue;
    }
    if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
      problem(key, "must be between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE + ", got "
          + Values.describe(values.get(key)));
      return defaultValue;
    }
    return (int) d;
  }

  /** A number of at least {@code min}; anything else is a problem and leaves {@code defaultValue}. */
  public double getDouble(String key, double defaultValue, double min) {
    int before = problems.size();
    double d = getDouble(key, defaultValue);
    if (problems.size() > before) {
      return defaultValue;
    }
    if (d < min) {
      problem(key, (min == 0 ? "must not be negative" : "must be at least " + min) + ", got " + d);
      return defaultValue;
    }
    return d;
  }

  /** A whole number from {@code min} to {@code max}; anything else is a problem and leaves {@code defaultValue}. */
  public int getInt(String key, int defaultValue, int min, int max) {
    int before = problems.size();
    int i = getInt(key, defaultValue);
    if (problems.size() > before) {
      return defaultValue;
    }
    if (i < min || i > max) {
      problem(key, (max != Integer.MAX_VALUE ? "must be from " + min + " to " + max
          : min == 0 ? "must not be negative" : "must be at least " + min) + ", got " + i);
      return defaultValue;
    }
    return i;
  }

  /** A whole, non-negative weight; anything else is a problem and leaves {@code defaultValue}. */
  public int getWeight(String key, int defaultValue) {
    return getInt(key, defaultValue, 0, Integer.MAX_VALUE);
  }

  public boolean getBoolean(String key, boolean defaultValue) {
    read.add(key);
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof String s && (s.trim().equalsIgnoreCase("true") || s.trim().equalsIgnoreCase("false"))) {
      return Boolean.parseBoolean(s.trim());
    }
    problem(key, "must be true or false, got " + Values.describe(v));
    return defaultValue;
  }

  /** Text as written; numbers and booleans count as their text, lists, mappings and binary data are problems. */
  public String getString(String key, String defaultValue) {
    read.add(key);
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof String || v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    problem(key, "must be text, got " + Values.describe(v));
    return defaultValue;
  }

  /** Records a problem with {@code key}'s value, e.g. one outside its allowed range. */
  public void problem(String key, String message) {
    problems.add(location + ": argument '" + key + "' " + message);
  }

  /** Problems found while reading, in the order found. */
  public List<String> problems() {
    return List.copyOf(problems);
  }

  /** Keys nobody read: most likely typos. */
  public Set<String> unread() {
    Set<String> r = new TreeSet<>(values.keySet());
    r.removeAll(read);
    return r;
  }

  public String location() {
    return location;
  }
}
