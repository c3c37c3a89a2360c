package lockstep.nes.core.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;

/**
 * The program the MMC3-family console tests run: after two vblanks it puts sprites at $1000 (one
 * A12 rise per rendered line, at the first sprite pattern fetch), writes the IRQ latch ($C000),
 * a reload request ($C001) and the board's IRQ enable, turns rendering on and loops with I set,
 * so the test watches the board's /IRQ itself.
 */
public final class ScanlineIrqProgram {
    private ScanlineIrqProgram() {
    }

    /**
     * 32 KiB of PRG with the program at $8000 and every vector there: {@code latch} is written
     * to $C000 as it is, and {@code enable} is the register whose write enables the IRQ.
     */
    public static byte[] prg(int latch, int enable) {
        int[] code = {
            0x78,                   // SEI
            0xA2, 0xFF, 0x9A,       // LDX #$FF; TXS
            0x2C, 0x02, 0x20,       // v1: BIT $2002
            0x10, 0xFB,             // BPL v1
            0x2C, 0x02, 0x20,       // v2: BIT $2002
            0x10, 0xFB,             // BPL v2
            0xA9, 0x08,             // LDA #$08 (sprites at $1000)
            0x8D, 0x00, 0x20,       // STA $2000
            0xA9, latch,            // LDA #latch
            0x8D, 0x00, 0xC0,       // STA $C000 (latch)
            0x8D, 0x01, 0xC0,       // STA $C001 (reload)
            0x8D, enable & 0xFF, enable >> 8, // STA enable
            0xA9, 0x18,             // LDA #$18
            0x8D, 0x01, 0x20,       // STA $2001 (rendering on)
            0x4C, 0x23, 0x80,       // loop ($8023): JMP loop
        };
        byte[] prg = new byte[32768];
        for (int i = 0; i < code.length; i++) {
            prg[i] = (byte) code[i];
        }
        assertEquals(0x26, code.length);
        for (int v = 0x7FFA; v < 0x8000; v += 2) {
            prg[v] = 0x00; // NMI (off), RESET and IRQ (I is set) -> $8000
            prg[v + 1] = (byte) 0x80;
        }
        return prg;
    }

    /** Runs {@code console} until its board pulls /IRQ, failing after 5 frames. */
    public static void runToIrq(Console console) {
        long start = console.frame();
        while (!console.mapper().irq()) {
            console.runCycle();
            assertTrue(console.frame() - start < 5, "no IRQ within 5 frames");
        }
    }
}
