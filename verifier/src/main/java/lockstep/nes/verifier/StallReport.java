package lockstep.nes.verifier;

/**
 * An engine (threads mode) or engine host (processes mode) that made no handoff for longer than
 * the stall threshold while its partner had run ahead: a fact about time, not about state. A
 * stall is never a divergence: it shows no state difference, so nothing is rolled back for it
 * and the run waits for the silent engine (a busy machine, a long compile, a stall fault); the
 * records it hands over once it resumes are compared as usual.
 *
 * @param who         "engine B", "host A"
 * @param afterCycle  the cycle count of its last handoff
 * @param frame       the frames it had run
 * @param silentMillis how long it had been silent when the stall was reported
 * @param thresholdMillis the threshold it was held to: the configured stall time, or more where
 *                    the handoffs' pace measured so far was slower ({@link StallWatch})
 * @param partnerCycle where its partner stood
 * @param resumed     true once it handed over again (a late report, as the run ends, may say
 *                    false: it never came back)
 */
public record StallReport(String session, String rom, String mode, String who, long afterCycle, long frame,
                          long silentMillis, long thresholdMillis, long partnerCycle, boolean resumed) {

    /** The cycle distance to the partner. */
    public long drift() {
        return Math.abs(partnerCycle - afterCycle);
    }

    /** The report as text for the terminal. */
    public String toText() {
        return "STALL: " + who + " silent for " + silentMillis + " ms after cycle " + afterCycle + " (frame " + frame
                + "; threshold " + thresholdMillis + " ms), its partner at cycle " + partnerCycle + ", drift " + drift()
                + " cycles\n  not a divergence: no state difference shown, nothing rolled back"
                + (resumed ? "; it resumed and its records were compared" : "") + "\n";
    }

    StallReport asResumed() {
        return new StallReport(session, rom, mode, who, afterCycle, frame, silentMillis, thresholdMillis, partnerCycle,
                true);
    }
}
