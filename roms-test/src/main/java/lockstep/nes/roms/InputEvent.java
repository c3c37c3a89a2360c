package lockstep.nes.roms;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Something done to the console before frame {@code frame} runs (frame 0 is the first): set
 * the buttons held on a port (held until the next event for that port changes them), press
 * reset, or power-cycle.
 *
 * @param frame   the frame before which the event applies (0 = at power-on)
 * @param buttons buttons held from now on, e.g. "A", "B+START", "" for none; null = unchanged
 * @param port    controller port, 0 or 1
 * @param reset   press the reset button
 * @param power   power-cycle the console
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InputEvent(
        @JsonProperty(value = "frame", required = true) int frame,
        @JsonProperty("buttons") String buttons,
        @JsonProperty("port") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int port,
        @JsonProperty("reset") @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean reset,
        @JsonProperty("power") @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean power) {

    public InputEvent {
        if (frame < 0) {
            throw new IllegalArgumentException("input frame must be >= 0, got " + frame);
        }
        if (port != 0 && port != 1) {
            throw new IllegalArgumentException("input port must be 0 or 1, got " + port);
        }
        if (buttons != null) {
            buttonMask(buttons);
        }
    }

    /** The controller bit mask of {@link #buttons} (A=1, B=2, SELECT=4, START=8, UP..RIGHT=0x10..0x80). */
    @JsonIgnore
    public int mask() {
        return buttons == null ? 0 : buttonMask(buttons);
    }

    static int buttonMask(String names) {
        int mask = 0;
        for (String name : names.split("[+ ,]+")) {
            if (name.isEmpty()) {
                continue;
            }
            mask |= switch (name.toUpperCase(java.util.Locale.ROOT)) {
                case "A" -> 0x01;
                case "B" -> 0x02;
                case "SELECT" -> 0x04;
                case "START" -> 0x08;
                case "UP" -> 0x10;
                case "DOWN" -> 0x20;
                case "LEFT" -> 0x40;
                case "RIGHT" -> 0x80;
                default -> throw new IllegalArgumentException("unknown button \"" + name
                        + "\" (A, B, SELECT, START, UP, DOWN, LEFT, RIGHT)");
            };
        }
        return mask;
    }
}
