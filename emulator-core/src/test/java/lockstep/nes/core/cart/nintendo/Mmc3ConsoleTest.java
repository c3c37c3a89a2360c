package lockstep.nes.core.cart.nintendo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import org.junit.jupiter.api.Test;

/**
 * The MMC3 inside a whole console, clocked by the real PPU's fetches: with sprites at $1000 the
 * counter is clocked once per rendered line at the first sprite pattern fetch (dot ~260), so a
 * latch of N set during vblank raises the IRQ on scanline N-1 (the pre-render line reloads).
 */
class Mmc3ConsoleTest {
    private static byte[] program() {
        int[] code = {
            0x78,                   // SEI
            0xA2, 0xFF, 0x9A,       // LDX #$FF; TXS
            0x2C, 0x02, 0x20,       // v1: BIT $2002
            0x10, 0xFB,             // BPL v1
            0x2C, 0x02, 0x20,       // v2: BIT $2002
            0x10, 0xFB,             // BPL v2
            0xA9, 0x08,             // LDA #$08 (sprites at $1000)
            0x8D, 0x00, 0x20,       // STA $2000
            0xA9, 0x0A,             // LDA #10
            0x8D, 0x00, 0xC0,       // STA $C000 (latch)
            0x8D, 0x01, 0xC0,       // STA $C001 (reload)
            0x8D, 0x01, 0xE0,       // STA $E001 (enable)
            0xA9, 0x18,             // LDA #$18
            0x8D, 0x01, 0x20,       // STA $2001 (rendering on)
            0x4C, 0x23, 0x80,       // loop ($8023): JMP loop
        };
        byte[] prg = new byte[32768];
        for (int i = 0; i < code.length; i++) {
            prg[i] = (byte) code[i];
        }
        assertEquals(0x26, code.length);
        prg[0x7FFA] = 0x00; // NMI -> $8000 (unused: NMI is off)
        prg[0x7FFB] = (byte) 0x80;
        prg[0x7FFC] = 0x00; // RESET -> $8000
        prg[0x7FFD] = (byte) 0x80;
        prg[0x7FFE] = 0x00; // IRQ -> $8000 (never taken: I is set)
        prg[0x7FFF] = (byte) 0x80;
        return prg;
    }

    @Test
    void irqOnTheScanlineTheLatchNames() throws RomFormatException {
        Cartridge cart = Cartridge.builder("mmc3-irq.nes", program(), new byte[8192], 4).build();
        Console console = Console.create(cart);
        long start = console.frame();
        while (!console.mapper().irq()) {
            console.runCycle();
            assertTrue(console.frame() - start < 5, "no IRQ within 5 frames");
        }
        assertEquals(9, console.ppu().scanline());
        int dot = console.ppu().dot();
        assertTrue(dot >= 258 && dot <= 266, "IRQ at dot " + dot);
        // Acknowledge: the counter (now 0) reloads on the next line and counts down again, so the
        // next IRQ comes 11 lines later in the same frame.
        console.mapper().cpuWrite(0xE000, 0);
        console.mapper().cpuWrite(0xE001, 0);
        long frame = console.frame();
        while (!console.mapper().irq()) {
            console.runCycle();
        }
        assertEquals(frame, console.frame());
        assertEquals(20, console.ppu().scanline());
    }
}
