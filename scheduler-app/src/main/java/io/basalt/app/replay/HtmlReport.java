package io.basalt.app.replay;

import java.util.List;

final class HtmlReport {
  private HtmlReport() {}

  static String render(List<ReplayResult> results, String traceName) {
    return "<html></html>";
  }
}
