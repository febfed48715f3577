package io.basalt.app.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report opened in a real headless browser (Debian's chromium, which {@code .ci/run} installs): a
 * screenshot of each protocol's report must show every chart drawn, i.e. enough coloured pixels (series lines and
 * bars; axes and text are grey) inside each chart's fixed area. Skips, saying why, only when no browser is there.
 */
class HtmlReportBrowserTest {
  /** Coloured pixels a drawn chart has at least (a line series alone gives thousands). */
  static final int MIN_COLOURED = 400;

  @TempDir
  Path tmp;

  @Test
  void reportIsSelfContained() {
    ReplayResult r = FgdReplay.run(ReplayFixtures.slice(), ReplayFixtures.profile(ReplayFixtures.GPU_CONF), "gpu",
        42, 130, 100, Progress.NONE);
    String html = HtmlReport.render(List.of(r), "slice");
    assertFalse(html.contains("src=\"http") || html.contains("<link"), "nothing fetched when viewed");
    assertTrue(html.contains("echarts.init") && html.length() > 500_000, "ECharts inlined: " + html.length());
    for (int i = 0; i < HtmlReport.CHARTS; i++) {
      assertTrue(html.contains("id=\"chart" + i + "\""));
    }
  }

  @Test
  void everyChartIsDrawnInAHeadlessBrowser() throws Exception {
    String browser = browser();
    Assumptions.assumeTrue(browser != null, "no headless browser: neither BASALT_CHROMIUM nor chromium, "
        + "chromium-browser or google-chrome on PATH (.ci/run installs Debian's chromium); screenshot check skipped");
    OpenbTrace slice = ReplayFixtures.slice();
    List<ReplayResult> fgd = List.of(
        FgdReplay.run(slice, ReplayFixtures.profile(ReplayFixtures.GPU_CONF), "gpu", 42, 130, 100, Progress.NONE),
        FgdReplay.run(slice, ReplayFixtures.profile(ReplayFixtures.GPU_CONF), "gpu", 43, 130, 100, Progress.NONE));
    List<ReplayResult> clock = List.of(
        ClockReplay.run(slice, ReplayFixtures.profile(ReplayFixtures.GPU_CONF), "gpu", 10, Progress.NONE));
    assertCharts(browser, "fgd", fgd);
    assertCharts(browser, "clock", clock);
  }

  private void assertCharts(String browser, String name, List<ReplayResult> results) throws Exception {
    Path html = tmp.resolve(name + ".html");
    Files.writeString(html, HtmlReport.render(results, name));
    Path png = tmp.resolve(name + ".png");
    int height = HtmlReport.chartTop(HtmlReport.CHARTS) + 100;
    Process p = new ProcessBuilder(browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--force-device-scale-factor=1", "--user-data-dir=" + tmp.resolve("profile-" + name),
        "--window-size=" + HtmlReport.WIDTH_PX + "," + height, "--virtual-time-budget=5000",
        "--screenshot=" + png, html.toUri().toString())
        .redirectErrorStream(true).redirectOutput(tmp.resolve(name + ".log").toFile()).start();
    assertTrue(p.waitFor(90, TimeUnit.SECONDS), "browser did not finish in 90 s");
    assertEquals(0, p.exitValue(), () -> "browser failed: " + read(tmp.resolve(name + ".log")));
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(HtmlReport.WIDTH_PX, image.getWidth(), "screenshot at device scale 1");
    for (int i = 0; i < HtmlReport.CHARTS; i++) {
      int top = HtmlReport.chartTop(i);
      int coloured = coloured(image, top, top + HtmlReport.CHART_PX);
      assertTrue(coloured >= MIN_COLOURED, name + " chart " + i + " looks blank: " + coloured + " coloured pixels");
    }
    assertTrue(coloured(image, 0, HtmlReport.HEADER_PX) < MIN_COLOURED, "the header has no chart in it");
  }

  /** Pixels in rows [from, to) whose channels differ by more than grey text or axes do. */
  static int coloured(BufferedImage image, int from, int to) {
    int count = 0;
    for (int y = from; y < Math.min(to, image.getHeight()); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y);
        int r = (rgb >> 16) & 0xff;
        int g = (rgb >> 8) & 0xff;
        int b = rgb & 0xff;
        if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
          count++;
        }
      }
    }
    return count;
  }

  /** BASALT_CHROMIUM, else the first of Debian's and Google's names on PATH; null when there is none. */
  static String browser() {
    String env = System.getenv("BASALT_CHROMIUM");
    if (env != null && !env.isBlank()) {
      return env;
    }
    String path = System.getenv().getOrDefault("PATH", "");
    for (String name : List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
      for (String dir : path.split(File.pathSeparator)) {
        if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
          return Path.of(dir, name).toString();
        }
      }
    }
    return null;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (Exception e) {
      return "(no log: " + e + ")";
    }
  }
}
