package lockstep.nes.desktop.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The debugger's text panels hold their longest lines: none is cut at the panel's right edge,
 * and the PPU panel shows every line without scrolling. Measured with ImGui's built-in font's
 * advance (DebuggerWindow#CHAR_W) on a machine whose every flag is on (the longest forms).
 */
class DebuggerLayoutTest {
    static MachineView m;

    @BeforeAll
    static void run() {
        m = MachineView.of(KnownMachine.program().console());
    }

    private static int textWidth(List<String> lines) {
        int longest = 0;
        for (String l : lines) {
            longest = Math.max(longest, l.length());
        }
        return longest * DebuggerWindow.CHAR_W;
    }

    @Test
    void thePpuPanelShowsEveryLineWhole() {
        List<String> lines = PpuPanel.lines(m);
        int[] p = DebuggerWindow.PPU_PANEL;
        int width = textWidth(lines) + 2 * DebuggerWindow.PADDING;
        assertTrue(width <= p[2], "PPU lines need " + width + " px, the panel is " + p[2] + ": " + lines);
        int height = DebuggerWindow.TITLE_H + 2 * DebuggerWindow.PADDING + lines.size() * DebuggerWindow.LINE_H;
        assertTrue(height <= p[3], "PPU lines need " + height + " px high, the panel is " + p[3]);
        assertTrue(p[1] + p[3] <= DebuggerWindow.BREAKPOINTS_PANEL[1], "the PPU panel overlaps the breakpoints");
    }

    @Test
    void theSpriteListFitsBesideItsScrollbarWithEveryFlagShown() {
        List<String> lines = new ArrayList<>(Sprites.lines(m));
        lines.add(Sprites.HEADING);
        // The longest a line can be: the highest index with every attribute flag set.
        lines.add(String.format("%02d  %02X  %02X  %02X   %d%s", 63, 0xFF, 0xFF, 0xFF, 7, " behind H V"));
        int[] p = DebuggerWindow.SPRITES_PANEL;
        int width = textWidth(lines) + 2 * DebuggerWindow.PADDING + DebuggerWindow.SCROLLBAR;
        assertTrue(width <= p[2], "sprite lines need " + width + " px, the panel is " + p[2] + ": " + lines.get(0));
        assertTrue(Sprites.WIDTH + 2 * DebuggerWindow.PADDING <= p[2], "the sprite picture fits");
    }

    @Test
    void theNametablePanelSaysWhatEachQuadrantHoldsAndHoldsItAll() throws Exception {
        lockstep.nes.core.Console c = lockstep.nes.core.Console.create(lockstep.nes.core.cart.Cartridge.parse(
                lockstep.nes.core.demo.DemoRom.NAME, lockstep.nes.core.demo.DemoRom.bytes()));
        for (int i = 0; i < 60; i++) {
            c.runFrame();
        }
        // The demo (horizontal mirroring) draws page A only: the bottom half is page B, never drawn.
        List<String> caption = Nametables.caption(MachineView.of(c));
        assertEquals(List.of("$2000   $2400 = $2000", "$2800: all $00 tiles   $2C00 = $2800"), caption);
        int[] p = DebuggerWindow.NAMETABLES_PANEL;
        // The longest caption: four different pages of one tile each.
        int longest = "$2800: all $02 tiles   $2C00: all $03 tiles".length();
        assertTrue(longest * DebuggerWindow.CHAR_W + 2 * DebuggerWindow.PADDING <= p[2], "caption fits");
        assertTrue(Nametables.WIDTH + 2 * DebuggerWindow.PADDING <= p[2], "picture fits across");
        int height = DebuggerWindow.TITLE_H + 2 * DebuggerWindow.PADDING + 2 * DebuggerWindow.LINE_H + Nametables.HEIGHT;
        assertTrue(height <= p[3], "caption and picture need " + height + " px, the panel is " + p[3]);
    }

    @Test
    void theCpuPanelsTextFitsToo() {
        List<String> lines = new ArrayList<>(CpuPanel.registers(m));
        lines.addAll(CpuPanel.disassembly(m, (int) m.value("cpu.pc"), 10));
        int width = textWidth(lines) + 2 * DebuggerWindow.PADDING;
        assertTrue(width <= DebuggerWindow.CPU_PANEL[2], "CPU lines need " + width + " px: " + lines);
    }
}
