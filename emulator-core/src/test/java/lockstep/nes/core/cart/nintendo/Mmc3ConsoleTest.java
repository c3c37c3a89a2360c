package lockstep.nes.core.cart.nintendo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cart.ScanlineIrqProgram;
import org.junit.jupiter.api.Test;

/**
 * The MMC3 inside a whole console, clocked by the real PPU's fetches: with sprites at $1000 the
 * counter is clocked once per rendered line at the first sprite pattern fetch (dot ~260), so a
 * latch of N set during vblank raises the IRQ on scanline N-1 (the pre-render line reloads).
 */
class Mmc3ConsoleTest {
    @Test
    void irqOnTheScanlineTheLatchNames() throws RomFormatException {
        Cartridge cart = Cartridge.builder("mmc3-irq.nes", ScanlineIrqProgram.prg(10, 0xE001), new byte[8192], 4).build();
        Console console = Console.create(cart);
        ScanlineIrqProgram.runToIrq(console);
        assertEquals(9, console.ppu().scanline());
        int dot = console.ppu().dot();
        assertTrue(dot >= 258 && dot <= 266, "IRQ at dot " + dot);
        // Acknowledge: the counter (now 0) reloads on the next line and counts down again, so the
        // next IRQ comes 11 lines later in the same frame.
        console.mapper().cpuWrite(0xE000, 0);
        console.mapper().cpuWrite(0xE001, 0);
        long frame = console.frame();
        ScanlineIrqProgram.runToIrq(console);
        assertEquals(frame, console.frame());
        assertEquals(20, console.ppu().scanline());
    }
}
