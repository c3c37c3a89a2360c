package lockstep.nes.core.hw;

import static lockstep.nes.core.hw.PpuProgramKit.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A $2007 read during rendering fills the read buffer from the PPU's data bus a dot after the
 * read: whatever the rendering fetch reading then brings, not the byte at v. Every fetch here
 * reads $41 (nametables and attributes all $41, tile $41's planes $41, and tile $FF's, which
 * the empty sprite slots fetch, $41), while v on line 8 points into pattern memory that reads 0.
 * The program reads $2007 once on line 8, {@code n} cycles into the line per run (across the
 * background fetches, the sprite fetches and the unused nametable fetches), then in vblank
 * reads the buffer back through $2007.
 */
class DataReadDuringRenderingTest {
    static byte[] chr() {
        final byte[] chr = new byte[0x2000];
        Arrays.fill(chr, 0x410, 0x420, (byte) 0x41);
        Arrays.fill(chr, 0xFF0, 0x1000, (byte) 0x41);
        return chr;
    }

    static String program(int n) {
        return String.join("\n",
                setUp(0x41),
                "  jsr wait_vblank",
                startRendering(0x0A),
                "  jsr wait_vblank",
                longDelay("late", 3279),
                delay(2 + n),
                "  lda $2007",
                "  jsr wait_vblank",
                "  lda #0",
                "  sta $2001",
                "  lda #$20",
                "  sta $2006",
                "  lda #0",
                "  sta $2006", // v moved away: the buffer is untouched by $2006
                "  lda $2007",
                "  sta $10",
                "  cmp #$41",
                passUnless("bne"));
    }

    @Test
    void theBufferTakesTheRenderingFetchesByte() {
        final int[] buffers = sweep(0, 115, 6, 0x10, n -> HardwareProgram.of(program(n), chr()));
        for (int n = 0; n < buffers.length; n++) {
            assertEquals(0x41, buffers[n], "run " + n);
        }
    }
}
