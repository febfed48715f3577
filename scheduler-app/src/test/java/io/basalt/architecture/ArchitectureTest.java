package io.basalt.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.basalt.archfixture.ping.Ping;
import io.basalt.archfixture.pong.Pong;
import io.basalt.model.archfixture.EngineClassImportingKubernetes;
import io.basalt.plugins.archfixture.PluginImportingTheCache;
import io.basalt.plugins.archfixture.PluginReadingTheClock;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module and package boundaries of docs/ARCHITECTURE.md, checked on the compiled classes of every module: the
 * engine never sees Kubernetes' client or the adapters, plugins see only the model, the info types and the plugin
 * SPI, and no two top-level packages depend on each other both ways. Each rule is also shown failing on a fixture
 * class that breaks it, so a rule that silently matches nothing is caught.
 */
class ArchitectureTest {
  /** The engine's packages (module scheduler-core). */
  static final String[] ENGINE = {"io.basalt.model..", "io.basalt.config..", "io.basalt.gpu..", "io.basalt.api..",
      "io.basalt.framework..", "io.basalt.session..", "io.basalt.search..", "io.basalt.actions..", "io.basalt.cache..",
      "io.basalt.fabric..", "io.basalt.scheduler..", "io.basalt.dra.."};

  static final ArchRule ENGINE_KNOWS_NO_KUBERNETES = noClasses().that().resideInAnyPackage(ENGINE)
      .should().dependOnClassesThat().resideInAnyPackage("io.kubernetes..", "okhttp3..", "io.basalt.kube..",
          "io.basalt.sim..", "io.basalt.app..", "io.basalt.plugins..")
      .because("the engine is driven through ClusterSource, Binder and StatusSink; Kubernetes lives in scheduler-kube");

  static final ArchRule PLUGINS_USE_ONLY_THE_SPI = noClasses().that().resideInAPackage("io.basalt.plugins..")
      .should().dependOnClassesThat().resideInAnyPackage("io.basalt.actions..", "io.basalt.cache..",
          "io.basalt.session..", "io.basalt.search..", "io.basalt.scheduler..", "io.basalt.kube..", "io.basalt.sim..",
          "io.basalt.app..", "io.kubernetes..")
      .because("a plugin registers callbacks through framework.Registrar and reads api types, nothing else");

  /**
   * Decisions never depend on the clock: the engine and the plugins bound their searches and solvers by work. Only
   * the scheduling loop and the cycle's timings (metrics) read it.
   */
  static final ArchRule DECISIONS_READ_NO_CLOCK = noClasses().that().resideInAnyPackage(ENGINE)
      .and().resideOutsideOfPackage("io.basalt.scheduler..")
      .or().resideInAPackage("io.basalt.plugins..")
      .should().callMethod(System.class, "nanoTime")
      .orShould().callMethod(System.class, "currentTimeMillis")
      .orShould().callMethod(java.time.Instant.class, "now")
      .orShould().dependOnClassesThat().areAssignableTo(java.time.Clock.class)
      .because("the same input must give the same decisions on any machine, however loaded");

  static final ArchRule NO_PACKAGE_CYCLES = slices().matching("io.basalt.(**)").should().beFreeOfCycles();

  private static JavaClasses production;

  @BeforeAll
  static void importClasses() {
    production = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("io.basalt");
  }

  @Test
  void engineKnowsNoKubernetes() {
    ENGINE_KNOWS_NO_KUBERNETES.check(production);
  }

  @Test
  void pluginsUseOnlyTheSpi() {
    PLUGINS_USE_ONLY_THE_SPI.check(production);
  }

  @Test
  void decisionsReadNoClock() {
    DECISIONS_READ_NO_CLOCK.check(production);
  }

  @Test
  void noPackageCycles() {
    NO_PACKAGE_CYCLES.check(production);
  }

  @Test
  void everyModuleIsImported() {
    for (String p : new String[] {"io.basalt.session", "io.basalt.kube.live", "io.basalt.plugins.gang",
        "io.basalt.app"}) {
      assertTrue(production.containPackage(p), p + " not on the test class path: the rules would check nothing");
    }
  }

  @Test
  void rulesCatchAForbiddenImport() {
    JavaClasses engineFixture = new ClassFileImporter().importClasses(EngineClassImportingKubernetes.class);
    assertThrows(AssertionError.class, () -> ENGINE_KNOWS_NO_KUBERNETES.check(engineFixture));
    JavaClasses pluginFixture = new ClassFileImporter().importClasses(PluginImportingTheCache.class);
    assertThrows(AssertionError.class, () -> PLUGINS_USE_ONLY_THE_SPI.check(pluginFixture));
    JavaClasses clockFixture = new ClassFileImporter().importClasses(PluginReadingTheClock.class);
    assertThrows(AssertionError.class, () -> DECISIONS_READ_NO_CLOCK.check(clockFixture));
    JavaClasses cycleFixture = new ClassFileImporter().importClasses(Ping.class, Pong.class);
    assertThrows(AssertionError.class, () -> NO_PACKAGE_CYCLES.check(cycleFixture));
  }
}
