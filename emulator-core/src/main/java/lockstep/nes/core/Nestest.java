package lockstep.nes.core;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.trace.Tracer;

/**
 * Runs nestest in automation mode (PC = $C000) and compares each instruction's state with the
 * golden log: PC, instruction bytes, A, X, Y, P, SP, PPU scanline and dot, and CYC.
 */
public final class Nestest {
    private static final Pattern LINE = Pattern.compile(
            "^([0-9A-F]{4})\\s+((?:[0-9A-F]{2} ){1,3}).*A:([0-9A-F]{2}) X:([0-9A-F]{2}) Y:([0-9A-F]{2})"
            + " P:([0-9A-F]{2}) SP:([0-9A-F]{2}) PPU:\\s*(-?\\d+),\\s*(\\d+) CYC:(\\d+)");

    /** The outcome: lines matched, lines in the log, and the first mismatch (or null). */
    public record Result(int matched, int total, String expected, String actual) {
        public boolean passed() {
            return matched == total && expected == null;
        }
    }

    /** One instruction boundary's observable state, in the log's field order. */
    record Fields(int pc, String bytes, int a, int x, int y, int p, int sp, int scanline, int dot, long cyc) {
        String format() {
            return String.format("%04X  %-9s A:%02X X:%02X Y:%02X P:%02X SP:%02X PPU:%3d,%3d CYC:%d",
                    pc, bytes, a, x, y, p, sp, scanline, dot, cyc);
        }
    }

    private Nestest() {
    }

    public static Result run(Cartridge cart, List<String> log) throws RomFormatException {
        List<Fields> expected = new ArrayList<>();
        for (String line : log) {
            if (line.isBlank()) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                throw new IllegalArgumentException("nestest log line " + (expected.size() + 1)
                        + " is not in the expected format: " + line);
            }
            expected.add(new Fields(Integer.parseInt(m.group(1), 16), m.group(2).trim(),
                    hex(m.group(3)), hex(m.group(4)), hex(m.group(5)), hex(m.group(6)), hex(m.group(7)),
                    Integer.parseInt(m.group(8)), Integer.parseInt(m.group(9)), Long.parseLong(m.group(10))));
        }
        Console console = Console.create(cart);
        Tracer tracer = new Tracer(console, c -> { });
        tracer.startAt(0xC000);
        int[] matched = {0};
        Fields[] mismatch = {null, null};
        // Trace until the first line that differs; later lines are observed but not compared.
        tracer.trace(expected.size(), line -> {
            if (mismatch[0] != null) {
                return;
            }
            Fields want = expected.get(matched[0]);
            Fields got = new Fields(line.pc(), line.hexBytes(), line.a(), line.x(), line.y(), line.p(),
                    line.sp(), line.scanline(), line.dot(), line.cycle());
            if (got.equals(want)) {
                matched[0]++;
            } else {
                mismatch[0] = want;
                mismatch[1] = got;
            }
        });
        return mismatch[0] == null ? new Result(matched[0], expected.size(), null, null)
                : new Result(matched[0], expected.size(), mismatch[0].format(), mismatch[1].format());
    }

    private static int hex(String s) {
        return Integer.parseInt(s, 16);
    }
}
