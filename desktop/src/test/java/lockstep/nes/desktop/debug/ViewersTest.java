package lockstep.nes.desktop.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import lockstep.nes.core.hw.HardwareProgram;
import lockstep.nes.ppu.Palette;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ViewersTest {
    static final Palette COLORS = Palette.ntsc();
    static HardwareProgram program;
    static MachineView m;

    @BeforeAll
    static void run() {
        program = KnownMachine.program();
        assertEquals(HardwareProgram.PASS, program.run(10));
        m = MachineView.of(program.console());
    }

    static int rgb(int color) {
        return 0xFF000000 | COLORS.rgb(color);
    }

    @Test
    void patternTablesShowEachTileInTheChosenPalette() {
        int[] px = new int[PatternTables.WIDTH * PatternTables.HEIGHT];
        PatternTables.render(m, 0, COLORS, px);
        assertEquals(rgb(0x0F), px[0]);                              // tile 0: colour 0, the backdrop
        assertEquals(rgb(0x01), px[3 * 256 + 8 + 5]);                // tile 1: colour 1
        assertEquals(rgb(0x02), px[2 * 256 + 16 + 1]);               // tile 2: left half colour 2
        assertEquals(rgb(0x03), px[2 * 256 + 16 + 6]);               //         right half colour 3
        assertEquals(rgb(0x01), px[4 * 256 + 24 + 4]);               // tile 3: the diagonal
        assertEquals(rgb(0x0F), px[4 * 256 + 24 + 5]);
        PatternTables.render(m, 5, COLORS, px);
        assertEquals(rgb(0x15), px[3 * 256 + 8 + 5]);                // the same tile in palette 5
        assertEquals(rgb(0x0F), px[128 + 8]);                        // table $1000 is blank CHR
    }

    @Test
    void nametablesUseTheAttributesAndOutlineTheScrollWindow() {
        int[] px = new int[Nametables.WIDTH * Nametables.HEIGHT];
        Nametables.render(m, COLORS, px);
        assertEquals(rgb(0x01), px[1 * 512 + 1]);                    // (0,0) tile 1, palette 0
        assertEquals(rgb(0x02), px[1 * 512 + 9]);                    // (1,0) tile 2, left half
        assertEquals(rgb(0x11), px[1 * 512 + 17]);                   // (2,0) tile 1, palette 1 (top-right quadrant)
        assertEquals(12, Nametables.scrollX(m));
        assertEquals(20, Nametables.scrollY(m));
        assertEquals(Nametables.WINDOW_COLOR, px[20 * 512 + 12]);
        assertEquals(Nametables.WINDOW_COLOR, px[(20 + 239) * 512 + 12 + 255]);
        assertEquals(Nametables.WINDOW_COLOR, px[(20 + 100) * 512 + 12]);
        // Vertical mirroring: $2800 shows $2000's tiles.
        assertEquals(rgb(0x01), px[(240 + 1) * 512 + 1]);
    }

    @Test
    void spritesAreDrawnFlippedInTheirPalette() {
        int[] px = new int[Sprites.WIDTH * Sprites.HEIGHT];
        Sprites.render(m, COLORS, px);
        // Sprite 0: tile 3 (a diagonal from the top left), flipped: from the top right.
        assertEquals(rgb(0x15), px[4 * Sprites.WIDTH + 4 + 7]);
        assertEquals(rgb(0x0F), px[4 * Sprites.WIDTH + 4]);
        assertEquals(rgb(0x15), px[(4 + 7) * Sprites.WIDTH + 4]);
        List<String> lines = Sprites.lines(m);
        assertEquals(64, lines.size());
        assertEquals("00  20  30  03   5 H", lines.get(0));
    }

    @Test
    void paletteRamShowsEverySwatch() {
        int[] px = new int[PaletteRam.WIDTH * PaletteRam.HEIGHT];
        PaletteRam.render(m, COLORS, px);
        assertEquals(rgb(0x11), px[5 * 16 + 8]);                     // $3F05
        assertEquals(rgb(0x27), px[16 * PaletteRam.WIDTH + 11 * 16]); // $3F1B
        assertEquals(rgb(0x0F), px[16 * PaletteRam.WIDTH]);           // $3F10 mirrors $3F00
    }

    @Test
    void panelsShowRegistersAndDisassembly() {
        List<String> cpu = CpuPanel.registers(m);
        assertTrue(cpu.get(0).startsWith(String.format("PC:%04X", m.value("cpu.pc"))), cpu.get(0));
        List<String> dis = CpuPanel.disassembly(m, program.symbol("marker"), 2);
        assertEquals(String.format(">%04X  A9 5A     LDA #$5A", program.symbol("marker")), dis.get(0));
        assertEquals(String.format(" %04X  8D 45 03  STA $0345", program.symbol("marker") + 2), dis.get(1));
        List<String> ppu = PpuPanel.lines(m);
        assertTrue(ppu.get(1).startsWith("v:"), ppu.get(1));
        assertTrue(ppu.get(1).contains("x:4"), ppu.get(1));
        assertTrue(ppu.get(2).startsWith("CTRL:00"), ppu.get(2));
    }
}
