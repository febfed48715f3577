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

  public double getDouble(String key, double defaultValue) {
    read.add(key);
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    try {
      return Double.parseDouble(v.toString().trim());
    } catch (NumberFormatException e) {
      problem(key, "must be a number, got '" + v + "'");
      return defaultValue;
    }
  }

  public int getInt(String key, int defaultValue) {
    double d = getDouble(key, defaultValue);
    if (d != Math.rint(d)) {
      problem(key, "must be a whole number, got '" + values.get(key) + "'");
      return defaultValue;
    }
    return (int) d;
  }

  /** A whole, non-negative weight; anything else is a problem and leaves {@code defaultValue}. */
  public int getWeight(String key, int defaultValue) {
    int w = getInt(key, defaultValue);
    if (w < 0) {
      problem(key, "must not be negative, got " + w);
      return defaultValue;
    }
    return w;
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
    String s = v.toString().trim();
    if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(s);
    }
    problem(key, "must be true or false, got '" + v + "'");
    return defaultValue;
  }

  public String getString(String key, String defaultValue) {
    read.add(key);
    Object v = values.get(key);
    return v == null ? defaultValue : v.toString();
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
