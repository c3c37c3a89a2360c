package lockstep.nes.core.cart.taito;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cart.Roms;
import lockstep.nes.core.cart.ScanlineIrqProgram;
import org.junit.jupiter.api.Test;

/**
 * The TC0690 inside a whole console, clocked by the real PPU's fetches (sprites at $1000: one A12
 * rise per rendered line, at the first sprite pattern fetch, dot 261). With the latch 10 (written
 * as its complement) and a reload request in vblank, the counter behaves as the MMC3B's and
 * reaches 0 on line 9; /IRQ follows 4 CPU cycles (12 dots) after that rise.
 */
class TaitoTc0690ConsoleTest {
    @Test
    void irqOnLine9TwelveDotsAfterTheRise() throws RomFormatException {
        Cartridge cart = Cartridge.builder("tc0690-irq.nes", ScanlineIrqProgram.prg(0xF5, 0xC002), Roms.chr(8), 48).build();
        Console console = Console.create(cart);
        ScanlineIrqProgram.runToIrq(console);
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
