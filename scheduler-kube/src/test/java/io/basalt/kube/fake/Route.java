package io.basalt.kube.fake;

import java.util.Arrays;
import java.util.Optional;

/**
 * A resource request path split the way the apiserver's RequestInfoFactory does:
 * {@code /api/v1[/namespaces/NS]/PLURAL[/NAME[/SUBRESOURCE]]} and the same under {@code /apis/GROUP/VERSION}.
 * The core {@code namespaces} kind is itself cluster-scoped ({@code /api/v1/namespaces/NAME/status}).
 *
 * @param namespace   "" for cluster-scoped kinds and all-namespace lists and watches
 * @param name        null for the collection
 * @param subresource null for the object itself; "bindings" marks the legacy {@code namespaces/NS/bindings} POST
 */
record Route(ResourceType type, String namespace, String name, String subresource) {

  /** The route, or empty when no served kind matches (a 404 "could not find the requested resource"). */
  static Optional<Route> parse(String path) {
    String[] seg = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toArray(String[]::new);
    String group;
    String version;
    int restAt;
    if (seg.length >= 2 && seg[0].equals("api")) {
      group = "";
      version = seg[1];
      restAt = 2;
    } else if (seg.length >= 3 && seg[0].equals("apis")) {
      group = seg[1];
      version = seg[2];
      restAt = 3;
    } else {
      return Optional.empty();
    }
    String[] rest = Arrays.copyOfRange(seg, restAt, seg.length);
    if (rest.length == 0) {
      return Optional.empty();
    }
    if (rest[0].equals("namespaces") && rest.length >= 3) {
      if (group.isEmpty() && rest[2].equals("bindings") && rest.length == 3) {
        return Optional.of(new Route(Resources.PODS, rest[1], null, "bindings"));
      }
      Optional<ResourceType> scoped = Resources.find(group, version, rest[2]).filter(ResourceType::namespaced);
      if (scoped.isPresent()) {
        if (rest.length > 5) {
          return Optional.empty();
        }
        return Optional.of(new Route(scoped.get(), rest[1], at(rest, 3), at(rest, 4)));
      }
    }
    Optional<ResourceType> type = Resources.find(group, version, rest[0]);
    if (type.isEmpty() || rest.length > 3 || (type.get().namespaced() && rest.length > 1)) {
      return Optional.empty();
    }
    return Optional.of(new Route(type.get(), "", at(rest, 1), at(rest, 2)));
  }

  private static String at(String[] a, int i) {
    return i < a.length ? a[i] : null;
  }
}
