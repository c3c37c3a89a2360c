package lockstep.nes.desktop.debug;

import java.util.List;
import java.util.Locale;

/** The PPU's position, scroll registers (v, t, fine x, w) and PPUCTRL/PPUMASK/PPUSTATUS. */
public final class PpuPanel {
    private PpuPanel() {
    }

    public static List<String> lines(MachineView m) {
        int ctrl = (int) m.value("ppu.ctrl");
        int mask = (int) m.value("ppu.mask");
        return List.of(
                String.format(Locale.ROOT, "scanline %d  dot %d  frame %d%s", m.value("ppu.scanline"),
                        m.value("ppu.dot"), m.value("ppu.frameCount"), m.value("ppu.oddFrame") != 0 ? " (odd)" : ""),
                String.format(Locale.ROOT, "v:%04X  t:%04X  x:%d  w:%d", m.value("ppu.v"), m.value("ppu.t"),
                        m.value("ppu.fineX"), m.value("ppu.w")),
                String.format(Locale.ROOT, "CTRL:%02X  NT $%04X  inc %d  %s  NMI %s", ctrl,
                        0x2000 + (ctrl & 3) * 0x400, (ctrl & 4) != 0 ? 32 : 1, (ctrl & 0x20) != 0 ? "8x16" : "8x8",
                        (ctrl & 0x80) != 0 ? "on" : "off"),
                String.format(Locale.ROOT, "  patterns: sprites $%04X  bg $%04X", (ctrl & 8) != 0 ? 0x1000 : 0,
                        (ctrl & 0x10) != 0 ? 0x1000 : 0),
                String.format(Locale.ROOT, "MASK:%02X  bg %s  sprites %s  grey %s", mask, onOff(mask & 0x08),
                        onOff(mask & 0x10), onOff(mask & 0x01)),
                String.format(Locale.ROOT, "  left 8 px: bg %s  sprites %s  emphasis %d", onOff(mask & 0x02),
                        onOff(mask & 0x04), mask >> 5),
                String.format(Locale.ROOT, "STATUS: vblank %s  sprite 0 hit %s  overflow %s",
                        onOff((int) m.value("ppu.vblank")), onOff((int) m.value("ppu.sprite0Hit")),
                        onOff((int) m.value("ppu.spriteOverflow"))),
                String.format(Locale.ROOT, "OAMADDR:%02X  read buffer:%02X", m.value("ppu.oamAddr"),
                        m.value("ppu.readBuffer")));
    }

    private static String onOff(int bit) {
        return bit != 0 ? "on" : "off";
    }
}
