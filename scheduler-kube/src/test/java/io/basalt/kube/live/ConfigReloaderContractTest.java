package io.basalt.kube.live;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.basalt.config.ConfigException;
import io.basalt.config.PluginOption;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP contract of {@link ConfigReloader}: it reads its ConfigMap by a LIST with the field selector
 * {@code metadata.name=<name>} (never a GET by name: the chart's Role grants only list and watch), then list-and-watches
 * with the same selector; an edit arrives as a watch event; a rejected edit is one Warning event on the ConfigMap.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ConfigReloaderContractTest {
  @RegisterExtension
  static WireMockExtension wm = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final String CONFIGMAPS = "/api/v1/namespaces/kube-system/configmaps";
  private static final String EVENTS = "/api/v1/namespaces/kube-system/events";
  private static final String SELECTOR = "metadata.name=basalt";
  private static final String GANG = "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n";
  private static final PluginRegistry PLUGINS = PluginRegistry.of(
      PluginDescriptor.of("gang", () -> new Noop("gang")), PluginDescriptor.of("priority", () -> new Noop("priority")));

  /** A create answers the stored object (201), here the event as created. */
  private static final String CREATED_EVENT = "{\"kind\":\"Event\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":"
      + "\"basalt.1\",\"namespace\":\"kube-system\",\"uid\":\"e1\",\"resourceVersion\":\"8\"},\"involvedObject\":{"
      + "\"kind\":\"ConfigMap\",\"namespace\":\"kube-system\",\"name\":\"basalt\",\"apiVersion\":\"v1\"},"
      + "\"reason\":\"InvalidConfig\",\"message\":\"edit rejected\",\"type\":\"Warning\",\"count\":1,"
      + "\"source\":{\"component\":\"basalt-scheduler\"}}";

  private record Noop(String name) implements Plugin {
    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {}
  }

  private static String names(SchedulerProfile p) {
    return String.join(",", p.conf().allPlugins().stream().map(PluginOption::name).toList());
  }

  /** The ConfigMap at {@code resourceVersion} holding {@code conf}; with kind and apiVersion as in a watch event. */
  private static String configMap(String resourceVersion, String conf) {
    return "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"basalt\",\"namespace\":"
        + "\"kube-system\",\"uid\":\"cm-uid-1\",\"resourceVersion\":\"" + resourceVersion + "\"},\"data\":{"
        + "\"volcano-scheduler.conf\":" + new JsonPrimitive(conf) + "}}";
  }

  private static String list(String... items) {
    return "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"100\"},\"items\":["
        + String.join(",", items) + "]}";
  }

  /**
   * A watch reply carrying {@code events} (one JSON object per line, meta/v1 WatchEvent {type, object}) that then
   * ends, as a watch does at its timeout; later watches end with nothing after a short wait.
   */
  private static void watchAnswers(String... events) {
    ResponseDefinitionBuilder first = aResponse().withStatus(200).withHeader("Content-Type", KubeReplies.JSON)
        .withBody(String.join("", List.of(events)));
    ResponseDefinitionBuilder idle = aResponse().withStatus(200).withHeader("Content-Type", KubeReplies.JSON)
        .withFixedDelay(300);
    KubeReplies.inTurn(wm, () -> get(urlPathEqualTo(CONFIGMAPS)).withQueryParam("watch", equalTo("true"))
        .atPriority(1), first, idle);
  }

  private static String modified(String object) {
    return "{\"type\":\"MODIFIED\",\"object\":" + object + "}\n";
  }

  private static void listAnswers(String body) {
    wm.stubFor(get(urlPathEqualTo(CONFIGMAPS)).atPriority(5).willReturn(KubeReplies.json(200, body)));
  }

  private static String param(LoggedRequest r, String name) {
    return r.queryParameter(name).isPresent() ? r.queryParameter(name).firstValue() : null;
  }

  private static List<LoggedRequest> watches() {
    return wm.findAll(getRequestedFor(urlPathEqualTo(CONFIGMAPS)).withQueryParam("watch", equalTo("true")));
  }

  @Test
  void readsByListWithTheNameFieldSelectorThenWatchesFromTheListedVersion() throws Exception {
    listAnswers(list(configMap("100", GANG)));
    watchAnswers();

    try (ConfigReloader reloader = new ConfigReloader(KubeReplies.client(wm), "kube-system", "basalt", PLUGINS)) {
      assertEquals("gang", names(reloader.get()));
      Await.until("the watch", WAIT, () -> !watches().isEmpty());
    }

    List<LoggedRequest> all = wm.findAll(getRequestedFor(anyUrl()));
    assertTrue(all.stream().allMatch(r -> r.getUrl().startsWith(CONFIGMAPS + "?")),
        "only list/watch on the collection, never GET configmaps/basalt: " + all.stream().map(LoggedRequest::getUrl)
            .toList());
    assertTrue(all.stream().allMatch(r -> SELECTOR.equals(param(r, "fieldSelector"))), "every request selects by name");
    LoggedRequest first = all.get(0);
    assertEquals(null, param(first, "watch"), "the start-up read is a plain list");
    assertEquals(null, param(first, "resourceVersion"), "a consistent read, not from the watch cache");
    LoggedRequest watch = watches().get(0);
    assertEquals("100", param(watch, "resourceVersion"));
    wm.verify(0, postRequestedFor(anyUrl()));
  }

  @Test
  void aValidEditArrivingByWatchTakesEffectAndTheWatchResumesFromIt() throws Exception {
    listAnswers(list(configMap("100", GANG)));
    watchAnswers(modified(configMap("101", GANG + "  - name: priority\n")));

    try (ConfigReloader reloader = new ConfigReloader(KubeReplies.client(wm), "kube-system", "basalt", PLUGINS)) {
      Await.until("the edit in force", WAIT, () -> names(reloader.get()), "gang,priority"::equals);
      Await.until("a second watch", WAIT, () -> watches().size() >= 2);
    }
    assertEquals("101", param(watches().get(1), "resourceVersion"), "the next watch resumes after the event");
    wm.verify(0, postRequestedFor(anyUrl()));
  }

  @Test
  void aRejectedEditIsOneWarningEventOnTheConfigMap() throws Exception {
    listAnswers(list(configMap("100", GANG)));
    watchAnswers(modified(configMap("101", "actions: allocate\ntiers:\n- plugins:\n  - name: gnag\n")));
    wm.stubFor(post(urlEqualTo(EVENTS)).willReturn(KubeReplies.json(201, CREATED_EVENT)));

    try (ConfigReloader reloader = new ConfigReloader(KubeReplies.client(wm), "kube-system", "basalt", PLUGINS)) {
      Await.until("the rejection recorded", WAIT, () -> {
        assertEquals("gang", names(reloader.get()), "the last good config stays in force");
        return !wm.findAll(postRequestedFor(urlEqualTo(EVENTS))).isEmpty();
      });
      reloader.get();
      reloader.get();
    }

    List<LoggedRequest> events = wm.findAll(postRequestedFor(urlEqualTo(EVENTS)));
    assertEquals(1, events.size(), "recorded once, not at every cycle");
    JsonObject e = KubeReplies.sent(events.get(0));
    assertEquals("InvalidConfig", e.get("reason").getAsString());
    assertEquals("Warning", e.get("type").getAsString());
    assertTrue(e.get("message").getAsString().contains("gnag"), e.toString());
    JsonObject involved = e.getAsJsonObject("involvedObject");
    assertEquals("ConfigMap", involved.get("kind").getAsString());
    assertEquals("v1", involved.get("apiVersion").getAsString());
    assertEquals("basalt", involved.get("name").getAsString());
    assertEquals("kube-system", involved.get("namespace").getAsString());
    assertEquals("basalt-scheduler", e.getAsJsonObject("source").get("component").getAsString());
  }

  @Test
  void theRejectionEventNamesTheConfigMapByUid() throws Exception {
    listAnswers(list(configMap("100", GANG)));
    watchAnswers(modified(configMap("101", "actions: allocate\ntiers:\n- plugins:\n  - name: gnag\n")));
    wm.stubFor(post(urlEqualTo(EVENTS)).willReturn(KubeReplies.json(201, CREATED_EVENT)));

    try (ConfigReloader reloader = new ConfigReloader(KubeReplies.client(wm), "kube-system", "basalt", PLUGINS)) {
      Await.until("the rejection recorded", WAIT, () -> {
        reloader.get();
        return !wm.findAll(postRequestedFor(urlEqualTo(EVENTS))).isEmpty();
      });
    }

    JsonObject involved = KubeReplies.sent(wm.findAll(postRequestedFor(urlEqualTo(EVENTS))).get(0))
        .getAsJsonObject("involvedObject");
    assertTrue(involved.has("uid"), involved.toString());
    assertEquals("cm-uid-1", involved.get("uid").getAsString());
  }

  @Test
  void aMissingConfigMapIsAnEmptyListAndAClearErrorAtStart() {
    listAnswers(list());

    ConfigException e = assertThrows(ConfigException.class,
        () -> new ConfigReloader(KubeReplies.client(wm), "kube-system", "basalt", PLUGINS));

    assertTrue(e.getMessage().contains("kube-system/basalt not found"), e.getMessage());
    wm.verify(1, getRequestedFor(anyUrl())); // no informer started
  }

  @Test
  void aRefusedReadIsAClearErrorAtStart() {
    // errors.NewForbidden for a collection (no name): "<resource> is forbidden: ..." (apiserver authorization filter)
    wm.stubFor(get(urlPathEqualTo(CONFIGMAPS)).willReturn(KubeReplies.json(403, KubeReplies.failure(403, "Forbidden",
        "configmaps is forbidden: User \"system:serviceaccount:kube-system:basalt\" cannot list resource "
            + "\"configmaps\" in API group \"\" in the namespace \"kube-system\"",
        KubeReplies.details(null, "", "configmaps")))));

    ConfigException e = assertThrows(ConfigException.class,
        () -> new ConfigReloader(KubeReplies.client(wm), "kube-system", "basalt", PLUGINS));

    assertTrue(e.getMessage().contains("cannot read it: HTTP 403"), e.getMessage());
    wm.verify(1, getRequestedFor(anyUrl()));
  }
}
