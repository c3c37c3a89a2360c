package lockstep.nes.core.arrowfixture;

import lockstep.nes.core.chain.PairStepper;

/** Breaks the arrows on purpose (the engine using the lockstep chain): ModuleArrowsTest must catch it. */
public final class EngineReachingForTheChain {
    public long step(PairStepper pair) {
        return pair.stepStretch(0);
    }
}
