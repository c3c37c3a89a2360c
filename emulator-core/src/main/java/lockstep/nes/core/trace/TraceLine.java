package lockstep.nes.core.trace;

import java.util.Locale;

import lockstep.nes.core.Console;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.core.cpu.Disassembler;

/**
 * One instruction as a trace shows it, observed just before it runs: its address and bytes,
 * the disassembly with the effective address and the value there, the registers, the PPU's
 * scanline and dot, and the CPU cycle. {@link #nestest()} prints it in the form of nestest's
 * golden log (the form most 6502 and NES traces use).
 *
 * <p>Observing changes nothing: memory is read with {@link Console#peek}, and the registers at
 * $2000-$401F are not read at all (what a read returns there depends on the cycle within the
 * instruction and may have side effects on hardware): their value shows as FF, as in nestest's
 * log.
 *
 * @param operand the disassembly after the mnemonic, with the effective address and value
 *                ("$0200,X @ 0205 = 3C"); empty for implied instructions
 * @param official false for an undocumented opcode (marked {@code *} in the nestest form)
 */
public record TraceLine(int pc, int[] bytes, String mnemonic, String operand, boolean official,
                        int a, int x, int y, int p, int sp, int scanline, int dot, long cycle, long frame) {

    /** The instruction the CPU of {@code console} is about to run (call at an instruction start). */
    public static TraceLine of(Console console) {
        return of(console, 0);
    }

    /**
     * As {@link #of(Console)}, with the PPU position shown {@code dotOffset} dots earlier than
     * the PPU has it (see {@link Tracer#startAt}).
     */
    public static TraceLine of(Console console, int dotOffset) {
        Cpu cpu = console.cpu();
        int pc = cpu.pc();
        int op = console.peek(pc);
        int[] bytes = new int[Disassembler.length(op)];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = console.peek((pc + i) & 0xFFFF);
        }
        String name = Disassembler.mnemonic(op);
        int dots = console.ppu().scanline() * 341 + console.ppu().dot() - dotOffset;
        return new TraceLine(pc, bytes, name.equals("ISC") ? "ISB" : name,
                operand(console, pc, op), Disassembler.official(op),
                cpu.a(), cpu.x(), cpu.y(), cpu.p(), cpu.s(),
                Math.floorDiv(dots, 341), Math.floorMod(dots, 341), console.cycles(), console.frame());
    }

    /** The disassembly: mnemonic and operand ("LDA ($80,X) @ 80 = 0200 = 5A"). */
    public String disassembly() {
        return operand.isEmpty() ? mnemonic : mnemonic + " " + operand;
    }

    /** The instruction bytes in hex, separated by spaces ("4C F5 C5"). */
    public String hexBytes() {
        StringBuilder b = new StringBuilder(8);
        for (int i = 0; i < bytes.length; i++) {
            if (i > 0) {
                b.append(' ');
            }
            b.append(hex2(bytes[i]));
        }
        return b.toString();
    }

    /**
     * The line in nestest's log form:
     * {@code C000  4C F5 C5  JMP $C5F5                       A:00 X:00 Y:00 P:24 SP:FD PPU:  0, 21 CYC:7}.
     */
    public String nestest() {
        return String.format(Locale.ROOT, "%04X  %-8s %s%-31s A:%02X X:%02X Y:%02X P:%02X SP:%02X PPU:%3d,%3d CYC:%d",
                pc, hexBytes(), official ? " " : "*", disassembly(), a, x, y, p, sp, scanline, dot, cycle);
    }

    private static String operand(Console c, int pc, int op) {
        int b1 = c.peek((pc + 1) & 0xFFFF);
        int b2 = c.peek((pc + 2) & 0xFFFF);
        int w = b1 | (b2 << 8);
        Cpu cpu = c.cpu();
        String full = Disassembler.disassemble(pc, c::peek);
        int space = full.indexOf(' ');
        String plain = space < 0 ? "" : full.substring(space + 1);
        if (Disassembler.accumulator(op)) {
            return plain;
        }
        switch (Disassembler.addressing(op)) {
            case ZERO_PAGE:
                return plain + " = " + value(c, b1);
            case ZERO_PAGE_X:
                return plain + " @ " + hex2((b1 + cpu.x()) & 0xFF) + " = " + value(c, (b1 + cpu.x()) & 0xFF);
            case ZERO_PAGE_Y:
                return plain + " @ " + hex2((b1 + cpu.y()) & 0xFF) + " = " + value(c, (b1 + cpu.y()) & 0xFF);
            case ABSOLUTE:
                return plain + " = " + value(c, w);
            case ABSOLUTE_X:
                return plain + " @ " + hex4((w + cpu.x()) & 0xFFFF) + " = " + value(c, (w + cpu.x()) & 0xFFFF);
            case ABSOLUTE_Y:
                return plain + " @ " + hex4((w + cpu.y()) & 0xFFFF) + " = " + value(c, (w + cpu.y()) & 0xFFFF);
            case INDEXED_INDIRECT: {
                int ptr = (b1 + cpu.x()) & 0xFF;
                int addr = c.peek(ptr) | (c.peek((ptr + 1) & 0xFF) << 8);
                return plain + " @ " + hex2(ptr) + " = " + hex4(addr) + " = " + value(c, addr);
            }
            case INDIRECT_INDEXED: {
                int base = c.peek(b1) | (c.peek((b1 + 1) & 0xFF) << 8);
                int addr = (base + cpu.y()) & 0xFFFF;
                return plain + " = " + hex4(base) + " @ " + hex4(addr) + " = " + value(c, addr);
            }
            case INDIRECT: {
                // The 6502 fetches the pointer's high byte from the same page (JMP ($xxFF)).
                int target = c.peek(w) | (c.peek((w & 0xFF00) | ((w + 1) & 0xFF)) << 8);
                return plain + " = " + hex4(target);
            }
            default:
                return plain;
        }
    }

    /** The byte at {@code addr} as the trace shows it (FF for the registers at $2000-$401F). */
    private static String value(Console c, int addr) {
        return addr >= 0x2000 && addr < 0x4020 ? "FF" : hex2(c.peek(addr));
    }

    private static String hex2(int v) {
        return String.format(Locale.ROOT, "%02X", v & 0xFF);
    }

    private static String hex4(int v) {
        return String.format(Locale.ROOT, "%04X", v & 0xFFFF);
    }
}
