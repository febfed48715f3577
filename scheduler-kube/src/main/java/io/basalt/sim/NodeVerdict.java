package io.basalt.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/** One node's part in an explanation: "ok" and the scores each plugin gave, or the filter's reason. */
public final class NodeVerdict {
  private String filter = "ok";
  private final Map<String, Double> scores = new LinkedHashMap<>();

  public String filter() {
    return filter;
  }

  public Map<String, Double> scores() {
    return scores;
  }

  public double total() {
    double t = 0;
    for (double s : scores.values()) {
      t += s;
    }
    return t;
  }

  void reject(String reason) {
    this.filter = reason;
  }

  void addScore(String plugin, double score) {
    scores.merge(plugin, score, Double::sum);
  }
}
