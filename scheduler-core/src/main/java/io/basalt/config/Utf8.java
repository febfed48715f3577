package io.basalt.config;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict UTF-8 decoding whose error says where the bad byte is, not just "Input length = 1". */
final class Utf8 {
  private Utf8() {}

  /** {@code bytes} as text, or a {@link ConfigException} naming {@code source}, the line and the offending byte. */
  static String decode(byte[] bytes, String source) throws ConfigException {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult r = decoder.decode(in, out, true);
    if (!r.isError()) {
      r = decoder.flush(out);
    }
    if (r.isError()) {
      int at = in.position();
      int line = 1;
      for (int i = 0; i < at; i++) {
        line += bytes[i] == '\n' ? 1 : 0;
      }
      throw new ConfigException(String.format("%s: line %d: not valid UTF-8 (byte 0x%02x at offset %d)", source, line,
          bytes[Math.min(at, bytes.length - 1)] & 0xff, at));
    }
    out.flip();
    String text = out.toString();
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }
}
