package io.basalt.dra;

import java.util.List;

/**
 * A claim's {@code constraints[].matchAttribute}: every device allocated for {@code requests} (all of the claim's when
 * empty) has the attribute, with one value.
 *
 * @param matchAttribute a fully qualified attribute name
 */
public record MatchConstraint(List<String> requests, String matchAttribute) {
  public MatchConstraint {
    requests = List.copyOf(requests);
  }

  /** Whether the constraint covers the request named {@code request} (a sub-request's parent name counts). */
  boolean covers(String request) {
    if (requests.isEmpty()) {
      return true;
    }
    int slash = request.indexOf('/');
    return requests.contains(request) || slash >= 0 && requests.contains(request.substring(0, slash));
  }
}
