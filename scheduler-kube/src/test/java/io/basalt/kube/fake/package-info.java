/**
 * An in-process fake Kubernetes API server for end-to-end tests of Basalt's live mode, with no Docker, kind or
 * kube-apiserver: {@link io.basalt.kube.fake.FakeApiServer} on the JDK's HTTP server at 127.0.0.1 and an ephemeral
 * port. It ships to other modules in scheduler-core's test-jar and needs only client-java (ApiClient, Gson, OkHttp).
 *
 * <h2>Use</h2>
 * <pre>{@code
 * try (FakeApiServer server = FakeApiServer.start()) {           // or FakeApiServer.builder()....start()
 *   ApiClient client = server.apiClient();                       // base path server.baseUrl(), no read timeout
 *   server.seed(new V1Node().metadata(new V1ObjectMeta().name("n1")).status(...));  // status kept as given
 *   server.seed("{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",...}");
 *   ... run the code under test against client ...
 *   server.mergePatch(Resources.PODS, "ml", "p1", "{\"status\":{\"phase\":\"Running\"}}");  // act as a kubelet
 *   server.faults().failNext(1, 500, "POST", ".*\\/binding");     // also throttleNext (429), latency, delays
 *   server.dropWatches();                                        // broken connections; closeWatches(): clean end
 *   try (AutoCloseable soak = server.soak(new FaultPlan(seed, FaultPlan.Mix.hardeningIssue()))) { ... }
 *   server.bindLedger().rebinds();                               // binds refused: pod already on another node
 *   server.compactHistory();                                     // old resourceVersions now answer 410
 *   List<RecordedRequest> binds = server.requests("POST", ".*\\/binding");
 *   JsonObject pod = server.get(Resources.PODS, "ml", "p1");
 * }
 * }</pre>
 *
 * <h2>Implemented</h2>
 * Kinds in {@link io.basalt.kube.fake.Resources}: pods, nodes, namespaces, configmaps, events (core/v1 and
 * events.k8s.io/v1, stored separately), priorityclasses, leases, Volcano podgroups and queues. Verbs: get, list
 * (label and field selectors, limit/continue at one resourceVersion, 410 for a compacted continue), watch
 * (synthetic ADDED from "" or "0", resume from a resourceVersion, ADDED/DELETED on selector transitions, bookmarks on
 * request, sendInitialEvents, timeoutSeconds, 410 ERROR event for a compacted resourceVersion), create (409
 * AlreadyExists, generateName), update (409 on a stale resourceVersion; custom resources require one), patch
 * (merge, strategic merge for built-ins, JSON patch; 415 otherwise), delete (finalizers; graceful pod deletion as a
 * builder option; DeleteOptions preconditions), the status subresource (status-only writes; main-resource writes keep
 * status), pods/binding and namespaces/NS/bindings, pods/eviction, and discovery. Pod create runs defaulting, the
 * Priority admission rule and QoS; pod updates may not change the spec beyond what the real validation allows.
 *
 * <h2>Not implemented</h2>
 * Server-side apply, dryRun (but on pods/binding), deletecollection, resourceVersionMatch=Exact on lists, the
 * too-large-resourceVersion wait, table/protobuf/YAML encodings, authentication and authorization, admission
 * beyond pod priority, the namespace lifecycle (deleting a namespace does not delete its contents; namespaces need
 * not exist), PodDisruptionBudgets (inject a 429 instead), garbage collection by owner, automatic periodic
 * bookmarks, and detection of a client that closed its watch before the next event is written.
 */
package io.basalt.kube.fake;
