package lockstep.nes.state.arrowfixture;

import lockstep.nes.ppu.Ppu;

/** Breaks the arrows on purpose (the state module using the PPU): ModuleArrowsTest must catch it. */
public final class StateReachingForThePpu {
    public int frame(Ppu ppu) {
        return (int) ppu.frameCount();
    }
}
