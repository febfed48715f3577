package io.basalt.app.cli;

import io.basalt.gpu.protocol.DeviceProtocols;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --device-protocol auto|hami|basalt} for {@code run} and {@code simulate}, so both accept the same words. */
public final class DeviceProtocolConverter implements ITypeConverter<DeviceProtocols> {
  @Override
  public DeviceProtocols convert(String value) {
    try {
      return new DeviceProtocols(DeviceProtocols.Mode.parse(value), Map.of());
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
