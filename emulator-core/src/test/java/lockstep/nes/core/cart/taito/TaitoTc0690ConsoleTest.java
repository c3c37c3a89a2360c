package lockstep.nes.core.cart.taito;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

/**
 * The TC0690 inside a whole console, clocked by the real PPU's fetches (sprites at $1000: one A12
 * rise per rendered line, at the first sprite pattern fetch, dot 261). With the latch 10 (written
 * as its complement) and a reload request in vblank, the counter behaves as the MMC3B's and
 * reaches 0 on line 9; /IRQ follows 4 CPU cycles (12 dots) after that rise.
 */
class TaitoTc0690ConsoleTest {
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
            0xA9, 0xF5,             // LDA #$F5 (latch 10, inverted)
            0x8D, 0x00, 0xC0,       // STA $C000 (latch)
            0x8D, 0x01, 0xC0,       // STA $C001 (reload)
            0x8D, 0x02, 0xC0,       // STA $C002 (enable)
            0xA9, 0x18,             // LDA #$18
            0x8D, 0x01, 0x20,       // STA $2001 (rendering on)
            0x4C, 0x23, 0x80,       // loop ($8023): JMP loop
        };
        byte[] prg = new byte[32768];
        for (int i = 0; i < code.length; i++) {
            prg[i] = (byte) code[i];
        }
        assertEquals(0x26, code.length);
        prg[0x7FFC] = 0x00; // RESET -> $8000 (the $8000 bank is bank 0 at power-on)
        prg[0x7FFD] = (byte) 0x80;
        return prg;
    }

    @Test
    void irqOnLine9TwelveDotsAfterTheRise() throws RomFormatException {
        Cartridge cart = Cartridge.builder("tc0690-irq.nes", program(), Roms.chr(8), 48).build();
        Console console = Console.create(cart);
        long start = console.frame();
        while (!console.mapper().irq()) {
            console.runCycle();
            assertTrue(console.frame() - start < 5, "no IRQ within 5 frames");
        }
        assertEquals(9, console.ppu().scanline());
        // The rise at dot 261; /IRQ at the start of the fourth CPU cycle after the rise's, 10-12
        // dots later (272 with this power-on alignment; the MMC3 shows it at the rise's dot).
        assertEquals(272, console.ppu().dot());
        console.mapper().cpuWrite(0xC003, 0); // disable and acknowledge
        long frame = console.frame();
        for (int i = 0; i < 30_000; i++) {
            console.runCycle();
            assertTrue(!console.mapper().irq(), "IRQ while disabled");
        }
        assertTrue(console.frame() > frame);
    }
}
