package lockstep.nes.desktop.debug;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A hex view of the CPU address space that follows writes: between two looks it finds the bytes
 * of CPU RAM ($0000-$07FF) that changed, marks them, and (unless pinned to an address) moves
 * to the row of the most recent change.
 */
public final class HexView {
    public static final int ROWS = 16;

    private final byte[] previous = new byte[0x800];
    private final boolean[] changed = new boolean[0x800];
    private boolean first = true;
    private int start;
    private boolean pinned;

    /** Shows the rows from {@code address} on and stops following writes. */
    public void pin(int address) {
        start = address & 0xFFF0;
        pinned = true;
    }

    /** Follows writes again. */
    public void follow() {
        pinned = false;
    }

    public int start() {
        return start;
    }

    /** Takes a new look at the machine: notes the RAM bytes that changed since the last. */
    public void update(MachineView m) {
        byte[] ram = m.bytes("console.ram");
        int last = -1;
        for (int i = 0; i < 0x800; i++) {
            changed[i] = !first && ram[i] != previous[i];
            if (changed[i]) {
                last = i;
            }
        }
        System.arraycopy(ram, 0, previous, 0, 0x800);
        first = false;
        if (!pinned && last >= 0) {
            start = Math.max(0, Math.min((last & 0xFFF0) - 0x40, 0x800 - ROWS * 16));
        }
    }

    /** True when the RAM byte at {@code address} changed at the last look. */
    public boolean changed(int address) {
        return address >= 0 && address < 0x800 && changed[address];
    }

    /** The rows shown: "0200: 00 01 ... " with changed bytes marked by a following '*'. */
    public List<String> lines(MachineView m) {
        List<String> out = new ArrayList<>(ROWS);
        for (int r = 0; r < ROWS; r++) {
            int row = (start + r * 16) & 0xFFFF;
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%04X:", row));
            for (int c = 0; c < 16; c++) {
                int a = (row + c) & 0xFFFF;
                b.append(String.format(Locale.ROOT, " %02X", m.cpuPeek(a))).append(changed(a) ? '*' : ' ');
            }
            out.add(b.toString());
        }
        return out;
    }
}
