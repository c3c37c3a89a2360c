package lockstep.nes.core.cart.tengen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cart.Roms;
import lockstep.nes.core.cart.ScanlineIrqProgram;
import org.junit.jupiter.api.Test;

/**
 * The RAMBO-1 inside a whole console, clocked by the real PPU's fetches (sprites at $1000: one
 * A12 rise per rendered line, at the first sprite pattern fetch). The program is
 * {@link Mmc3ConsoleTest}'s ({@link ScanlineIrqProgram}: latch 10 and a reload request written in
 * vblank): the reload loads
 * latch + 1 on the pre-render line, so the counter reaches 0 on line 10, one line later than the
 * MMC3's, and /IRQ follows two CPU cycles (6 dots) after the rise.
 */
class Rambo1ConsoleTest {
    @Test
    void irqOneLineLaterThanTheMmc3sAndTwoCyclesAfterTheRise() throws RomFormatException {
        Cartridge cart = Cartridge.builder("rambo1-irq.nes", ScanlineIrqProgram.prg(10, 0xE001), Roms.chr(8), 64).build();
        Console console = Console.create(cart);
        ScanlineIrqProgram.runToIrq(console);
        assertEquals(10, console.ppu().scanline());
        // The rise comes at the first sprite pattern fetch (dot 261); /IRQ at the start of the
        // second CPU cycle after the rise's, 6-8 dots later (267 with this power-on alignment;
        // the MMC3 with no delay shows it at the rise's dot).
        assertEquals(267, console.ppu().dot());
        // Acknowledge: the counter (0) reloads the latch on the next line, so the next IRQ comes
        // 11 lines later in the same frame.
        console.mapper().cpuWrite(0xE000, 0);
        console.mapper().cpuWrite(0xE001, 0);
        long frame = console.frame();
        ScanlineIrqProgram.runToIrq(console);
        assertEquals(frame, console.frame());
        assertEquals(21, console.ppu().scanline());
    }
}
