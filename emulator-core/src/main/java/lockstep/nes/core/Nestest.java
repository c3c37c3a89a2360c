package lockstep.nes.core;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.core.cpu.Disassembler;

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
        // Let the reset sequence finish, then start at $C000 as the automation mode asks.
        console.runInstruction();
        console.cpu().jump(0xC000);
        Cpu cpu = console.cpu();
        cpu.setRegisters(cpu.a(), cpu.x(), cpu.y(), cpu.s(), 0x24);
        // The log's PPU columns count from the first instruction at dot 21; ours include the
        // PPU's power-on lead over the CPU, a constant offset taken here.
        long dotsAtStart = (long) console.ppu().scanline() * 341 + console.ppu().dot();
        long lead = dotsAtStart - (expected.isEmpty() ? 0 : (long) expected.get(0).scanline() * 341
                + expected.get(0).dot());
        int matched = 0;
        for (Fields want : expected) {
            Fields got = observe(console, lead);
            if (!got.equals(want)) {
                return new Result(matched, expected.size(), want.format(), got.format());
            }
            matched++;
            console.runInstruction();
        }
        return new Result(matched, expected.size(), null, null);
    }

    private static Fields observe(Console c, long lead) {
        Cpu cpu = c.cpu();
        int pc = cpu.pc();
        int len = Disassembler.length(c.peek(pc));
        StringBuilder bytes = new StringBuilder();
        for (int i = 0; i < len; i++) {
            if (i > 0) {
                bytes.append(' ');
            }
            bytes.append(String.format("%02X", c.peek((pc + i) & 0xFFFF)));
        }
        long dots = (long) c.ppu().scanline() * 341 + c.ppu().dot() - lead;
        int scanline = (int) Math.floorDiv(dots, 341);
        int dot = (int) Math.floorMod(dots, 341);
        return new Fields(pc, bytes.toString(), cpu.a(), cpu.x(), cpu.y(), cpu.p(), cpu.s(), scanline, dot,
                c.cycles());
    }

    private static int hex(String s) {
        return Integer.parseInt(s, 16);
    }
}
