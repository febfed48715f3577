package io.basalt.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basalt.actions.Action;
import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfigException;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor.Conflict;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.session.Session;
import io.basalt.testing.TestSessions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules the validator applies come from the descriptors: it knows no plugin by name. */
class ConfValidatorTest {
  private record Noop(String name) implements Plugin {
    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {}
  }

  private static PluginDescriptor<Void> plugin(String name) {
    return PluginDescriptor.of(name, () -> new Noop(name));
  }

  /** Made-up names, so nothing here can come from a rule written into the validator. */
  private static final PluginRegistry PLUGINS = PluginRegistry.of(
      plugin("alpha").conflictsWith(Conflict.anywhere("beta", "both want the same thing")),
      plugin("beta"),
      plugin("gamma").withHierarchy()
          .conflictsWith(Conflict.inTier("beta", "both rank queues").onlyWhenHierarchical()),
      plugin("delta"));

  private static ConfValidator.Report validate(String yaml) {
    return ConfValidator.validate(TestSessions.parse(yaml), PLUGINS, ActionRegistry.builtin());
  }

  @Test
  void aConflictDeclaredByAPluginIsReportedAtItsEntryWhereverTheOtherStands() {
    ConfValidator.Report r = validate("""
        actions: allocate
        tiers:
        - plugins:
          - name: beta
        - plugins:
          - name: delta
          - name: alpha
        """);
    assertEquals(List.of("tiers[1].plugins[1] (alpha): plugin 'alpha' cannot be used together with 'beta' "
        + "(tiers[0].plugins[0] (beta)): both want the same thing"), r.errors());
    assertNull(r.profile());
  }

  @Test
  void aSameTierConflictHoldsOnlyInOneTierAndOnlyInTheModeItNames() {
    assertEquals(List.of("tiers[0].plugins[1] (gamma): gamma with enableHierarchy cannot share a tier with beta "
        + "(tiers[0].plugins[0] (beta)): both rank queues"), validate("""
        actions: allocate
        tiers:
        - plugins:
          - name: beta
          - name: gamma
            enableHierarchy: true
        """).errors());
    assertEquals(List.of(), validate("""
        actions: allocate
        tiers:
        - plugins:
          - name: beta
          - name: gamma
        """).errors(), "not hierarchical: no conflict");
    assertEquals(List.of(), validate("""
        actions: allocate
        tiers:
        - plugins:
          - name: beta
        - plugins:
          - name: gamma
            enableHierarchy: true
        """).errors(), "different tiers: no conflict");
  }

  @Test
  void enableHierarchyIsAllowedOnlyWherePluginsDeclareIt() {
    assertEquals(List.of("tiers[0].plugins[0] (delta): enableHierarchy is not supported by plugin 'delta' in this "
        + "build"), validate("""
        actions: allocate
        tiers:
        - plugins:
          - name: delta
            enableHierarchy: true
          - name: gamma
            enableHierarchy: true
        """).errors());
  }

  @Test
  void backfillChecksPercentageOfNodesToScoreAsAllocateDoes() {
    ConfValidator.Report r = validate("""
        actions: "allocate, backfill"
        tiers: []
        configurations:
        - name: allocate
          arguments:
            percentageOfNodesToScore: 101
        - name: backfill
          arguments:
            percentageOfNodesToScore: -5
        """);
    assertEquals(List.of(
        "configurations.allocate: argument 'percentageOfNodesToScore' must be between 0 and 100, got 101",
        "configurations.backfill: argument 'percentageOfNodesToScore' must be between 0 and 100, got -5"),
        r.errors());
    assertEquals(List.of(), validate("""
        actions: backfill
        tiers: []
        configurations:
        - name: backfill
          arguments:
            percentageOfNodesToScore: 100
        """).errors());
  }

  @Test
  void aValidConfigComesBackCompiledWithItsActionsInOrder() throws ConfigException {
    ConfValidator.Report r = validate("""
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins:
          - name: alpha
          - name: gamma
        - plugins:
          - name: delta
        """);
    SchedulerProfile profile = r.profileOrThrow("");
    assertNotNull(profile);
    assertEquals(List.of("enqueue", "allocate", "backfill"), profile.actions().stream().map(Action::name).toList());
    assertEquals(List.of(0, 0, 1), profile.session().plugins().stream().map(p -> p.tier()).toList());
    ConfigException e = assertThrows(ConfigException.class,
        () -> validate("actions: shuffle\ntiers: []\n").profileOrThrow("f.conf: "));
    assertEquals(List.of("f.conf: actions: unknown action 'shuffle' (known: allocate, backfill, enqueue, preempt, "
        + "reclaim)"), e.problems());
  }
}
