package lockstep.nes.desktop.debug;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import lockstep.nes.core.cpu.Disassembler;

/** The CPU's registers and flags, and the instructions from PC on, disassembled. */
public final class CpuPanel {
    private CpuPanel() {
    }

    /** Registers, flags and the cycle count. */
    public static List<String> registers(MachineView m) {
        int p = (int) m.value("cpu.p");
        StringBuilder flags = new StringBuilder();
        String names = "NV-BDIZC";
        for (int bit = 7; bit >= 0; bit--) {
            flags.append((p & (1 << bit)) != 0 ? names.charAt(7 - bit) : '.');
        }
        return List.of(
                String.format(Locale.ROOT, "PC:%04X  A:%02X  X:%02X  Y:%02X  SP:%02X", m.value("cpu.pc"),
                        m.value("cpu.a"), m.value("cpu.x"), m.value("cpu.y"), m.value("cpu.s")),
                String.format(Locale.ROOT, "P:%02X  %s", p, flags),
                String.format(Locale.ROOT, "cycle %d  frame %d", m.value("console.cycle"), m.value("ppu.frameCount")));
    }

    /**
     * The instruction at {@code pc} and the {@code count - 1} after it in memory order
     * ("C000  4C F5 C5  JMP $C5F5"); the first is the one about to run when the CPU stands at an
     * instruction start.
     */
    public static List<String> disassembly(MachineView m, int pc, int count) {
        List<String> out = new ArrayList<>(count);
        int at = pc & 0xFFFF;
        for (int i = 0; i < count; i++) {
            int op = m.cpuPeek(at);
            int length = Disassembler.length(op);
            StringBuilder bytes = new StringBuilder();
            for (int b = 0; b < length; b++) {
                bytes.append(String.format(Locale.ROOT, b == 0 ? "%02X" : " %02X", m.cpuPeek(at + b)));
            }
            out.add(String.format(Locale.ROOT, "%s%04X  %-8s  %s", i == 0 ? ">" : " ", at, bytes,
                    Disassembler.disassemble(at, m::cpuPeek)));
            at = (at + length) & 0xFFFF;
        }
        return out;
    }
}
