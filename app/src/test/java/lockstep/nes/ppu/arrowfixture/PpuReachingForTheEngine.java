package lockstep.nes.ppu.arrowfixture;

import lockstep.nes.core.Console;

/** Breaks the arrows on purpose (the PPU using the engine): ModuleArrowsTest must catch it. */
public final class PpuReachingForTheEngine {
    public long cycles(Console console) {
        return console.cycles();
    }
}
