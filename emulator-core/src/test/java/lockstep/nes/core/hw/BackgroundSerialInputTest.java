package lockstep.nes.core.hw;

import static lockstep.nes.core.hw.PpuProgramKit.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The background pattern shifters' serial inputs: each shift brings a 0 into the low plane and
 * a 1 into the high plane, so reloads skipped while the shifts go on leave pixels of colour 2
 * of the attribute latch's palette (opaque: they can make a sprite 0 hit). Over a blank
 * nametable, rendering is switched off and on again across the reloads of dots 329 and 337 of
 * line 20, {@code n} cycles later per run over the sync phases (every dot of a stretch); the
 * fill shows at the start of line 21, where sprite 0 sits behind the background. Background
 * colour 2 is $2A, colour 3 $30, the backdrop $0F and the sprite's colour $16: line 21 of the
 * picture shows which colour the fill has, and the hit flag at the next vblank that it is opaque.
 */
class BackgroundSerialInputTest {
    static String program(int phase, int n) {
        return String.join("\n",
                setUp(0),
                poke(0x3F00, 0x0F),
                poke(0x3F02, 0x2A),
                poke(0x3F03, 0x30),
                poke(0x3F13, 0x16),
                "  lda #0",
                "  sta $2003",
                "  lda #20", // line 21, x 2-9, behind the background
                "  sta $2004",
                "  lda #1",
                "  sta $2004",
                "  lda #$20",
                "  sta $2004",
                "  lda #2",
                "  sta $2004",
                syncPhase(phase),
                "  lda #7",
                "  sta $2005", // fine X 7: pixels read bit 8 of the shifters
                "  lda #0",
                "  sta $2005",
                "  sta $2006",
                "  sta $2006",
                "  lda #$1E",
                "  sta $2001",
                "  jsr wait_vblank",
                "  lda #0",
                "  ldx #$1E",
                longDelay("late", 4730),
                delay(2 + n),
                "  sta $2001",
                "  stx $2001",
                "  jsr wait_vblank",
                "  lda $2002",
                "  and #$40",
                "  sta $10",
                "  jmp pass");
    }

    @Test
    void skippedReloadsShowOpaqueColourTwo() {
        for (int phase = 0; phase < PHASES; phase++) {
            int stripes = 0;
            for (int n = 0; n <= 30; n++) {
                final HardwareProgram p = HardwareProgram.of(program(phase, n), solidTile1());
                assertEquals(HardwareProgram.PASS, p.run(16), "phase " + phase + " n " + n + " records");
                final short[] frame = p.console().ppu().frame();
                int fill = 0;
                boolean overSprite = false;
                for (int x = 0; x < 256; x++) {
                    final int colour = frame[21 * 256 + x] & 0x3F;
                    assertTrue(colour == 0x0F || colour == 0x2A || colour == 0x16,
                            "phase " + phase + " n " + n + " x " + x + ": colour " + Integer.toHexString(colour));
                    if (colour == 0x2A) {
                        fill++;
                        overSprite |= x >= 2 && x <= 9;
                    }
                }
                if (fill > 0) {
                    stripes++;
                    if (overSprite) {
                        // The fill over sprite 0's pixels: a hit.
                        assertEquals(0x40, p.ram(0x10), "phase " + phase + " n " + n + ": the fill is opaque");
                    }
                }
            }
            assertTrue(stripes > 0, "phase " + phase + ": some run skips the reloads");
        }
    }
}
